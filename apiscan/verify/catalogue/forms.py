"""The mapping table's "consistent" claims, tested in the call forms real code uses.

A row that says ``torch.zeros`` ↔ ``mindspore.mint.zeros`` claims every call of the one works
as the same call of the other. The other catalogue modules check one convenient form; real
code writes sizes as separate arguments (``torch.zeros(1, n)``), omits the dimension
(``x.squeeze()``), passes a tensor where a dimension usually goes (``x.max(y)``) or relies on a
default (``nn.Flatten()``'s ``start_dim=1`` against ``mint.flatten``'s 0). Each case here runs
the row's target with exactly the PyTorch call's arguments — the claim as the table states it
— so a failing form is a documented form for which the row does not hold.

Each entry names the target the 2.6 table gives (a test keeps them in step with the shipped
table); the pattern is ``claim: <the call>``.
"""

from __future__ import annotations

import re

from apiscan.rewrite.template import convert_dtype
from apiscan.verify.cases import Case, InputSpec
from apiscan.verify.catalogue.inputs import floats, labels, mask

_X = floats("x", 3, 4)
_X3 = floats("x", 2, 3, 4)
_Y = floats("y", 3, 4)
_SQ = floats("x", 3, 1, 4, 1)
_IMG = floats("x", 2, 3, 8, 8)
_M = mask("m", 3, 4)


def _alias(target: str) -> str:
    """``mindspore.mint.flatten`` → ``mint.flatten`` (the harness namespace)."""
    for full, short in (
        ("mindspore.mint.", "mint."),
        ("mindspore.ops.", "ops."),
        ("mindspore.nn.", "msnn."),
    ):
        if target.startswith(full):
            return short + target[len(full) :]
    return target


def claim(
    api: str,
    target: str,
    torch_call: str,
    inputs: tuple[InputSpec, ...] = (_X,),
    probe: str = "{}",
    grad: bool = False,
    layer: tuple[tuple[str, str], ...] | None = None,
    on: str = "",
    tags: tuple[str, ...] = (),
) -> Case:
    """One form of a row's claim: ``torch_call`` is written with the PyTorch name (a method as
    ``x.max(y)``, a layer as ``torch.nn.Flatten()(x)``); the MindSpore side is the same text
    with the table's target in its place, torch dtypes written as MindSpore's
    (``dtype=torch.long`` → ``dtype=mindspore.int64``: the claim is about the call, not about
    which framework's dtype objects it is given).

    ``layer`` (the parameters to copy, torch name → MindSpore name; ``()`` for none) makes it
    a layer case: ``torch_call`` is only the constructor (``torch.nn.Conv2d(3, 4, 3,
    bias=False)``), both sides run in eval mode on the same weights, so layers with
    parameters and random layers (dropout) compare. ``on`` names the edge-case inputs of a
    generated form (``claim: torch.round(x) on nan``), ``tags`` are added to the case's."""
    name = api.rpartition(".")[2]
    if api.startswith("torch.Tensor."):
        ms_call = torch_call.replace(f".{name}(", f".{target.rpartition('.')[2]}(", 1)
    elif torch_call.startswith(f"{api}("):
        ms_call = _alias(target) + torch_call[len(api) :]
        if ")(" in ms_call and target.rpartition(".")[2][:1].islower():
            # A layer mapped to a function: the constructor's arguments follow the input.
            ctor, _, rest = ms_call.partition(")(")
            args = ctor[len(_alias(target)) + 1 :]
            ms_call = f"{_alias(target)}({rest[:-1]}{', ' + args if args else ''})"
    else:
        raise ValueError(f"{torch_call!r} does not call {api}")
    ms_call = _TORCH_DTYPE.sub(lambda m: convert_dtype(m.group(0)), ms_call)
    return Case(
        api,
        probe.format(torch_call),
        probe.format(ms_call),
        "mapped",
        inputs,
        pattern=f"claim: {torch_call}{' on ' + on if on else ''}",
        grad=grad,
        kind="layer" if layer is not None else "function",
        param_map=layer or (),
        note=f"The table's claim {api} ↔ {target}, in this call form.",
        tags=("claim", f"target={target}", *tags),
    )


_TORCH_DTYPE = re.compile(
    r"\btorch\.(float(16|32|64)?|double|half|bfloat16|u?int(8|16|32|64)|long|int|short|bool)\b"
)


_SHAPE = "{}.shape"

CASES: tuple[Case, ...] = (
    # nn.Flatten is a layer; the table maps it to the function mint.flatten (start_dim 0).
    claim("torch.nn.Flatten", "mindspore.mint.flatten", "torch.nn.Flatten()(x)", (_X3,)),
    claim("torch.nn.Flatten", "mindspore.mint.flatten", "torch.nn.Flatten(0)(x)", (_X3,)),
    claim("torch.flatten", "mindspore.mint.flatten", "torch.flatten(x)", (_X3,)),
    claim("torch.flatten", "mindspore.mint.flatten", "torch.flatten(x, 1)", (_X3,)),
    claim("torch.Tensor.flatten", "mindspore.Tensor.flatten", "x.flatten()", (_X3,)),
    claim("torch.Tensor.flatten", "mindspore.Tensor.flatten", "x.flatten(1)", (_X3,)),
    # Creation: sizes as separate arguments, as a tuple, one size.
    claim("torch.zeros", "mindspore.mint.zeros", "torch.zeros(2, 3)"),
    claim("torch.zeros", "mindspore.mint.zeros", "torch.zeros((2, 3))"),
    claim("torch.ones", "mindspore.mint.ones", "torch.ones(2, 3)"),
    claim("torch.ones", "mindspore.mint.ones", "torch.ones(4)"),
    claim("torch.empty", "mindspore.mint.empty", "torch.empty(2, 3)", probe=_SHAPE),
    claim("torch.rand", "mindspore.mint.rand", "torch.rand(2, 3)", probe=_SHAPE),
    claim("torch.randn", "mindspore.mint.randn", "torch.randn(2, 3)", probe=_SHAPE),
    claim("torch.randn", "mindspore.mint.randn", "torch.randn((2, 3))", probe=_SHAPE),
    claim("torch.full", "mindspore.mint.full", "torch.full((2, 3), 1.5)"),
    # Reductions with and without a dim, and the binary (other) overload.
    claim("torch.Tensor.max", "mindspore.Tensor.max", "x.max()"),
    claim("torch.Tensor.max", "mindspore.Tensor.max", "x.max(1)"),
    claim("torch.Tensor.max", "mindspore.Tensor.max", "x.max(dim=1, keepdim=True)"),
    claim("torch.Tensor.max", "mindspore.Tensor.max", "x.max(y)", (_X, _Y)),
    claim("torch.max", "mindspore.mint.max", "torch.max(x)"),
    claim("torch.max", "mindspore.mint.max", "torch.max(x, 1)"),
    claim("torch.max", "mindspore.mint.max", "torch.max(x, y)", (_X, _Y)),
    claim("torch.Tensor.min", "mindspore.Tensor.min", "x.min()"),
    claim("torch.Tensor.min", "mindspore.Tensor.min", "x.min(1)"),
    claim("torch.Tensor.min", "mindspore.Tensor.min", "x.min(y)", (_X, _Y)),
    claim("torch.min", "mindspore.mint.min", "torch.min(x, 1)"),
    claim("torch.min", "mindspore.mint.min", "torch.min(x, y)", (_X, _Y)),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum()"),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum(1)"),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum(dim=(0, 1))", (_X3,)),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum(-1, keepdim=True)"),
    claim("torch.sum", "mindspore.mint.sum", "torch.sum(x, 1)"),
    claim("torch.Tensor.mean", "mindspore.Tensor.mean", "x.mean()"),
    claim("torch.Tensor.mean", "mindspore.Tensor.mean", "x.mean(1)"),
    claim("torch.Tensor.mean", "mindspore.Tensor.mean", "x.mean((1, 2), keepdim=True)", (_X3,)),
    claim("torch.mean", "mindspore.mint.mean", "torch.mean(x, dim=0)"),
    claim("torch.Tensor.argmax", "mindspore.Tensor.argmax", "x.argmax()"),
    claim("torch.Tensor.argmax", "mindspore.Tensor.argmax", "x.argmax(1)"),
    claim("torch.argmax", "mindspore.mint.argmax", "torch.argmax(x, dim=1)"),
    claim("torch.std", "mindspore.mint.std", "torch.std(x)"),
    claim("torch.std", "mindspore.mint.std", "torch.std(x, 1)"),
    claim("torch.logsumexp", "mindspore.mint.logsumexp", "torch.logsumexp(x, 1)"),
    claim("torch.cumsum", "mindspore.mint.cumsum", "torch.cumsum(x, 1)"),
    claim("torch.Tensor.cumsum", "mindspore.Tensor.cumsum", "x.cumsum(1)"),
    claim("torch.Tensor.prod", "mindspore.Tensor.prod", "x.prod()"),
    claim("torch.Tensor.prod", "mindspore.Tensor.prod", "x.prod(1)"),
    claim("torch.Tensor.all", "mindspore.Tensor.all", "m.all()", (_M,)),
    claim("torch.Tensor.any", "mindspore.Tensor.any", "m.any(1)", (_M,)),
    claim("torch.norm", "mindspore.mint.norm", "torch.norm(x)"),
    claim("torch.norm", "mindspore.mint.norm", "torch.norm(x, dim=1)"),
    # Shape changes: no dim, one dim, sizes as varargs and as a tuple.
    claim("torch.squeeze", "mindspore.mint.squeeze", "torch.squeeze(x)", (_SQ,)),
    claim("torch.squeeze", "mindspore.mint.squeeze", "torch.squeeze(x, 1)", (_SQ,)),
    claim("torch.Tensor.squeeze", "mindspore.Tensor.squeeze", "x.squeeze()", (_SQ,)),
    claim("torch.Tensor.squeeze", "mindspore.Tensor.squeeze", "x.squeeze(1)", (_SQ,)),
    claim("torch.Tensor.squeeze", "mindspore.Tensor.squeeze", "x.squeeze(-1)", (_SQ,)),
    claim("torch.Tensor.unsqueeze", "mindspore.Tensor.unsqueeze", "x.unsqueeze(0)"),
    claim("torch.Tensor.view", "mindspore.Tensor.view", "x.view(4, 3)"),
    claim("torch.Tensor.view", "mindspore.Tensor.view", "x.view((4, 3))"),
    claim("torch.Tensor.view", "mindspore.Tensor.view", "x.view(-1)"),
    claim("torch.Tensor.view", "mindspore.Tensor.view", "x.view(x.shape[0], -1)", (_X3,)),
    claim("torch.Tensor.reshape", "mindspore.Tensor.reshape", "x.reshape(4, 3)"),
    claim("torch.Tensor.reshape", "mindspore.Tensor.reshape", "x.reshape((4, 3))"),
    claim("torch.reshape", "mindspore.mint.reshape", "torch.reshape(x, (-1,))"),
    claim("torch.Tensor.permute", "mindspore.Tensor.permute", "x.permute(2, 0, 1)", (_X3,)),
    claim("torch.Tensor.permute", "mindspore.Tensor.permute", "x.permute((2, 0, 1))", (_X3,)),
    claim("torch.permute", "mindspore.mint.permute", "torch.permute(x, (1, 0))"),
    claim("torch.Tensor.transpose", "mindspore.Tensor.swapaxes", "x.transpose(0, 1)"),
    claim("torch.Tensor.transpose", "mindspore.Tensor.swapaxes", "x.transpose(-1, -2)", (_X3,)),
    claim("torch.transpose", "mindspore.mint.transpose", "torch.transpose(x, 0, 1)"),
    claim(
        "torch.Tensor.expand_as",
        "mindspore.Tensor.expand_as",
        "x.expand_as(y)",
        (floats("x", 3, 1), _Y),
    ),
    claim(
        "torch.Tensor.repeat_interleave",
        "mindspore.Tensor.repeat_interleave",
        "x.repeat_interleave(2)",
    ),
    claim(
        "torch.Tensor.repeat_interleave",
        "mindspore.Tensor.repeat_interleave",
        "x.repeat_interleave(2, dim=0)",
    ),
    # Joining and splitting: tuple and list, dim keyword and position.
    claim("torch.cat", "mindspore.mint.cat", "torch.cat((x, y))", (_X, _Y)),
    claim("torch.cat", "mindspore.mint.cat", "torch.cat([x, y], dim=1)", (_X, _Y)),
    claim("torch.cat", "mindspore.mint.cat", "torch.cat([x, y], 1)", (_X, _Y)),
    claim("torch.stack", "mindspore.mint.stack", "torch.stack([x, y])", (_X, _Y)),
    claim("torch.stack", "mindspore.mint.stack", "torch.stack((x, y), dim=-1)", (_X, _Y)),
    claim("torch.Tensor.split", "mindspore.Tensor.split", "x.split(2, dim=1)"),
    claim("torch.Tensor.split", "mindspore.Tensor.split", "x.split([1, 3], dim=1)"),
    claim("torch.Tensor.split", "mindspore.Tensor.split", "x.split(1)"),
    claim("torch.split", "mindspore.mint.split", "torch.split(x, 2, 1)"),
    claim("torch.Tensor.chunk", "mindspore.Tensor.chunk", "x.chunk(2, 1)"),
    claim("torch.Tensor.chunk", "mindspore.Tensor.chunk", "x.chunk(3)"),
    claim("torch.chunk", "mindspore.mint.chunk", "torch.chunk(x, 2, dim=1)"),
    # Element-wise with scalar and keyword forms.
    claim("torch.clamp", "mindspore.mint.clamp", "torch.clamp(x, min=0)"),
    claim("torch.clamp", "mindspore.mint.clamp", "torch.clamp(x, max=0.5)"),
    claim("torch.clamp", "mindspore.mint.clamp", "torch.clamp(x, -0.5, 0.5)"),
    claim("torch.Tensor.clamp", "mindspore.Tensor.clamp", "x.clamp(min=0)"),
    claim("torch.Tensor.clamp", "mindspore.Tensor.clamp", "x.clamp(max=0.5)"),
    claim("torch.Tensor.pow", "mindspore.Tensor.pow", "x.pow(2)"),
    claim("torch.pow", "mindspore.mint.pow", "torch.pow(x, 2)"),
    claim("torch.pow", "mindspore.mint.pow", "torch.pow(2, x)"),
    claim("torch.where", "mindspore.mint.where", "torch.where(m, x, y)", (_M, _X, _Y)),
    claim("torch.where", "mindspore.mint.where", "torch.where(m, x, 0.0)", (_M, _X)),
    claim(
        "torch.Tensor.masked_fill",
        "mindspore.Tensor.masked_fill",
        "x.masked_fill(m, 0.0)",
        (_X, _M),
    ),
    claim("torch.Tensor.tril", "mindspore.Tensor.tril", "x.tril()"),
    claim("torch.Tensor.tril", "mindspore.Tensor.tril", "x.tril(1)"),
    claim("torch.flip", "mindspore.mint.flip", "torch.flip(x, (1,))"),
    claim("torch.flip", "mindspore.mint.flip", "torch.flip(x, [0, 1])"),
    claim("torch.roll", "mindspore.mint.roll", "torch.roll(x, 1)"),
    claim("torch.roll", "mindspore.mint.roll", "torch.roll(x, 1, 1)"),
    claim("torch.Tensor.roll", "mindspore.Tensor.roll", "x.roll(1, 1)"),
    claim("torch.sort", "mindspore.mint.sort", "torch.sort(x)"),
    claim("torch.sort", "mindspore.mint.sort", "torch.sort(x, dim=0, descending=True)"),
    claim("torch.Tensor.sort", "mindspore.Tensor.sort", "x.sort(1)"),
    claim(
        "torch.Tensor.index_select",
        "mindspore.Tensor.index_select",
        "x.index_select(1, i)",
        (_X, labels("i", 2, classes=4)),
    ),
    claim(
        "torch.Tensor.gather",
        "mindspore.Tensor.gather",
        "x.gather(1, i)",
        (_X, labels("i", 3, 2, classes=4)),
    ),
    claim("torch.Tensor.new_zeros", "mindspore.Tensor.new_zeros", "x.new_zeros((2, 3))"),
    claim("torch.Tensor.new_zeros", "mindspore.Tensor.new_zeros", "x.new_zeros(2, 3)"),
    claim("torch.linspace", "mindspore.mint.linspace", "torch.linspace(0, 1, 5)"),
    claim("torch.matmul", "mindspore.mint.matmul", "torch.matmul(x, y.T)", (_X, _Y)),
    claim("torch.einsum", "mindspore.mint.einsum", "torch.einsum('ij,kj->ik', x, y)", (_X, _Y)),
    # Functional and layers: defaults and keyword forms.
    claim(
        "torch.nn.functional.pad",
        "mindspore.mint.nn.functional.pad",
        "torch.nn.functional.pad(x, (1, 1))",
    ),
    claim(
        "torch.nn.functional.pad",
        "mindspore.mint.nn.functional.pad",
        "torch.nn.functional.pad(x, (1, 1, 2, 0), value=0.5)",
    ),
    claim(
        "torch.nn.functional.normalize",
        "mindspore.mint.nn.functional.normalize",
        "torch.nn.functional.normalize(x)",
    ),
    claim(
        "torch.nn.functional.normalize",
        "mindspore.mint.nn.functional.normalize",
        "torch.nn.functional.normalize(x, dim=-1)",
    ),
    claim(
        "torch.nn.functional.one_hot",
        "mindspore.mint.nn.functional.one_hot",
        "torch.nn.functional.one_hot(i, 5)",
        (labels("i", 4, classes=5),),
    ),
    claim(
        "torch.nn.functional.one_hot",
        "mindspore.mint.nn.functional.one_hot",
        "torch.nn.functional.one_hot(i)",
        (labels("i", 4, classes=5),),
    ),
    claim(
        "torch.nn.functional.softmax",
        "mindspore.mint.nn.functional.softmax",
        "torch.nn.functional.softmax(x, dim=-1)",
    ),
    claim(
        "torch.nn.functional.softmax",
        "mindspore.mint.nn.functional.softmax",
        "torch.nn.functional.softmax(x, 1)",
    ),
    claim(
        "torch.nn.functional.adaptive_avg_pool2d",
        "mindspore.mint.nn.functional.adaptive_avg_pool2d",
        "torch.nn.functional.adaptive_avg_pool2d(x, 1)",
        (_IMG,),
    ),
    claim(
        "torch.nn.functional.max_pool2d",
        "mindspore.mint.nn.functional.max_pool2d",
        "torch.nn.functional.max_pool2d(x, 2)",
        (_IMG,),
    ),
    claim(
        "torch.nn.functional.avg_pool2d",
        "mindspore.mint.nn.functional.avg_pool2d",
        "torch.nn.functional.avg_pool2d(x, 2)",
        (_IMG,),
    ),
    claim(
        "torch.nn.functional.gelu",
        "mindspore.mint.nn.functional.gelu",
        "torch.nn.functional.gelu(x, approximate='tanh')",
    ),
    claim(
        "torch.nn.AdaptiveAvgPool2d",
        "mindspore.mint.nn.AdaptiveAvgPool2d",
        "torch.nn.AdaptiveAvgPool2d(1)(x)",
        (_IMG,),
    ),
    claim(
        "torch.nn.AdaptiveAvgPool2d",
        "mindspore.mint.nn.AdaptiveAvgPool2d",
        "torch.nn.AdaptiveAvgPool2d((1, 1))(x)",
        (_IMG,),
    ),
    claim("torch.nn.AvgPool2d", "mindspore.mint.nn.AvgPool2d", "torch.nn.AvgPool2d(2)(x)", (_IMG,)),
    claim(
        "torch.nn.Upsample",
        "mindspore.mint.nn.Upsample",
        "torch.nn.Upsample(scale_factor=2)(x)",
        (_IMG,),
    ),
    claim(
        "torch.nn.Upsample",
        "mindspore.mint.nn.Upsample",
        "torch.nn.Upsample(scale_factor=2, mode='nearest')(x)",
        (_IMG,),
    ),
    claim("torch.nn.Softmax", "mindspore.mint.nn.Softmax", "torch.nn.Softmax(dim=1)(x)"),
    claim("torch.nn.Softmax", "mindspore.mint.nn.Softmax", "torch.nn.Softmax(1)(x)"),
    claim("torch.nn.GELU", "mindspore.mint.nn.GELU", "torch.nn.GELU(approximate='tanh')(x)"),
    claim("torch.nn.Identity", "mindspore.mint.nn.Identity", "torch.nn.Identity()(x)"),
)

# The forms the 60 most-called consistent APIs take in real detectors and classifiers
# (pytorch-image-models, YOLOX, detectron2): the keyword names and literal values their call
# sites pass, sizes as separate arguments and as a tuple, and the no-argument forms. Layers
# with weights run as layer cases (the same weights on both sides, eval mode).
_I = labels("i", 3, classes=4)
_WB = (("weight", "weight"), ("bias", "bias"))
_BN = (*_WB, ("running_mean", "running_mean"), ("running_var", "running_var"))
_F = "torch.nn.functional"
_MF = "mindspore.mint.nn.functional"

CORPUS_CASES: tuple[Case, ...] = (
    claim("torch.Tensor.reshape", "mindspore.Tensor.reshape", "x.reshape(2, -1, 2, 3)", (_X3,)),
    claim("torch.Tensor.reshape", "mindspore.Tensor.reshape", "x.reshape(-1, 4)", (_X3,)),
    claim("torch.Tensor.reshape", "mindspore.Tensor.reshape", "x.reshape(x.shape[0], -1)", (_X3,)),
    claim("torch.Tensor.view", "mindspore.Tensor.view", "x.view(2, 3, 2, 2)", (_X3,)),
    claim("torch.Tensor.view", "mindspore.Tensor.view", "x.view(1, -1, 4)", (_X3,)),
    claim(
        "torch.nn.Conv2d",
        "mindspore.mint.nn.Conv2d",
        "torch.nn.Conv2d(3, 4, 3, 1, 1)",
        (_IMG,),
        layer=_WB,
    ),
    claim(
        "torch.nn.Conv2d",
        "mindspore.mint.nn.Conv2d",
        "torch.nn.Conv2d(3, 4, kernel_size=1, stride=1, bias=False)",
        (_IMG,),
        layer=(("weight", "weight"),),
    ),
    claim(
        "torch.nn.Conv2d",
        "mindspore.mint.nn.Conv2d",
        "torch.nn.Conv2d(3, 3, 3, stride=2, padding=1, groups=3, bias=False)",
        (_IMG,),
        layer=(("weight", "weight"),),
    ),
    claim("torch.Tensor.permute", "mindspore.Tensor.permute", "x.permute(0, 2, 3, 1)", (_IMG,)),
    claim("torch.Tensor.transpose", "mindspore.Tensor.swapaxes", "x.transpose(1, 2)", (_X3,)),
    claim("torch.cat", "mindspore.mint.cat", "torch.cat([x, y], dim=-1)", (_X, _Y)),
    claim("torch.cat", "mindspore.mint.cat", "torch.cat((x, y), 0)", (_X, _Y)),
    claim("torch.cat", "mindspore.mint.cat", "torch.cat([x, y], axis=1)", (_X, _Y)),
    claim("torch.zeros", "mindspore.mint.zeros", "torch.zeros(1)"),
    claim("torch.zeros", "mindspore.mint.zeros", "torch.zeros(2, 3, dtype=torch.float32)"),
    claim("torch.zeros", "mindspore.mint.zeros", "torch.zeros(4, dtype=torch.long)"),
    claim("torch.zeros", "mindspore.mint.zeros", "torch.zeros((2, 3), dtype=torch.bool)"),
    claim("torch.nn.Dropout", "mindspore.mint.nn.Dropout", "torch.nn.Dropout(0.1)", layer=()),
    claim("torch.nn.Dropout", "mindspore.mint.nn.Dropout", "torch.nn.Dropout()", layer=()),
    claim(
        "torch.nn.Dropout",
        "mindspore.mint.nn.Dropout",
        "torch.nn.Dropout(p=0.1, inplace=True)",
        layer=(),
    ),
    claim("torch.empty", "mindspore.mint.empty", "torch.empty(4, dtype=torch.long)", probe=_SHAPE),
    claim("torch.empty", "mindspore.mint.empty", "torch.empty(())", probe="len({}.shape)"),
    claim("torch.empty", "mindspore.mint.empty", "torch.empty(0)", probe=_SHAPE),
    claim("torch.Tensor.unsqueeze", "mindspore.Tensor.unsqueeze", "x.unsqueeze(-1)"),
    claim("torch.Tensor.unsqueeze", "mindspore.Tensor.unsqueeze", "x.unsqueeze(dim=1)"),
    claim(
        "torch.Tensor.mean",
        "mindspore.Tensor.mean",
        "x.mean(dim=(2, 3), keepdim=True)",
        (_IMG,),
    ),
    claim("torch.Tensor.mean", "mindspore.Tensor.mean", "x.mean(dim=1)"),
    claim("torch.Tensor.mean", "mindspore.Tensor.mean", "x.mean(-1, keepdim=True)"),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum(dim=1)"),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum(dim=-1, keepdim=True)"),
    claim("torch.Tensor.sum", "mindspore.Tensor.sum", "x.sum(axis=-1)"),
    claim("torch.randn", "mindspore.mint.randn", "torch.randn(2, 3, 4, 4)", probe=_SHAPE),
    claim("torch.randn", "mindspore.mint.randn", "torch.randn(4)", probe=_SHAPE),
    claim(
        "torch.randn",
        "mindspore.mint.randn",
        "torch.randn(2, 3, dtype=torch.float32)",
        probe=_SHAPE,
    ),
    claim("torch.rand", "mindspore.mint.rand", "torch.rand(3, 4, 2)", probe=_SHAPE),
    claim("torch.rand", "mindspore.mint.rand", "torch.rand(1)", probe=_SHAPE),
    claim("torch.rand", "mindspore.mint.rand", "torch.rand((2, 3))", probe=_SHAPE),
    claim("torch.Tensor.item", "mindspore.Tensor.item", "x.item()", (floats("x", 1),)),
    claim("torch.Tensor.float", "mindspore.Tensor.float", "i.float()", (_I,)),
    claim("torch.Tensor.long", "mindspore.Tensor.long", "x.long()"),
    claim(
        "torch.nn.BatchNorm2d",
        "mindspore.mint.nn.BatchNorm2d",
        "torch.nn.BatchNorm2d(3)",
        (_IMG,),
        layer=_BN,
    ),
    claim(
        "torch.nn.BatchNorm2d",
        "mindspore.mint.nn.BatchNorm2d",
        "torch.nn.BatchNorm2d(3, eps=0.001, momentum=0.03)",
        (_IMG,),
        layer=_BN,
    ),
    claim("torch.Tensor.contiguous", "mindspore.Tensor.contiguous", "x.contiguous()"),
    claim(
        "torch.Tensor.contiguous",
        "mindspore.Tensor.contiguous",
        "x.contiguous(memory_format=torch.channels_last)",
        (_IMG,),
    ),
    claim("torch.allclose", "mindspore.mint.allclose", "torch.allclose(x, y)", (_X, _Y)),
    claim("torch.allclose", "mindspore.mint.allclose", "torch.allclose(x, x, atol=1e-5)"),
    claim("torch.Tensor.flatten", "mindspore.Tensor.flatten", "x.flatten(2)", (_IMG,)),
    claim("torch.Tensor.flatten", "mindspore.Tensor.flatten", "x.flatten(start_dim=2)", (_IMG,)),
    claim("torch.Tensor.flatten", "mindspore.Tensor.flatten", "x.flatten(1, 2)", (_IMG,)),
    claim("torch.nn.ReLU", "mindspore.mint.nn.ReLU", "torch.nn.ReLU()(x)"),
    claim("torch.nn.ReLU", "mindspore.mint.nn.ReLU", "torch.nn.ReLU(inplace=True)(x)"),
    claim("torch.nn.ReLU", "mindspore.mint.nn.ReLU", "torch.nn.ReLU(True)(x)"),
    claim("torch.stack", "mindspore.mint.stack", "torch.stack([x, y], dim=1)", (_X, _Y)),
    claim("torch.stack", "mindspore.mint.stack", "torch.stack([x, y], 1)", (_X, _Y)),
    claim("torch.ones", "mindspore.mint.ones", "torch.ones(1)"),
    claim("torch.ones", "mindspore.mint.ones", "torch.ones((2, 3), dtype=torch.bool)"),
    claim("torch.ones", "mindspore.mint.ones", "torch.ones(2, 3, dtype=torch.int32)"),
    claim("torch.zeros_like", "mindspore.mint.zeros_like", "torch.zeros_like(x)"),
    claim(
        "torch.zeros_like",
        "mindspore.mint.zeros_like",
        "torch.zeros_like(x, dtype=torch.int32)",
    ),
    claim(
        "torch.zeros_like",
        "mindspore.mint.zeros_like",
        "torch.zeros_like(x, memory_format=torch.preserve_format)",
    ),
    claim("torch.ones_like", "mindspore.mint.ones_like", "torch.ones_like(x)"),
    claim("torch.Tensor.numel", "mindspore.Tensor.numel", "x.numel()"),
    claim("torch.Tensor.dim", "mindspore.Tensor.ndimension", "x.dim()"),
    claim("torch.Tensor.unbind", "mindspore.Tensor.unbind", "x.unbind(0)"),
    claim("torch.Tensor.unbind", "mindspore.Tensor.unbind", "x.unbind()"),
    claim("torch.Tensor.unbind", "mindspore.Tensor.unbind", "x.unbind(dim=1)"),
    claim(f"{_F}.pad", f"{_MF}.pad", f"{_F}.pad(x, [1, 1, 1, 1])", (_IMG,)),
    claim(f"{_F}.pad", f"{_MF}.pad", f"{_F}.pad(x, (0, 1, 0, 1), mode='reflect')", (_IMG,)),
    claim(f"{_F}.pad", f"{_MF}.pad", f"{_F}.pad(x, [0, 1], value=1.)"),
    claim(f"{_F}.pad", f"{_MF}.pad", f"{_F}.pad(x, [1, 1, 1, 1], mode='circular')", (_IMG,)),
    claim("torch.Tensor.max", "mindspore.Tensor.max", "x.max(dim=0)"),
    claim("torch.Tensor.max", "mindspore.Tensor.max", "x.max(dim=-1, keepdim=True)"),
    claim(
        "torch.Tensor.squeeze", "mindspore.Tensor.squeeze", "x.squeeze(0)", (floats("x", 1, 3, 4),)
    ),
    claim("torch.Tensor.squeeze", "mindspore.Tensor.squeeze", "x.squeeze(dim=1)", (_SQ,)),
    claim("torch.Tensor.clamp", "mindspore.Tensor.clamp", "x.clamp(0, 1)"),
    claim("torch.Tensor.clamp", "mindspore.Tensor.clamp", "x.clamp(min=0, max=1)"),
    claim("torch.Tensor.clamp", "mindspore.Tensor.clamp", "x.clamp(min=1e-3)"),
    claim("torch.Tensor.clamp_", "mindspore.Tensor.clamp_", "x.clamp_(min=1e-3)"),
    claim("torch.Tensor.clamp_", "mindspore.Tensor.clamp_", "x.clamp_(0., 6.)"),
    claim("torch.Tensor.all", "mindspore.Tensor.all", "m.all(dim=1)", (_M,)),
    claim("torch.Tensor.any", "mindspore.Tensor.any", "m.any()", (_M,)),
    claim("torch.Tensor.any", "mindspore.Tensor.any", "m.any(dim=1)", (_M,)),
    claim("torch.Tensor.sqrt", "mindspore.Tensor.sqrt", "(x * x).sqrt()"),
    claim("torch.equal", "mindspore.mint.equal", "torch.equal(x, x)"),
    claim("torch.equal", "mindspore.mint.equal", "torch.equal(x, y)", (_X, _Y)),
    claim(
        "torch.nn.AvgPool2d",
        "mindspore.mint.nn.AvgPool2d",
        "torch.nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)(x)",
        (_IMG,),
    ),
    claim(
        "torch.nn.AvgPool2d",
        "mindspore.mint.nn.AvgPool2d",
        "torch.nn.AvgPool2d(2, stride=2)(x)",
        (_IMG,),
    ),
    claim("torch.nn.Flatten", "mindspore.mint.flatten", "torch.nn.Flatten(1)(x)", (_X3,)),
    claim("torch.clamp", "mindspore.mint.clamp", "torch.clamp(x, 0, 1)"),
    claim("torch.clamp", "mindspore.mint.clamp", "torch.clamp(x, min=0.0)"),
    claim("torch.split", "mindspore.mint.split", "torch.split(x, 2, dim=1)"),
    claim("torch.split", "mindspore.mint.split", "torch.split(x, [1, 3], dim=-1)"),
    claim("torch.max", "mindspore.mint.max", "torch.max(x, dim=1)"),
    claim("torch.max", "mindspore.mint.max", "torch.max(x, 1, keepdim=True)"),
    claim("torch.min", "mindspore.mint.min", "torch.min(x, dim=0)"),
    claim("torch.Tensor.argmax", "mindspore.Tensor.argmax", "x.argmax(dim=1)"),
    claim("torch.Tensor.argmax", "mindspore.Tensor.argmax", "x.argmax(1, keepdim=True)"),
    claim(
        "torch.nn.CrossEntropyLoss",
        "mindspore.mint.nn.CrossEntropyLoss",
        "torch.nn.CrossEntropyLoss()",
        (_X, _I),
        layer=(),
    ),
    claim(
        "torch.nn.CrossEntropyLoss",
        "mindspore.mint.nn.CrossEntropyLoss",
        "torch.nn.CrossEntropyLoss(reduction='none')",
        (_X, _I),
        layer=(),
    ),
    claim(
        "torch.nn.CrossEntropyLoss",
        "mindspore.mint.nn.CrossEntropyLoss",
        "torch.nn.CrossEntropyLoss(ignore_index=1)",
        (_X, _I),
        layer=(),
    ),
    claim("torch.einsum", "mindspore.mint.einsum", "torch.einsum('ij,jk->ik', x, y.T)", (_X, _Y)),
    claim(
        "torch.nn.ConvTranspose2d",
        "mindspore.mint.nn.ConvTranspose2d",
        "torch.nn.ConvTranspose2d(3, 4, 2, stride=2)",
        (_IMG,),
        layer=_WB,
    ),
    claim(
        "torch.nn.ConvTranspose2d",
        "mindspore.mint.nn.ConvTranspose2d",
        "torch.nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1)",
        (_IMG,),
        layer=_WB,
    ),
    claim("torch.exp", "mindspore.mint.exp", "torch.exp(x)"),
    claim("torch.full", "mindspore.mint.full", "torch.full((2, 3), 0.5, dtype=torch.float32)"),
    claim("torch.full", "mindspore.mint.full", "torch.full((2,), 1, dtype=torch.int64)"),
    claim("torch.Tensor.sigmoid", "mindspore.Tensor.sigmoid", "x.sigmoid()"),
)
CASES = (*CASES, *CORPUS_CASES)  # one tuple for the catalogue
