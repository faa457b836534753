"""Optimizers' update rules and learning-rate schedules, checked step by step.

An optimizer case starts one parameter from the same random values on both sides, feeds the
same gradient at each of four steps and compares the parameter after every step, so that a
difference in the update rule (bias correction, where weight decay enters, Nesterov's
look-ahead) shows at the first step where it matters. MindSpore's
``mindspore.experimental.optim`` classes take torch's argument names and are what the 2.6
mapping table names; the older ``mindspore.nn`` optimizers (``learning_rate=``) are checked
too where the table lists them, since much ported code still uses them.

A scheduler case records the learning rate after each of eight scheduler steps over a plain
SGD optimizer (lr 0.1).
"""

from __future__ import annotations

from apiscan.verify.cases import Case, Variant
from apiscan.verify.catalogue.inputs import floats

_STEPS = 4
_SCHEDULE_STEPS = 8
_EXPERIMENTAL = "ms.experimental.optim"


def _optimizer(
    name: str,
    args: str,
    ms_expr: str | None = None,
    pattern: str = "",
    variants: tuple[Variant, ...] = (Variant("default"),),
    note: str = "",
    threshold: float | None = None,
) -> Case:
    """``torch.optim.<name>(params, <args>)`` against MindSpore's experimental optimizer of
    the same name and arguments unless ``ms_expr`` says otherwise."""
    return Case(
        f"torch.optim.{name}",
        f"torch.optim.{name}(params, {args})",
        ms_expr or f"{_EXPERIMENTAL}.{name}(params, {args})",
        "mapped",
        (floats("w", 4, 5), floats("g", _STEPS, 4, 5)),
        pattern=pattern,
        variants=variants,
        kind="optimizer",
        note=note,
        threshold=threshold,
    )


def _scheduler(name: str, args: str, note: str = "") -> Case:
    """``torch.optim.lr_scheduler.<name>(opt, <args>)`` against MindSpore's experimental
    scheduler of the same name and arguments."""
    return Case(
        f"torch.optim.lr_scheduler.{name}",
        f"torch.optim.lr_scheduler.{name}(opt, {args})",
        f"{_EXPERIMENTAL}.lr_scheduler.{name}(opt, {args})",
        "mapped",
        (floats("w", 2, 3), floats("g", _SCHEDULE_STEPS, 2, 3)),
        kind="scheduler",
        note=note,
    )


def _wd(*values: float) -> tuple[Variant, ...]:
    return tuple(Variant(f"weight_decay={v:g}", (("wd", v),)) for v in values)


CASES: tuple[Case, ...] = (
    _optimizer(
        "SGD",
        "lr=0.1, momentum=m, nesterov=n, weight_decay=wd",
        variants=(
            Variant("plain", (("m", 0.0), ("n", False), ("wd", 0.0))),
            Variant("momentum=0.9 wd=1e-2", (("m", 0.9), ("n", False), ("wd", 1e-2))),
            Variant("nesterov", (("m", 0.9), ("n", True), ("wd", 5e-4))),
        ),
    ),
    _optimizer(
        "SGD",
        "lr=0.1, momentum=0.9, weight_decay=1e-2",
        "msnn.SGD(params, learning_rate=0.1, momentum=0.9, weight_decay=1e-2)",
        pattern="mindspore.nn.SGD",
        note="The older mindspore.nn.SGD (learning_rate=, gradients passed as a tuple).",
    ),
    _optimizer("Adam", "lr=0.01, weight_decay=wd", variants=_wd(0.0, 1e-2)),
    _optimizer("Adam", "lr=0.01, amsgrad=True", pattern="amsgrad"),
    _optimizer(
        "Adam",
        "lr=0.01",
        "msnn.Adam(params, learning_rate=0.01)",
        pattern="mindspore.nn.Adam",
        note="The older mindspore.nn.Adam: torch's default eps 1e-8 is also MindSpore's.",
    ),
    _optimizer("AdamW", "lr=0.01, weight_decay=wd", variants=_wd(1e-2, 0.1)),
    _optimizer("Adamax", "lr=0.01"),
    _optimizer("NAdam", "lr=0.01"),
    _optimizer("RAdam", "lr=0.01"),
    _optimizer("Adagrad", "lr=0.1"),
    _optimizer("Adadelta", "lr=1.0"),
    _optimizer(
        "RMSprop",
        "lr=0.01, momentum=m",
        variants=(
            Variant("momentum=0", (("m", 0.0),)),
            Variant("momentum=0.9", (("m", 0.9),)),
        ),
    ),
    _optimizer("Rprop", "lr=0.01"),
    _optimizer("ASGD", "lr=0.01"),
    _scheduler("StepLR", "step_size=3, gamma=0.5"),
    _scheduler("MultiStepLR", "milestones=[2, 5], gamma=0.1"),
    _scheduler("ExponentialLR", "gamma=0.9"),
    _scheduler("CosineAnnealingLR", "T_max=6, eta_min=0.001"),
    _scheduler("CosineAnnealingWarmRestarts", "T_0=3, T_mult=2"),
    _scheduler("LinearLR", "start_factor=0.1, total_iters=4"),
    _scheduler("ConstantLR", "factor=0.5, total_iters=3"),
    _scheduler("PolynomialLR", "total_iters=6, power=2.0"),
    _scheduler("LambdaLR", "lr_lambda=lambda epoch: 0.95 ** epoch"),
    _scheduler("MultiplicativeLR", "lr_lambda=lambda epoch: 0.9"),
    _scheduler("CyclicLR", "base_lr=0.01, max_lr=0.1, step_size_up=3"),
)
