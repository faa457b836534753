"""Every verification case, gathered from the catalogue modules.

Pure data: importing this never imports torch or MindSpore, so ``apiscan.suggest`` and the
scan can read the substitutions cheaply.
"""

from __future__ import annotations

from apiscan.verify.cases import Case
from apiscan.verify.catalogue import (
    everyday,
    forms,
    functional,
    layers,
    nn_extra,
    optim,
    seed_examples,
    templated,
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
    *templated.CASES,
    *forms.CASES,
)


_BY_API: dict[str, tuple[Case, ...]] = {}
for _case in CASES:
    _BY_API[_case.api] = (*_BY_API.get(_case.api, ()), _case)


def cases_for(api: str) -> tuple[Case, ...]:
    """The cases of one PyTorch API (all its argument patterns), in catalogue order; the
    scan asks this for every API it links, so the answer is a dictionary lookup."""
    return _BY_API.get(api, ())
