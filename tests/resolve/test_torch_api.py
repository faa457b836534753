"""The torch API index: the loader's answers on the committed data, and that the data is what
the installed torch (2.13.0) produces today."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from apiscan.resolve.torch_api import DATA_DIR, TorchApi, load_torch_api

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "scripts" / "gen_torch_api.py"
DATA_FILE = DATA_DIR / "torch-2.13.0.json"

# Namespaces the scanner must know; each must have imported cleanly on this CPU-only torch.
REQUIRED_NAMESPACES = (
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.utils",
    "torch.nn.utils.rnn",
    "torch.nn.utils.parametrize",
    "torch.nn.utils.prune",
    "torch.nn.utils.spectral_norm",
    "torch.nn.parallel",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.optim.swa_utils",
    "torch.utils.data",
    "torch.utils.data.distributed",
    "torch.utils.checkpoint",
    "torch.autograd",
    "torch.autograd.grad_mode",
    "torch.autograd.functional",
    "torch.cuda",
    "torch.cuda.amp",
    "torch.amp",
    "torch.backends.cudnn",
    "torch.backends.mps",
    "torch.distributed",
    "torch.linalg",
    "torch.fft",
    "torch.special",
    "torch.sparse",
    "torch.jit",
    "torch.onnx",
    "torch.hub",
    "torch.random",
    "torch.distributions",
    "torch.multiprocessing",
    "torch.testing",
    "torch.nn.attention",
    "torch.export",
    "torch.compiler",
    "torch.utils.cpp_extension",
    "torch.func",
    "torch.profiler",
)


@pytest.fixture(scope="module")
def api() -> TorchApi:
    return load_torch_api()


def test_loads_once_per_process(api: TorchApi) -> None:
    assert load_torch_api() is api
    assert api.version == "2.13.0"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # nn layers through every path they are importable by
        ("torch.nn.Conv2d", "torch.nn.Conv2d"),
        ("torch.nn.modules.Conv2d", "torch.nn.Conv2d"),
        ("torch.nn.modules.conv.Conv2d", "torch.nn.Conv2d"),
        ("torch.nn.modules.module.Module", "torch.nn.Module"),
        ("torch.nn.modules.linear.Linear", "torch.nn.Linear"),
        ("torch.nn.parameter.Parameter", "torch.nn.Parameter"),
        # functions defined in one module, exported shorter elsewhere
        ("torch.functional.split", "torch.split"),
        ("torch.autograd.grad_mode.no_grad", "torch.no_grad"),
        ("torch.autograd.no_grad", "torch.no_grad"),
        ("torch.random.manual_seed", "torch.manual_seed"),
        ("torch.amp.autocast", "torch.autocast"),
        ("torch.nn.functional.relu", "torch.nn.functional.relu"),
        ("torch.nn.functional.conv2d", "torch.conv2d"),  # one C function, two spellings
        ("torch.nn.functional.Tensor", "torch.Tensor"),
        # optimizers and schedulers
        ("torch.optim.sgd.SGD", "torch.optim.SGD"),
        ("torch.optim.adam.Adam", "torch.optim.Adam"),
        ("torch.optim.lr_scheduler.StepLR", "torch.optim.lr_scheduler.StepLR"),
        ("torch.optim.swa_utils.LRScheduler", "torch.optim.lr_scheduler.LRScheduler"),
        ("torch.utils.data.dataloader.DataLoader", "torch.utils.data.DataLoader"),
        ("torch.utils.data.distributed.DistributedSampler", "torch.utils.data.DistributedSampler"),
        # constants: dtype spellings stay distinct although torch.float is torch.float32
        ("torch.float32", "torch.float32"),
        ("torch.float", "torch.float"),
        ("torch.strided", "torch.strided"),
        ("torch.channels_last", "torch.channels_last"),
        ("torch.backends.cudnn.benchmark", "torch.backends.cudnn.benchmark"),
        # members, also reached through alias paths
        ("torch.nn.modules.conv.Conv2d.forward", "torch.nn.Conv2d.forward"),
        ("torch.nn.Conv2d.parameters", "torch.nn.Module.parameters"),
        ("torch.nn.modules.conv.Conv2d.cuda", "torch.nn.Module.cuda"),
        ("torch.nn.Conv2d.reset_parameters", "torch.nn.Conv2d.reset_parameters"),
        ("torch.optim.sgd.SGD.zero_grad", "torch.optim.Optimizer.zero_grad"),
        ("torch.optim.SGD.step", "torch.optim.SGD.step"),
        ("torch.optim.SGD.param_groups", "torch.optim.Optimizer.param_groups"),
        ("torch.optim.lr_scheduler.StepLR.step", "torch.optim.lr_scheduler.LRScheduler.step"),
        ("torch.Tensor.__getitem__", "torch.Tensor.__getitem__"),
        ("torch.nn.Parameter.view", "torch.Tensor.view"),
        ("torch.nn.modules.conv.F.relu", "torch.nn.functional.relu"),
        ("torch.FloatTensor.add", "torch.Tensor.add"),
    ],
)
def test_canonical(api: TorchApi, name: str, expected: str) -> None:
    assert api.canonical(name) == expected
    assert api.is_public(name)


@pytest.mark.parametrize(
    "name",
    [
        "torch.os",
        "torch.sys",
        "torch.nn.functional.math",
        "torch.nn.functional.Optional",
        "torch._C",
        "torch._tensor.Tensor",
        # a private class no alias names (_ConvNd is one: PRIVATE_BASES)
        "torch.nn.modules.conv._ConvTransposeNd",
        "torch.Tensor._version",
        "torch.nn.Conv2d.no_such_attribute",
        "torch.nn.Conv2d.weight.data",
        "torch.no_such_function",
        "numpy.zeros",
        "torch.",
    ],
)
def test_not_public(api: TorchApi, name: str) -> None:
    assert api.canonical(name) is None
    assert not api.is_public(name)
    assert api.kind(name) is None


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("torch.nn", "module"),
        ("torch.nn.modules.conv", "module"),
        ("torch.nn.Conv2d", "class"),
        ("torch.zeros", "function"),
        ("torch.nn.functional.relu", "function"),
        ("torch.int64", "constant"),
        ("torch.e", "constant"),
        ("torch.backends.cudnn.benchmark", "attribute"),
        ("torch.Tensor.view", "method"),
        ("torch.Tensor.shape", "property"),
        ("torch.nn.Linear.weight", "attribute"),
        ("torch.nn.Module.training", "attribute"),
    ],
)
def test_kind(api: TorchApi, name: str, kind: str) -> None:
    assert api.kind(name) == kind


def test_params_of_c_builtin_from_doc_line(api: TorchApi) -> None:
    assert api.params("torch.add") == (
        ("input", "pos_or_kw", False),
        ("other", "pos_or_kw", False),
        ("alpha", "kw_only", True),
        ("out", "kw_only", True),
    )
    assert api.params("torch.zeros")[:2] == (  # type: ignore[index]
        ("size", "var_pos", False),
        ("out", "kw_only", True),
    )
    assert api.params("torch.Tensor.view") == (("shape", "var_pos", False),)


def test_params_of_python_functions_and_classes(api: TorchApi) -> None:
    assert api.params("torch.nn.functional.relu") == (
        ("input", "pos_or_kw", False),
        ("inplace", "pos_or_kw", True),
    )
    conv = api.params("torch.nn.modules.conv.Conv2d")
    assert conv is not None
    assert [p[0] for p in conv[:3]] == ["in_channels", "out_channels", "kernel_size"]
    assert ("padding_mode", "pos_or_kw", True) in conv
    assert api.params("torch.optim.SGD.zero_grad") == (("set_to_none", "pos_or_kw", True),)
    assert api.params("torch.nn.Module.to") == (
        ("args", "var_pos", False),
        ("kwargs", "var_kw", False),
    )


@pytest.mark.parametrize(
    ("name", "returns"),
    [
        ("torch.zeros", "tensor"),
        ("torch.nn.functional.relu", "tensor"),
        ("torch.Tensor.view", "tensor"),
        ("torch.Tensor.__add__", "tensor"),
        ("torch.Tensor.__matmul__", "tensor"),
        ("torch.Tensor.T", "tensor"),
        ("torch.Tensor.chunk", "tensors"),
        ("torch.split", "tensors"),
        ("torch.sort", "tensors"),
        ("torch.Tensor.size", "size"),
        ("torch.Tensor.shape", "size"),
        ("torch.Tensor.item", "other"),
        ("torch.Tensor.tolist", "other"),
        ("torch.is_tensor", "bool"),
        ("torch.Tensor.is_cuda", "bool"),
        ("torch.Tensor.dim", "int"),
        ("torch.Tensor.ndim", "int"),
        ("torch.Tensor.__len__", "int"),
        ("torch.nn.Module.cuda", "module"),
        ("torch.nn.Module.to", "module"),
        ("torch.nn.Linear", "module"),
        ("torch.nn.Parameter", "tensor"),
        ("torch.nn.Linear.weight", "tensor"),
        ("torch.nn.Conv2d.forward", "tensor"),
    ],
)
def test_returns(api: TorchApi, name: str, returns: str) -> None:
    assert api.returns(name) == returns


def test_return_text_is_kept(api: TorchApi) -> None:
    assert api.return_text("torch.sort") == "(Tensor, LongTensor)"
    assert api.return_text("torch.Tensor.item") == "number"


def test_member_walks_the_mro_to_the_public_owner(api: TorchApi) -> None:
    assert api.member("torch.nn.Conv2d", "parameters") == "torch.nn.Module.parameters"
    assert api.member("torch.nn.modules.conv.Conv2d", "forward") == "torch.nn.Conv2d.forward"
    assert api.member("torch.optim.SGD", "zero_grad") == "torch.optim.Optimizer.zero_grad"
    assert api.member("torch.optim.SGD", "step") == "torch.optim.SGD.step"
    assert api.member("torch.optim.AdamW", "step") == "torch.optim.Adam.step"  # AdamW(Adam)
    assert api.member("torch.cuda.amp.GradScaler", "scale") == "torch.GradScaler.scale"
    assert api.member("torch.nn.Parameter", "__getitem__") == "torch.Tensor.__getitem__"
    assert api.member("torch.Size", "numel") == "torch.Size.numel"
    assert api.member("torch.utils.data.DataLoader", "dataset") == (
        "torch.utils.data.DataLoader.dataset"
    )
    assert api.member("torch.nn.Conv2d", "nope") is None
    assert api.member("torch.zeros", "dtype") is None  # not a class
    assert api.member("torch.os", "path") is None


def test_tensor_has_its_operator_methods(api: TorchApi) -> None:
    for dunder in ("__getitem__", "__setitem__", "__matmul__", "__add__", "__radd__", "__iadd__"):
        assert api.member("torch.Tensor", dunder) == f"torch.Tensor.{dunder}"


def test_classes_with_member(api: TorchApi) -> None:
    assert api.classes_with_member("view") == frozenset({"torch.Tensor"})
    assert api.classes_with_member("zero_grad") == frozenset(
        {"torch.nn.Module", "torch.optim.Optimizer"}
    )
    steppers = {"torch.optim.Optimizer", "torch.optim.lr_scheduler.LRScheduler", "torch.GradScaler"}
    assert steppers <= api.classes_with_member("step")
    assert api.classes_with_member("no_such_member") == frozenset()


def test_star_exports(api: TorchApi) -> None:
    nn = api.star_exports("torch.nn")
    assert nn is not None and {"Conv2d", "Module", "functional"} <= nn
    functional = api.star_exports("torch.nn.functional")
    assert functional is not None and "relu" in functional and "math" not in functional
    torch_star = api.star_exports("torch")
    assert torch_star is not None and {"zeros", "float32", "no_grad"} <= torch_star
    assert "os" not in torch_star
    assert api.star_exports("torch.nn.Conv2d") is None
    assert api.star_exports("torch.nn.modules.conv.F") == functional
    bindings = api.star_bindings("torch.nn.functional")
    assert bindings["conv2d"] == "torch.conv2d"
    assert bindings["relu"] == "torch.nn.functional.relu"


def test_is_module(api: TorchApi) -> None:
    assert api.is_module("torch")
    assert api.is_module("torch.nn.modules.conv")
    assert api.is_module("torch.nn.modules.conv.F")
    # a submodule its package's __init__ shadows with a function of the same name: reading
    # the attribute gives the function, so calling it is an API use
    assert not api.is_module("torch.nn.utils.spectral_norm")
    assert not api.is_module("torch.nn.utils.weight_norm")
    assert api.kind("torch.nn.utils.weight_norm") == "function"
    assert not api.is_module("torch.nn.Conv2d")
    assert not api.is_module("os")


def test_spellings_list_every_primary_path(api: TorchApi) -> None:
    assert api.spellings("torch.nn.functional.conv2d") == (
        "torch.conv2d",
        "torch.nn.functional.conv2d",
    )
    assert api.spellings("torch.autograd.no_grad")[0] == "torch.no_grad"
    assert "torch.autograd.no_grad" in api.spellings("torch.no_grad")
    assert api.spellings("torch.os") == ()


@pytest.mark.parametrize("namespace", REQUIRED_NAMESPACES)
def test_required_namespaces_imported(api: TorchApi, namespace: str) -> None:
    assert api.star_exports(namespace) is not None  # importable (if shadowed, by a function)
    assert namespace not in api.failed_modules


def test_committed_data_is_consistent() -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    names, aliases, bases = data["names"], data["aliases"], data["bases"]
    assert set(aliases).isdisjoint(names)
    assert all(target in names for target in aliases.values())
    assert all(names[cls]["k"] == "class" for cls in bases)
    assert all(names[base]["k"] == "class" for chain in bases.values() for base in chain)
    param_kinds = {"pos_only", "pos_or_kw", "kw_only", "var_pos", "var_kw"}
    returns = {"tensor", "tensors", "module", "bool", "int", "float", "size", "other"}
    for name, entry in names.items():
        assert all(p[1] in param_kinds and isinstance(p[2], bool) for p in entry.get("p", ()))
        assert entry.get("r", "other") in returns, name
        assert not any(part.startswith("_") and not part.endswith("__") for part in name.split("."))
    assert DATA_FILE.stat().st_size < 5_000_000


def test_rejects_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="format"):
        TorchApi({"meta": {"format": 99}})


# --- the generator -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    """The script as a module (it imports torch: these tests fail, not skip, without it)."""
    spec = importlib.util.spec_from_file_location("gen_torch_api", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("line", "params"),
    [
        (
            "input, other, *, alpha=1, out=None",
            [
                ["input", "pos_or_kw", False],
                ["other", "pos_or_kw", False],
                ["alpha", "kw_only", True],
                ["out", "kw_only", True],
            ],
        ),
        ("*size, *, out=None", [["size", "var_pos", False], ["out", "kw_only", True]]),
        (
            "input: Tensor, dim: int = 0",
            [["input", "pos_or_kw", False], ["dim", "pos_or_kw", True]],
        ),
        (
            "x, /, size=(1, 2), **kwargs",
            [["x", "pos_only", False], ["size", "pos_or_kw", True], ["kwargs", "var_kw", False]],
        ),
        ("input (Tensor)", None),
    ],
)
def test_doc_line_parameters(generator: ModuleType, line: str, params: object) -> None:
    assert generator.params_from_doc_line(line) == params


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Tensor", "tensor"),
        ("LongTensor", "tensor"),
        ("torch.Tensor | None", "tensor"),
        ("(Tensor, LongTensor)", "tensors"),
        ("Tuple[Tensor, ...]", "tensors"),
        ("List of Tensors", "tensors"),
        ("tuple[Tensor, int]", "other"),
        ("torch.Size or int", "size"),
        ("TypeIs[torch.Tensor]", "bool"),
        ("int", "int"),
        ("float", "float"),
        ("Module", "module"),
        ("number", "other"),
        ("None", "other"),
        ("Any", None),
    ],
)
def test_return_classification(generator: ModuleType, text: str, kind: str | None) -> None:
    assert generator.ReturnClassifier(frozenset({"Module"}))(text) == kind


def test_committed_file_matches_installed_torch() -> None:
    """`--check` regenerates from torch 2.13.0 and compares bytes with the committed file."""
    result = subprocess.run(
        [sys.executable, str(GENERATOR), "--check"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]


# --- nothing public is silently dropped ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        # lazy (module __getattr__), listed in __all__ only
        ("torch.utils.cpp_extension.BuildExtension", "class"),
        # the module's import fails here (no tensorboard): read from its source
        ("torch.utils.tensorboard.SummaryWriter", "class"),
        ("torch.utils.tensorboard.SummaryWriter.add_scalar", "method"),
        # a class-level property of torch's metaclass
        ("torch.distributed.group.WORLD", "attribute"),
        # typing.Final, re-exported by torch.jit from a torch module
        ("torch.jit.Final", "attribute"),
    ],
)
def test_public_names_that_introspection_missed(api: TorchApi, name: str, kind: str) -> None:
    assert api.kind(name) == kind


def test_failed_imports_are_listed_and_read_statically(api: TorchApi) -> None:
    assert "torch.utils.tensorboard" in api.failed_modules
    assert api.static_modules["torch.utils.tensorboard"] >= 3
    assert api.is_module("torch.utils.tensorboard")
    assert api.canonical("torch.utils.tensorboard.writer.SummaryWriter") == (
        "torch.utils.tensorboard.SummaryWriter"
    )
    params = api.params("torch.utils.tensorboard.SummaryWriter.add_scalar") or ()
    assert [p[0] for p in params][:3] == ["tag", "scalar_value", "global_step"]


def test_foreign_names_are_not_torch_api(api: TorchApi) -> None:
    assert not api.is_public("torch.nn.functional.Optional")
    assert not api.is_public("torch.__version__")


def test_static_reading_of_a_module_source(generator: ModuleType) -> None:
    import ast

    source = """
from .writer import Writer
__all__ = ["Writer", "make"]
def make(a, b=1, *c, d, **e): ...
"""
    module = generator.StaticModule("torch.fake", ast.parse(source))
    assert module.exported() == ["Writer", "make"]
    found = module.definition("make")
    assert found is not None and found[0] == "torch.fake"
    assert generator.StaticModule.params(found[1], drop_first=False) == [
        ["a", "pos_or_kw", False],
        ["b", "pos_or_kw", True],
        ["c", "var_pos", False],
        ["d", "kw_only", False],
        ["e", "var_kw", False],
    ]


def test_documented_fixed_tuple_returns_are_valued_per_element() -> None:
    """``Tuple[Tensor, int]`` gives a tensor and a host number; a tuple of any length or a
    list is no fixed tuple; a part that is neither tensor nor host value stays unknown."""
    from apiscan.resolve.owners import _fixed_tuple
    from apiscan.resolve.values import NONTORCH, TENSOR, UNKNOWN

    assert _fixed_tuple("Tuple[torch.Tensor, int]") == (TENSOR, NONTORCH)
    assert _fixed_tuple("(Tensor, LongTensor)") == (TENSOR, TENSOR)
    assert _fixed_tuple("tuple[torch.Tensor, tuple[int, int]]") == (TENSOR, NONTORCH)
    assert _fixed_tuple("Tuple[Tensor, int, Dict[str, str]]") == (TENSOR, NONTORCH, UNKNOWN)
    assert _fixed_tuple("Tuple[Tensor, Optional[Tensor]]") == (TENSOR, TENSOR)
    assert _fixed_tuple("tuple[torch.Tensor, ...]") is None
    assert _fixed_tuple("list[torch.Tensor]") is None
    assert _fixed_tuple(None) is None
