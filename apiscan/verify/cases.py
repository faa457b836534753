"""The declarative format of a verification case.

A case says how one PyTorch API (optionally one argument pattern of it) is reproduced in
MindSpore and how to test the claim numerically. Both sides are Python expressions, kept as
strings: the string shown to the user as the substitution is the very one the harness runs,
so the advice cannot drift from what was verified, and a case stays hashable data that the
scan can read without importing torch or MindSpore.

Expression namespace (see ``apiscan.verify.harness``): ``torch``, ``F`` (torch.nn.functional),
``ms`` (mindspore), ``ops``, ``mint``, ``msnn`` (mindspore.nn), ``np``, every input by its
name and every parameter of the current variant by its name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

#: How a case reproduces the API: ``mapped`` runs the target the official mapping table
#: names; ``same-name`` runs a MindSpore API of the same name that the table does not list
#: (a name-based candidate: the case is what verifies it); ``equivalent`` another API that
#: computes the same (Squeeze → Reshape); ``composed`` several APIs; ``custom`` a custom op.
Strategy = Literal["mapped", "same-name", "equivalent", "composed", "custom"]
STRATEGIES: tuple[Strategy, ...] = ("mapped", "same-name", "equivalent", "composed", "custom")
InputKind = Literal["float", "binary", "sign", "int", "bool", "boxes", "complex"]
#: Special values or layouts an input may carry (hypothesis-style edge cases): ``nan`` and
#: ``inf`` plant NaN / ±inf among the drawn values, ``noncontig`` hands both frameworks a
#: transposed (non-contiguous) view holding the same values, ``unique`` makes an int input's
#: values distinct along its last axis (scatter indices: a duplicate makes torch's result
#: depend on the order of writes), ``planes`` makes them distinct over each ``(N, C)`` plane
#: (every axis after the first two: max-unpooling indices, which scatter into a plane), and
#: ``spd`` makes a float input's last two axes a symmetric positive-definite matrix
#: (Cholesky factorisations reject anything else). An empty input is a shape with a zero
#: dimension.
Special = Literal["", "nan", "inf", "noncontig", "unique", "planes", "spd"]
SPECIALS: tuple[Special, ...] = ("", "nan", "inf", "noncontig", "unique", "planes", "spd")
#: How the two expressions are used: see :class:`Case`.
CaseKind = Literal["function", "layer", "optimizer", "scheduler"]
CASE_KINDS: tuple[CaseKind, ...] = ("function", "layer", "optimizer", "scheduler")
#: Default comparison threshold per floating dtype (issue 4: 1e-5 is normal for float32).
DEFAULT_THRESHOLDS: dict[str, float] = {"float32": 1e-5, "float16": 1e-3}
FLOAT_DTYPES = ("float32", "float16")


@dataclass(frozen=True)
class InputSpec:
    """One random input: drawn with numpy from a fixed seed, so both frameworks see the same
    values. ``float`` inputs follow the run's dtype (``--dtype``), as do ``binary`` ones (0.0
    or 1.0: labels and targets) and ``sign`` ones (-1.0 or 1.0: the targets of hinge and
    ranking losses); ``int`` (int64) and ``bool`` keep theirs; ``boxes`` are
    float32 ``(N, 4)`` ``(x1, y1, x2, y2)`` boxes with corners in [low, high) and sides of
    1 to half that range (detection ops); ``complex`` ones are complex64 with real and
    imaginary parts uniform in [low, high) (``torch.imag``, ``view_as_real``). ``low``/``high``
    bound the values (ints: ``high`` exclusive). ``grad`` false keeps a float input out of
    the gradient check. ``special`` adds NaN/inf values or a non-contiguous layout (see
    :data:`SPECIALS`); an empty input is a shape with a zero dimension."""

    name: str
    shape: tuple[int, ...]
    kind: InputKind = "float"
    low: float = -1.0
    high: float = 1.0
    grad: bool = True
    special: Special = ""


@dataclass(frozen=True)
class Variant:
    """A parameter setting that matters (an axis, a flag, a mode), bound by name in both
    expressions. ``label`` names it in reports."""

    label: str
    params: tuple[tuple[str, object], ...] = ()


#: A case's tag naming a parameter MindSpore takes only as a float where torch also takes an
#: int (``float-only=scale_factor``: ``mint.nn.Upsample(scale_factor=2)`` raises TypeError,
#: ``2.0`` runs), as measured when the case was written; the review reads it to flag calls
#: that pass an int.
FLOAT_ONLY_TAG = "float-only="


@dataclass(frozen=True)
class Case:
    """One PyTorch API, its MindSpore counterpart and how to check that they agree.

    ``kind`` says how the expressions are used:

    - ``function``: ``torch_expr``/``ms_expr`` compute the output from the inputs.
    - ``layer`` (implied by a non-empty ``param_map``): they construct the module and the
      cell; the harness copies the torch parameters and buffers into the cell by
      ``param_map`` (torch name, MindSpore name), puts both in eval mode and calls them on
      the inputs in order. With ``grad`` the gradients of the mapped parameters are compared
      as well as those of the inputs.
    - ``optimizer``: they construct an optimizer over ``params`` (a list holding one
      parameter initialised from the first input); the second input holds one gradient per
      step along its first axis. The harness sets each gradient and steps (torch:
      ``p.grad = g; opt.step()``, MindSpore: ``opt((g,))``); the output is the parameter
      after every step, so a wrong update rule shows at the step where it diverges.
    - ``scheduler``: they construct a learning-rate scheduler over ``opt``, a plain SGD
      optimizer (lr 0.1) over the same parameter; after each optimizer step the scheduler
      steps and the learning rate is recorded: the output is that sequence.
    """

    api: str
    torch_expr: str
    ms_expr: str
    strategy: Strategy
    inputs: tuple[InputSpec, ...]
    pattern: str = ""
    variants: tuple[Variant, ...] = (Variant("default"),)
    threshold: float | None = None
    grad: bool = False
    kind: CaseKind = "function"
    param_map: tuple[tuple[str, str], ...] = ()
    note: str = ""
    tags: tuple[str, ...] = field(default=())

    @property
    def is_layer(self) -> bool:
        return self.kind == "layer" or bool(self.param_map)

    @property
    def steps(self) -> int:
        """Optimizer and scheduler cases: the number of steps (the gradient input's first
        dimension)."""
        return self.inputs[1].shape[0] if len(self.inputs) > 1 else 0

    @property
    def case_id(self) -> str:
        """Unique within the catalogue: an API may have several cases, one per pattern."""
        return f"{self.api}[{self.pattern}]" if self.pattern else self.api

    def threshold_for(self, dtype: str) -> float:
        """The case's own threshold for float32 scaled like the default for other dtypes."""
        if self.threshold is None:
            return DEFAULT_THRESHOLDS[dtype]
        return self.threshold * DEFAULT_THRESHOLDS[dtype] / DEFAULT_THRESHOLDS["float32"]

    def spec_hash(self) -> str:
        """Changes whenever anything that affects the result changes; keys the cache."""
        return hashlib.sha256(repr(self).encode()).hexdigest()[:16]


def validate(case: Case) -> list[str]:
    """Problems that make a case unrunnable, found without torch or MindSpore: the
    catalogue test runs this over every case."""
    problems: list[str] = []
    where = case.case_id
    if not case.api.startswith(("torch.", "torchvision.")):
        problems.append(f"{where}: api must be a dotted torch or torchvision name")
    if case.strategy not in STRATEGIES:
        problems.append(f"{where}: unknown strategy {case.strategy!r}")
    if not case.inputs:
        problems.append(f"{where}: no inputs")
    if case.kind not in CASE_KINDS:
        problems.append(f"{where}: unknown kind {case.kind!r}")
    if case.kind in ("optimizer", "scheduler") and (
        len(case.inputs) != 2 or case.inputs[1].shape[1:] != case.inputs[0].shape
    ):
        problems.append(
            f"{where}: an {case.kind} case takes a parameter and its per-step gradients "
            "(shape (steps, *parameter shape))"
        )
    names = [i.name for i in case.inputs]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate input names")
    for spec in case.inputs:
        if spec.low >= spec.high:
            problems.append(f"{where}: input {spec.name} has an empty value range")
        if any(d < 0 for d in spec.shape):
            problems.append(f"{where}: input {spec.name} has a negative dimension")
        if spec.kind == "boxes" and (len(spec.shape) != 2 or spec.shape[1] != 4):
            problems.append(f"{where}: input {spec.name}: boxes have shape (N, 4)")
        if spec.special not in SPECIALS:
            problems.append(f"{where}: input {spec.name} has an unknown special {spec.special!r}")
        if spec.special in ("nan", "inf") and spec.kind != "float":
            problems.append(f"{where}: input {spec.name}: NaN/inf need a float input")
        if spec.special == "unique" and (
            spec.kind != "int" or not spec.shape or spec.shape[-1] > spec.high - spec.low
        ):
            problems.append(f"{where}: input {spec.name}: too few distinct values for unique")
        if spec.special == "planes" and (
            spec.kind != "int"
            or len(spec.shape) < 3
            or _product(spec.shape[2:]) > spec.high - spec.low
        ):
            problems.append(f"{where}: input {spec.name}: too few distinct values for planes")
        if spec.special == "spd" and (
            spec.kind != "float" or len(spec.shape) < 2 or spec.shape[-1] != spec.shape[-2]
        ):
            problems.append(f"{where}: input {spec.name}: spd needs square float matrices")
        if spec.special == "noncontig" and len(spec.shape) < 2:
            problems.append(f"{where}: input {spec.name}: a non-contiguous view needs 2 dims")
    if not case.variants:
        problems.append(f"{where}: no variants")
    labels = [v.label for v in case.variants]
    if len(set(labels)) != len(labels):
        problems.append(f"{where}: duplicate variant labels")
    for expr in (case.torch_expr, case.ms_expr):
        try:
            compile(expr, where, "eval")
        except SyntaxError as exc:
            problems.append(f"{where}: expression does not parse: {exc.msg}")
    if case.threshold is not None and case.threshold <= 0:
        problems.append(f"{where}: threshold must be positive")
    return problems


def _product(dims: tuple[int, ...]) -> int:
    out = 1
    for d in dims:
        out *= d
    return out
