"""The repository index: what every module name stands for, across files.

Per-file workers only see one file. After they return, this index answers the cross-file
questions every later stage asks: which torch name a repo name re-exports (``tinydet.layers.nn``
→ ``torch.nn``), what a repo function returns to other files, which class a name spells and
which methods and torch ancestors it has (``Hierarchy``), and whether it is an ``nn.Module``.
It reads only the plain records of :mod:`apiscan.extract.records`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from apiscan.extract.records import RETURNS, ClassFact, FileAnalysis
from apiscan.program.stars import star_bindings
from apiscan.resolve.torch_api import is_torch_name
from apiscan.resolve.values import ARRAY_PACKAGES, NON_TORCH_PACKAGES

if TYPE_CHECKING:
    from apiscan.resolve.torch_api import TorchApi

#: Roots of base classes that are never ``nn.Module``s (``class Cfg(abc.ABC)``).
_BUILTIN_BASES = frozenset({"object", "builtins", "abc", "enum", "typing", "dataclasses"})
_MODULE_PROBE = ("parameters", "torch.nn.Module.parameters")
#: ``__add__`` is defined by Dataset (and re-defined by IterableDataset) and by no other torch
#: class, so it tells a dataset class apart from its torch ancestors without a list of them.
_DATASET_PROBES = frozenset(
    {"torch.utils.data.Dataset.__add__", "torch.utils.data.IterableDataset.__add__"}
)

#: Packages outside the scan whose classes under these prefixes are ``nn.Module``s (model
#: zoos' models and layers): ``class VisionTransformerMoCo(timm.models.vision_transformer.
#: VisionTransformer)`` is a Module though the torch index never sees timm. A prefix ending
#: in "." takes every CamelCase class below it; one without, that class alone.
_FOREIGN_MODULES: tuple[str, ...] = (
    "timm.models.",
    "timm.layers.",
    "segmentation_models_pytorch.",
    "efficientnet_pytorch.",
    "pretrainedmodels.",
    "mmcv.cnn.",
    "mmcv.ops.",
    "mmdet.models.",
    "mmseg.models.",
    "mmdet3d.models.",
    "mmpose.models.",
    "mmcls.models.",
    "mmpretrain.models.",
    "detectron2.modeling.",
    "detectron2.layers.",
    "fairseq.models.",
    "fairseq.modules.",
    "torch_geometric.nn.",
    "einops.layers.torch.",
    "diffusers.models.",
    "open_clip.model.",
    "mmengine.model.BaseModule",
    "mmengine.model.BaseModel",
    "mmengine.model.base_module.BaseModule",
    "mmcv.runner.BaseModule",
    "mmcv.runner.base_module.BaseModule",
    "pytorch_lightning.LightningModule",
    "pytorch_lightning.core.LightningModule",
    "pytorch_lightning.core.module.LightningModule",
    "lightning.LightningModule",
    "lightning.pytorch.LightningModule",
    "transformers.PreTrainedModel",
    "transformers.modeling_utils.PreTrainedModel",
    "diffusers.ModelMixin",
    "apex.normalization.FusedLayerNorm",
    "apex.parallel.SyncBatchNorm",
)
#: ``transformers.BertModel``, ``transformers.BertForSequenceClassification``, and every
#: class of a ``modeling_*`` module.
_TRANSFORMERS_MODEL = re.compile(
    r"transformers\.(?:\w+Model|\w+For[A-Z]\w*|(?:\w+\.)+modeling_\w+\.[A-Z]\w*)"
)
#: Classes below those prefixes that are no Module: configurations, weights enums, outputs,
#: feature descriptions, registries, detectron2's ``ShapeSpec``.
_NOT_MODULE = re.compile(
    r"\w*(?:Cfg|Config|Configuration|Output|Outputs|Weights|Info|Spec|Registry|Hook|Hooks|"
    r"Format|Type|Enum|Tokenizer|Processor)"
)


def foreign_module(q: str) -> bool:
    """Is ``q`` a known ``nn.Module`` class of a package outside the scan and outside torch's
    index (timm's models and layers, mmcv's ``BaseModule``, Lightning's ``LightningModule``,
    transformers' models)? torchvision's classes are in the index already."""
    name = q.rpartition(".")[2]
    if not name[:1].isupper() or _NOT_MODULE.fullmatch(name):
        return False
    if _TRANSFORMERS_MODEL.fullmatch(q) and not name.endswith("PreTrainedModel"):
        return True
    return any(
        q.startswith(prefix) if prefix.endswith(".") else q == prefix for prefix in _FOREIGN_MODULES
    )


def module_aliases(analyses: Iterable[FileAnalysis]) -> dict[str, str]:
    """Every ``module.name`` bound at module level to a qualified name, across the repo."""
    aliases: dict[str, str] = {}
    for fa in analyses:
        for module in fa.modules:
            for name, target in fa.exports:
                key = f"{module}.{name}"
                if key != target and not name.endswith(RETURNS):
                    aliases[key] = target
    return aliases


def module_names(analyses: Iterable[FileAnalysis]) -> frozenset[str]:
    """The dotted names of the repository's own modules (files)."""
    return frozenset(module for fa in analyses for module in fa.modules)


def follow(
    q: str,
    aliases: Mapping[str, str],
    stop: Callable[[str], bool],
    modules: frozenset[str] = frozenset(),
) -> str | None:
    """Rewrite ``q`` through the alias table until ``stop(q)`` holds (or give up).

    A name inside one of the repository's ``modules`` is that module's own unless an alias
    of the module rewrites it: ``pkg.layers.nms.batched_nms`` is the function nms.py defines
    even when ``pkg/layers/__init__.py`` binds ``nms`` to ``torchvision.ops.nms`` (``from
    .nms import batched_nms`` imports the submodule, never the package attribute).
    """
    for _ in range(20):
        if stop(q):
            return q
        parts = q.split(".")
        for cut in range(len(parts), 0, -1):
            prefix = ".".join(parts[:cut])
            if cut < len(parts) and prefix in modules:
                return None
            target = aliases.get(prefix)
            if target is not None:
                q = ".".join([target, *parts[cut:]])
                break
        else:
            return None
    return None


#: torch's sibling packages, which a scan may have as its repository
_TORCH_FAMILY = frozenset({"torchvision", "torchaudio", "torchtext"})


#: ``torch.nn.Conv2d``, ``torchvision.ops.nms``...: a name in one of the torch packages (asked
#: ~90,000 times on fairseq's solve and join: bound once here, not imported on every call)
is_torch = is_torch_name


def resolve_reexports(analyses: Iterable[FileAnalysis]) -> dict[str, str]:
    """Cross-file facts a file's analysis can use, found after the first round.

    ``tinydet.layers.nn`` → ``torch.nn``: repo names that are torch names (or numpy, pandas...
    names: ``utils.general.np`` → ``numpy``) in disguise; and
    ``tinydet.build_model()`` → ``inst:tinydet.model.Detector``: what repo functions return
    (keys ending in ``()``), followed through the modules that re-export the function; and
    the repository names a local module binds, for the files that star-import it
    (:mod:`apiscan.program.stars`).
    """
    analyses = list(analyses)
    aliases = module_aliases(analyses)
    modules = module_names(analyses)
    returns = {}
    for fa in analyses:
        for module in fa.modules:
            for name, target in fa.exports:
                if name.endswith(RETURNS):
                    returns[f"{module}.{name}"] = target
    out = {}
    own_roots = frozenset(m.partition(".")[0] for m in modules)

    def known(q: str) -> bool:
        # torch, or a host array library the repo does not shadow: ``np`` star-imported from
        # a repo module (``from utils.general import *``) is numpy, not an unknown receiver
        root = q.partition(".")[0]
        return is_torch(q) or (root in ARRAY_PACKAGES and root not in own_roots)

    for key in aliases:
        target = follow(key, aliases, known, modules)
        if target is not None:
            out[key] = target
        func = follow(key, aliases, lambda q: q + RETURNS in returns, modules)
        if func is not None:
            out[key + RETURNS] = returns[func + RETURNS]
    out.update(returns)
    out.update(star_bindings(analyses, out))  # ``from .parts import *``: its classes too
    return out


class ClassTable:
    """Classes of the whole repository, to resolve ``obj.attr`` on instances of repo classes."""

    def __init__(self, analyses: Iterable[FileAnalysis], api: TorchApi) -> None:
        self.api = api
        self.facts: dict[str, ClassFact] = {}
        analyses = list(analyses)
        for fa in analyses:
            for module in fa.modules:
                for fact in fa.classes:
                    self.facts[f"{module}.{fact.qualname}"] = fact
        self.aliases = module_aliases(analyses)
        self.modules = module_names(analyses)
        self._resolved: dict[str, str | None] = {}
        #: torchvision (torchaudio...) when it is the repository scanned: its classes and
        #: functions are followed into its own code, not taken as torch's
        self.own_roots = frozenset(m.partition(".")[0] for m in self.modules) & _TORCH_FAMILY

    def torch(self, q: str) -> bool:
        """A torch name that is not the scanned repository's own code."""
        return is_torch(q) and q.partition(".")[0] not in self.own_roots

    def _find(self, cls: str) -> ClassFact | str | None:
        """The repo class ``cls`` names, or the torch class it aliases, or None."""
        if self.torch(cls):
            return cls
        q = self.resolve(cls)
        if q is None:
            return None
        return self.facts.get(q, q)

    def resolve(self, name: str) -> str | None:
        """``name`` followed through the repo's re-exports to a class or a torch name
        (memoised: the join asks for the same few classes thousands of times)."""
        if name in self._resolved:
            return self._resolved[name]
        q = follow(name, self.aliases, lambda n: n in self.facts or self.torch(n), self.modules)
        self._resolved[name] = q
        return q

    def member(self, cls: str, attr: str, depth: int = 0) -> tuple[str, str | None]:
        """What ``cls().attr`` is: ("torch", api), ("user", None) or ("unknown", None).

        "user" means the attribute is the repository's own (a method it defines, or an
        attribute of a class with no torch ancestor); "unknown" that some ancestor lies
        outside the repository and torch, so only a name-based guess is left.
        """
        found = self._find(cls)
        if found is None or depth > 30:
            return "unknown", None
        if isinstance(found, str):
            api = self.api.member(self.api.canonical(found) or found, attr)
            return ("torch", api) if api else ("user", None)
        if attr in found.methods:
            return "user", None
        for base in found.bases:
            if not base:
                return "unknown", None
            kind, api = self.member(base, attr, depth + 1)
            if kind == "unknown" or api:
                return kind, api
        return "user", None


class Hierarchy:
    """Repo classes under one canonical name each, their methods and their torch ancestors.

    A wrapper over :class:`ClassTable` (which resolves a class name through re-exports) that
    also says *which* class defines a method (``ClassTable.member`` only says whether the repo
    does), and keeps walking past bases it cannot resolve, so that ``class Head(Mixin,
    nn.Module)`` with an external ``Mixin`` is still a module.
    """

    def __init__(self, analyses: Sequence[FileAnalysis], classes: ClassTable) -> None:
        self.classes = classes
        #: every spelling of a repo class (one per module name of its file) -> canonical name
        self.canonical: dict[str, str] = {}
        for fa in analyses:
            if not fa.modules:
                continue
            first = fa.modules[0]
            for module in fa.modules:
                for fact in fa.classes:
                    self.canonical[f"{module}.{fact.qualname}"] = f"{first}.{fact.qualname}"
        self._methods: dict[tuple[str, str], str | None] = {}
        self._torch: dict[str, frozenset[str]] = {}
        self._children: dict[str, list[str]] | None = None
        self._module: dict[str, bool] = {}
        #: top-level names of the repository's modules (timm scanned as the repository)
        self._local = frozenset(m.partition(".")[0] for m in classes.modules)

    def resolve(self, name: str) -> str | None:
        """The canonical repo class or the torch name ``name`` spells, else None."""
        q = self.classes.resolve(name)
        if q is None or self.classes.torch(q):
            return q
        return self.canonical.get(q, q)

    def repo_classes(self) -> Iterator[str]:
        """Every repo class once, by its canonical name."""
        return iter(sorted(set(self.canonical.values())))

    def method(self, cls: str, name: str) -> str | None:
        """``<defining class>.<name>`` for ``cls().name``, searched depth-first through the
        bases in order (Python's MRO for the usual single-inheritance trees); None when the
        method is not the repo's own (inherited from torch or an unknown base)."""
        key = (cls, name)
        if key not in self._methods:
            self._methods[key] = None  # guards a cyclic hierarchy while searching
            self._methods[key] = self._search(cls, name)
        return self._methods[key]

    def _search(self, cls: str, name: str) -> str | None:
        q = self.resolve(cls)
        if q is None or self.classes.torch(q):
            return None
        fact = self.classes.facts.get(q)
        if fact is None:
            return None
        if name in fact.methods:
            return f"{q}.{name}"
        for base in fact.bases:
            if base:
                found = self.method(base, name)
                if found is not None:
                    return found
        return None

    def _subclasses(self) -> dict[str, list[str]]:
        """Each repo class -> the repo classes that name it as a base."""
        if self._children is None:
            self._children = {}
            for sub in self.repo_classes():
                for base in self.classes.facts[sub].bases if sub in self.classes.facts else ():
                    parent = self.resolve(base) if base else None
                    if parent is not None and parent in self.classes.facts and parent != sub:
                        self._children.setdefault(parent, []).append(sub)
        return self._children

    def subclasses(self, cls: str) -> list[str]:
        """The repo classes that name ``cls`` (or the class it spells) as a direct base."""
        start = self.resolve(cls) or cls
        return list(self._subclasses().get(start, ()))

    def inheritors(self, cls: str, name: str) -> list[str]:
        """The repo classes whose ``name`` is ``cls``'s own: ``cls`` and every subclass
        that does not define it again (YOLOX's ``yolox_base.Exp.get_model``, run by the
        experiments of every size that only set depth and width), sorted."""
        start = self.resolve(cls)
        if start is None or start not in self.classes.facts:
            return []
        own = self.method(start, name)
        found: set[str] = set()
        todo = [start]
        while todo:
            sub = todo.pop()
            if sub in found or self.method(sub, name) != own:
                continue
            found.add(sub)
            todo.extend(self._subclasses().get(sub, ()))
        return sorted(found)

    def subclass_methods(self, cls: str, name: str) -> list[str]:
        """``<subclass>.<name>`` for the nearest repo subclasses of ``cls`` that define
        ``name``: what ``self.name()`` in ``cls`` runs when ``cls`` itself does not define it (a
        template method such as ``self.forward_inference()`` in an abstract base)."""
        children = self._subclasses()
        found: list[str] = []
        start = self.resolve(cls)
        todo = list(children.get(start, ())) if start else []
        seen: set[str] = set()
        while todo:
            sub = todo.pop()
            if sub in seen:
                continue
            seen.add(sub)
            if name in self.classes.facts[sub].methods:
                found.append(f"{sub}.{name}")
            else:
                todo.extend(children.get(sub, ()))
        return sorted(found)

    def torch_ancestors(self, cls: str) -> frozenset[str]:
        """The torch classes ``cls`` derives from, directly or through repo classes."""
        if cls not in self._torch:
            self._torch[cls] = frozenset()  # cycle guard
            q = self.resolve(cls)
            found: set[str] = set()
            if q is not None and self.classes.torch(q):
                found.add(q)
            elif q is not None and q in self.classes.facts:
                for base in self.classes.facts[q].bases:
                    if base:
                        found |= self.torch_ancestors(base)
            self._torch[cls] = frozenset(found)
        return self._torch[cls]

    def unknown_ancestor(self, cls: str, depth: int = 0) -> bool:
        """Does some ancestor of ``cls`` lie outside the repo and torch, and outside the
        packages known not to hold Modules (``argparse.Action``, ``abc.ABC``...)? Such a class
        may well be an ``nn.Module`` reached through a package the scan cannot see."""
        q = self.resolve(cls)
        if depth > 30 or (q is not None and self.classes.torch(q)):
            return False
        fact = self.classes.facts.get(q) if q is not None else None
        if fact is None:
            root = cls.partition(".")[0]
            return bool(cls) and root not in NON_TORCH_PACKAGES and root not in _BUILTIN_BASES
        return any(self.unknown_ancestor(b, depth + 1) if b else True for b in fact.bases)

    def foreign_ancestors(self, cls: str, depth: int = 0) -> frozenset[str]:
        """The bases of ``cls`` (directly or through repo classes) that lie outside the repo
        and torch, by the names the code spells them (``timm.models.vision_transformer.
        VisionTransformer``)."""
        q = self.resolve(cls)
        if depth > 30 or (q is not None and self.classes.torch(q)):
            return frozenset()
        fact = self.classes.facts.get(q) if q is not None else None
        if fact is None:
            return frozenset({cls}) if cls else frozenset()
        return frozenset().union(
            *(self.foreign_ancestors(b, depth + 1) for b in fact.bases if b and b != cls)
        )

    def is_module(self, cls: str) -> bool:
        """An ``nn.Module`` subclass: through a torch ancestor (``nn.Module``, torchvision's
        ``ResNet``), or a known Module class of another package (timm's
        ``VisionTransformer``: :func:`foreign_module`) not shadowed by the repository's own
        package of that name."""
        if cls not in self._module:
            self._module[cls] = any(
                self.classes.member(t, _MODULE_PROBE[0]) == ("torch", _MODULE_PROBE[1])
                for t in self.torch_ancestors(cls)
            ) or any(
                foreign_module(a) and a.partition(".")[0] not in self._local
                for a in self.foreign_ancestors(cls)
            )
        return self._module[cls]

    def is_dataset(self, cls: str) -> bool:
        return any(
            self.classes.member(t, "__add__")[1] in _DATASET_PROBES
            for t in self.torch_ancestors(cls)
        )
