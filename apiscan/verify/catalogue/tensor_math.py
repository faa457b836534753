"""Mapped tensor-math APIs checked numerically: element-wise arithmetic, comparison, reduction,
shape and indexing functions of ``torch`` and methods of ``torch.Tensor``.

Each case runs the MindSpore target that the official mapping table names (``mint.`` for the
2.6 table, ``Tensor`` methods for the method rows), so that the table's claim is what gets
verified. Where a ``mint.`` function has no CPU kernel a second case, pattern ``ops``, runs the
``ops.`` equivalent the 2.4 table names, so that the API can still be checked on CPU.
"""

from __future__ import annotations

from dataclasses import replace

from apiscan.verify.cases import Case, Variant
from apiscan.verify.catalogue.inputs import dims, floats, labels, mask, unary


def _binary(api: str, ms_api: str, grad: bool = True, low: float = -2.0) -> Case:
    """An element-wise function of two tensors, the second broadcast along the first axis."""
    return Case(
        api,
        f"{api}(a, b)",
        f"{ms_api}(a, b)",
        "mapped",
        (floats("a", 3, 4, low=low, high=2.0, grad=grad), floats("b", 4, low=low, high=2.0)),
        grad=grad,
    )


def _method(api: str, call: str, inputs: tuple = (), grad: bool = True, **kw: object) -> Case:
    """A ``torch.Tensor`` method mapped to the ``mindspore.Tensor`` method of the same call."""
    return Case(
        api,
        f"x.{call}",
        f"x.{call}",
        "mapped",
        (floats("x", 3, 4), *inputs),
        grad=grad,
        **kw,  # type: ignore[arg-type]
    )


_OPS_NOTE = (
    "mint target has no CPU kernel in MindSpore 2.10; this is the ops. target of the "
    "2.4 mapping table, verifiable on CPU."
)


def _on_cpu(api: str, torch_expr: str, ms_expr: str, inputs: tuple, **kw: object) -> Case:
    """The ``ops.`` equivalent (2.4 table) of a ``mint.`` target without a CPU kernel, with
    inputs of its own (see :func:`_ops_route` for one that reuses the mapped case's)."""
    return Case(
        api,
        torch_expr,
        ms_expr,
        "mapped",
        inputs,
        pattern="ops",
        note=_OPS_NOTE,
        **kw,  # type: ignore[arg-type]
    )


_MAPPED: tuple[Case, ...] = (
    # Element-wise, one tensor.
    unary("torch.neg", "mint.neg"),
    unary("torch.reciprocal", "mint.reciprocal", low=0.1, high=4.0),
    unary("torch.rsqrt", "mint.rsqrt", low=0.1, high=4.0),
    unary("torch.sin", "mint.sin"),
    unary("torch.cos", "mint.cos"),
    unary("torch.tan", "mint.tan", low=-0.9, high=0.9),
    unary("torch.asin", "mint.asin", low=-0.9, high=0.9),
    unary("torch.acos", "mint.acos", low=-0.9, high=0.9),
    unary("torch.atan", "mint.atan"),
    unary("torch.sinh", "mint.sinh"),
    unary("torch.cosh", "mint.cosh"),
    unary("torch.exp2", "mint.exp2"),
    unary("torch.log1p", "mint.log1p", low=-0.9, high=0.9),
    unary("torch.log2", "mint.log2", low=0.1, high=4.0),
    unary("torch.log10", "mint.log10", low=0.1, high=4.0),
    unary("torch.expm1", "mint.expm1"),
    unary("torch.erf", "mint.erf"),
    unary("torch.erfinv", "mint.erfinv", low=-0.9, high=0.9),
    unary("torch.square", "mint.square"),
    unary("torch.floor", "mint.floor", grad=False),
    unary("torch.ceil", "mint.ceil", grad=False),
    unary("torch.round", "mint.round", grad=False),
    unary("torch.trunc", "mint.trunc", grad=False),
    unary("torch.frac", "mint.frac"),
    unary("torch.sign", "mint.sign", grad=False),
    # Element-wise, two tensors.
    _binary("torch.add", "mint.add"),
    _binary("torch.sub", "mint.sub"),
    _binary("torch.mul", "mint.mul"),
    _binary("torch.div", "mint.div", low=0.5),
    _binary("torch.pow", "mint.pow", low=0.5),
    _binary("torch.maximum", "mint.maximum"),
    _binary("torch.minimum", "mint.minimum"),
    _binary("torch.atan2", "mint.atan2"),
    _binary("torch.fmod", "mint.fmod", grad=False, low=0.5),
    _binary("torch.remainder", "mint.remainder", grad=False, low=0.5),
    _binary("torch.eq", "mint.eq", grad=False),
    _binary("torch.ne", "mint.ne", grad=False),
    _binary("torch.gt", "mint.gt", grad=False),
    _binary("torch.lt", "mint.lt", grad=False),
    _binary("torch.le", "mint.le", grad=False),
    Case(
        "torch.add",
        "torch.add(a, b, alpha=0.5)",
        "mint.add(a, b, alpha=0.5)",
        "mapped",
        (floats("a", 3, 4), floats("b", 3, 4)),
        pattern="alpha",
        grad=True,
    ),
    Case(
        "torch.lerp",
        "torch.lerp(a, b, 0.3)",
        "mint.lerp(a, b, 0.3)",
        "mapped",
        (floats("a", 3, 4), floats("b", 3, 4)),
        grad=True,
    ),
    Case(
        "torch.logical_and",
        "torch.logical_and(p, q)",
        "mint.logical_and(p, q)",
        "mapped",
        (mask("p", 3, 4), mask("q", 3, 4)),
    ),
    Case(
        "torch.logical_or",
        "torch.logical_or(p, q)",
        "mint.logical_or(p, q)",
        "mapped",
        (mask("p", 3, 4), mask("q", 3, 4)),
    ),
    Case(
        "torch.logical_not",
        "torch.logical_not(p)",
        "mint.logical_not(p)",
        "mapped",
        (mask("p", 3, 4),),
    ),
    # Reductions.
    Case(
        "torch.any",
        "torch.any(p, dim=dim)",
        "mint.any(p, dim=dim)",
        "mapped",
        (mask("p", 3, 4),),
        variants=dims(0, 1),
    ),
    Case(
        "torch.all",
        "torch.all(p, dim=dim)",
        "mint.all(p, dim=dim)",
        "mapped",
        (mask("p", 3, 4),),
        variants=dims(0, 1),
    ),
    Case(
        "torch.amax",
        "torch.amax(x, dim=dim)",
        "mint.amax(x, dim=dim)",
        "mapped",
        (floats("x", 3, 4, 5),),
        variants=dims(0, -1),
        grad=True,
    ),
    Case(
        "torch.amin",
        "torch.amin(x, dim=dim)",
        "mint.amin(x, dim=dim)",
        "mapped",
        (floats("x", 3, 4, 5),),
        variants=dims(0, -1),
        grad=True,
    ),
    Case(
        "torch.min",
        "torch.min(x, dim=dim)",
        "mint.min(x, dim=dim)",
        "mapped",
        (floats("x", 3, 6),),
        pattern="dim",
        variants=dims(0, 1),
        grad=True,
        note="Values and indices are both compared.",
    ),
    Case(
        "torch.argmin",
        "torch.argmin(x, dim=dim)",
        "mint.argmin(x, dim=dim)",
        "mapped",
        (floats("x", 3, 6),),
        variants=dims(0, 1),
    ),
    Case(
        "torch.prod",
        "torch.prod(x, dim=dim)",
        "mint.prod(x, dim=dim)",
        "mapped",
        (floats("x", 3, 4, low=0.5, high=1.5),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.cumsum",
        "torch.cumsum(x, dim=dim)",
        "mint.cumsum(x, dim=dim)",
        "mapped",
        (floats("x", 3, 5),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.cumprod",
        "torch.cumprod(x, dim=dim)",
        "mint.cumprod(x, dim=dim)",
        "mapped",
        (floats("x", 3, 5, low=0.5, high=1.5),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.std",
        "torch.std(x, dim=dim)",
        "mint.std(x, dim=dim)",
        "mapped",
        (floats("x", 4, 6),),
        variants=dims(0, 1),
        grad=True,
        note="Default correction (Bessel, N-1) on both sides.",
    ),
    Case(
        "torch.var",
        "torch.var(x, dim=dim)",
        "mint.var(x, dim=dim)",
        "mapped",
        (floats("x", 4, 6),),
        variants=dims(0, 1),
        grad=True,
        note="Default correction (Bessel, N-1) on both sides.",
    ),
    Case(
        "torch.norm",
        "torch.norm(x, p=p, dim=1)",
        "mint.norm(x, p=p, dim=1)",
        "mapped",
        (floats("x", 3, 5),),
        variants=(Variant("p=2", (("p", 2),)), Variant("p=1", (("p", 1),))),
        grad=True,
    ),
    Case(
        "torch.logsumexp",
        "torch.logsumexp(x, dim=dim)",
        "mint.logsumexp(x, dim=dim)",
        "mapped",
        (floats("x", 3, 5, low=-4.0, high=4.0),),
        variants=dims(0, 1),
        grad=True,
    ),
    Case(
        "torch.argsort",
        "torch.argsort(x, dim=-1, descending=d)",
        "mint.argsort(x, dim=-1, descending=d)",
        "mapped",
        (floats("x", 3, 7),),
        variants=(Variant("ascending", (("d", False),)), Variant("descending", (("d", True),))),
    ),
    Case(
        "torch.trace",
        "torch.trace(x)",
        "mint.trace(x)",
        "mapped",
        (floats("x", 4, 4),),
        grad=True,
    ),
    # Shape and layout.
    Case(
        "torch.flip",
        "torch.flip(x, (0, 2))",
        "mint.flip(x, (0, 2))",
        "mapped",
        (floats("x", 2, 3, 4),),
        grad=True,
    ),
    Case(
        "torch.roll",
        "torch.roll(x, 2, 1)",
        "mint.roll(x, 2, 1)",
        "mapped",
        (floats("x", 3, 5),),
        grad=True,
    ),
    Case(
        "torch.tile",
        "torch.tile(x, (2, 3))",
        "mint.tile(x, (2, 3))",
        "mapped",
        (floats("x", 2, 3),),
        grad=True,
    ),
    Case(
        "torch.chunk",
        "torch.chunk(x, 3, dim=1)",
        "mint.chunk(x, 3, dim=1)",
        "mapped",
        (floats("x", 2, 7),),
        grad=True,
        note="7 columns in 3 chunks: uneven sizes 3, 3, 1 on both sides.",
    ),
    Case(
        "torch.split",
        "torch.split(x, s, dim=1)",
        "mint.split(x, s, dim=1)",
        "mapped",
        (floats("x", 2, 7),),
        variants=(Variant("size=3", (("s", 3),)), Variant("sizes=[2,5]", (("s", [2, 5]),))),
        grad=True,
    ),
    Case(
        "torch.unbind",
        "torch.unbind(x, dim=1)",
        "mint.unbind(x, dim=1)",
        "mapped",
        (floats("x", 2, 3, grad=False),),
        note="Forward only: on CPU the MindSpore gradient of unbind fails with 'The "
        "pointer[input_tensor] is null' (MindSpore 2.10).",
    ),
    Case(
        "torch.narrow",
        "torch.narrow(x, 1, 1, 2)",
        "mint.narrow(x, 1, 1, 2)",
        "mapped",
        (floats("x", 3, 5),),
        grad=True,
    ),
    Case(
        "torch.broadcast_to",
        "torch.broadcast_to(x, (2, 3, 4))",
        "mint.broadcast_to(x, (2, 3, 4))",
        "mapped",
        (floats("x", 3, 1),),
        grad=True,
    ),
    Case(
        "torch.tril",
        "torch.tril(x, diagonal=k)",
        "mint.tril(x, diagonal=k)",
        "mapped",
        (floats("x", 4, 5),),
        variants=(Variant("k=0", (("k", 0),)), Variant("k=-1", (("k", -1),))),
        grad=True,
    ),
    Case(
        "torch.triu",
        "torch.triu(x, diagonal=k)",
        "mint.triu(x, diagonal=k)",
        "mapped",
        (floats("x", 4, 5),),
        variants=(Variant("k=0", (("k", 0),)), Variant("k=1", (("k", 1),))),
        grad=True,
    ),
    Case(
        "torch.diff",
        "torch.diff(x, dim=-1)",
        "mint.diff(x, dim=-1)",
        "mapped",
        (floats("x", 3, 5),),
        grad=True,
    ),
    # Indexing.
    Case(
        "torch.gather",
        "torch.gather(x, 1, i)",
        "mint.gather(x, 1, i)",
        "mapped",
        (floats("x", 3, 5), labels("i", 3, 4, classes=5)),
        grad=True,
    ),
    Case(
        "torch.index_select",
        "torch.index_select(x, 0, i)",
        "mint.index_select(x, 0, i)",
        "mapped",
        (floats("x", 5, 3), labels("i", 4, classes=5)),
        grad=True,
    ),
    Case(
        "torch.scatter",
        "torch.scatter(x, 1, i, s)",
        "mint.scatter(x, 1, i, s)",
        "mapped",
        (floats("x", 3, 5), labels("i", 3, 1, classes=5), floats("s", 3, 1)),
        note="One index per row, so no duplicate targets whose write order could differ.",
    ),
    # Linear algebra.
    Case(
        "torch.mm",
        "torch.mm(a, b)",
        "mint.mm(a, b)",
        "mapped",
        (floats("a", 3, 4), floats("b", 4, 5)),
        grad=True,
    ),
    Case(
        "torch.addmm",
        "torch.addmm(c, a, b, beta=0.5, alpha=2.0)",
        "mint.addmm(c, a, b, beta=0.5, alpha=2.0)",
        "mapped",
        (floats("c", 3, 5), floats("a", 3, 4), floats("b", 4, 5)),
        grad=True,
    ),
    Case(
        "torch.baddbmm",
        "torch.baddbmm(c, a, b)",
        "mint.baddbmm(c, a, b)",
        "mapped",
        (floats("c", 2, 3, 5), floats("a", 2, 3, 4), floats("b", 2, 4, 5)),
        grad=True,
    ),
    Case(
        "torch.outer",
        "torch.outer(a, b)",
        "mint.outer(a, b)",
        "mapped",
        (floats("a", 4), floats("b", 3)),
        grad=True,
    ),
    Case(
        "torch.cross",
        "torch.cross(a, b, dim=1)",
        "mint.cross(a, b, dim=1)",
        "mapped",
        (floats("a", 4, 3), floats("b", 4, 3)),
        grad=True,
    ),
    Case(
        "torch.diag",
        "torch.diag(x)",
        "ops.diag(x)",
        "mapped",
        (floats("x", 4),),
        pattern="vector",
        grad=True,
    ),
    Case(
        "torch.cdist",
        "torch.cdist(a, b)",
        "mint.cdist(a, b)",
        "mapped",
        (floats("a", 2, 4, 3), floats("b", 2, 5, 3)),
        grad=True,
    ),
    # torch.Tensor methods.
    _method("torch.Tensor.view", "view(2, 6)"),
    _method("torch.Tensor.flatten", "flatten()"),
    _method("torch.Tensor.unsqueeze", "unsqueeze(1)"),
    Case(
        "torch.Tensor.squeeze",
        "x.squeeze(1)",
        "x.squeeze(1)",
        "mapped",
        (floats("x", 3, 1, 4),),
        grad=True,
    ),
    _method("torch.Tensor.permute", "permute(1, 0)"),
    _method("torch.Tensor.reshape", "reshape(4, 3)"),
    _method("torch.Tensor.contiguous", "contiguous()"),
    Case(
        "torch.Tensor.transpose",
        "x.transpose(0, 1)",
        "x.swapaxes(0, 1)",
        "mapped",
        (floats("x", 3, 4),),
        grad=True,
    ),
    Case(
        "torch.Tensor.expand",
        "x.expand(2, 3, 4)",
        "x.broadcast_to((2, 3, 4))",
        "mapped",
        (floats("x", 3, 1),),
        grad=True,
    ),
    Case(
        "torch.Tensor.repeat",
        "x.repeat(2, 3)",
        "x.tile((2, 3))",
        "mapped",
        (floats("x", 2, 3),),
        grad=True,
    ),
    Case(
        "torch.Tensor.masked_fill",
        "x.masked_fill(m, -1.0)",
        "x.masked_fill(m, -1.0)",
        "mapped",
        (floats("x", 3, 4), mask("m", 3, 4)),
        grad=True,
    ),
    Case(
        "torch.Tensor.view_as",
        "x.view_as(y)",
        "x.view_as(y)",
        "mapped",
        (floats("x", 3, 4), floats("y", 4, 3, grad=False)),
        grad=True,
    ),
    Case(
        "torch.Tensor.expand_as",
        "x.expand_as(y)",
        "x.expand_as(y)",
        "mapped",
        (floats("x", 3, 1), floats("y", 2, 3, 4, grad=False)),
        grad=True,
    ),
    _method("torch.Tensor.add", "add(x)"),
    _method("torch.Tensor.mul", "mul(x)"),
    _method("torch.Tensor.pow", "pow(2)"),
    _method("torch.Tensor.sum", "sum(dim=1)"),
    _method("torch.Tensor.mean", "mean(dim=0)"),
    _method("torch.Tensor.max", "max(dim=1)", note="Values and indices are both compared."),
    _method("torch.Tensor.argmax", "argmax(dim=1)", grad=False),
    _method("torch.Tensor.abs", "abs()"),
    _method("torch.Tensor.exp", "exp()"),
    _method("torch.Tensor.clamp", "clamp(-0.5, 0.5)"),
    _method("torch.Tensor.tril", "tril()"),
    _method("torch.Tensor.chunk", "chunk(2, dim=1)"),
    _method("torch.Tensor.split", "split(2, dim=1)"),
)


def _ops_route(api: str, ms_expr: str) -> Case:
    """The mapped case of ``api``, run through the ``ops.`` target of the 2.4 table instead
    (same inputs, variants and gradient check)."""
    [twin] = [c for c in _MAPPED if c.api == api and not c.pattern]
    return replace(twin, ms_expr=ms_expr, pattern="ops", note=_OPS_NOTE)


CASES: tuple[Case, ...] = (
    *_MAPPED,
    # ops. counterparts of mint targets without a CPU kernel: the mapped case through the
    # ops. target (_ops_route), or with inputs of its own where those differ (_on_cpu).
    _ops_route("torch.asin", "ops.asin(x)"),
    _ops_route("torch.acos", "ops.acos(x)"),
    _on_cpu("torch.atan", "torch.atan(x)", "ops.atan(x)", (floats("x", 3, 4),), grad=True),
    _on_cpu("torch.exp2", "torch.exp2(x)", "ops.exp2(x)", (floats("x", 3, 4),), grad=True),
    _ops_route("torch.log2", "ops.log2(x)"),
    _ops_route("torch.log10", "ops.log10(x)"),
    _on_cpu("torch.frac", "torch.frac(x)", "ops.frac(x)", (floats("x", 3, 4, low=-2.0, high=2.0),)),
    _on_cpu(
        "torch.atan2",
        "torch.atan2(a, b)",
        "ops.atan2(a, b)",
        (floats("a", 3, 4), floats("b", 4)),
        grad=True,
    ),
    _ops_route("torch.argmin", "ops.argmin(x, axis=dim)"),
    _ops_route("torch.cumsum", "ops.cumsum(x, axis=dim)"),
    _ops_route("torch.std", "ops.std(x, axis=dim, ddof=1)"),
    _ops_route("torch.var", "ops.var(x, axis=dim, ddof=1)"),
    _ops_route("torch.norm", "ops.norm(x, ord=p, dim=1)"),
    _ops_route("torch.logsumexp", "ops.logsumexp(x, dim)"),
    _ops_route("torch.argsort", "ops.argsort(x, axis=-1, descending=d)"),
    _ops_route("torch.trace", "ops.trace(x)"),
    _ops_route("torch.tril", "ops.tril(x, diagonal=k)"),
    _ops_route("torch.index_select", "ops.index_select(x, 0, i)"),
    _ops_route("torch.mm", "ops.mm(a, b)"),
    _ops_route("torch.addmm", "ops.addmm(c, a, b, beta=0.5, alpha=2.0)"),
    _ops_route("torch.baddbmm", "ops.baddbmm(c, a, b)"),
    _ops_route("torch.outer", "ops.outer(a, b)"),
)
