"""The everyday tensor API of real model code: creation, conversion, metadata queries,
in-place updates and the common ``torch.Tensor`` methods.

These calls are the bulk of every migrated file (``x.size()``, ``.to(dtype)``, ``.float()``,
``torch.zeros``, ``.item()``, ``.add_()`` ... rank highest by use in five real repositories),
yet most are too mundane for the other catalogue modules, and several have no row in the
official mapping table at all. A scan that suggests a substitution for them needs the same
numeric evidence as for a convolution, hence this module.

How each case is labelled (see :data:`apiscan.verify.cases.Strategy`):

- ``mapped``: the 2.6 or 2.4 mapping table has a row; the MindSpore side runs the target it
  names (with the parameter renames its difference page states).
- ``same-name``: no row, but MindSpore has a method or function of the same name; the case is
  what verifies that name-based candidate.
- ``equivalent``/``composed``: neither, e.g. ``Tensor.cpu()`` (dropped) or ``Tensor.relu_()``
  (no in-place form: ``ops.relu``).

In-place methods run on a copy made by ``x * 1`` on both sides (``(x * 1).add_(y)``): torch
forbids in-place writes to a leaf that requires grad, the copy keeps the drawn inputs
untouched, and ``Tensor.clone`` has no CPU kernel in MindSpore 2.10. Their gradients are not
checked.

Where the MindSpore target has no CPU kernel, a second case (pattern ``cpu``) checks a route
that runs on CPU: the 2.4 table's ``ops.`` target or the out-of-place form.

The harness compares values as float64, not dtypes: where the dtype is the point of a
conversion the expression exposes it numerically when that is cheap (truncation to an
integer, float16 rounding, float64 precision at 2**30) and the ``note`` says so otherwise.
"""

from __future__ import annotations

from dataclasses import replace

from apiscan.verify.cases import Case, InputSpec, Strategy, Variant
from apiscan.verify.catalogue.inputs import dims, floats, labels, mask

_X = floats("x", 3, 4)
_Y = floats("y", 4, low=0.5, high=2.0)
_XYZ = floats("x", 2, 3, 4)
_WIDE = floats("x", 3, 4, low=-5.0, high=5.0, grad=False)
_POSITIVE = floats("x", 3, 4, low=0.1, high=4.0)
_CONST = "ms.common.initializer"
_INPLACE = "In place on a copy (x * 1) on both sides; gradient not checked."
_VALUES_ONLY = "The harness compares values, not dtypes: the dtype itself is not checked."


def _same(
    api: str,
    call: str,
    strategy: Strategy = "mapped",
    inputs: tuple[InputSpec, ...] = (_X,),
    grad: bool = True,
    **kw: object,
) -> Case:
    """A ``torch.Tensor`` method whose MindSpore counterpart is called the same way on ``x``."""
    return Case(api, f"x.{call}", f"x.{call}", strategy, inputs, grad=grad, **kw)  # type: ignore[arg-type]


def _inplace(
    api: str,
    call: str,
    ms_call: str | None = None,
    strategy: Strategy = "same-name",
    inputs: tuple[InputSpec, ...] = (_X,),
    **kw: object,
) -> Case:
    """An in-place method applied to a copy of ``x``; ``ms_call`` replaces the whole MindSpore
    expression when MindSpore has no in-place form."""
    note = str(kw.pop("note", ""))
    return Case(
        api,
        f"(x * 1).{call}",
        ms_call if ms_call is not None else f"(x * 1).{call}",
        strategy,
        inputs,
        note=f"{_INPLACE} {note}".strip(),
        **kw,  # type: ignore[arg-type]
    )


def _cpu(case: Case, ms_expr: str, strategy: Strategy | None = None, note: str = "") -> Case:
    """The same check through a MindSpore route with a CPU kernel, for a case whose target has
    none on CPU (pattern gains ``cpu``)."""
    pattern = f"{case.pattern}, cpu" if case.pattern else "cpu"
    why = "The target has no CPU kernel in MindSpore 2.10; this route has one."
    return replace(
        case,
        ms_expr=ms_expr,
        strategy=strategy or case.strategy,
        pattern=pattern,
        note=f"{why} {note}".strip(),
    )


def _dtype_variants(*names: str) -> tuple[Variant, ...]:
    """One variant per dtype name, bound as ``dt`` (``getattr(torch, dt)`` on one side and
    ``getattr(ms, dt)`` on the other)."""
    return tuple(Variant(name, (("dt", name),)) for name in names)


_METADATA: tuple[Case, ...] = (
    Case(
        "torch.Tensor.size",
        "x.size()",
        "x.shape",
        "mapped",
        (_XYZ,),
        note="torch.Size and the MindSpore shape tuple, compared element by element.",
    ),
    Case(
        "torch.Tensor.size",
        "x.size(dim)",
        "x.shape[dim]",
        "mapped",
        (_XYZ,),
        pattern="dim",
        variants=dims(1, -1),
    ),
    Case("torch.Tensor.dim", "x.dim()", "x.ndimension()", "mapped", (_XYZ,)),
    _same("torch.Tensor.numel", "numel()", inputs=(_XYZ,), grad=False),
    _same("torch.Tensor.item", "sum().item()", grad=False),
    _same("torch.Tensor.tolist", "tolist()", "same-name", grad=False),
    Case("torch.Tensor.numpy", "x.numpy()", "x.asnumpy()", "mapped", (_X,)),
    Case(
        "torch.is_tensor",
        "(torch.is_tensor(x), torch.is_tensor(x.tolist()))",
        "(ops.is_tensor(x), ops.is_tensor(x.tolist()))",
        "mapped",
        (_X,),
        note="True for the tensor, False for the nested list made from it.",
    ),
    Case(
        "torch.Tensor.cpu",
        "x.cpu()",
        "x",
        "equivalent",
        (_X,),
        grad=True,
        note="MindSpore has no Tensor.cpu(): placement is global (mindspore.set_device), so "
        "the call is dropped and the tensor used as is.",
    ),
    Case(
        "torch.Tensor.detach",
        "x.detach() * x",
        "ops.stop_gradient(x) * x",
        "equivalent",
        (_X,),
        grad=True,
        note="MindSpore has no Tensor.detach(); ops.stop_gradient cuts the graph. The product "
        "makes the cut visible: the gradient is x, not 2x, only if one factor is detached.",
    ),
    _same("torch.Tensor.clone", "clone()", "same-name"),
)

_CONVERSIONS: tuple[Case, ...] = (
    Case(
        "torch.Tensor.to",
        "x.to(getattr(torch, dt))",
        "x.to(getattr(ms, dt))",
        "mapped",
        (_WIDE,),
        pattern="dtype",
        variants=_dtype_variants("float16", "int64", "int32", "bool"),
        note="Inputs in [-5, 5): float16 rounding and truncation toward zero show in the "
        "values; the bool variant compares non-zero tests. " + _VALUES_ONLY,
    ),
    _same(
        "torch.Tensor.float",
        "float()",
        inputs=(labels("x", 3, 4, classes=9),),
        grad=False,
        note="int64 in, float32 out. " + _VALUES_ONLY,
    ),
    _same(
        "torch.Tensor.long",
        "long() * 2**33",
        inputs=(_WIDE,),
        grad=False,
        note="Truncation toward zero shows in the values; the factor 2**33 would wrap in a "
        "32-bit integer, so the int64 result dtype shows as well.",
    ),
    _same(
        "torch.Tensor.int",
        "int()",
        inputs=(_WIDE,),
        grad=False,
        note="Truncation toward zero shows in the values. " + _VALUES_ONLY,
    ),
    _same(
        "torch.Tensor.half",
        "half()",
        inputs=(floats("x", 3, 4, low=-3.0, high=3.0),),
        note="float16 rounding (about 1e-3 relative) is far above the float32 threshold, so a "
        "conversion that did not happen would fail.",
    ),
    _same(
        "torch.Tensor.double",
        "double() + 2**30 - 2**30",
        "same-name",
        note="At 2**30 a float32 step is 128 and a float64 step 2.4e-7: the round trip keeps "
        "x only if the tensor really is float64.",
    ),
    _same(
        "torch.Tensor.bool",
        "bool()",
        inputs=(labels("x", 3, 4, classes=3),),
        grad=False,
        note="Integers 0..2: zero becomes False, the rest True.",
    ),
    Case(
        "torch.Tensor.type",
        "x.type(getattr(torch, dt))",
        "x.type(getattr(ms, dt))",
        "same-name",
        (_WIDE,),
        pattern="dtype",
        variants=_dtype_variants("float16", "int32"),
        note="With a dtype argument (torch also takes a type string such as "
        "'torch.FloatTensor', which is not checked here). " + _VALUES_ONLY,
    ),
    Case(
        "torch.Tensor.type_as",
        "x.type_as(i)",
        "x.type_as(i)",
        "same-name",
        (_WIDE, labels("i", 2, classes=3)),
        note="Cast to the int64 of i: truncation toward zero shows in the values.",
    ),
)

_CREATION: tuple[Case, ...] = (
    Case(
        "torch.tensor",
        "torch.tensor([[0.5, -1.25], [2.0, 3.5]]) * x",
        "ms.tensor([[0.5, -1.25], [2.0, 3.5]]) * x",
        "same-name",
        (floats("x", 2, 2),),
        grad=True,
        note="From a nested Python list; float32 by default on both sides.",
    ),
    Case(
        "torch.as_tensor",
        "torch.as_tensor([0.5, -1.5, 2.0, 4.0]) * x",
        "ms.tensor([0.5, -1.5, 2.0, 4.0]) * x",
        "equivalent",
        (_X,),
        grad=True,
        note="MindSpore has no as_tensor; mindspore.tensor copies (torch may share memory "
        "with a numpy array, which only matters if either side is later written in place).",
    ),
    Case(
        "torch.from_numpy",
        "torch.from_numpy(x.numpy() * 2)",
        "ms.from_numpy(x.asnumpy() * 2)",
        "same-name",
        (_X,),
    ),
    Case("torch.zeros", "torch.zeros((2, 3))", "mint.zeros((2, 3))", "mapped", (_X,)),
    Case("torch.ones", "torch.ones((2, 3))", "mint.ones((2, 3))", "mapped", (_X,)),
    Case("torch.full", "torch.full((2, 3), 1.5)", "mint.full((2, 3), 1.5)", "mapped", (_X,)),
    Case("torch.zeros_like", "torch.zeros_like(x)", "mint.zeros_like(x)", "mapped", (_XYZ,)),
    Case("torch.ones_like", "torch.ones_like(x)", "mint.ones_like(x)", "mapped", (_XYZ,)),
    Case(
        "torch.empty",
        "torch.empty(2, 3).shape",
        "mint.empty(2, 3).shape",
        "mapped",
        (_X,),
        note="Uninitialised memory: only the shape is compared.",
    ),
    Case(
        "torch.arange",
        "torch.arange(*a)",
        "mint.arange(*a)",
        "mapped",
        (_X,),
        variants=(
            Variant("end=5", (("a", (5,)),)),
            Variant("1,8,2", (("a", (1, 8, 2)),)),
            Variant("0.0,1.0,0.25", (("a", (0.0, 1.0, 0.25)),)),
        ),
        note="The 2.6 table marks mint.arange 'different' (no out/layout/device). " + _VALUES_ONLY,
    ),
    Case(
        "torch.linspace",
        "torch.linspace(-1.0, 2.0, 7)",
        "mint.linspace(-1.0, 2.0, 7)",
        "mapped",
        (_X,),
    ),
    Case(
        "torch.meshgrid",
        "torch.meshgrid(a, b, indexing=ix)",
        "mint.meshgrid(a, b, indexing=ix)",
        "mapped",
        (floats("a", 3), floats("b", 4)),
        variants=(Variant("ij", (("ix", "ij"),)), Variant("xy", (("ix", "xy"),))),
        grad=True,
    ),
    _same("torch.Tensor.new_zeros", "new_zeros((2, 3))", grad=False),
    _same("torch.Tensor.new_ones", "new_ones((2, 3))", grad=False),
    Case(
        "torch.Tensor.new_full",
        "x.new_full((2, 3), -0.5)",
        "ops.full((2, 3), -0.5, dtype=x.dtype)",
        "equivalent",
        (_X,),
        note="MindSpore's Tensor.new_full raises NotImplementedError ('support Ascend only') "
        "on CPU in 2.10; ops.full with the dtype of x is the portable form.",
    ),
    Case(
        "torch.Tensor.new_tensor",
        "x.new_tensor([1.5, -2.0, 3.25])",
        "ms.tensor([1.5, -2.0, 3.25], dtype=x.dtype)",
        "equivalent",
        (_X,),
        note="MindSpore has no Tensor.new_tensor: mindspore.tensor with the dtype of x.",
    ),
    Case(
        "torch.nn.init.constant_",
        "torch.nn.init.constant_(x.clone(), 0.3)",
        f"{_CONST}.initializer({_CONST}.Constant(0.3), x.shape, x.dtype).init_data()",
        "equivalent",
        (_X,),
        note="MindSpore initialises a parameter with set_data(initializer(...)); this is "
        "the initializer's value.",
    ),
    Case(
        "torch.nn.init.zeros_",
        "torch.nn.init.zeros_(x.clone())",
        f"{_CONST}.initializer('zeros', x.shape, x.dtype).init_data()",
        "equivalent",
        (_X,),
    ),
    Case(
        "torch.nn.init.ones_",
        "torch.nn.init.ones_(x.clone())",
        f"{_CONST}.initializer('ones', x.shape, x.dtype).init_data()",
        "equivalent",
        (_X,),
    ),
)

_INPLACE_CASES: tuple[Case, ...] = (
    _inplace("torch.Tensor.add_", "add_(y)", inputs=(_X, _Y)),
    Case(
        "torch.Tensor.add_",
        "(x * 1).add_(y, alpha=-2.0)",
        "(x * 1).add_(y, alpha=-2.0)",
        "same-name",
        (_X, _Y),
        pattern="alpha",
        note=_INPLACE,
    ),
    _inplace("torch.Tensor.sub_", "sub_(y)", inputs=(_X, _Y)),
    _inplace("torch.Tensor.mul_", "mul_(y)", inputs=(_X, _Y)),
    _inplace("torch.Tensor.div_", "div_(y)", inputs=(_X, _Y)),
    _inplace(
        "torch.Tensor.pow_",
        "pow_(2)",
        "x.pow(2)",
        "equivalent",
        note="MindSpore has no Tensor.pow_: the out-of-place pow, reassigned.",
    ),
    _inplace("torch.Tensor.exp_", "exp_()"),
    _inplace("torch.Tensor.sigmoid_", "sigmoid_()"),
    _inplace(
        "torch.Tensor.relu_",
        "relu_()",
        "ops.relu(x)",
        "equivalent",
        note="MindSpore has no Tensor.relu_: ops.relu, reassigned.",
    ),
    _inplace(
        "torch.Tensor.abs_",
        "abs_()",
        "x.abs()",
        "equivalent",
        note="MindSpore has no Tensor.abs_: the out-of-place abs, reassigned.",
    ),
    _inplace("torch.Tensor.clamp_", "clamp_(-0.5, 0.5)", strategy="mapped"),
    _inplace("torch.Tensor.fill_", "fill_(0.7)"),
    _inplace("torch.Tensor.zero_", "zero_()"),
    _inplace("torch.Tensor.masked_fill_", "masked_fill_(m, -1.0)", inputs=(_X, mask("m", 3, 4))),
    _inplace(
        "torch.Tensor.copy_",
        "copy_(b)",
        inputs=(_X, floats("b", 4)),
        note="The source (4,) is broadcast over the (3, 4) destination.",
    ),
    _inplace(
        "torch.Tensor.scatter_",
        "scatter_(1, i, s)",
        "ops.tensor_scatter_elements(x, i, s, axis=1)",
        "mapped",
        inputs=(floats("x", 3, 5), labels("i", 3, 1, classes=5), floats("s", 3, 1)),
        note="The 2.4 table's target (dim becomes axis, src updates). One index per row, so "
        "no duplicate targets whose write order could differ.",
    ),
    _inplace(
        "torch.Tensor.scatter_",
        "scatter_(1, i, s)",
        inputs=(floats("x", 3, 5), labels("i", 3, 1, classes=5), floats("s", 3, 1)),
        pattern="same-name",
        note="MindSpore's own Tensor.scatter_, which the 2.4 table does not name. One index "
        "per row.",
    ),
    _inplace(
        "torch.Tensor.unsqueeze_",
        "unsqueeze_(1)",
        "x.unsqueeze(1)",
        "equivalent",
        note="MindSpore has no Tensor.unsqueeze_: the out-of-place unsqueeze, reassigned.",
    ),
    _inplace(
        "torch.Tensor.squeeze_",
        "squeeze_(1)",
        "x.squeeze(1)",
        "equivalent",
        inputs=(floats("x", 3, 1, 4),),
        note="MindSpore has no Tensor.squeeze_: the out-of-place squeeze, reassigned.",
    ),
)

_ELEMENTWISE: tuple[Case, ...] = (
    _same("torch.Tensor.sqrt", "sqrt()", inputs=(_POSITIVE,)),
    _same("torch.Tensor.log", "log()", inputs=(_POSITIVE,)),
    _same("torch.Tensor.sigmoid", "sigmoid()"),
    _same("torch.Tensor.tanh", "tanh()"),
    _same("torch.Tensor.neg", "neg()"),
    _same("torch.Tensor.round", "round()", inputs=(_WIDE,), grad=False),
    _same("torch.Tensor.floor", "floor()", inputs=(_WIDE,), grad=False),
    _same("torch.Tensor.ceil", "ceil()", inputs=(_WIDE,), grad=False),
    _same("torch.Tensor.div", "div(y)", inputs=(_X, _Y)),
    _same("torch.Tensor.sub", "sub(y)", inputs=(_X, _Y)),
    Case(
        "torch.Tensor.relu",
        "x.relu()",
        "ops.relu(x)",
        "equivalent",
        (_X,),
        grad=True,
        note="MindSpore has no Tensor.relu: ops.relu.",
    ),
    Case(
        "torch.Tensor.softmax",
        "x.softmax(dim)",
        "x.softmax(dim)",
        "same-name",
        (floats("x", 3, 5, low=-3.0, high=3.0),),
        variants=dims(0, -1),
        grad=True,
    ),
    Case(
        "torch.Tensor.log_softmax",
        "x.log_softmax(dim)",
        "ops.log_softmax(x, dim)",
        "equivalent",
        (floats("x", 3, 5, low=-3.0, high=3.0),),
        variants=dims(0, -1),
        grad=True,
        note="MindSpore has no Tensor.log_softmax: ops.log_softmax.",
    ),
)

_COMPARISONS: tuple[Case, ...] = (
    _same("torch.Tensor.lt", "lt(y)", inputs=(_X, floats("y", 4)), grad=False),
    _same("torch.Tensor.gt", "gt(y)", inputs=(_X, floats("y", 4)), grad=False),
    _same("torch.Tensor.le", "le(y)", inputs=(_X, floats("y", 4)), grad=False),
    _same("torch.Tensor.ge", "ge(y)", inputs=(_X, floats("y", 4)), grad=False),
    Case(
        "torch.Tensor.eq",
        "i.eq(j)",
        "i.eq(j)",
        "mapped",
        (labels("i", 3, 4, classes=3), labels("j", 4, classes=3)),
        note="Small integers, so that some elements are equal.",
    ),
    Case(
        "torch.Tensor.ne",
        "i.ne(j)",
        "i.ne(j)",
        "mapped",
        (labels("i", 3, 4, classes=3), labels("j", 4, classes=3)),
    ),
    Case(
        "torch.Tensor.logical_and",
        "p.logical_and(q)",
        "p.logical_and(q)",
        "mapped",
        (mask("p", 3, 4), mask("q", 3, 4)),
    ),
    Case(
        "torch.Tensor.logical_or",
        "p.logical_or(q)",
        "p.logical_or(q)",
        "mapped",
        (mask("p", 3, 4), mask("q", 3, 4)),
    ),
    Case(
        "torch.Tensor.logical_not",
        "p.logical_not()",
        "p.logical_not()",
        "mapped",
        (mask("p", 3, 4),),
    ),
    Case(
        "torch.allclose",
        "torch.allclose(x, x + e * s)",
        "mint.allclose(x, x + e * s)",
        "mapped",
        (_X, floats("e", 3, 4)),
        variants=(Variant("close", (("s", 1e-9),)), Variant("apart", (("s", 1e-2),))),
        note="Default rtol 1e-5, atol 1e-8: a 1e-9 perturbation is close, 1e-2 is not.",
    ),
)

_REDUCTIONS: tuple[Case, ...] = (
    Case(
        "torch.Tensor.all",
        "p.all(dim)",
        "p.all(dim)",
        "mapped",
        (mask("p", 3, 4),),
        variants=dims(0, 1),
    ),
    Case(
        "torch.Tensor.any",
        "p.any(dim)",
        "p.any(dim)",
        "mapped",
        (mask("p", 3, 4),),
        variants=dims(0, 1),
    ),
    Case(
        "torch.Tensor.min",
        "x.min(dim=dim)",
        "x.min(dim=dim)",
        "mapped",
        (floats("x", 3, 6),),
        pattern="dim",
        variants=dims(0, 1),
        grad=True,
        note="Values and indices are both compared.",
    ),
    Case(
        "torch.Tensor.prod",
        "x.prod(dim)",
        "x.prod(dim)",
        "mapped",
        (floats("x", 3, 4, low=0.5, high=1.5),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.Tensor.cumsum",
        "x.cumsum(dim)",
        "x.cumsum(dim)",
        "mapped",
        (floats("x", 3, 5),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.Tensor.cumprod",
        "x.cumprod(dim)",
        "x.cumprod(dim)",
        "mapped",
        (floats("x", 3, 5, low=0.5, high=1.5),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.Tensor.std",
        "x.std(dim=dim)",
        "x.std(axis=dim, ddof=1)",
        "mapped",
        (floats("x", 4, 6),),
        variants=dims(0, 1),
        grad=True,
        note="The 2.4 difference page: unbiased (default True) becomes ddof=1.",
    ),
    Case(
        "torch.Tensor.var",
        "x.var(dim=dim)",
        "x.var(axis=dim, ddof=1)",
        "mapped",
        (floats("x", 4, 6),),
        variants=dims(0, 1),
        grad=True,
        note="The 2.4 difference page: unbiased (default True) becomes ddof=1.",
    ),
    Case(
        "torch.Tensor.std",
        "x.std()",
        "x.std()",
        "mapped",
        (floats("x", 4, 6),),
        pattern="unchanged call",
        grad=True,
        note="The torch call kept as is. Measured: MindSpore's Tensor.std defaults to ddof=0 "
        "(biased, divide by N) where torch is unbiased (N-1): 0.6430 vs 0.6569 here, smaller "
        "by sqrt((N-1)/N). x.std(dim=1) is accepted and biased alike. Pass ddof=1 as the "
        "mapped case does.",
    ),
    Case(
        "torch.Tensor.var",
        "x.var()",
        "x.var()",
        "mapped",
        (floats("x", 4, 6),),
        pattern="unchanged call",
        grad=True,
        note="The torch call kept as is. Measured: MindSpore's Tensor.var defaults to ddof=0 "
        "(biased, divide by N) where torch is unbiased (N-1): 0.4135 vs 0.4315 here, smaller "
        "by (N-1)/N. (x.var(dim=1) needs the Var kernel, unregistered on CPU.) Pass ddof=1 as "
        "the mapped case does.",
    ),
    Case(
        "torch.Tensor.norm",
        "x.norm(p=p, dim=1)",
        "x.norm(p, dim=1)",
        "mapped",
        (floats("x", 3, 5),),
        variants=(Variant("p=2", (("p", 2),)), Variant("p=1", (("p", 1),))),
        grad=True,
        note="The order goes positionally: MindSpore names it ord.",
    ),
    Case(
        "torch.Tensor.sort",
        "x.sort(dim=-1, descending=d)",
        "x.sort(dim=-1, descending=d)",
        "mapped",
        (floats("x", 3, 6),),
        variants=(Variant("ascending", (("d", False),)), Variant("descending", (("d", True),))),
        grad=True,
        note="Values and indices are both compared.",
    ),
    Case(
        "torch.Tensor.argsort",
        "x.argsort(dim=-1, descending=d)",
        "x.argsort(axis=-1, descending=d)",
        "mapped",
        (floats("x", 3, 6),),
        variants=(Variant("ascending", (("d", False),)), Variant("descending", (("d", True),))),
        note="The 2.4 difference page renames dim to axis.",
    ),
    Case(
        "torch.Tensor.topk",
        "x.topk(k, dim=1)",
        "x.topk(k, dim=1)",
        "mapped",
        (floats("x", 3, 6),),
        variants=(Variant("k=1", (("k", 1),)), Variant("k=3", (("k", 3),))),
        grad=True,
        note="Values and indices are both compared.",
    ),
)

_SHAPE_AND_INDEX: tuple[Case, ...] = (
    _same("torch.Tensor.t", "t()"),
    _same("torch.Tensor.flip", "flip((0, 1))"),
    _same("torch.Tensor.narrow", "narrow(1, 1, 2)"),
    _same("torch.Tensor.roll", "roll(1, 1)"),
    _same("torch.Tensor.triu", "triu(1)"),
    _same("torch.Tensor.reshape_as", "reshape_as(y)", inputs=(_X, floats("y", 2, 6, grad=False))),
    Case(
        "torch.Tensor.repeat_interleave",
        "x.repeat_interleave(2, dim=dim)",
        "x.repeat_interleave(2, dim=dim)",
        "mapped",
        (floats("x", 2, 3),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.Tensor.unbind",
        "x.unbind(1)",
        "x.unbind(1)",
        "mapped",
        (floats("x", 2, 3, grad=False),),
        note="Forward only, as for torch.unbind (the MindSpore gradient of unbind fails on CPU).",
    ),
    Case(
        "torch.Tensor.gather",
        "x.gather(1, i)",
        "x.gather(1, i)",
        "mapped",
        (floats("x", 3, 5), labels("i", 3, 4, classes=5)),
        grad=True,
    ),
    Case(
        "torch.Tensor.index_select",
        "x.index_select(0, i)",
        "x.index_select(0, i)",
        "mapped",
        (floats("x", 5, 3), labels("i", 4, classes=5)),
        grad=True,
    ),
    Case(
        "torch.Tensor.masked_select",
        "x.masked_select(m)",
        "x.masked_select(m)",
        "mapped",
        (_X, mask("m", 3, 4)),
        grad=True,
    ),
    Case(
        "torch.Tensor.nonzero",
        "p.nonzero()",
        "p.nonzero()",
        "mapped",
        (mask("p", 3, 4),),
        note="Indices of the True elements, one row per element, in row-major order.",
    ),
    Case(
        "torch.Tensor.matmul",
        "a.matmul(b)",
        "a.matmul(b)",
        "mapped",
        (floats("a", 2, 3, 4), floats("b", 4, 5)),
        grad=True,
        note="Batched (2, 3, 4) times (4, 5): the second operand broadcasts.",
    ),
    Case(
        "torch.Tensor.bmm",
        "a.bmm(b)",
        "a.bmm(b)",
        "mapped",
        (floats("a", 2, 3, 4), floats("b", 2, 4, 5)),
        grad=True,
    ),
)

_FUNCTIONS: tuple[Case, ...] = (
    Case(
        "torch.einsum",
        "torch.einsum(eq, a, b)",
        "mint.einsum(eq, a, b)",
        "mapped",
        (floats("a", 2, 3, 3), floats("b", 2, 3, 3)),
        variants=(
            Variant("bij,bjk->bik", (("eq", "bij,bjk->bik"),)),
            Variant("bij,bkj->bik", (("eq", "bij,bkj->bik"),)),
            Variant("bij,bij->b", (("eq", "bij,bij->b"),)),
        ),
        grad=True,
    ),
    Case(
        "torch.conv2d",
        "torch.conv2d(x, w, b, stride=1, padding=1)",
        "mint.conv2d(x, w, b, stride=1, padding=1)",
        "same-name",
        (floats("x", 2, 3, 6, 6), floats("w", 4, 3, 3, 3), floats("b", 4)),
        grad=True,
        note="The functional alias of torch.nn.functional.conv2d.",
    ),
    Case(
        "torch.nn.functional.layer_norm",
        "F.layer_norm(x, (5,), w, b)",
        "mint.nn.functional.layer_norm(x, (5,), w, b)",
        "same-name",
        (floats("x", 3, 5, low=-2.0, high=2.0), floats("w", 5), floats("b", 5)),
        grad=True,
    ),
)

_MAIN: tuple[Case, ...] = (
    *_METADATA,
    *_CONVERSIONS,
    *_CREATION,
    *_INPLACE_CASES,
    *_ELEMENTWISE,
    *_COMPARISONS,
    *_REDUCTIONS,
    *_SHAPE_AND_INDEX,
    *_FUNCTIONS,
)


def _main(case_id: str) -> Case:
    """The case above with this id, to derive its CPU route from."""
    return next(c for c in _MAIN if c.case_id == case_id)


_EINSUM_NOTE = (
    "mint.einsum and ops.einsum run on Ascend (and GPU) only; on CPU one equation at a time is "
    "written with the op it stands for."
)

_CPU_ROUTES: tuple[Case, ...] = (
    _cpu(_main("torch.Tensor.clone"), "x.copy()", "equivalent", "Tensor.copy()."),
    _cpu(
        _main("torch.full"),
        "ops.full((2, 3), 1.5)",
        "mapped",
        "The 2.4 table's ops.full, marked consistent. Measured: without a dtype it infers "
        "int64 from the Python float and returns 1 for 1.5, where torch returns float32 1.5.",
    ),
    replace(
        _cpu(
            _main("torch.full"),
            "ops.full((2, 3), 1.5, dtype=ms.float32)",
            "mapped",
            "ops.full with the dtype given explicitly, which fixes the int64 inference.",
        ),
        pattern="dtype, cpu",
    ),
    _cpu(_main("torch.zeros_like"), "ops.zeros_like(x)", note="The 2.4 table's ops.zeros_like."),
    _cpu(_main("torch.ones_like"), "ops.ones_like(x)", note="The 2.4 table's ops.ones_like."),
    _cpu(_main("torch.arange"), "ops.arange(*a)", note="The 2.4 table's ops.arange."),
    _cpu(
        _main("torch.linspace"),
        "ops.linspace(-1.0, 2.0, 7)",
        note="The 2.4 table's ops.linspace.",
    ),
    _cpu(
        _main("torch.Tensor.sigmoid_"), "ops.sigmoid(x)", "equivalent", "Out of place, reassigned."
    ),
    _cpu(_main("torch.Tensor.zero_"), "ops.zeros_like(x)", "equivalent", "Out of place."),
    _cpu(_main("torch.Tensor.clamp_"), "x.clamp(-0.5, 0.5)", "equivalent", "Out of place."),
    _cpu(_main("torch.Tensor.fill_"), "ops.full_like(x, 0.7)", "equivalent", "Out of place."),
    _cpu(
        _main("torch.Tensor.masked_fill_"),
        "x.masked_fill(m, -1.0)",
        "equivalent",
        "Out of place.",
    ),
    _cpu(
        _main("torch.Tensor.roll"),
        "mint.cat((x[:, -1:], x[:, :-1]), dim=1)",
        "composed",
        "Tensor.roll, ops.roll and mint.roll all need the Roll kernel; a shift of 1 along "
        "dim 1 is the last column concatenated before the rest.",
    ),
    Case(
        "torch.einsum",
        "torch.einsum('bij,bjk->bik', a, b)",
        "ops.bmm(a, b)",
        "composed",
        (floats("a", 2, 3, 3), floats("b", 2, 3, 3)),
        pattern="bij,bjk->bik, cpu",
        grad=True,
        note=_EINSUM_NOTE,
    ),
    Case(
        "torch.einsum",
        "torch.einsum('bij,bij->b', a, b)",
        "(a * b).sum(axis=(1, 2))",
        "composed",
        (floats("a", 2, 3, 3), floats("b", 2, 3, 3)),
        pattern="bij,bij->b, cpu",
        grad=True,
        note=_EINSUM_NOTE,
    ),
    _cpu(
        _main("torch.conv2d"),
        "ops.conv2d(x, w, b, stride=1, pad_mode='pad', padding=1)",
        "equivalent",
        "ops.conv2d takes padding with pad_mode='pad'.",
    ),
    _cpu(
        _main("torch.nn.functional.layer_norm"),
        "ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)(x, w, b)[0]",
        "equivalent",
        "ops.layer_norm needs the same LayerNormExt kernel; the LayerNorm primitive returns "
        "(output, mean, variance) and its epsilon defaults to 1e-7, torch's eps to 1e-5.",
    ),
)

CASES: tuple[Case, ...] = (*_MAIN, *_CPU_ROUTES)
