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

import csv
import re
from importlib import resources

from apiscan.rewrite.template import convert_dtype
from apiscan.verify.cases import Case, InputSpec
from apiscan.verify.catalogue.inputs import floats, parse_inputs, parse_layer

_X = floats("x", 3, 4)


def alias(target: str) -> str:
    """``mindspore.mint.flatten`` → ``mint.flatten`` (the harness namespace)."""
    for full, short in (
        ("mindspore.mint.", "mint."),
        ("mindspore.ops.", "ops."),
        ("mindspore.nn.", "msnn."),
        ("mindspore.", "ms."),
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
        ms_call = alias(target) + torch_call[len(api) :]
        if ")(" in ms_call and target.rpartition(".")[2][:1].islower():
            # A layer mapped to a function: the constructor's arguments follow the input.
            ctor, _, rest = ms_call.partition(")(")
            args = ctor[len(alias(target)) + 1 :]
            ms_call = f"{alias(target)}({rest[:-1]}{', ' + args if args else ''})"
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


TABLE = "claim_forms.csv"


def _load() -> tuple[Case, ...]:
    """The hand-picked forms, one line of ``claim_forms.csv`` each: the API, the target the
    table names, the PyTorch call, its inputs (``x=float[2,3,4];m=bool[3,4]``), the probe
    around the call (``{}.shape`` for random creation) and, for a layer, the parameters to
    copy (``weight:weight,bias:bias``; ``-`` for none)."""
    text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
    return tuple(
        claim(
            row["api"],
            row["target"],
            row["call"],
            parse_inputs(row["inputs"]),
            probe=row["probe"],
            layer=parse_layer(row["layer"]),
        )
        for row in csv.DictReader(text.splitlines())
    )


#: The sections of the table: creation with sizes as separate arguments and as a tuple;
#: reductions with and without a dim and the binary (``other``) overload; shape changes;
#: joining and splitting; element-wise scalar and keyword forms; functional and layers with
#: their defaults; then the forms the 60 most-called consistent APIs take in real detectors
#: and classifiers (pytorch-image-models, YOLOX, detectron2): the keyword names and literal
#: values their call sites pass, sizes as separate arguments and as a tuple, the no-argument
#: forms, layers with weights as layer cases (the same weights on both sides, eval mode).
CASES: tuple[Case, ...] = _load()
