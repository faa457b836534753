"""Every verification case, gathered from the catalogue modules.

Pure data: importing this never imports torch or MindSpore, so ``apiscan.suggest`` and the
scan can read the substitutions cheaply.
"""

from __future__ import annotations

from apiscan.verify.cases import Case
from apiscan.verify.catalogue import (
    candidates,
    compositions,
    documented,
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

HAND_WRITTEN: tuple[Case, ...] = (
    *seed_examples.CASES,
    *functional.CASES,
    *layers.CASES,
    *tensor_math.CASES,
    *nn_extra.CASES,
    *optim.CASES,
    *everyday.CASES,
    *templated.CASES,
    *forms.CASES,
    *compositions.CASES,
    *candidates.CASES,
)


_BY_API: dict[str, tuple[Case, ...]] = {}
for _case in HAND_WRITTEN:
    _BY_API[_case.api] = (*_BY_API.get(_case.api, ()), _case)


def cases_for(api: str) -> tuple[Case, ...]:
    """The cases of one PyTorch API (all its argument patterns), in catalogue order: the
    hand-written ones, then the documented forms generated from its signature (built on
    first request: the scan asks this for every API it links)."""
    written = _BY_API.get(api, ())
    return written + documented.for_api(api, frozenset(c.case_id for c in written))


def __getattr__(name: str) -> tuple[Case, ...]:
    """``CASES``: every case, hand-written then generated, built when first asked for."""
    if name != "CASES":
        raise AttributeError(name)
    every = HAND_WRITTEN + tuple(
        case
        for api in documented.apis()
        for case in documented.for_api(api, frozenset(c.case_id for c in _BY_API.get(api, ())))
    )
    globals()["CASES"] = every
    return every
