"""Every verification case, gathered from the catalogue modules.

Pure data: importing this never imports torch or MindSpore, so ``apiscan.suggest`` and the
scan can read the substitutions cheaply.
"""

from __future__ import annotations

from apiscan.verify.cases import Case
from apiscan.verify.catalogue import functional, layers, seed_examples

CASES: tuple[Case, ...] = (*seed_examples.CASES, *functional.CASES, *layers.CASES)


def cases_for(api: str) -> tuple[Case, ...]:
    """The cases of one PyTorch API (all its argument patterns), in catalogue order."""
    return tuple(c for c in CASES if c.api == api)
