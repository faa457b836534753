"""Short constructors for input specs and common cases, so a catalogue row fits on a line."""

from __future__ import annotations

import re

from apiscan.verify.cases import Case, InputSpec, Variant


def floats(
    name: str, *shape: int, low: float = -1.0, high: float = 1.0, grad: bool = True
) -> InputSpec:
    """A float input in the run's dtype, uniform in [low, high)."""
    return InputSpec(name, tuple(shape), "float", low, high, grad)


def labels(name: str, *shape: int, classes: int) -> InputSpec:
    """Class indices in [0, classes), int64 as both frameworks' losses expect."""
    return InputSpec(name, tuple(shape), "int", 0, classes, grad=False)


def binary(name: str, *shape: int) -> InputSpec:
    """0/1 targets in the run's float dtype (binary cross-entropy, focal loss)."""
    return InputSpec(name, tuple(shape), "binary", 0, 1, grad=False)


def mask(name: str, *shape: int) -> InputSpec:
    """A random boolean condition (where, masked_fill)."""
    return InputSpec(name, tuple(shape), "bool", 0, 1, grad=False)


def unary(api: str, ms_api: str, low: float = -2.0, high: float = 2.0, grad: bool = True) -> Case:
    """An element-wise function of one tensor; gradient checked unless piecewise constant."""
    return Case(
        api,
        f"{api}(x)",
        f"{ms_api}(x)",
        "mapped",
        (floats("x", 3, 4, low=low, high=high, grad=grad),),
        grad=grad,
    )


def dims(*values: int) -> tuple[Variant, ...]:
    """One variant per ``dim`` value."""
    return tuple(Variant(f"dim={d}", (("dim", d),)) for d in values)


_SPEC = re.compile(
    r"(?P<name>\w+)=(?P<kind>float|int|bool|binary|sign|complex)\[(?P<shape>[\d,]*)\]"
    r"(?:@(?P<low>-?[\d.]+):(?P<high>-?[\d.]+))?(?:!(?P<special>\w+))?$"
)


def parse_inputs(text: str) -> tuple[InputSpec, ...]:
    """``x=float[3,4]!nan;i=int[3,2]@0:3`` → input specs (kind, shape, range, special)."""
    specs = []
    for part in filter(None, text.split(";")):
        found = _SPEC.match(part)
        if not found:
            raise ValueError(f"bad input spec {part!r}")
        shape = tuple(int(d) for d in found["shape"].split(",") if d)
        kind = found["kind"]
        low, high = (-1.0, 1.0) if kind != "bool" else (0.0, 1.0)
        if found["low"] is not None:
            low, high = float(found["low"]), float(found["high"])
        specs.append(
            InputSpec(
                found["name"],
                shape,
                kind,  # type: ignore[arg-type]
                low,
                high,
                grad=False,
                special=found["special"] or "",  # type: ignore[arg-type]
            )
        )
    return tuple(specs)


def parse_layer(text: str) -> tuple[tuple[str, str], ...] | None:
    """The ``layer`` column: empty for a call, ``-`` for a layer without weights, else
    ``torch_name:ms_name`` pairs."""
    if not text:
        return None
    if text == "-":
        return ()
    return tuple(tuple(pair.split(":", 1)) for pair in text.split(","))  # type: ignore[misc]
