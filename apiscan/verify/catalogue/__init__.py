"""Every verification case, gathered from the catalogue modules.

Pure data: importing this never imports torch or MindSpore, so ``apiscan.suggest`` and the
scan can read the substitutions cheaply.
"""

from __future__ import annotations

from apiscan.verify.cases import FLOAT_ONLY_TAG, Case
from apiscan.verify.catalogue import (
    candidates,
    compositions,
    differences,
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
    *differences.CASES,
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


#: A case's tag saying MindSpore has no kernel for it on a device, and which kernel
#: (``no-kernel=CPU:InplaceUniform``): the case is skipped there ("kernel unregistered"), as
#: measured when the case was written.
NO_KERNEL_TAG = "no-kernel="


def device_limit(api: str, device: str = "CPU") -> str:
    """Why no case of ``api`` can give a verdict on ``device``; "" when one can, or when
    there is no case: a command recommended for a CPU machine must run something there.
    Read from the cases' tags: no MindSpore is run to find out."""
    found = cases_for(api)
    kernels = [
        t.partition(":")[2]
        for c in found
        for t in c.tags
        if t.partition(":")[0] == f"{NO_KERNEL_TAG}{device}"
    ]
    if not found or len(kernels) < len(found):
        return ""
    named = " / ".join(dict.fromkeys(k for k in kernels if k))
    return f"MindSpore has no {device} kernel{f' {named}' if named else ''} for it"


def float_only(api: str) -> tuple[str, ...]:
    """The parameters of ``api`` MindSpore takes only as a float where torch also takes an
    int (``scale_factor`` of ``torch.nn.Upsample``), read from its hand-written cases' tags
    (:data:`~apiscan.verify.cases.FLOAT_ONLY_TAG`): no MindSpore is run to find out."""
    return tuple(
        dict.fromkeys(
            t.removeprefix(FLOAT_ONLY_TAG)
            for c in _BY_API.get(api, ())
            for t in c.tags
            if t.startswith(FLOAT_ONLY_TAG)
        )
    )
