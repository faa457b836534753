"""Name-based candidates: a MindSpore API of the same name for an API the tables lack.

The official mapping tables leave out many everyday APIs (``Tensor.clone``, ``Tensor.add_``,
``torch.float32``). When MindSpore has an API of the same name in ``mint``, ``ops``, ``nn`` or
``Tensor``, the API is not simply "missing": it has a *candidate*, which stays unverified until
a micro-test of the verification catalogue shows that it computes the same (then the scan calls
it *verified*; see :mod:`apiscan.verify.lookup`). A same name proves nothing by itself —
``mindspore.nn.Dense`` and ``torch.nn.Linear`` differ in name, ``ops.split`` and
``torch.split`` share one but not the meaning of their second argument — which is why the
status says "candidate" rather than "consistent".

A same name is not enough either when the objects are of different kinds: ``torch.dtype`` (a
class) is not ``mindspore.ops.dtype`` (a function returning a tensor's dtype), ``torch.Size`` (a
tuple class) is not ``ops.Size`` (a primitive counting elements). So the index records each
MindSpore name's kind, positional arity and parameter names, and a candidate must be of the
same kind as the PyTorch API (class↔class, function↔function, method↔method,
attribute↔attribute), accept the PyTorch API's required positional arguments, and share a
name with them when there are several (``Tensor.unfold`` is no candidate: MindSpore's is
im2col).

Besides same-name lookups in the mirror namespace, :data:`MOVES` lists the obvious namespace
moves the tables leave out (``torch.cuda`` runtime calls live in ``mindspore.runtime``,
``ModuleList.append`` is ``nn.CellList.append``, samplers are ``mindspore.dataset``'s). Each is
reviewed by hand and checked against the installed MindSpore by the tests.

The names MindSpore has come from ``mapping_data/ms_api/mindspore-<version>.json``, written
by ``scripts/gen_ms_names.py`` from the pinned MindSpore, so a scan never imports MindSpore.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from apiscan.mapping.store import mapping_data_dir

FORMAT_VERSION: Final = 2
#: Format 1 (names without kinds) is still read: every kind then counts as compatible.
_READABLE_FORMATS: Final = (1, 2)
DATA_DIR: Final = mapping_data_dir() / "ms_api"

#: MindSpore's page of its dtypes (``mindspore.dtype``): each dtype with its width and the
#: other names it goes by (``mindspore.int64``, ``mindspore.long``: 64-bit integer).
DTYPE_PAGE: Final = (
    "https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.dtype.html"
)
#: torch dtype constants whose MindSpore namesake :data:`DTYPE_PAGE` lists as the same dtype
#: (same kind, same width). The official mapping tables say nothing of dtypes, so these stay
#: candidates, but no micro-test is needed to trust them: a use is a rename.
SAME_DTYPES: Final = frozenset(
    {
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "short",
        "int32",
        "int",
        "int64",
        "long",
        "float16",
        "half",
        "bfloat16",
        "float32",
        "float",
        "float64",
        "double",
        "complex64",
        "cfloat",
        "complex128",
        "cdouble",
    }
)


def same_dtype(api: str) -> bool:
    """Whether ``api`` is a torch dtype constant MindSpore documents under the same name."""
    return api.startswith("torch.") and api.removeprefix("torch.") in SAME_DTYPES


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
    "mindspore.runtime",
    "mindspore.common.initializer",
    "mindspore.dataset",
    "mindspore.dataset.vision",
    "mindspore.dataset.transforms",
    "mindspore.nn:CellList",
    "mindspore.nn:SequentialCell",
    "mindspore.nn:CellDict",
    "mindspore:Generator",
)

#: Namespace moves the tables leave out: (PyTorch prefix, MindSpore namespace, names the move
#: covers or None for every name, why). A same-name, same-kind API in the MindSpore namespace
#: is the candidate. Reviewed by hand against MindSpore's documentation; tests check each
#: namespace and the examples exist in the installed MindSpore.
MOVES: tuple[tuple[str, str, frozenset[str] | None, str], ...] = (
    (
        "torch.cuda.",
        "mindspore.runtime",
        None,
        "MindSpore's device runtime calls (memory, streams, events, synchronisation) live in "
        "mindspore.runtime",
    ),
    (
        "torch.nn.ModuleList.",
        "mindspore.nn:CellList",
        None,
        "the tables map torch.nn.ModuleList to mindspore.nn.CellList",
    ),
    (
        "torch.nn.Sequential.",
        "mindspore.nn:SequentialCell",
        None,
        "the tables map torch.nn.Sequential to mindspore.nn.SequentialCell",
    ),
    (
        # r2.4.0 pytorch_api_mapping.md:449 torch.nn.ModuleDict → mindspore.nn.CellDict
        "torch.nn.ModuleDict.",
        "mindspore.nn:CellDict",
        None,
        "the tables map torch.nn.ModuleDict to mindspore.nn.CellDict",
    ),
    (
        "torch.Generator.",
        "mindspore:Generator",
        None,
        "the tables map torch.Generator to mindspore.Generator",
    ),
    (
        "torch.utils.data.",
        "mindspore.dataset",
        frozenset(
            {
                "Sampler",
                "DistributedSampler",
                "RandomSampler",
                "SequentialSampler",
                "SubsetRandomSampler",
                "SubsetSampler",
                "WeightedRandomSampler",
            }
        ),
        "MindSpore's samplers are mindspore.dataset's (passed as sampler= to a dataset)",
    ),
    (
        # torchvision's image transforms: MindSpore's are mindspore.dataset.vision's classes
        # (AutoAugment, RandAugment, TrivialAugmentWide...), applied in a dataset's map
        "torchvision.transforms.",
        "mindspore.dataset.vision",
        None,
        "MindSpore's image transforms are mindspore.dataset.vision's (applied in a dataset's map)",
    ),
    (
        # ... and the ones that compose other transforms (RandomApply, RandomChoice)
        "torchvision.transforms.",
        "mindspore.dataset.transforms",
        None,
        "MindSpore's transforms that compose others are mindspore.dataset.transforms'",
    ),
)

#: MindSpore's initialisers are classes of ``mindspore.common.initializer`` named after the
#: distribution, where torch has in-place functions (``torch.nn.init.xavier_uniform_``). The
#: r1.10 table (pytorch_api_mapping.md:293-300) maps eight of them: the function's words in
#: CamelCase (``xavier_uniform_`` → ``XavierUniform``), with these renames; the functions it
#: leaves out (``orthogonal_``, ``xavier_normal_``, ``trunc_normal_``) are read the same way.
INIT_PREFIX = "torch.nn.init."
INIT_NAMESPACE = "mindspore.common.initializer"
_INIT_RENAMES: dict[str, str] = {
    "kaiming": "He",  # :294-295 kaiming_normal_ → HeNormal, kaiming_uniform_ → HeUniform
    "zeros": "Zero",  # :299
    "ones": "One",  # :297
    "trunc": "Truncated",
    "eye": "Identity",
}
_INIT_WHY = (
    "MindSpore's initialisers are mindspore.common.initializer's classes, named after the "
    "distribution (the r1.10 table maps xavier_uniform_ to XavierUniform, kaiming_normal_ to "
    "HeNormal), applied with param.set_data(initializer(Init(...), param.shape, param.dtype))"
)


def initialiser_class(api: str) -> str | None:
    """The ``mindspore.common.initializer`` class name a ``torch.nn.init`` function's name
    reads as (``torch.nn.init.orthogonal_`` → ``Orthogonal``), or None for another API (the
    deprecated spellings without ``_``, such as ``torch.nn.init.xavier_normal``, included:
    they warn and call the in-place one)."""
    tail = api.removeprefix(INIT_PREFIX)
    if not api.startswith(INIT_PREFIX) or not tail.endswith("_") or not tail[:-1].isidentifier():
        return None
    words = tail[:-1].split("_")
    return "".join(_INIT_RENAMES.get(w, w.capitalize()) for w in words if w)


#: Which MindSpore kinds may stand for a PyTorch kind (torch index kinds → name index kinds).
COMPATIBLE_KINDS: dict[str, frozenset[str]] = {
    "class": frozenset({"class"}),
    "function": frozenset({"function"}),
    "method": frozenset({"method"}),
    "property": frozenset({"property", "constant"}),
    "attribute": frozenset({"property", "constant"}),
    "constant": frozenset({"constant"}),
}

#: PyTorch parameters as the torch index gives them: (name, kind, has_default).
Param = tuple[str, str, bool]

#: Where a same-name counterpart may live, per PyTorch prefix (longest prefix first; the
#: first namespace that has the name wins). ``torch.nn.init`` has none: MindSpore's
#: initialisers are classes with other names (``XavierUniform``).
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("torch.Tensor.", ("mindspore:Tensor",)),
    ("torch.nn.functional.", ("mindspore.mint.nn.functional", "mindspore.ops")),
    ("torch.nn.init.", ()),  # see initialiser_class
    ("torch.nn.Module.", ("mindspore.nn:Cell",)),
    ("torch.nn.", ("mindspore.mint.nn", "mindspore.nn")),
    ("torch.linalg.", ("mindspore.mint.linalg", "mindspore.ops")),
    ("torch.special.", ("mindspore.mint.special", "mindspore.ops")),
    # the discrete Fourier transforms: ``torch.fft.rfft`` is ``ops.rfft`` (the tables list none)
    ("torch.fft.", ("mindspore.ops",)),
    ("torch.optim.lr_scheduler.", ("mindspore.experimental.optim.lr_scheduler",)),
    ("torch.optim.", ("mindspore.experimental.optim", "mindspore.mint.optim")),
    ("torch.distributed.", ("mindspore.mint.distributed",)),
    ("torch.", ("mindspore.mint", "mindspore.ops", "mindspore")),
)


class CandidateIndex:
    """Answers "which MindSpore API has the same name as this PyTorch one?"."""

    def __init__(self, data: Mapping[str, object]) -> None:
        if data.get("format") not in _READABLE_FORMATS:
            raise ValueError(f"MindSpore name index format {data.get('format')!r}")
        self.mindspore_version = str(data["mindspore_version"])
        namespaces = data["namespaces"]
        assert isinstance(namespaces, Mapping)
        #: namespace → name → {"k": kind, "a": [required, maximum or -1]} (empty in format 1)
        self._names: dict[str, Mapping[str, Mapping[str, object]]] = {
            ns: names if isinstance(names, Mapping) else {name: {} for name in names}
            for ns, names in namespaces.items()
        }

    def candidate(
        self, api: str, kind: str | None = None, params: Sequence[Param] | None = None
    ) -> str | None:
        """The dotted MindSpore name of the same-name counterpart of ``api``, or None."""
        found = self.lookup(api, kind, params)
        return found[0] if found else None

    def lookup(
        self, api: str, kind: str | None = None, params: Sequence[Param] | None = None
    ) -> tuple[str, str] | None:
        """(MindSpore name, why) for ``api`` of torch kind ``kind``: a namespace move first,
        then a same name in the mirror namespace; None when nothing of the same kind has it.

        Only a one-identifier tail counts (``torch.Tensor.add_`` → ``add_``): a nested member
        such as ``torch.optim.Optimizer.zero_grad`` would need the owner's mapping first.
        """
        for prefix, namespace, names, why in MOVES:
            tail = api[len(prefix) :] if api.startswith(prefix) else ""
            if (
                tail.isidentifier()
                and (names is None or tail in names)
                and self._fits(namespace, tail, kind, params)
            ):
                return f"{namespace.replace(':', '.')}.{tail}", why
        init_class = initialiser_class(api)
        if init_class is not None:
            # a function of torch, a class of MindSpore: the kinds differ by design
            if self._fits(INIT_NAMESPACE, init_class, "class", None):
                return f"{INIT_NAMESPACE}.{init_class}", _INIT_WHY
            return None
        for prefix, namespaces in RULES:
            if not api.startswith(prefix):
                continue
            tail = api[len(prefix) :]
            if not tail.isidentifier():
                return None
            for ns in namespaces:
                if self._fits(ns, tail, kind, params):
                    return f"{ns.replace(':', '.')}.{tail}", "same-name"
            return None
        return None

    def has_member(self, owner: str, name: str) -> bool:
        """Whether MindSpore's class ``owner`` (``mindspore.Tensor``) has a member ``name``."""
        namespace = ":".join(owner.rsplit(".", 1))
        return name in self._names.get(namespace, {})

    def misfit(self, target: str, positional: int, keywords: Sequence[str]) -> str:
        """Why a call with ``positional`` arguments and ``keywords`` cannot be passed to
        ``target`` unchanged, by its recorded parameters; "" when it can or nothing is
        recorded. ``mindspore.Tensor.softmax(axis, dtype=None)`` takes no ``dim=``."""
        owner, _, name = target.rpartition(".")
        parent, _, last = owner.rpartition(".")
        entry = self._names.get(owner, {}).get(name) or self._names.get(f"{parent}:{last}", {}).get(
            name
        )
        if not entry or "n" not in entry:
            return ""
        names = [str(n) for n in entry["n"]]  # type: ignore[union-attr]
        arity = entry.get("a")
        maximum = int(arity[1]) if isinstance(arity, Sequence) and len(arity) == 2 else -1
        takes = ", ".join(names) or "no arguments"
        unknown = [k for k in keywords if k not in names]
        if unknown:
            passed = ", ".join(f"{k}=" for k in unknown)
            return f"{target} takes {takes}: the call passes {passed}"
        if maximum >= 0 and positional > maximum:
            return f"{target} takes {takes}: the call passes {positional} positional arguments"
        return ""

    def _fits(
        self, namespace: str, name: str, kind: str | None, params: Sequence[Param] | None
    ) -> bool:
        entry = self._names.get(namespace, {}).get(name)
        if entry is None:
            return False
        ms_kind = entry.get("k")
        if kind is None or ms_kind is None:
            return True  # a format-1 index, or a caller that does not know the kind
        if ms_kind not in COMPATIBLE_KINDS.get(kind, frozenset({kind})):
            return False
        if params is not None and not _related_parameters(params, entry.get("n")):
            return False
        arity = entry.get("a")
        if params is None or not isinstance(arity, Sequence) or len(arity) != 2:
            return True
        required = sum(1 for _, pkind, default in params if pkind in _POSITIONAL and not default)
        maximum = sum(1 for _, pkind, _ in params if pkind in _POSITIONAL)
        if any(pkind == "var_pos" for _, pkind, _ in params):
            maximum = 1 << 30
        ms_required, ms_maximum = int(arity[0]), int(arity[1])
        return (ms_maximum < 0 or required <= ms_maximum) and ms_required <= maximum


_POSITIONAL = frozenset({"pos_only", "pos_or_kw"})


def _related_parameters(params: Sequence[Param], ms_names: object) -> bool:
    """False when the PyTorch API requires two or more parameters and the MindSpore one
    takes none of their names: the same name then means another operation
    (``torch.Tensor.unfold(dimension, size, step)`` slides a window along one dimension;
    ``mindspore.Tensor.unfold(kernel_size, dilation, padding, stride)`` is im2col). One
    required parameter is often just renamed (``ModuleList.append(module)`` →
    ``CellList.append(cell)``), so it proves nothing; neither do unknown names."""
    if not isinstance(ms_names, Sequence) or not ms_names:
        return True
    required = {
        name for name, pkind, default in params if pkind in ("pos_or_kw", "kw_only") and not default
    }
    return len(required) < 2 or bool(required & set(ms_names))


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
