"""The MindTorch route: which PyTorch APIs ``mindtorch.torch`` provides.

The data is generated statically from the mindtorch wheel by ``scripts/gen_mindtorch.py``
(``mapping_data/mindtorch/``); it is a lower bound (dynamic registration is not seen).
"""

from __future__ import annotations

import json
from functools import cache

from apiscan.mapping.store import mapping_data_dir

VERSION = "0.4.0"


@cache
def provided() -> frozenset[str]:
    """The torch API names MindTorch provides (empty when the data is not shipped)."""
    path = mapping_data_dir() / "mindtorch" / f"mindtorch-{VERSION}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return frozenset()
    return frozenset(data.get("apis", ()))


def covers(api: str) -> bool | None:
    """Whether MindTorch provides ``api`` (None when the data is missing)."""
    names = provided()
    if not names:
        return None
    if api in names:
        return True
    # mindtorch's Tensor subclasses MindSpore's: what mindspore.Tensor has, it has too.
    head, _, name = api.rpartition(".")
    if head == "torch.Tensor":
        from apiscan.mapping.candidates import load_candidates

        index = load_candidates()
        return bool(index and index.candidate(api) == f"mindspore.Tensor.{name}")
    return False
