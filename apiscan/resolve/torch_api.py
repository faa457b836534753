"""PyTorch's public API as data, so the scanner can name what it sees without importing torch.

``scripts/gen_torch_api.py`` introspects an installed torch once and writes
``mapping_data/torch_api/torch-<version>.json``; this module reads that file (standard library
only) and answers: is this dotted name a public torch API, what is its canonical spelling, what
kind of object is it, what parameters does it take, what does it return, and which class
really owns ``obj.attr``. Loading is cached per process because every file of a scan asks.

``meta.failed`` lists the modules (and lazy attributes) whose import failed on the generating
machine; ``meta.static`` those of them whose public names were read from source instead.

File layout (``format`` 1): ``names`` maps each canonical name to ``{"k": kind, "p": params,
"r": coarse return, "t": return text}``; ``aliases`` maps every other importable public path
to its canonical name; ``bases`` lists each class's public ancestors in MRO order (a member is
stored once, on the public class that owns it); ``stars`` lists what ``from M import *`` binds;
``modules`` lists every importable public module.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final

from apiscan.mapping.store import mapping_data_dir

DEFAULT_TORCH_VERSION: Final = "2.13.0"
FORMAT_VERSION: Final = 1
DATA_DIR: Final = mapping_data_dir() / "torch_api"

Param = tuple[str, str, bool]

#: Packages whose names the scanner reports: torch and the companions the mapping tables list.
TORCH_ROOTS: Final = frozenset({"torch", "torchvision", "torchaudio", "torchtext"})


def is_torch_name(q: str) -> bool:
    """`torch`, `torchvision.ops.nms`...: a dotted name in one of TORCH_ROOTS."""
    return q.partition(".")[0] in TORCH_ROOTS


#: Private torch classes that code subclasses (and tests with ``isinstance``) as if they were
#: public, with the public class each stands for. The index lists public names only (the
#: generator walks public modules), so without this a ``class PolyLR(_LRScheduler)`` has an
#: unknown base and its class is not known to be a scheduler. Each target: the deprecated
#: alias's own base (``_LRScheduler`` is ``LRScheduler``'s old name); the family's 2-D member
#: for the layer bases, whose subclasses and ``isinstance`` checks mean "a convolution", "a
#: batch norm" (``_ConvNd`` → ``Conv2d``, ``_BatchNorm``/``_NormBase`` → ``BatchNorm2d``:
#: ``nn.Module`` would make ``isinstance(m, _BatchNorm)`` match every layer); ``nn.Module``
#: for the loss bases, which compute nothing of their own. Kept by hand, not generated:
#: which public class a private one stands for is a judgement, not introspection.
PRIVATE_BASES: Final[Mapping[str, str]] = {
    "torch.optim.lr_scheduler._LRScheduler": "torch.optim.lr_scheduler.LRScheduler",
    "torch.nn.modules.loss._Loss": "torch.nn.Module",
    "torch.nn.modules.loss._WeightedLoss": "torch.nn.Module",
    "torch.nn.modules.conv._ConvNd": "torch.nn.Conv2d",
    "torch.nn.modules.batchnorm._BatchNorm": "torch.nn.BatchNorm2d",
    "torch.nn.modules.batchnorm._NormBase": "torch.nn.BatchNorm2d",
}


class TorchApi:
    """Queries over one torch version's public API; every name is canonicalised first."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        meta = data["meta"]
        if meta["format"] != FORMAT_VERSION:
            raise ValueError(f"torch API index format {meta['format']}, expected {FORMAT_VERSION}")
        self.version: str = meta["torch_version"]
        self.failed_modules: Mapping[str, str] = meta["failed"]
        #: failed modules whose public names the generator read from source (name → count)
        self.static_modules: Mapping[str, int] = meta.get("static", {})
        self.primary_namespaces: frozenset[str] = frozenset(meta["primary_namespaces"])
        self.owner_roots: tuple[str, ...] = tuple(meta["owner_roots"])
        self.primary_parents: frozenset[str] = frozenset(meta.get("primary_parents", ()))
        self._names: dict[str, dict[str, Any]] = data["names"]
        self._aliases: dict[str, str] = {
            **{k: v for k, v in PRIVATE_BASES.items() if v in data["names"]},
            **data["aliases"],
        }
        self._bases: dict[str, list[str]] = data["bases"]
        self._stars: dict[str, list[str]] = data["stars"]
        self._modules: frozenset[str] = frozenset(data["modules"])
        self._canonical: dict[str, str | None] = {}
        #: (class, attribute) -> :meth:`member` (a walk asks the same few thousand again)
        self._members: dict[tuple[str, str], str | None] = {}
        self._with_member: dict[str, frozenset[str]] = {}
        self._spellings: dict[str, list[str]] | None = None
        #: canonical name -> the module that defines it (:meth:`defined_in`), built once
        self._defined: dict[str, str] | None = None

    def canonical(self, name: str) -> str | None:
        """The public name of `name`: itself when canonical, its target when an alias, and for
        `Class.attr` the member's owner (`torch.nn.modules.conv.Conv2d.parameters` →
        `torch.nn.Module.parameters`). None for private, foreign or unknown names."""
        if name in self._canonical:
            return self._canonical[name]
        result = self._resolve(name)
        self._canonical[name] = result
        return result

    def _resolve(self, name: str) -> str | None:
        if name in self._names:
            return name
        target = self._aliases.get(name)
        if target is not None:
            return target
        owner, dot, attr = name.rpartition(".")
        if not dot or (attr.startswith("_") and not _is_dunder(attr)):
            return None
        parent = self.canonical(owner)
        if parent is None:
            return None
        parent_kind = self._names[parent]["k"]
        if parent_kind == "class":
            return self.member(parent, attr)
        if parent_kind == "module":
            spelled = f"{parent}.{attr}"
            return spelled if spelled in self._names else self._aliases.get(spelled)
        return None

    def as_written(self, name: str) -> str | None:
        """The name a finding reports for the dotted path `name` the code spelled: `name`
        itself when it is a public spelling (its module is one users are meant to import
        from: `torch.nn.functional.conv2d`, `torch.utils.data.distributed.DistributedSampler`),
        else the canonical name (`torch.nn.modules.conv.Conv2d` → `torch.nn.Conv2d`). None
        for names that are not public APIs."""
        canonical = self.canonical(name)
        if canonical is None or canonical == name:
            return canonical
        module = name.rpartition(".")[0]
        if module in self.primary_namespaces or (
            module.rpartition(".")[0] in self.primary_parents and module in self._modules
        ):
            return name
        return canonical

    def is_public(self, name: str) -> bool:
        return self.canonical(name) is not None

    def kind(self, name: str) -> str | None:
        """`module`, `class`, `function`, `constant`, `attribute`; members: `method`,
        `property`, `attribute` or `class`."""
        entry = self._entry(name)
        return None if entry is None else str(entry["k"])

    def params(self, name: str) -> tuple[Param, ...] | None:
        """(name, kind, has_default) per parameter, `self` excluded; None when unknown."""
        entry = self._entry(name)
        if entry is None or "p" not in entry:
            return None
        return tuple((str(p[0]), str(p[1]), bool(p[2])) for p in entry["p"])

    def returns(self, name: str) -> str | None:
        """Coarse result type: tensor, tensors, module, bool, int, float, size, other; None if
        unknown. For a class, what calling it builds."""
        entry = self._entry(name)
        return None if entry is None else entry.get("r")

    def return_text(self, name: str) -> str | None:
        """The return annotation or doc-line text the coarse `returns` was derived from."""
        entry = self._entry(name)
        return None if entry is None else entry.get("t")

    def member(self, cls: str, attr: str) -> str | None:
        """The canonical name of `cls.attr`: the public class in `cls`'s MRO that owns it."""
        key = (cls, attr)
        if key in self._members:
            return self._members[key]
        found = self._members[key] = self._member(cls, attr)
        return found

    def _member(self, cls: str, attr: str) -> str | None:
        owner = self.canonical(cls)
        if owner is None or self._names[owner]["k"] != "class":
            return None
        for klass in (owner, *self._bases.get(owner, ())):
            spelled = f"{klass}.{attr}"
            if spelled in self._names:
                return spelled
        return None

    def derives(self, cls: str, base: str) -> bool:
        """Whether the torch class ``cls`` is ``base`` or derives from it
        (``torch.optim.Adam`` from ``torch.optim.Optimizer``)."""
        owner, parent = self.canonical(cls), self.canonical(base)
        return (
            owner is not None
            and parent is not None
            and (owner == parent or parent in self._bases.get(owner, ()))
        )

    def is_layer(self, name: str) -> bool:
        """Whether ``name`` is a torch class that is an ``nn.Module`` (``torch.nn.Conv2d``,
        ``nn.Sequential``): it inherits ``torch.nn.Module.parameters``. ``nn.Parameter`` and
        the functional ops are not."""
        return self.kind(name) == "class" and (
            self.member(name, "parameters") == "torch.nn.Module.parameters"
        )

    def classes_members(self, cls: str) -> tuple[str, ...]:
        """Canonical names of the members defined on ``cls`` itself (``torch.Tensor.view``...)."""
        prefix = cls + "."
        return tuple(n for n in self._names if n.startswith(prefix) and "." not in n[len(prefix) :])

    def classes_with_member(self, attr: str) -> frozenset[str]:
        """Which receiver roots (Tensor, Module, Optimizer, LRScheduler, GradScaler, Dataset,
        DataLoader) have `attr`: what `x.attr` may mean when `x`'s class is unknown."""
        found = self._with_member.get(attr)
        if found is None:
            found = frozenset(root for root in self.owner_roots if self.member(root, attr))
            self._with_member[attr] = found
        return found

    def star_exports(self, module: str) -> frozenset[str] | None:
        """Local names `from module import *` binds that are torch APIs; None if not a module."""
        real = self._module_name(module)
        return None if real is None else frozenset(self._stars.get(real, ()))

    def star_bindings(self, module: str) -> dict[str, str]:
        """Local name → canonical name for everything `from module import *` binds."""
        real = self._module_name(module)
        if real is None:
            return {}
        bound: dict[str, str] = {}
        for local in sorted(self._stars.get(real, ())):
            target = self.canonical(f"{real}.{local}")
            if target is not None:
                bound[local] = target
        return bound

    def _module_name(self, name: str) -> str | None:
        """The importable module `name` spells, directly or through an alias path."""
        real = name if name in self._modules else self.canonical(name)
        return real if real is not None and real in self._modules else None

    def is_module(self, name: str) -> bool:
        """True for importable public torch modules and attribute paths that name one.

        A submodule shadowed by a function or class of the same name in its package's
        ``__init__`` (``torch.nn.utils.weight_norm``, ``torch.nn.utils.spectral_norm``) is not
        one: reading that attribute gives the function, so a call of it is an API use."""
        real = self._module_name(name)
        return real is not None and self.kind(real) in (None, "module")

    def called_module(self, name: str) -> str | None:
        """What a call of the module ``name`` calls: its function or class of the same last
        name (``torchvision.ops.roi_align`` → ``torchvision.ops.roi_align.roi_align``), which
        the package's ``__init__`` imports over the submodule (``from .roi_align import
        roi_align``); a module itself cannot be called, so a call of one is a call of that.
        None when it has none."""
        real = self._module_name(name)
        if real is None:
            return None
        inner = f"{real}.{real.rpartition('.')[2]}"
        return inner if self.kind(inner) in ("function", "class") else None

    def spellings(self, name: str) -> tuple[str, ...]:
        """Every spelling of `name`'s object in the primary namespaces, canonical first: a
        mapping table may list `torch.nn.functional.conv2d` where the canonical name is
        `torch.conv2d` (one C function exposed twice)."""
        canonical = self.canonical(name)
        if canonical is None:
            return ()
        if self._spellings is None:
            self._spellings = {}
            for alias, target in sorted(self._aliases.items()):
                if alias.rpartition(".")[0] in self.primary_namespaces:
                    self._spellings.setdefault(target, []).append(alias)
        return (canonical, *self._spellings.get(canonical, ()))

    def defined_in(self, name: str) -> str | None:
        """The module whose file defines ``name``'s object: the submodule of its public
        namespace that the index knows it by (``torchvision.models.InceptionA`` and
        ``torchvision.models.inception_v3`` → ``torchvision.models.inception``; the deepest
        one when several are), else that
        namespace. The classes and constructors of one architecture file share it; a module
        outside the namespace that imports the name (``torch.ao...fused`` of
        ``torch.nn.Conv2d``) is not its file. None for a name the index does not know."""
        canonical = self.canonical(name)
        if canonical is None:
            return None
        if self._defined is None:
            self._defined = {}
            for alias, target in sorted(self._aliases.items()):
                module, parent = alias.rpartition(".")[0], target.rpartition(".")[0]
                held = self._defined.get(target)
                if module.startswith(parent + ".") and (held is None or len(module) > len(held)):
                    self._defined[target] = module
        return self._defined.get(canonical, canonical.rpartition(".")[0])

    def _entry(self, name: str) -> dict[str, Any] | None:
        canonical = self.canonical(name)
        return None if canonical is None else self._names[canonical]


def _is_dunder(attr: str) -> bool:
    return len(attr) > 4 and attr.startswith("__") and attr.endswith("__")


#: Companion packages indexed from their wheels (scripts/gen_static_api.py), merged into the
#: torch index: the versions that match DEFAULT_TORCH_VERSION (torchaudio 2.11.0 is the
#: newest release; its 2.9 release removed info/sox_effects, which stay unknown).
COMPANIONS: Final = ("torchvision-0.28.0", "torchaudio-2.11.0")


@functools.cache
def load_torch_api(version: str = DEFAULT_TORCH_VERSION) -> TorchApi:
    """The index for `version`, read once per process, with torchvision's names merged in."""
    path = DATA_DIR / f"torch-{version}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"no torch API index at {path}; run scripts/gen_torch_api.py with torch {version}"
        ) from None
    data = json.loads(text)
    if version == DEFAULT_TORCH_VERSION:
        for companion in COMPANIONS:
            extra = DATA_DIR / f"{companion}.json"
            if extra.is_file():
                merge_companion(data, json.loads(extra.read_text(encoding="utf-8")))
    return TorchApi(data)


def merge_companion(data: dict[str, Any], extra: Mapping[str, Any]) -> None:
    """Add a companion package's index (same layout) to the torch index `data`, in place."""
    meta = data["meta"]
    if extra["meta"]["format"] != FORMAT_VERSION:
        raise ValueError(f"{extra['meta']['package']} index format {extra['meta']['format']}")
    meta["primary_namespaces"] = sorted(
        {*meta["primary_namespaces"], *extra["meta"]["primary_namespaces"]}
    )
    meta.setdefault("companions", {})[extra["meta"]["package"]] = extra["meta"]["version"]
    for key in ("names", "aliases", "bases", "stars"):
        data[key] = {**extra[key], **data[key]}
    data["modules"] = sorted({*data["modules"], *extra["modules"]})
