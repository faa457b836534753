"""API substitutions as rewrite templates, each with the sample forms its micro-tests run.

Every :class:`Recipe` is one PyTorch API (one call form of it) rewritten to MindSpore by a
:class:`~apiscan.rewrite.template.Template`, plus the :class:`Sample` calls the verify
catalogue renders into micro-tests (:mod:`apiscan.verify.catalogue.templated`): the MindSpore
side of each test is ``render(template, sample)``, the very function that renders a finding's
rewrite in the reports. Samples cover the parameter space a row claims: the no-argument form,
non-default values, sizes as separate arguments and as a tuple, keyword and positional forms.

Argument texts in samples are evaluated in the harness namespace (inputs by name, ``torch``,
``np``); a sample's ``probe`` wraps both sides when the call's value cannot be compared
directly (``{}.shape`` for uninitialised memory), and is never part of a shown rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass

from apiscan.model import CallArgs
from apiscan.rewrite.template import DROP, Arg, Template
from apiscan.verify.cases import InputSpec


def floats(name: str, *shape: int) -> InputSpec:
    return InputSpec(name, tuple(shape))


_X = floats("x", 3, 4)
_X3 = floats("x", 2, 3, 4)
_IMG = floats("x", 2, 3, 8, 8)
_PLACEMENT = "placement is global in MindSpore (mindspore.set_device once at start-up)"
_NO_REQUIRES_GRAD = (
    "a MindSpore tensor carries no requires_grad: wrap it in mindspore.Parameter to train it"
)
_NO_INPLACE = "MindSpore layers do not work in place; the values are the same"


def _device() -> Arg:
    return Arg("device", "None", DROP, drop_exact=("*",), drop_why=_PLACEMENT, keyword_only=True)


def _requires_grad() -> Arg:
    return Arg(
        "requires_grad",
        "False",
        DROP,
        drop_exact=("False",),
        drop_why=_NO_REQUIRES_GRAD,
        keyword_only=True,
    )


def _dtype(name: str = "dtype") -> Arg:
    return Arg(name, "None", keyword_only=True, convert="@dtype")


@dataclass(frozen=True)
class Sample:
    """One call form a micro-test runs: ``call`` holds argument texts (evaluated in the
    harness), ``inputs`` the random tensors they may name."""

    label: str
    call: CallArgs
    inputs: tuple[InputSpec, ...] = (_X,)
    probe: str = "{}"


def s(
    label: str,
    *positional: str,
    receiver: str = "",
    inputs: tuple[InputSpec, ...] = (_X,),
    probe: str = "{}",
    **keywords: str,
) -> Sample:
    """A sample form: ``s("varargs", "2", "3")`` is ``f(2, 3)``."""
    return Sample(label, CallArgs(receiver, positional, tuple(keywords.items())), inputs, probe)


@dataclass(frozen=True)
class Recipe:
    """A substitution: a template, how its tests run and the forms they cover."""

    template: Template
    samples: tuple[Sample, ...]
    strategy: str = "mapped"  # as apiscan.verify.cases.Strategy
    kind: str = "function"  # "function" or "layer" (constructed, then called on the inputs)
    param_map: tuple[tuple[str, str], ...] = ()
    grad: bool = False
    threshold: float | None = None


def _creation(api: str, target: str, probe: str = "{}") -> Recipe:
    """``torch.zeros(*size, dtype=..., device=..., requires_grad=...)`` and its kin: sizes are
    packed into one tuple, which every MindSpore creation function takes."""
    return Recipe(
        Template(
            api,
            target,
            (Arg("size", varargs=True, pack=True), _dtype(), _device(), _requires_grad()),
        ),
        (
            s("varargs", "2", "3", probe=probe),
            s("tuple", "(2, 3)", probe=probe),
            s("one size", "4", probe=probe),
            s("dtype", "2", "3", probe=probe, dtype="torch.float16"),
        ),
    )


_SQ = floats("x", 3, 1, 4, 1)

RECIPES: tuple[Recipe, ...] = (
    Recipe(
        Template(
            "torch.nn.LeakyReLU",
            "mindspore.nn.LeakyReLU",
            (
                Arg("negative_slope", "0.01", to="alpha", ms_default="0.2"),
                Arg("inplace", "False", DROP, drop_exact=("*",), drop_why=_NO_INPLACE),
            ),
        ),
        (s("default"), s("positional", "0.1"), s("keyword", negative_slope="0.1")),
        kind="layer",
        grad=True,
    ),
    Recipe(
        Template(
            "torch.nn.BatchNorm2d",
            "mindspore.nn.BatchNorm2d",
            (
                Arg("num_features", positional=True),
                Arg("eps", "1e-05"),
                Arg("momentum", "0.1", convert="1 - {}", ms_default="0.9"),
                Arg("affine", "True"),
                Arg(
                    "track_running_stats",
                    "True",
                    DROP,
                    drop_exact=("True",),
                    drop_why="MindSpore always tracks running statistics (use_batch_statistics "
                    "decides which are used)",
                ),
                _device(),
                _dtype(),
            ),
            note="MindSpore's momentum weighs the running statistic (1 - PyTorch's momentum)",
        ),
        (
            s("default", "3", inputs=(floats("x", 2, 3, 4, 4),)),
            s("eps momentum", "3", inputs=(floats("x", 2, 3, 4, 4),), eps="0.001", momentum="0.03"),
        ),
        kind="layer",
        param_map=(
            ("weight", "gamma"),
            ("bias", "beta"),
            ("running_mean", "moving_mean"),
            ("running_var", "moving_variance"),
        ),
        grad=True,
    ),
    Recipe(
        Template(
            "torch.nn.MaxPool2d",
            "mindspore.mint.nn.MaxPool2d",
            (
                Arg("kernel_size", positional=True),
                Arg("stride", "None"),
                Arg("padding", "0"),
                Arg("dilation", "1"),
                Arg("return_indices", "False"),
                Arg("ceil_mode", "False"),
            ),
        ),
        (
            s("kernel", "2", inputs=(_IMG,)),
            s("stride padding", "3", inputs=(_IMG,), stride="1", padding="1"),
            s("positional", "3", "2", "1", inputs=(_IMG,)),
        ),
        kind="layer",
        grad=True,
    ),
    Recipe(
        Template(
            "torch.nn.Linear",
            "mindspore.mint.nn.Linear",
            (
                Arg("in_features", positional=True),
                Arg("out_features", positional=True),
                Arg("bias", "True"),
                _device(),
                _dtype(),
            ),
        ),
        (s("default", "4", "3", inputs=(floats("x", 2, 4),)),),
        kind="layer",
        param_map=(("weight", "weight"), ("bias", "bias")),
        grad=True,
    ),
    _creation("torch.zeros", "mindspore.mint.zeros"),
    _creation("torch.ones", "mindspore.mint.ones"),
    _creation("torch.empty", "mindspore.mint.empty", probe="{}.shape"),
    _creation("torch.rand", "mindspore.mint.rand", probe="{}.shape"),
    _creation("torch.randn", "mindspore.mint.randn", probe="{}.shape"),
    Recipe(
        Template(
            "torch.full",
            "mindspore.mint.full",
            (
                Arg("size", positional=True),
                Arg("fill_value", positional=True),
                _dtype(),
                _device(),
                _requires_grad(),
            ),
        ),
        (s("tuple", "(2, 3)", "1.5"),),
    ),
    Recipe(
        Template(
            "torch.arange",
            "mindspore.mint.arange",
            (
                Arg("start", positional=True),
                Arg("end", "None", positional=True),
                Arg("step", "1", positional=True),
                _dtype(),
                _device(),
                _requires_grad(),
            ),
        ),
        (
            s("end", "5"),
            s("start end", "1", "5"),
            s("step", "0", "6", "2"),
            s("float", "0.5", "3.0", "0.5"),
            s("dtype", "4", dtype="torch.float32"),
        ),
    ),
    Recipe(
        Template(
            "torch.tensor",
            "mindspore.tensor",
            (Arg("data", positional=True), _dtype(), _device(), _requires_grad()),
        ),
        (s("list", "[[0.5, -1.25], [2.0, 3.0]]"), s("dtype", "[1, 2, 3]", dtype="torch.float32")),
    ),
    Recipe(
        Template(
            "torch.as_tensor",
            "mindspore.tensor",
            (Arg("data", positional=True), _dtype(), _device()),
        ),
        (s("list", "[0.5, -1.5, 2.0]"), s("dtype", "[1, 2]", dtype="torch.float32")),
    ),
    Recipe(
        Template(
            "torch.from_numpy", "mindspore.Tensor.from_numpy", (Arg("ndarray", positional=True),)
        ),
        (s("array", "np.arange(6, dtype=np.float32).reshape(2, 3)"),),
    ),
    Recipe(
        Template(
            "torch.topk",
            "mindspore.mint.topk",
            (
                Arg("input", positional=True),
                Arg("k", positional=True),
                Arg("dim", "-1", ms_default="None"),
                Arg("largest", "True"),
                Arg("sorted", "True"),
            ),
            note="MindSpore's dim default differs from PyTorch's in the table: written out",
        ),
        (s("k", "x", "2"), s("dim", "x", "2", dim="0"), s("smallest", "x", "2", largest="False")),
    ),
    Recipe(
        Template(
            "torch.Tensor.size",
            "",
            format="{recv}.shape",
            method=True,
        ),
        (s("no dim", receiver="x", inputs=(_X3,)),),
    ),
    Recipe(
        Template(
            "torch.Tensor.size",
            "",
            (Arg("dim"),),
            format="{recv}.shape[{dim}]",
            method=True,
        ),
        (s("dim", "1", receiver="x", inputs=(_X3,)), s("last", "-1", receiver="x", inputs=(_X3,))),
    ),
    Recipe(
        Template(
            "torch.Tensor.repeat",
            "tile",
            (Arg("sizes", varargs=True, pack=True),),
            method=True,
        ),
        (s("varargs", "2", "1", receiver="x"), s("tuple", "(1, 3)", receiver="x")),
        grad=True,
    ),
    Recipe(
        Template(
            "torch.Tensor.expand",
            "broadcast_to",
            (Arg("size", varargs=True, pack=True),),
            method=True,
        ),
        (
            s("varargs", "2", "3", "4", receiver="x", inputs=(floats("x", 3, 1),)),
            s("keep dim", "-1", "4", receiver="x", inputs=(floats("x", 3, 1),)),
        ),
        grad=True,
    ),
    Recipe(
        Template(
            "torch.Tensor.type",
            "astype",
            (
                Arg("dtype", positional=True, convert="@dtype"),
                Arg("non_blocking", "False", DROP, drop_exact=("*",)),
            ),
            method=True,
            note="x.type() without a dtype returns a type name: use x.dtype",
        ),
        (
            s("dtype", "torch.float16", receiver="x"),
            s("legacy type", "torch.FloatTensor", receiver="x"),
        ),
    ),
    Recipe(
        Template(
            "torch.Tensor.to",
            "astype",
            (
                Arg("dtype", positional=True, convert="@dtype"),
                Arg("non_blocking", "False", DROP, drop_exact=("*",)),
                Arg("copy", "False", DROP, drop_exact=("False",)),
                _device(),
            ),
            method=True,
        ),
        (
            s("dtype", "torch.float16", receiver="x"),
            s("int", "torch.int64", receiver="x"),
            s("device and dtype keywords", receiver="x", device="'cpu'", dtype="torch.float16"),
        ),
    ),
    Recipe(
        Template("torch.Tensor.numpy", "asnumpy", method=True),
        (s("plain", receiver="x"),),
    ),
    Recipe(
        Template(
            "torch.Tensor.detach",
            "mindspore.ops.stop_gradient",
            format="mindspore.ops.stop_gradient({recv})",
            method=True,
            note="the value is unchanged; gradients stop here",
        ),
        (s("value", receiver="x"),),
        strategy="equivalent",
    ),
    Recipe(
        Template(
            "torch.nn.Sequential",
            "mindspore.nn.SequentialCell",
            (Arg("modules", varargs=True),),
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.nn.ModuleList",
            "mindspore.nn.CellList",
            (Arg("modules", "None", positional=True),),
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.nn.ModuleDict",
            "mindspore.nn.CellDict",
            (Arg("modules", "None", positional=True),),
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.nn.Parameter",
            "mindspore.Parameter",
            (Arg("data", "None", positional=True), Arg("requires_grad", "True")),
            note="MindSpore names parameters after the attribute they are assigned to",
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.Tensor.sigmoid_",
            "sigmoid_",
            method=True,
        ),
        (s("in place", receiver="x"),),
        strategy="same-name",
    ),
    Recipe(
        Template(
            "torch.nn.init.zeros_",
            "",
            (Arg("tensor"),),
            format="{tensor}.set_data(mindspore.common.initializer.initializer("
            "'zeros', {tensor}.shape, {tensor}.dtype))",
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.nn.init.ones_",
            "",
            (Arg("tensor"),),
            format="{tensor}.set_data(mindspore.common.initializer.initializer("
            "'ones', {tensor}.shape, {tensor}.dtype))",
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.nn.init.constant_",
            "",
            (Arg("tensor"), Arg("val")),
            format="{tensor}.set_data(mindspore.common.initializer.initializer("
            "mindspore.common.initializer.Constant({val}), {tensor}.shape, {tensor}.dtype))",
        ),
        (),
    ),
    Recipe(
        Template(
            "torch.nn.init.normal_",
            "",
            (Arg("tensor"), Arg("mean", "0.0"), Arg("std", "1.0")),
            format="{tensor}.set_data(mindspore.common.initializer.initializer("
            "mindspore.common.initializer.Normal(sigma={std}, mean={mean}), {tensor}.shape, "
            "{tensor}.dtype))",
            note="random: the same distribution, not the same draws",
        ),
        (),
    ),
)


def _same_method(api: str, method: str, *args: Arg) -> Recipe:
    """A container or generator method MindSpore has under the same name (no samples: the
    values are the containers' own)."""
    return Recipe(Template(api, method, args, method=True), (), strategy="same-name")


RECIPES += (
    Recipe(
        Template(
            "torch.meshgrid",
            "mindspore.mint.meshgrid",
            (Arg("tensors", varargs=True), Arg("indexing", "'ij'", ms_default="'ij'")),
            note="the table says the default indexing differs: written out",
        ),
        (
            s("pair", "a", "b", inputs=(floats("a", 3), floats("b", 4))),
            s("xy", "a", "b", inputs=(floats("a", 3), floats("b", 4)), indexing="'xy'"),
        ),
    ),
    Recipe(
        Template("torch.Tensor.fill_", "fill_", (Arg("value", positional=True),), method=True),
        (s("scalar", "0.5", receiver="x"),),
        strategy="same-name",
    ),
    _same_method("torch.nn.ModuleList.append", "append", Arg("module", positional=True)),
    _same_method("torch.nn.ModuleList.extend", "extend", Arg("modules", positional=True)),
    _same_method(
        "torch.nn.ModuleList.insert",
        "insert",
        Arg("index", positional=True),
        Arg("module", positional=True),
    ),
    _same_method("torch.nn.Sequential.append", "append", Arg("module", positional=True)),
    _same_method("torch.nn.ModuleDict.items", "items"),
    _same_method("torch.nn.ModuleDict.values", "values"),
    _same_method("torch.nn.ModuleDict.keys", "keys"),
    _same_method("torch.nn.ModuleDict.update", "update", Arg("modules", positional=True)),
    _same_method("torch.Generator.manual_seed", "manual_seed", Arg("seed", positional=True)),
)


_F = "torch.nn.functional"
_MF = "mindspore.mint.nn.functional"
_LEGACY_REDUCTION = "size_average/reduce are deprecated in PyTorch: write reduction= instead"


def _reduce(api: str, target: str) -> Recipe:
    """``x.amax(dim, keepdim)`` → ``mindspore.mint.amax(x, dim, keepdim)``: the same
    parameters as the function form, which MindSpore has under the same name."""
    return Recipe(
        Template(
            api,
            target,
            (Arg("dim", "()", positional=True), Arg("keepdim", "False")),
            method=True,
            receiver_first=True,
        ),
        (
            s("all", receiver="x", inputs=(_X3,)),
            s("dim", "1", receiver="x", inputs=(_X3,)),
            s("tuple keepdim", "(1, 2)", receiver="x", inputs=(_X3,), keepdim="True"),
            s("keyword", receiver="x", inputs=(_X3,), dim="-1"),
        ),
        grad=True,
    )


# Templates for the "different" rows real networks call most (interpolate, amax, var,
# layer_norm, ...): each renders only the forms it is exact for and says why otherwise.
RECIPES += (
    Recipe(
        Template(
            f"{_F}.interpolate",
            f"{_MF}.interpolate",
            (
                Arg("input", positional=True),
                Arg("size", "None"),
                Arg("scale_factor", "None"),
                Arg("mode", "'nearest'"),
                Arg("align_corners", "None"),
                Arg("recompute_scale_factor", "None"),
                Arg(
                    "antialias",
                    "False",
                    DROP,
                    drop_exact=("False",),
                    drop_why="MindSpore has no antialias (the table's one difference)",
                ),
            ),
        ),
        (
            s("scale", "x", inputs=(_IMG,), scale_factor="2.0"),
            s("positional", "x", "None", "2.0", "'nearest'", inputs=(_IMG,)),
            s(
                "bilinear size",
                "x",
                inputs=(_IMG,),
                size="(12, 12)",
                mode="'bilinear'",
                align_corners="False",
            ),
            s("nearest size", "x", inputs=(_IMG,), size="(4, 4)"),
        ),
        grad=True,
    ),
    _reduce("torch.Tensor.amax", "mindspore.mint.amax"),
    _reduce("torch.Tensor.amin", "mindspore.mint.amin"),
    Recipe(
        Template(
            "torch.Tensor.var",
            "var",
            (
                Arg("dim", "None", to="axis"),
                Arg("unbiased", "True", to="ddof", convert="@ddof", ms_default="0"),
                Arg("keepdim", "False", to="keepdims"),
            ),
            method=True,
            note="MindSpore's ddof is PyTorch's unbiased as 1/0 (its default 0 is biased)",
        ),
        (
            s("all", receiver="x"),
            s("dim", "1", receiver="x"),
            s("keyword keepdim", receiver="x", dim="-1", keepdim="True"),
            s("biased", "0", "False", receiver="x"),
        ),
        grad=True,
    ),
    Recipe(
        Template(
            f"{_F}.layer_norm",
            f"{_MF}.layer_norm",
            (
                Arg("input", positional=True),
                Arg("normalized_shape", positional=True),
                Arg("weight", "None"),
                Arg("bias", "None"),
                Arg("eps", "1e-05"),
            ),
        ),
        (
            s("shape", "x", "(4,)", inputs=(_X3,)),
            s(
                "affine eps",
                "x",
                "(4,)",
                "w",
                "b",
                inputs=(_X3, floats("w", 4), floats("b", 4)),
                eps="1e-6",
            ),
        ),
        grad=True,
    ),
    Recipe(
        Template(
            f"{_F}.grid_sample",
            f"{_MF}.grid_sample",
            (
                Arg("input", positional=True),
                Arg("grid", positional=True),
                Arg("mode", "'bilinear'"),
                Arg("padding_mode", "'zeros'"),
                # PyTorch's None means False; the table says MindSpore's default differs
                Arg("align_corners", "False", ms_default="None"),
            ),
            note="align_corners written out: the defaults differ (PyTorch's None means False)",
        ),
        (
            s("default", "x", "g", inputs=(_IMG, InputSpec("g", (2, 5, 5, 2)))),
            s(
                "align nearest",
                "x",
                "g",
                inputs=(_IMG, InputSpec("g", (2, 5, 5, 2))),
                mode="'nearest'",
                align_corners="True",
            ),
        ),
    ),
    Recipe(
        Template(
            "torch.Tensor.flip",
            "flip",
            (Arg("dims", varargs=True, pack=True, pack_one=True),),
            method=True,
            note="",
        ),
        (
            s("one dim", "0", receiver="x"),
            s("varargs", "0", "1", receiver="x"),
            s("tuple", "(-1,)", receiver="x"),
            s("keyword", receiver="x", dims="(-1,)"),
        ),
        grad=True,
    ),
    Recipe(
        Template(
            "torch.repeat_interleave",
            "mindspore.mint.repeat_interleave",
            (
                Arg("input", positional=True),
                Arg("repeats", positional=True),
                Arg("dim", "None"),
                Arg("output_size", "None"),
            ),
            note="the repeats-only overload (torch.repeat_interleave(repeats)) has no counterpart",
        ),
        (s("scalar dim", "x", "2", dim="1"), s("flat", "x", "2")),
        grad=True,
    ),
    Recipe(
        Template(
            "torch.Tensor.copy_",
            "copy_",
            (
                Arg("src", positional=True),
                Arg("non_blocking", "False", DROP, drop_exact=("*",), drop_why=_PLACEMENT),
            ),
            method=True,
        ),
        (s("same shape", "y", receiver="x", inputs=(_X, floats("y", 3, 4)), probe="{}"),),
        strategy="same-name",
    ),
    Recipe(
        Template(
            f"{_F}.kl_div",
            f"{_MF}.kl_div",
            (
                Arg("input", positional=True),
                Arg("target", positional=True),
                Arg("size_average", "None", DROP, drop_exact=("None",), drop_why=_LEGACY_REDUCTION),
                Arg("reduce", "None", DROP, drop_exact=("None",), drop_why=_LEGACY_REDUCTION),
                Arg("reduction", "'mean'"),
                Arg("log_target", "False"),
            ),
        ),
        (
            s(
                "batchmean",
                "x",
                "y",
                inputs=(_X, InputSpec("y", (3, 4), low=0.1, high=1.0)),
                reduction="'batchmean'",
            ),
        ),
    ),
    Recipe(
        Template(
            f"{_F}.threshold",
            f"{_MF}.threshold",
            (
                Arg("input", positional=True),
                Arg("threshold", positional=True),
                Arg("value", positional=True),
                Arg(
                    "inplace",
                    "False",
                    DROP,
                    drop_exact=("False",),
                    drop_why="the in-place form returns the same values: assign it back",
                ),
            ),
        ),
        (s("positional", "x", "0.5", "0.0"),),
    ),
)


def recipes_for(api: str) -> tuple[Recipe, ...]:
    return _BY_API.get(api, ())


_BY_API: dict[str, tuple[Recipe, ...]] = {}
for _r in RECIPES:
    _BY_API[_r.template.api] = (*_BY_API.get(_r.template.api, ()), _r)
