"""On which backends a MindSpore API supports dynamic shape, from the official support lists.

MindSpore publishes three lists per release (functional, ``nn`` and primitive interfaces;
Ascend / GPU / CPU; PyNative mode). ``scripts/build_dynamic_shape.py`` turns them into
``mapping_data/dynamic_shape/<version>.csv``; this module answers look-ups on that file. A
dynamic-shape finding uses it to say whether the MindSpore counterpart of a data-dependent op
can run with changing shapes at all, and where: that decides between "keep it, on Ascend" and
"rewrite it with a fixed size and a mask".

The lists and the mapping tables spell APIs differently, so a name is looked up in this order
(the first rule that matches wins; :attr:`Listing.entry` says which entry answered):

1. **Exact entry.** Functional rows are ``mindspore.ops.unique``, ``nn`` rows
   ``mindspore.nn.Conv2d``. Primitive rows read ``mindspore.Unique`` in the list but link to
   ``mindspore.ops.Unique``, the name code imports, so they are stored under that name; the
   case tells the primitive ``mindspore.ops.Unique`` from the functional
   ``mindspore.ops.unique``.
2. **Namespace entry.** Three rows cover a whole ``mint`` namespace (their link points at a
   section of the ``mindspore.mint`` page) and are stored as ``mindspore.mint.*``,
   ``mindspore.mint.nn.*`` and ``mindspore.mint.nn.functional.*``. Such a row covers the names
   *directly* in that namespace: ``mindspore.mint.unique`` and ``mindspore.mint.nn.Conv2d`` are
   covered, ``mindspore.mint.linalg.norm`` (a namespace with no row) is not.
3. **Tensor method.** The lists have no ``mindspore.Tensor`` methods. MindSpore documents its
   tensor methods as the functional op of the same name ("refer to
   ``mindspore.ops.nonzero``"), so ``mindspore.Tensor.nonzero`` answers as the functional
   entry ``mindspore.ops.nonzero`` when there is one, and is unlisted otherwise.

Anything else is *not listed*: the lists say such APIs have "limited support" for dynamic
shape, which is different from a row marked unsupported on every backend (``()`` from
:func:`supported_backends` for both; :func:`is_listed` tells them apart).

Standard library only and cached: look-ups run once per finding on the scan's path.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache

from apiscan.mapping.store import mapping_data_dir

#: Backends in the lists' column order; :func:`supported_backends` returns them in this order.
BACKENDS: tuple[str, ...] = ("Ascend", "GPU", "CPU")
#: Interface kinds, one per published list.
KINDS: tuple[str, ...] = ("functional", "nn", "primitive")
#: The CSV columns: the API (or ``namespace.*``), its list, then one flag per backend.
FIELDS: tuple[str, ...] = ("ms_api", "kind", *(backend.lower() for backend in BACKENDS))
#: Folder of ``mapping_data/`` holding one ``<version>.csv`` per docs release.
FOLDER = "dynamic_shape"
DEFAULT_VERSION = "2.6"
#: How the CSV writes a backend flag.
TRUE, FALSE = "true", "false"
#: Suffix of an entry that stands for every name directly in a namespace.
NAMESPACE_SUFFIX = ".*"

_TENSOR_PREFIX = "mindspore.Tensor."
_FUNCTIONAL_PREFIX = "mindspore.ops."


@dataclass(frozen=True, slots=True)
class Listing:
    """The list entry that answered a look-up: its name as stored (``mindspore.ops.unique``,
    ``mindspore.mint.*``), its interface kind, and the backends it is supported on."""

    entry: str
    kind: str
    backends: tuple[str, ...]


class SupportTable:
    """Every entry of one release's lists, with the look-up rules of the module docstring."""

    def __init__(self, version: str, entries: dict[str, Listing]) -> None:
        self.version = version
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def listing(self, ms_api: str) -> Listing | None:
        """The entry that covers ``ms_api``, or None when the lists do not mention it."""
        found = self._entries.get(ms_api)
        if found is not None:
            return found
        namespace, dot, _ = ms_api.rpartition(".")
        if dot:
            found = self._entries.get(namespace + NAMESPACE_SUFFIX)
            if found is not None:
                return found
        if ms_api.startswith(_TENSOR_PREFIX):
            found = self._entries.get(_FUNCTIONAL_PREFIX + ms_api[len(_TENSOR_PREFIX) :])
            if found is not None and found.kind == "functional":
                return found
        return None


def load_support(version: str = DEFAULT_VERSION) -> SupportTable:
    """The support table of ``version`` (a docs release such as ``2.6``), read once."""
    # Cached on the positional value, so load_support() and load_support("2.6") share one table.
    return _load(version)


@cache
def _load(version: str) -> SupportTable:
    folder = mapping_data_dir() / FOLDER
    path = folder / f"{version}.csv"
    if not path.is_file():
        shipped = sorted(p.stem for p in folder.glob("*.csv"))
        raise ValueError(
            f"no dynamic-shape support list for MindSpore {version!r};"
            f" available: {', '.join(shipped) or 'none'}"
        )
    entries: dict[str, Listing] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != FIELDS:
            raise ValueError(f"{path}: expected columns {', '.join(FIELDS)}")
        for record in reader:
            backends = tuple(b for b in BACKENDS if record[b.lower()] == TRUE)
            entries[record["ms_api"]] = Listing(record["ms_api"], record["kind"], backends)
    return SupportTable(version, entries)


def listing(ms_api: str) -> Listing | None:
    """The entry of the default release's lists that covers ``ms_api``, or None."""
    return load_support().listing(ms_api)


def is_listed(ms_api: str) -> bool:
    """Whether the lists mention ``ms_api`` at all (supported somewhere or not)."""
    return load_support().listing(ms_api) is not None


def supported_backends(ms_api: str) -> tuple[str, ...]:
    """Backends on which ``ms_api`` supports dynamic shape, in :data:`BACKENDS` order;
    ``()`` when it is listed as unsupported everywhere or not listed (see :func:`is_listed`)."""
    found = load_support().listing(ms_api)
    return found.backends if found is not None else ()
