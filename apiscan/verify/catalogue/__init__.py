"""Every verification case, gathered from the catalogue modules.

Pure data: importing this never imports torch or MindSpore, so ``apiscan.suggest`` and the
scan can read the substitutions cheaply.
"""

from __future__ import annotations

from apiscan.verify.cases import Case
from apiscan.verify.catalogue import (
    everyday,
    functional,
    layers,
    nn_extra,
    optim,
    seed_examples,
    tensor_math,
)

CASES: tuple[Case, ...] = (
    *seed_examples.CASES,
    *functional.CASES,
    *layers.CASES,
    *tensor_math.CASES,
    *nn_extra.CASES,
    *optim.CASES,
    *everyday.CASES,
)


def cases_for(api: str) -> tuple[Case, ...]:
    """The cases of one PyTorch API (all its argument patterns), in catalogue order."""
    return tuple(c for c in CASES if c.api == api)
