"""Name-based candidates: a MindSpore API of the same name for an API the tables lack.

The official mapping tables leave out many everyday APIs (``Tensor.clone``, ``Tensor.add_``,
``torch.float32``). When MindSpore has an API of the same name in ``mint``, ``ops``, ``nn`` or
``Tensor``, the API is not simply "missing": it has a *candidate*, which stays unverified until
a micro-test of the verification catalogue shows that it computes the same (then the scan calls
it *verified*; see :mod:`apiscan.verify.lookup`). A same name proves nothing by itself —
``mindspore.nn.Dense`` and ``torch.nn.Linear`` differ in name, ``ops.split`` and
``torch.split`` share one but not the meaning of their second argument — which is why the
status says "candidate" rather than "consistent".

The names MindSpore has come from ``mapping_data/ms_api/mindspore-<version>.json``, written
by ``scripts/gen_ms_names.py`` from the pinned MindSpore, so a scan never imports MindSpore.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from apiscan.mapping.store import mapping_data_dir

FORMAT_VERSION: Final = 1
DATA_DIR: Final = mapping_data_dir() / "ms_api"

#: The namespaces the generator lists (``module`` or ``module:Class`` for methods).
NAMESPACES: tuple[str, ...] = (
    "mindspore",
    "mindspore:Tensor",
    "mindspore.mint",
    "mindspore.mint.nn",
    "mindspore.mint.nn.functional",
    "mindspore.mint.linalg",
    "mindspore.mint.special",
    "mindspore.mint.optim",
    "mindspore.mint.distributed",
    "mindspore.ops",
    "mindspore.nn",
    "mindspore.nn:Cell",
    "mindspore.experimental.optim",
    "mindspore.experimental.optim.lr_scheduler",
)

#: Where a same-name counterpart may live, per PyTorch prefix (longest prefix first; the
#: first namespace that has the name wins). ``torch.nn.init`` has none: MindSpore's
#: initialisers are classes with other names (``XavierUniform``).
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("torch.Tensor.", ("mindspore:Tensor",)),
    ("torch.nn.functional.", ("mindspore.mint.nn.functional", "mindspore.ops")),
    ("torch.nn.init.", ()),
    ("torch.nn.Module.", ("mindspore.nn:Cell",)),
    ("torch.nn.", ("mindspore.mint.nn", "mindspore.nn")),
    ("torch.linalg.", ("mindspore.mint.linalg", "mindspore.ops")),
    ("torch.special.", ("mindspore.mint.special", "mindspore.ops")),
    ("torch.optim.lr_scheduler.", ("mindspore.experimental.optim.lr_scheduler",)),
    ("torch.optim.", ("mindspore.experimental.optim", "mindspore.mint.optim")),
    ("torch.distributed.", ("mindspore.mint.distributed",)),
    ("torch.", ("mindspore.mint", "mindspore.ops", "mindspore")),
)


class CandidateIndex:
    """Answers "which MindSpore API has the same name as this PyTorch one?"."""

    def __init__(self, data: Mapping[str, object]) -> None:
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"MindSpore name index format {data.get('format')!r}")
        self.mindspore_version = str(data["mindspore_version"])
        namespaces = data["namespaces"]
        assert isinstance(namespaces, Mapping)
        self._names = {ns: frozenset(names) for ns, names in namespaces.items()}

    def candidate(self, api: str) -> str | None:
        """The dotted MindSpore name of the same-name counterpart of ``api``, or None.

        Only a one-identifier tail counts (``torch.Tensor.add_`` → ``add_``): a nested member
        such as ``torch.optim.Optimizer.zero_grad`` would need the owner's mapping first.
        """
        for prefix, namespaces in RULES:
            if not api.startswith(prefix):
                continue
            tail = api[len(prefix) :]
            if not tail.isidentifier():
                return None
            for ns in namespaces:
                if tail in self._names.get(ns, ()):
                    return f"{ns.replace(':', '.')}.{tail}"
            return None
        return None


@functools.cache
def load_candidates(data_dir: Path = DATA_DIR) -> CandidateIndex | None:
    """The newest shipped name index (None when there is none: candidates are then off)."""
    files = sorted(
        data_dir.glob("mindspore-*.json"),
        key=lambda p: tuple(int(x) for x in p.stem.split("-", 1)[1].split(".") if x.isdigit()),
    )
    if not files:
        return None
    return CandidateIndex(json.loads(files[-1].read_text(encoding="utf-8")))
