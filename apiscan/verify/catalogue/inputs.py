"""Short constructors for input specs, so that a catalogue row fits on a line or two."""

from __future__ import annotations

from apiscan.verify.cases import InputSpec


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
