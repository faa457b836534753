"""The network's structure: which ``nn.Module`` classes the repository defines, which builds
which, what part of the model each one is, and how many torch layers of each kind it builds.

Everything comes from facts the scan already has: the class hierarchy (``Hierarchy.is_module``)
and each class's line (``ClassFact.line``), the call facts of each constructor
(``self.backbone = Backbone(...)`` is a call of a repo class from ``TinyDet.__init__``; a
``self._make_layer(...)`` helper, through which ResNet-like constructors build most of their
layers, is a call of ``<class>._make_layer``, followed to the method the instance runs), and the
API findings of the torch layers built there, and the attribute a child is assigned to
(``self.neck = ...`` says "neck" even when the class is ``YOLOPAFPN``: the worker's
``self_assigns``).

Roles are told from names first (the class's own last word, then the attributes it is stored
in, then its module's name), then from what the parts do in the model's ``forward``
(:func:`forward_flow`: the stage fed by the input is the backbone, those whose outputs are
returned the heads), then from position: a root module containing a backbone and a head is
the model, whatever its name says; any other module built by another is a block.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from apiscan.extract.models import REGISTER, SELF_RETURNING, Assign, Expr, Function
from apiscan.extract.records import RETURNS, ClassFact, FileAnalysis
from apiscan.extract.values import DefValues, ValueReader, field_default
from apiscan.extract.values import Expr as ValueExpr
from apiscan.model import ApiFinding, ScanResult
from apiscan.notebook import SUFFIX as NOTEBOOK
from apiscan.program.index import Hierarchy
from apiscan.resolve.torch_api import TorchApi
from apiscan.review.commands import script_config
from apiscan.review.config_files import OptionFiles, YamlPlace, section_values
from apiscan.review.evaluate import UNKNOWN, holds, values_of
from apiscan.review.model import ModuleNode, TopModel, Where
from apiscan.review.names import OptionDefault
from apiscan.review.oplibs import (
    NETWORK_OP_LIBRARIES,
    _network_op,
    absolute_calls,
    model_parallel_library,
)
from apiscan.review.readings import Readings
from apiscan.review.registry import (
    BY_NAME_FUNCTIONS,
    Lookup,
    ModelFile,
    Registries,
    json_config_names,
    model_files,
)
from apiscan.review.roles import DATASETS, VENDORED, side_script, trains
from apiscan.review.sources import imported_modules, place, self_tests
from apiscan.scope.classify import _LOSS_CLASS, is_test_path

#: Roles in the order a reader meets them (also the order of ``ROLES`` in reports).
ROLES: tuple[str, ...] = ("model", "backbone", "neck", "head", "loss", "block", "other")

#: Words that name a role exactly, and suffixes that do so inside one word (``YOLOXHead``,
#: ``YOLOPAFPN``). ``pan`` and ``neck`` only match whole words: "span", "expand" are not necks.
_ROLE_WORDS: dict[str, str] = {
    "backbone": "backbone",
    "neck": "neck",
    "fpn": "neck",
    "pan": "neck",
    "pafpn": "neck",
    "head": "head",
    "heads": "head",
    "loss": "loss",
    "losses": "loss",
    "criterion": "loss",
}
_ROLE_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("backbone", "backbone"),
    ("fpn", "neck"),
    ("head", "head"),
    ("loss", "loss"),
    ("criterion", "loss"),
)
#: Splits identifiers into words: ``YOLOXHead`` → YOLOX, Head; ``cls_head`` → cls, head.
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(identifier: str) -> list[str]:
    """Lower-case words of an identifier (CamelCase, snake_case and dotted names)."""
    return [w.lower() for w in _WORDS.findall(identifier)]


def role_of_word(word: str) -> str | None:
    """The role one word names, if any (see ``_ROLE_WORDS`` and ``_ROLE_SUFFIXES``)."""
    if word in _ROLE_WORDS:
        return _ROLE_WORDS[word]
    for suffix, role in _ROLE_SUFFIXES:
        if word.endswith(suffix):
            return role
    return None


def _role_of_words(candidates: Iterable[str]) -> str | None:
    for word in candidates:
        role = role_of_word(word)
        if role is not None:
            return role
    return None


@dataclass
class _Node:
    cls: str
    where: Where
    children: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)  # names it is stored under in parents
    layers: Counter[str] = field(default_factory=Counter)
    #: attribute -> the children its constructor stores there (``self.fpn = FPN(...)``;
    #: ``self.ClassHead = self._make_class_head(...)`` of the classes that method builds)
    slots: dict[str, set[str]] = field(default_factory=dict)
    #: its ``forward``'s data flow (:func:`forward_flow`): attribute -> where its input comes
    #: from, and the attributes whose outputs it returns
    flow: tuple[dict[str, set[str]], set[str]] = field(default_factory=lambda: ({}, set()))


def _self_assignments(fa: FileAnalysis, function: str) -> list[tuple[str, int, int]]:
    """``self.<attr> = <value>`` in ``function`` (nested functions included): (attr, first
    line, last line of the value), from the worker's records."""
    if fa.syntax is None:
        return []
    return [(a, first, last) for a, first, last, fns in fa.syntax.self_assigns if function in fns]


def _own_def(fa: FileAnalysis, qualname: str) -> DefValues | None:
    """The value records of the def ``qualname`` of ``fa`` (None for a file with errors)."""
    values = fa.syntax.values if fa.syntax is not None and not fa.errors else None
    return next((d for d in values.defs if d.qual == qualname), None) if values else None


def _local_slots(fa: FileAnalysis, function: str) -> list[tuple[str, int, int]]:
    """The local constructions ``function`` stores into an attribute through another call
    (RetinaFace's ``backbone = MobileNetV1()``, then ``self.body = IntermediateLayerGetter(
    backbone, ...)``): (attr, first line, last line of the local's value), as
    :func:`_self_assignments` gives the direct ones."""
    d = _own_def(fa, function)
    if d is None:
        return []
    built: dict[str, list[tuple[int, int]]] = {}
    for a in d.assigns:
        if a.target.kind == "Name" and a.value.kind == "Call":
            built.setdefault(a.target.name, []).append((a.value.line, a.value.end_line))
    out: list[tuple[str, int, int]] = []
    for a in d.assigns:
        chain = a.target.chain() if a.target.kind == "Attribute" else None
        if chain is None or len(chain) != 2 or chain[0] != "self" or a.value.kind != "Call":
            continue
        for name in {e.name for e in a.value.walk() if e.kind == "Name"} & built.keys():
            out += [(chain[1], first, last) for first, last in built[name] if last < a.line]
    return out


#: Where a stage of a forward reads the forward's own inputs (:func:`forward_flow`).
_INPUT = ""
_COMPREHENSIONS = frozenset({"ListComp", "GeneratorExp", "SetComp", "DictComp"})


def _stage(func: ValueExpr) -> str | None:
    """The attribute a call of a forward runs: ``self.fpn(x)``, ``self.heads[i](x)``."""
    if func.kind == "Subscript":
        func = func.parts[0]
    chain = func.chain() if func.kind == "Attribute" else None
    return chain[1] if chain is not None and len(chain) == 2 and chain[0] == "self" else None


def forward_flow(
    fa: FileAnalysis, qualname: str, stages: Iterable[str]
) -> tuple[dict[str, set[str]], set[str]]:
    """What a ``forward`` does with the modules it holds, from the names of its own body
    in line order: attribute -> where the input of each ``self.<attr>(...)`` comes from
    (other attributes, :data:`_INPUT` for the forward's own parameters), and the attributes
    whose outputs it returns (through names, tuples and tensor calls: ``torch.cat([self.
    heads[i](f) for i, f in enumerate(features)])``). Only the attributes of ``stages`` (those
    holding the repository's modules) are stages; any other call passes its inputs on (a
    torch layer, the model's own ``self.losses(...)``). A name is the last assignment's
    above the use (branches and loops are not told apart). The roles of a model's parts
    come from it (:class:`_Roles`): the stage fed by the input is the backbone, the ones
    whose outputs are returned the heads."""
    d = _own_def(fa, qualname)
    inputs: dict[str, set[str]] = {}
    returned: set[str] = set()
    if d is None or fa.syntax is None or fa.syntax.values is None:
        return inputs, returned
    values = fa.syntax.values
    fids = {n for n, other in enumerate(values.defs) if other.qual == qualname}
    env: dict[str, set[str]] = {name: {_INPUT} for name in d.positional[1:]}
    env.update((name, {_INPUT}) for name, _ in d.params if name != "self")

    stages = set(stages)

    def origins(e: ValueExpr, scope: dict[str, set[str]]) -> set[str]:
        if e.kind == "Call" and (attr := _stage(e.func)) in stages:
            inputs.setdefault(attr, set()).update(o for p in e.parts[1:] for o in origins(p, scope))
            return {attr}
        if e.kind == "Name":
            return scope.get(e.name, set())
        if e.kind == "Attribute" and e.chain() is not None and e.chain()[0] == "self":
            return set()  # ``self.args.batch_size``: a setting, no data
        if e.kind in _COMPREHENSIONS:
            inner = dict(scope)
            for gen in (p for p in e.parts if p.kind == "comprehension"):
                source = origins(gen.parts[1], inner)
                inner.update((t.name, source) for t in gen.parts[0].walk() if t.kind == "Name")
            return {o for p in e.parts if p.kind != "comprehension" for o in origins(p, inner)}
        return {o for p in e.parts for o in origins(p, scope)}

    # a call made as a statement (``features.append(self.ctx4(x))``) fills the list it is
    # called on
    filled = [
        (c.expr.line, -1, "fill", c.expr.func.parts[0], c.expr)
        for c in values.calls
        if c.statement and c.function in fids and c.expr.func.kind == "Attribute"
    ]
    events = sorted(
        [(a.line, a.order, "assign", a.target, a.value) for a in d.assigns]
        + [(r.line, -1, "return", r, r) for r in d.returns]
        + filled,
        key=lambda event: (event[0], event[1]),
    )
    for _, _, kind, target, value in events:
        found = origins(value, env)
        if kind == "return":
            returned |= found - {_INPUT}
        elif kind == "fill":
            if target.kind == "Name" and value.func.name in _FILLS:
                env[target.name] = env.get(target.name, set()) | found
        else:
            if target.kind in ("Name", "Tuple", "List"):  # not ``x[i] = ...``
                env.update((t.name, found) for t in target.walk() if t.kind == "Name")
    return inputs, returned


class StructureBuilder:
    """Builds the module nodes of one scan (see the module docstring)."""

    def __init__(
        self,
        result: ScanResult,
        analyses: Sequence[FileAnalysis],
        hierarchy: Hierarchy,
        api: TorchApi,
    ) -> None:
        self.hierarchy = hierarchy
        self.api = api
        #: canonical class -> (its file's analysis, its fact), keyed by the file's first
        #: module name, which discovery keeps to one file
        #: (:func:`apiscan.discovery.unique_canonical_names`)
        self.classes: dict[str, tuple[FileAnalysis, ClassFact]] = {}
        for fa in analyses:
            if fa.modules:
                for fact in fa.classes:
                    self.classes[f"{fa.modules[0]}.{fact.qualname}"] = (fa, fact)
        #: repo functions that return an instance of a repo class (``build_model()``)
        self.returns: dict[str, str] = {}
        for fa in analyses:
            for module in fa.modules:
                for name, target in fa.exports:
                    if name.endswith(RETURNS) and target.startswith("inst:"):
                        self.returns[f"{module}.{name[: -len(RETURNS)]}"] = target[len("inst:") :]
        #: path -> function -> its API findings
        self.findings: dict[str, dict[str, list[ApiFinding]]] = {}
        for f in result.api_findings:
            self.findings.setdefault(f.path, {}).setdefault(f.function, []).append(f)
        self._is_layer: dict[str, bool] = {}
        self.local = {m.partition(".")[0] for fa in analyses for m in fa.modules}
        #: module -> its file's path, to find what a builder function builds
        self.paths = {m: fa.path for fa in analyses for m in fa.modules}
        self.analyses = {fa.path: fa for fa in analyses}
        #: path -> the functions its calls are made from (a builder is one of them)
        self.defs: dict[str, set[str]] = {}
        for fa in analyses:
            self.defs[fa.path] = {call.caller for call in fa.calls}

    def is_node(self, cls: str) -> bool:
        """``nn.Module`` subclasses, loss classes the scope counts as network (a plain
        ``class DetectionLoss`` with a ``__call__``, as YOLOv5's ``ComputeLoss``), and
        classes with a ``forward`` that extend another package's model (MAE's
        ``VisionTransformer(timm.models.vision_transformer.VisionTransformer)``)."""
        if any(
            a.startswith("torchvision.transforms.") for a in self.hierarchy.torch_ancestors(cls)
        ):
            return False  # a transform is data processing, whatever class it derives from
        return (
            self.hierarchy.is_module(cls)
            or bool(
                _LOSS_CLASS.fullmatch(cls.rpartition(".")[2])
                and (
                    self.hierarchy.method(cls, "forward") or self.hierarchy.method(cls, "__call__")
                )
            )
            or self._extends_foreign_model(cls)
        )

    def _extends_foreign_model(self, cls: str) -> bool:
        fact = self.classes[cls][1] if cls in self.classes else None
        if fact is None or not any(m.startswith("forward") for m in fact.methods):
            return False
        return any(
            base.partition(".")[0] in TORCH_MODEL_PACKAGES
            and base.partition(".")[0] not in self.local
            and base.rpartition(".")[2][:1].isupper()
            for base in fact.bases
            if base
        )

    def is_layer(self, api: str) -> bool:
        """A torch class that is an ``nn.Module`` (``torch.nn.Conv2d``, ``nn.Sequential``)."""
        if api not in self._is_layer:
            self._is_layer[api] = self.api.is_layer(api)
        return self._is_layer[api]

    def build(self) -> tuple[ModuleNode, ...]:
        nodes: dict[str, _Node] = {}
        for cls in sorted(self.classes):
            fa, fact = self.classes[cls]
            # a test's stand-ins (``TinyModel``, ``DummyLoss``) are no part of any model
            if self.is_node(cls) and not is_test_path(fa.path):
                nodes[cls] = _Node(cls, place(fa, fact.line or 1))
        for node in nodes.values():
            self._constructor(node, nodes)
            forward = self.hierarchy.method(node.cls, "forward")
            owner = self.hierarchy.resolve(forward.rpartition(".")[0]) if forward else None
            if owner is not None and owner in self.classes:
                fa, fact = self.classes[owner]
                node.flow = forward_flow(fa, f"{fact.qualname}.forward", node.slots)
        roles = _Roles(nodes, self.classes, self._bases).assign()
        return tuple(
            ModuleNode(
                cls=node.cls,
                where=node.where,
                role=roles[node.cls],
                children=tuple(sorted(node.children)),
                layers=tuple(sorted(node.layers.items(), key=lambda kv: (-kv[1], kv[0]))),
            )
            for node in sorted(
                nodes.values(), key=lambda n: (n.where.path, n.where.cell, n.where.line, n.cls)
            )
        )

    def _bases(self, cls: str) -> list[str]:
        """The bases of ``cls`` as the scan resolved them, a repository class under its
        canonical name (another package's as the code spells it)."""
        fact = self.classes[cls][1] if cls in self.classes else None
        return [self.hierarchy.resolve(b) or b for b in fact.bases if b] if fact else []

    def _constructor(self, node: _Node, nodes: Mapping[str, _Node]) -> None:
        """Children and layers from ``__init__`` and the ``self.<method>()`` it calls."""
        start = self.hierarchy.method(node.cls, "__init__")
        queue = deque([start] if start else [])
        # method -> the attributes the calls that reach it are assigned to (ResNet's
        # ``self.layer1 = self._make_layer(...)`` ... ``self.layer4 = ...``)
        stored: dict[str, set[str]] = {}
        seen: set[str] = set()
        while queue:
            method = queue.popleft()
            if method in seen:
                continue
            seen.add(method)
            owner, _, name = method.rpartition(".")
            if owner not in self.classes:
                continue
            fa, fact = self.classes[owner]
            qualname = f"{fact.qualname}.{name}"
            # the attributes a call's value is stored in: its name gives a role
            direct = [] if fa.errors else _self_assignments(fa, qualname)
            # and, for what the forward does with it, one built into a local an attribute
            # is then handed (``backbone = MobileNetV1()``, ``self.body = Getter(backbone,
            # ...)``) or in a method whose result an attribute stores
            assignments = direct + _local_slots(fa, qualname)
            lineage = self._lineage(owner)
            for call in fa.calls:
                if call.caller != qualname and not call.caller.startswith(qualname + "."):
                    continue
                slots = {a for a, first, last in assignments if first <= call.line <= last}
                slots = slots or stored.get(method, set())
                receiver, _, called = call.callee.rpartition(".")
                base = self.hierarchy.resolve(receiver)
                if base in lineage:  # self.<method>(...)
                    target = self.hierarchy.method(node.cls, called)
                    if called == "__init__" and base != owner:
                        # ``super().__init__(**args)``: the base's constructor builds the
                        # parts (co-tracker's CoTrackerThreeOnline builds none of its own)
                        target = self.hierarchy.method(base, called)
                    if target is not None and target not in seen:
                        queue.append(target)
                        stored.setdefault(target, set()).update(slots)
                child = self._built_class(call.callee, fa)
                if child is None:
                    node.layers.update(self._builder_layers(call.callee))
                    # the classes a picker function returns by key, each a part the
                    # constructor may build, of the class it hands the pick to if any
                    for cls in self._picked_classes(call.callee):
                        at = self._picked_into(fa, qualname, call.line, nodes) or node.cls
                        if cls in nodes and cls != at:
                            nodes[at].children.add(cls)
                    # the repository classes a module-level builder builds are children
                    # too (PyTorch-YOLOv3's ``create_modules`` building its YOLOLayers)
                    node.children.update(
                        c
                        for c in self._builder_classes(call.callee)
                        if c in nodes and c != node.cls
                    )
                if child is None or child not in nodes or child == node.cls:
                    continue
                node.children.add(child)
                for attr, first, last in direct:
                    if first <= call.line <= last:
                        nodes[child].attributes.add(attr)
                for attr in slots:
                    node.slots.setdefault(attr, set()).add(child)
            # a repository class handed by name to a call (Swin's ``BasicLayer(...,
            # downsample=PatchMerging if ... else None)``, a ResNet's ``_make_layer(
            # Bottleneck, ...)``): the callee builds it, a part of this model
            node.children.update(
                c for c in self._handed_classes(fa, qualname) if c in nodes and c != node.cls
            )
            node.layers.update(self._third_party_layers(fa, qualname))
            blocks = self._evaluated_blocks(fa, qualname)
            node.children.update(c for c in blocks if c in nodes and c != node.cls)
            node.layers.update(c for c in blocks if c not in self.classes)  # ``nn.Upsample``
            for function, found in self.findings.get(fa.path, {}).items():
                if function == qualname or function.startswith(qualname + "."):
                    node.layers.update(
                        f.api for f in found if f.usage == "call" and self.is_layer(f.api)
                    )

    def _third_party_layers(self, fa: FileAnalysis, qualname: str) -> list[str]:
        """The layer classes of another model or network-op library a constructor builds
        (ConvNeXt-V2's sparse ``Block``: ``MinkowskiEngine.MinkowskiConvolution``; its dense
        one: timm's ``DropPath(...) if drop_path > 0. else nn.Identity()``): the scan's API
        findings are torch's only, so without them the block's layers are missing. A
        capitalised name of a package of :data:`TORCH_MODEL_PACKAGES` or
        :data:`~apiscan.review.oplibs.NETWORK_OP_LIBRARIES`, or of a tensor-parallel
        library's namespace (fairscale's ``ColumnParallelLinear``:
        :data:`~apiscan.review.oplibs.MODEL_PARALLEL_LIBRARIES`), the repository does not define,
        outside its host submodules (``torch_geometric.data.Data``); a lower-case call
        (``timm.create_model``) builds no layer of its own."""
        facts = fa.syntax if not fa.errors else None
        if facts is None or facts.values is None:
            return []
        inside = {
            n
            for n, d in enumerate(facts.values.defs)
            if d.qual == qualname or d.qual.startswith(qualname + ".")
        }
        out: list[str] = []
        for full, _, function in absolute_calls(facts):
            top, last = full.partition(".")[0], full.rpartition(".")[2]
            if (
                function in inside
                and top not in self.local
                and (
                    top in TORCH_MODEL_PACKAGES
                    or top in NETWORK_OP_LIBRARIES
                    or model_parallel_library(full)
                )
                and last[:1].isupper()
                and not _SETTINGS_CLASS.search(last)
                and not self.is_layer(full)  # the scan's findings count it (torchvision's)
                and _network_op(full)
            ):
                out.append(full)
        return out

    def _evaluated_blocks(self, fa: FileAnalysis, qualname: str) -> list[str]:
        """The repository classes a constructor builds from a module-level block list it
        is handed and ``eval``s (YOLOP's ``MCnet.__init__``: ``block = eval(block) if
        isinstance(block, str) else block``, then ``block(*args)``, over ``YOLOP = [[...],
        [-1, Focus, [3, 32, 3]], [-1, Conv, [...]], ...]``): the class names (or strings)
        of the rows of the lists of the constructor's file that its code reads (all of them
        when it reads none), in row order; torch's layers named so too (``nn.Upsample``).
        The in-Python counterpart of a yolov5-style YAML read by ``parse_model``
        (:func:`_yaml_parts`)."""
        values = fa.syntax.values if fa.syntax is not None and not fa.errors else None
        if values is None:
            return []
        inside = {n for n, d in enumerate(values.defs) if d.qual == qualname}
        if not any(c.expr.callee() == "eval" and c.function in inside for c in values.calls):
            return []
        tables = {
            a.target.name: a.value
            for a in values.assigns
            if a.target.kind == "Name"
            and a.value.kind == "List"
            and sum(p.kind == "List" for p in a.value.parts) >= 2
        }
        read = {
            e.name
            for a in (*values.assigns, *(x for d in values.defs for x in d.assigns))
            for e in a.value.walk()
            if e.kind == "Name" and e.name in tables
        } | {
            e.name
            for c in values.calls
            for e in c.expr.walk()
            if e.kind == "Name" and e.name in tables
        }
        imports = dict(fa.syntax.imports) if fa.syntax is not None else {}
        module = fa.modules[0] if fa.modules else ""
        out: list[str] = []
        for name, table in tables.items():
            if read and name not in read:
                continue
            for row in table.parts:
                for item in row.parts if row.kind == "List" else ():
                    text = item.name if item.kind == "Name" else item.value
                    if not isinstance(text, str) or not text.isidentifier():
                        continue
                    dotted = imports.get(text) or f"{module}.{text}"
                    cls = self.hierarchy.resolve(dotted) or dotted
                    cls = cls if cls in self.classes else dotted
                    known = cls in self.classes or self.is_layer(cls)
                    if known and cls not in out:
                        out.append(cls)
        return out

    def _builder_classes(self, callee: str) -> set[str]:
        """The repository classes a module-level repository function constructs itself."""
        module, _, name = callee.rpartition(".")
        fa = self.analyses.get(self.paths.get(module, ""))
        if fa is None or name not in {d.split(".")[0] for d in self.defs.get(fa.path, ())}:
            return set()
        return {
            cls
            for call in fa.calls
            if call.caller == name or call.caller.startswith(name + ".")
            if (cls := self._built_class(call.callee)) is not None
        }

    def _picked_classes(self, callee: str) -> list[str]:
        """The repository classes a module-level repository function returns uncalled for
        its caller to build: a class it returns by name, or each class of a dict literal
        its ``return`` looks up by key (``stem_funs[stem_type]`` over ``{"res_stem_in":
        ResStem, "simple_stem_in": SimpleStem}``, the dict bound in the function or in its
        module). Which entry the key picks is not told here: each is a part the calling
        constructor may build, not a free-standing class. [] for a function that returns
        no class so (it builds its classes itself: :meth:`_builder_classes`)."""
        module, _, name = callee.rpartition(".")
        fa = self.analyses.get(self.paths.get(module, ""))
        d = _own_def(fa, name) if fa is not None and "." not in name else None
        if fa is None or d is None or d.is_class or fa.syntax is None:
            return []
        values = fa.syntax.values
        bound = {
            a.target.name: a.value
            for a in (*(values.assigns if values is not None else ()), *d.assigns)
            if a.target.kind == "Name"
        }
        names: list[str] = []
        for returned in d.returns:
            if returned.kind == "Name":
                names.append(returned.name)
            elif returned.kind == "Subscript" and returned.target.kind == "Name":
                table = bound.get(returned.target.name)
                if table is not None and table.kind == "Dict":
                    names += [v.name for v in table.items if v.kind == "Name"]
        imports = dict(fa.syntax.imports)
        out: list[str] = []
        for text in names:
            dotted = imports.get(text) or f"{module}.{text}"
            cls = self.hierarchy.resolve(dotted) or dotted
            if cls in self.classes and cls not in out:
                out.append(cls)
        return out

    def _picked_into(
        self, fa: FileAnalysis, qualname: str, line: int, nodes: Mapping[str, _Node]
    ) -> str | None:
        """The repository module class a constructor hands the pick of the call at ``line``
        to (``block_fun = get_block_fun(...)`` then ``AnyStage(w_in, w_out, block_fun)``):
        that class builds the picked class, so it is that class's part; None when the
        local is handed to no module class's constructor (the constructor builds it)."""
        d = _own_def(fa, qualname)
        if d is None or fa.syntax is None or fa.syntax.values is None:
            return None
        local = next(
            (
                a.target.name
                for a in d.assigns
                if a.target.kind == "Name" and a.value.kind == "Call" and a.value.line == line
            ),
            None,
        )
        if local is None:
            return None
        inside = {n for n, x in enumerate(fa.syntax.values.defs) if x.qual == qualname}
        for call in fa.syntax.values.calls:
            if call.function not in inside or call.expr.line <= line:
                continue
            if not any(arg.kind == "Name" and arg.name == local for arg in call.expr.args):
                continue
            for made in fa.calls:
                if made.line == call.expr.line and made.caller == qualname:
                    cls = self._built_class(made.callee, fa)
                    if cls is not None and cls in nodes:
                        return cls
        return None

    def _builder_layers(self, callee: str) -> list[str]:
        """The torch layers a module-level repository function builds (``self.act =
        get_activation(act)``, whose branches build ``nn.SiLU``, ``nn.ReLU``...): they are the
        calling constructor's layers. Each layer it may build counts once."""
        module, _, name = callee.rpartition(".")
        path = self.paths.get(module)
        found = self.findings.get(path, {}) if path is not None else {}
        return sorted(
            {
                f.api
                for function, fs in found.items()
                if function == name or function.startswith(name + ".")
                for f in fs
                if f.usage == "call" and self.is_layer(f.api)
            }
        )

    def _lineage(self, cls: str) -> set[str]:
        """``cls`` and its repository ancestors: a call on any of them from one of its own
        methods is a call on ``self`` (the scan spells ``self.m()`` as ``<class>.m``)."""
        out: set[str] = set()
        todo = [cls]
        while todo and len(out) < 20:
            q = self.hierarchy.resolve(todo.pop())
            if q is None or q in out or q not in self.classes:
                continue
            out.add(q)
            todo.extend(b for b in self.classes[q][1].bases if b)
        return out

    def _handed_classes(self, fa: FileAnalysis, qualname: str) -> set[str]:
        """The repository classes the calls of def ``qualname`` (and the defs inside it) are
        handed by name as an argument, from the scan's call records: the class, not an
        instance, so the callee builds it."""
        facts = fa.syntax
        values = facts.values if facts is not None else None
        if facts is None or values is None:
            return set()
        imports = dict(facts.imports)
        module = fa.modules[0] if fa.modules else ""
        out: set[str] = set()
        # a local bound to repository classes and then called (HiFi-GAN-like ``block =
        # BlockA if cfg.kind == '1' else BlockB`` ... ``block(ch, k, d)``): each class it
        # may hold is built there
        aliases: dict[str, list[str]] = {}
        for d in values.defs:
            if d.qual != qualname and not d.qual.startswith(qualname + "."):
                continue
            for a in d.assigns:
                if a.target.kind != "Name" or a.value.kind not in ("Name", "IfExp"):
                    continue
                names = [a.value] if a.value.kind == "Name" else list(a.value.parts[1:])
                # a class of an imported module too (VITS's ``modules.ResBlock1 if
                # resblock == '1' else modules.ResBlock2``)
                aliases[a.target.name] = [
                    e.name if e.kind == "Name" else e.text
                    for e in names
                    if e.kind == "Name" or (e.kind == "Attribute" and e.chain())
                ]
        for call in values.calls:
            if call.function < 0:
                continue
            qual = values.defs[call.function].qual
            if qual != qualname and not qual.startswith(qualname + "."):
                continue
            if call.expr.func.text in _TYPE_TESTS:
                continue  # ``isinstance(m, MoEMlp)`` in an initialiser: tested, not built
            if call.expr.func.kind == "Name":
                for name in aliases.get(call.expr.func.name, ()):
                    head, dot, rest = name.partition(".")
                    source = imports.get(head)
                    dotted = (f"{source}{dot}{rest}" if source else None) or f"{module}.{name}"
                    cls = self.hierarchy.resolve(dotted)
                    if cls is not None and cls in self.classes:
                        out.add(cls)
            for arg in (*call.expr.args, *(k.target for k in call.expr.keywords)):
                for e in arg.walk():
                    if e.kind != "Name" or not e.name:
                        continue
                    cls = self.hierarchy.resolve(imports.get(e.name) or f"{module}.{e.name}")
                    if cls is not None and cls in self.classes:
                        out.add(cls)
        return out

    def _built_class(self, callee: str, fa: FileAnalysis | None = None) -> str | None:
        """The repo class a call builds: the class called, or what a builder function returns
        (``fa`` the calling file's class when it spells one of its own)."""
        q = self.hierarchy.resolve(callee)
        if q is not None and q in self.classes:
            return q
        # the scan spells the call by the callee's full module name (``models.utils.GRN``),
        # which the hierarchy shortens to the first name of its file (``utils.GRN``); when
        # another file has that first name too (a top-level ``utils.py``), the class is keyed
        # by the full name (:func:`class_modules`), which the call already is
        if q is not None and callee in self.classes:
            return callee
        returned = self.returns.get(callee)
        if returned is None:
            return self._class_constructor(callee)
        q = self.hierarchy.resolve(returned)
        return q if q is not None and q in self.classes else None

    def _class_constructor(self, callee: str) -> str | None:
        """The repository class an alternative constructor called on it builds
        (``EffNet.from_pretrained("efficientnet-b0")``, ``Net.from_config(cfg)``): a method
        whose first parameter is ``cls``, called on the class itself. Without it a model
        that builds its backbone so holds nothing, and the backbone hangs apart."""
        receiver, _, name = callee.rpartition(".")
        cls = self.hierarchy.resolve(receiver) if receiver else None
        if cls is None or cls not in self.classes:
            return None
        method = self.hierarchy.method(cls, name)
        if method is None:
            # a class builder it inherits from another package's base (transformers'
            # ``PreTrainedModel.from_pretrained``: BLIP's ``BertModel.from_pretrained(
            # 'bert-base-uncased', config=...)`` builds the repository's own BertModel)
            builds = _CLASS_BUILDER.match(name) and self.hierarchy.foreign_ancestors(cls)
            return cls if builds else None
        owner = self.hierarchy.resolve(method.rpartition(".")[0])
        if owner is None or owner not in self.classes:
            return None
        fa, fact = self.classes[owner]
        return cls if classmethod_def(fa, f"{fact.qualname}.{name}") else None


class _Roles:
    """Role assignment: names first, then module names, then position (module docstring)."""

    def __init__(
        self,
        nodes: Mapping[str, _Node],
        classes: Mapping[str, tuple[FileAnalysis, ClassFact]],
        bases: Callable[[str], list[str]] = lambda cls: [],
    ) -> None:
        self.nodes = nodes
        self.classes = classes
        self.bases = bases
        self.parents: dict[str, set[str]] = {cls: set() for cls in nodes}
        for node in nodes.values():
            for child in node.children:
                self.parents[child].add(node.cls)

    def assign(self) -> dict[str, str]:
        roles: dict[str, str | None] = {}
        for cls, node in self.nodes.items():
            class_words = words(cls.rpartition(".")[2])
            attribute_words = [w for attr in sorted(node.attributes) for w in words(attr)]
            if "".join(class_words[-2:]) == "bottleneck":
                # ENet's ``BottleNeck`` (two words in CamelCase) is a residual block, as
                # ``Bottleneck`` is, never an FPN-style neck
                roles[cls] = "block"
                continue
            roles[cls] = (
                _role_of_words(class_words[-1:])
                or self._inherited(cls)
                or _role_of_words(attribute_words)
            )
        # Ancestors first, so a class in head.py built by another class of head.py is a block.
        for cls in sorted(self.nodes, key=lambda c: (len(self._ancestors(c)), c)):
            if roles[cls] is None:
                module = self.classes[cls][0].modules[0].rpartition(".")[2]
                role = _role_of_words(words(module)[-1:])
                if role is not None and role not in {roles[a] for a in self._ancestors(cls)}:
                    roles[cls] = role
        models = {cls for cls in self.nodes if self._may_be_model(cls, roles)}
        for cls, role in self._flow_roles(roles, models).items():
            roles[cls] = roles[cls] or role
        final: dict[str, str] = {}
        tabled = self._tabled_blocks(roles)
        for cls in self.nodes:
            role = roles[cls]
            below = {roles[d] for d in self._descendants(cls)}
            if cls in models and {"backbone", "head"} <= below:
                # what holds a backbone and heads is the model, whatever its name says
                # (EfficientDet's ``EfficientDetBackbone`` holds EfficientNet, BiFPN and the
                # box and class heads)
                role = "model"
            elif role is None:
                role = "block" if self.parents[cls] or cls in tabled else "other"
            final[cls] = role
        return final

    def _tabled_blocks(self, roles: Mapping[str, str | None]) -> set[str]:
        """The classes a module-level dict of a file lists beside a block (HRNet's
        ``blocks_dict = {'BASIC': BasicBlock, 'BOTTLENECK': Bottleneck}``, a ResNet's
        ``{18: (BasicBlock, [2, 2, 2, 2]), 50: (Bottleneck, ...)}``): a table the builder
        picks the block of a stage from by a config's name, the class handed in as the
        ``block`` a parent builds. Such a class is a block, though no constructor names it."""
        out: set[str] = set()
        seen: set[str] = set()
        for fa, _ in self.classes.values():
            if fa.path in seen or fa.syntax is None or fa.syntax.values is None:
                continue
            seen.add(fa.path)
            modules = fa.modules
            for a in fa.syntax.values.assigns:
                if a.value.kind != "Dict":
                    continue
                listed = {
                    f"{m}.{e.name}"
                    for item in a.value.items
                    for e in item.walk()
                    if e.kind == "Name"
                    for m in modules
                    if f"{m}.{e.name}" in self.nodes
                }
                if len(listed) > 1 and any(
                    roles.get(c) == "block" or self.parents[c] for c in listed
                ):
                    out |= listed
        return out

    def _may_be_model(self, cls: str, roles: Mapping[str, str | None]) -> bool:
        """A root module whose name gives it no role, or the role of a part it holds (a
        "backbone" holding a backbone is misnamed: EfficientDet's ``EfficientDetBackbone``).
        A root whose name says neck and that holds a backbone is a neck nothing builds
        (YOLOX's ``YOLOFPN`` around Darknet), never the model."""
        role = roles[cls]
        if self.parents[cls] or role == "loss":
            return False
        return role is None or role in {roles[c] for c in self.nodes[cls].children}

    def _flow_roles(self, roles: Mapping[str, str | None], models: set[str]) -> dict[str, str]:
        """Roles from what a part does in its model's ``forward`` (:func:`forward_flow`),
        for the parts whose names say none: of a root module that may be the model
        (:meth:`_may_be_model`; a block's, a head's or a neck's own pipeline of layers says
        nothing) holding a part its name calls a backbone, neck or head, the stage fed by
        the input that feeds the others is the backbone, the ones fed by other stages whose
        outputs are returned the heads, those between the necks (EfficientDet's
        ``Regressor`` and ``Classifier``, RetinaFace's ``SSH`` context modules), except that
        the stages feeding a part named as the neck are the backbone's. A class
        stored in stages that feed one another (ResNet's ``layer1`` ... ``layer4`` of
        ``Bottleneck``) is a repeated block, never a part; one without weights (anchors
        computed from the features) is no part either."""
        out: dict[str, str] = {}
        for node in self.nodes.values():
            inputs, returned = node.flow
            if node.cls not in models or not any(
                roles[c] in ("backbone", "neck", "head")
                for found in node.slots.values()
                for c in found
            ):
                continue
            feeds: dict[str, set[str]] = {}
            for attr, sources in inputs.items():
                for source in sources - {_INPUT}:
                    feeds.setdefault(source, set()).add(attr)
            below = {a: self._closure(a, lambda x, f=feeds: f.get(x, ())) for a in inputs}
            heads = {a for a in returned & inputs.keys() if inputs[a] - {_INPUT}}
            # what it feeds reads none of the forward's inputs itself: a projection of one
            # input beside the others (MMPT's ``videomlp`` into ``bert(input_ids, ...)``)
            # is no backbone
            backbones = {
                a
                for a in inputs
                if inputs[a] == {_INPUT}
                and a not in returned
                and below[a] & heads
                and not any(_INPUT in inputs[f] for f in feeds.get(a, ()))
            }
            stage: dict[str, str] = {a: "head" for a in heads}
            stage.update((a, "backbone") for a in backbones)
            # a stage feeding a part its name calls the neck is still the backbone
            # (YOLOv4's ``down2`` ... ``down5`` after ``down1``, into ``self.neck``)
            named_necks = {
                a for a, found in node.slots.items() if any(roles[c] == "neck" for c in found)
            }
            for a in inputs.keys() - heads - backbones:
                if below[a] & heads and any(a in below[b] for b in backbones):
                    upstream = a not in named_necks and bool(below[a] & named_necks)
                    stage[a] = "backbone" if upstream else "neck"
            by_class: dict[str, set[str]] = {}
            for attr, found in node.slots.items():
                for cls in found:
                    by_class.setdefault(cls, set()).add(attr)
            for cls, attrs in by_class.items():
                if not self.nodes[cls].layers and not self.nodes[cls].children:
                    continue  # no weights: a computation (anchors from the features)
                found_roles = {stage.get(a) for a in attrs}
                chained = any(below.get(a, set()) & attrs for a in attrs)
                if len(found_roles) == 1 and None not in found_roles and not chained:
                    out.setdefault(cls, found_roles.pop())  # type: ignore[arg-type]
        return out

    def _inherited(self, cls: str) -> str | None:
        """The role a base class's name gives (detectron2's ``ResNet(Backbone)``, a
        ``CSPDarknet(BaseBackbone)``): the nearest base, through the repository's classes,
        whose last word names one. Another package's base counts by its name too."""
        seen: set[str] = {cls}
        todo = deque(self.bases(cls))
        while todo:
            base = todo.popleft()
            if base in seen or base.startswith("torch."):
                continue
            seen.add(base)
            role = _role_of_words(words(base.rpartition(".")[2])[-1:])
            if role is not None:
                return role
            todo.extend(self.bases(base))
        return None

    def _ancestors(self, cls: str) -> set[str]:
        return self._closure(cls, lambda c: self.parents[c])

    def _descendants(self, cls: str) -> set[str]:
        return self._closure(cls, lambda c: self.nodes[c].children)

    @staticmethod
    def _closure(start: str, step: Callable[[str], Iterable[str]]) -> set[str]:
        seen: set[str] = set()
        todo = list(step(start))
        while todo:
            cls = todo.pop()
            if cls not in seen:
                seen.add(cls)
                todo.extend(step(cls))
        seen.discard(start)
        return seen


def classmethod_def(fa: FileAnalysis, qualname: str) -> bool:
    """Whether the def ``qualname`` of ``fa`` takes the class first (``def from_pretrained(
    cls, ...)``, Python's spelling of a class method): called on a class, it builds one."""
    values = fa.syntax.values if fa.syntax is not None and not fa.errors else None
    return values is not None and any(
        d.qual == qualname and not d.is_class and d.positional[:1] == ("cls",) for d in values.defs
    )


def module_nodes(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    hierarchy: Hierarchy,
    api: TorchApi,
) -> tuple[ModuleNode, ...]:
    """The repository's module classes, sorted by file and line."""
    return StructureBuilder(result, analyses, hierarchy, api).build()


#: PyTorch model libraries whose model classes a repository may extend (a MegEngine or
#: TensorFlow class with a forward is another framework's, never the model's).
TORCH_MODEL_PACKAGES = frozenset(
    {"timm", "torchvision", "transformers", "torchaudio", "segmentation_models_pytorch"}
)
#: A constructor's parameter naming a layer kind (``norm_layer=nn.LayerNorm``, ``act_layer``):
#: what it builds is a layer of the part, not a part handed in.
_LAYER_PARAMETER = re.compile(r"(?:\w+_)?(?:layer|norm|act|activation)")
#: A library class named for the settings it holds (timm's ``NaFlexVitCfg``, transformers'
#: ``GenerationConfig``): no layer, though a constructor builds it.
_SETTINGS_CLASS = re.compile(r"(Cfg|Config|Configuration|Args|Arguments|Options)$")
#: Top models found per repository at most (a zoo of variants lists its first ones).
TOP_MODELS = 8
#: The pseudo-part naming the other builders of a root model (``resnet34, resnet50``).
ALSO_BUILT_BY = "also built by"
#: The pseudo-part naming the module classes a constructor builds that no attribute shows.
ALSO_BUILDS = "also builds"
#: The pseudo-part naming another package's network a constructor cuts its blocks from.
BUILT_FROM = "built from"
#: The part naming a third-party model class a registered function returns, with its sizes
THIRD_PARTY = "third-party class"
#: A method name that says it builds something (``build_backbone``, ``make_layer``).
_BUILDER_NAME = re.compile(r"(build|make|create)_")
#: Classes that wrap whatever model they are handed (distributed training, proxies, an EMA
#: copy, timm's ClassificationTask pairing it with its loss for the training step): never the
#: top model, though a builder constructs them with a module injected.
_WRAPPER = re.compile(
    r"Wrapper$|DataParallel|^Distributed|^ModelEma|EMA$|Ema(V\d+)?$|(?<!Multi)Task$"
)
#: Steps a construction is followed through builders: two per function (its call, then the
#: name its ``return`` reads), so DeepLabV3+'s ``deeplabv3plus_mobilenet`` → ``_load_model``
#: → ``_segm_mobilenet`` → ``DeepLabV3(backbone, classifier)`` is reached.
_FOLLOW = 7
#: Repository functions a builder is followed through, and the models shown for one part.
_BUILDER_DEPTH = 3
_BUILDER_SHOWN = 6
#: Another package's functions that build a model by the name they are given first.
_BY_NAME_CALLS = frozenset({"create_model", "from_pretrained", "load", "get_model"})
#: The part of a top model an installed framework's training builds from the option file:
#: the framework's entry point trains it, whatever the repository's files reach.
FRAMEWORK_BUILT = "built by the training framework"
#: Keys of a config that name the model it builds (``"arch": {"type": "PSPNet"}``).
_MODEL_KEYS = frozenset({"arch", "model", "architecture", "network", "net"})
#: Roles of a model's parts (never a model beside the one an entry script builds).
_PARTS = frozenset({"backbone", "neck", "head", "loss"})
#: torch's container modules, and the calls that load a saved model (:meth:`_reloads`).
_CONTAINERS = frozenset({"torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.Sequential"})
_CHECKPOINT_LOADS = frozenset({"torch.load", "torch.jit.load"})
#: torch's layers without weights of their own (a dropout, an activation, a pooling): no
#: part of a model a port writes, where a model's torch layers are its parts.
_STATELESS = re.compile(
    r"\.(?:\w*Dropout\w*|Identity|Flatten|Unflatten|\w*Pool\w*|ReLU6?|GELU|SiLU|Sigmoid|Tanh"
    r"|Softmax|LogSoftmax|Hardswish|Hardsigmoid|Mish|ELU|LeakyReLU|Upsample)$"
)
#: The methods that fill a list a container is then built from (``layers.append(...)``).
_FILLS = frozenset({"append", "extend", "insert"})
#: Parameters of a builder that name the class it builds (``build_encoder(arch=...)``).
_PICKER = re.compile(r"(?:\w+_)?(?:arch|name|type|kind|variant|model|network|net)(?:_\w+)?")
#: An upper-case config key read in a test's text (``cfg.MODEL.RPN_ONLY``).
_CONFIG_READ = re.compile(r"\.(?=\w*[A-Z])[A-Z0-9_]{2,}\b")
#: Calls that test a class they are handed rather than build it.
#: (``super(BaseNetwork, self).__init__()`` names the class whose base it reaches: no part)
_TYPE_TESTS = frozenset({"isinstance", "issubclass", "type", "super"})
#: Roles that are never the top model (a criterion is built beside it, not around it).
_NOT_TOP = frozenset({"loss"})
#: How a top model the documentation's examples build is told (its "selected by" part).
DOCUMENTED_BUILD = "the model the documentation's example builds"


class _Builders:
    """Follows builder functions to the module classes they construct: ``create(cfg)``
    returning ``Net(trunk, head, ...)`` where ``trunk = make_trunk(cfg)`` returns a
    ``TrunkWithPositions``. Reads the records the scan's workers made of each file
    (:class:`~apiscan.review.registry.ModelFile`); relative imports are resolved here because the
    shared import table keeps only absolute ones."""

    def __init__(
        self,
        analyses: Sequence[FileAnalysis],
        modules: Sequence[ModuleNode],
        skip: Callable[[str], str],
        hierarchy: Hierarchy | None = None,
        root: Path | None = None,
        readings: Readings | None = None,
        unchosen: Callable[[str, int], str] | None = None,
    ):
        self.hierarchy = hierarchy
        #: what leaves a (path, line) out of the branches the defaults take ("" it runs)
        self.unchosen = unchosen
        self.root = root  # where a JSON config a script loads is read from
        #: the model :meth:`_package_choices` lists first is a config's default
        self.configured = False
        #: (path, def) -> parameter ("" the first) -> (the name it takes, how): what a
        #: script's call hands a builder (:meth:`_scripted`)
        self.arguments: dict[tuple[str, int], dict[str, tuple[str, str]]] = {}
        self._suffixes: dict[str, ModelFile | None] = {}
        self.classes = {m.cls: m for m in modules}
        self.local = {m.partition(".")[0] for fa in analyses if not fa.errors for m in fa.modules}
        self.skip = skip
        self.files = [f for f in model_files(analyses) if not is_test_path(f.path)]
        self.by_path = {f.path: f for f in self.files}
        self.by_module: dict[str, ModelFile] = {}
        # each file's first name before any alias (discovery keeps a first name to one file)
        for file in self.files:
            self.by_module.setdefault(file.module, file)
        for file in self.files:
            for module in file.modules:
                self.by_module.setdefault(module, file)
        readings = self.readings = readings or Readings(root, analyses)
        #: the review's argparse table (every option with its default)
        self.argparse = readings.argparse
        for file in self.files:  # an import the argparse defaults pick (``--arch``)
            file.imports.update(picked_imports(file, self.argparse.by_path.get(file.path, ())))
        self.registries = Registries(self.files, self.resolve, self.by_module, self.argparse)
        # the YAML config the training names by default picks the model over the Python
        # default (yacs: MODEL.META_ARCHITECTURE in configs/x.yaml); read in the recipe's module
        yacs = self.yacs = readings.yaml
        #: option YAMLs that name the network built by name (``network_g: {type: NAFNet}``)
        self.options = readings.options[0]
        for suffix, value, setting in yacs.model_keys() if yacs is not None else ():
            at = YamlPlace(setting, yacs.chosen_by)  # type: ignore[union-attr]
            found = self.registries.config.setdefault(suffix, [])
            found.insert(0, (at, value, setting.line))  # type: ignore[arg-type]
        #: the builder functions a registry's pick went through to its class, innermost
        #: first (``_segm_mobilenet``, ``_load_model``, ``deeplabv3plus_mobilenet``)
        self.trail: list[str] | None = None
        self.trails: dict[TopModel, tuple[str, ...]] = {}
        self._unbuilt_memo: set[str] | None = None
        #: the sectioned config the training names, () when none (:meth:`_sections`)
        self._sections_memo: tuple[dict[str, set[str]], str] | tuple[()] | None = None
        self._compared_memo: dict[str, set[str]] | None = None
        #: the whys of the section tests that fail (:meth:`_section_test`)
        self._section_whys: set[str] = set()
        #: the module classes built only under section tests that fail: the section file
        #: the training names builds none of them (:meth:`_unbuilt`)
        self.section_unbuilt: set[str] = set()
        #: the classes a per-branch builder returns that the chosen config does not pick
        self._not_picked: set[str] = set()
        #: the classes whose methods' calls :meth:`registry_picks` does not count
        self._skipped_owners: set[str] = set()
        #: the models a package exports that the chosen config does not name (still listed
        #: as top models, after the configured one)
        self._unconfigured: set[str] = set()
        #: the functions and classes a ``@register_model`` pick by a known name leaves out
        #: (:meth:`_registered_alternatives`), and those some such pick takes: a model one
        #: script picks is no alternative because another script's name is another
        self.registered_out: set[str] = set()
        self.registered_in: set[str] = set()
        #: class -> the table key that picks it by default and the other keys (the model's
        #: alternatives, named once: ``dla picked by ...; also resdcn, res``)
        self.table_picks: dict[str, str] = {}
        #: class -> (the test, why it fails) of the classes a builder builds only in a branch
        #: the chosen config skips, and nothing builds elsewhere (:meth:`_skipped_in`)
        self.not_built: dict[str, tuple[str, str]] = {}
        #: class -> (the test, why it holds) of the classes built only under config tests
        #: the chosen config passes, each one evaluated (:meth:`_unbuilt`): built, whatever
        #: flag another shipped config sets (``if not cfg.MODEL.RPN_ONLY:`` with the
        #: default ``RPN_ONLY = False`` the chosen YAML leaves)
        self.built_under: dict[str, tuple[str, str]] = {}
        #: root module -> how many files' builder functions build it (:meth:`_roots`)
        self.built_in: dict[str, int] = {}
        #: module class -> the module classes constructions hand its constructor (a builder's
        #: ``Net(encoder=encoder)``, ``ResNet(num_classes, Bottleneck, ...)``): its parts
        self.injected: dict[str, set[str]] = {}
        #: (class, part) -> where a construction hands the class that part (path, line)
        self.injected_at: dict[tuple[str, str], set[tuple[str, int]]] = {}
        #: builder constructions whose only parts are classes handed in uncalled (``ResNet(
        #: n, Bottleneck, ...)`` in ``resnet50``): no model of their own, their parts only
        #: for the pick that runs through the builder (:meth:`_injected_into`)
        self.fed: list[TopModel] = []
        #: path -> (first, last line of its ``__main__`` block, other files import the
        #: module, the module is in a package) of every module with such a block
        referenced = imported_modules(analyses)
        # a notebook that imports a script to run its function (``from train import train``
        # then ``train(opt)`` in a cell) drives it: the script is still an entry point
        driven = imported_modules(a for a in analyses if not a.path.endswith(NOTEBOOK))
        #: scripts no other file imports, run as ``__main__`` or named as an entry point
        #: (train_net.py; CenterTrack's main.py calls ``main(opt)`` at module level)
        # ... and a training run others import a helper or the training function from (a
        # trainer script's ``__main__``: the one self-test rule, :func:`self_tests`, says no)
        trials = self_tests(analyses)
        self.entries = [
            f
            for f in self.files
            if f.fa.syntax is not None
            and (f.fa.syntax.main_block != (0, 0) or _entry_name(f.path))
            and (
                not any(
                    m in (referenced if f.fa.syntax.main_block != (0, 0) else driven)
                    for m in f.modules
                )
                or (f.fa.syntax.main_block != (0, 0) and f.path not in trials)
            )
        ]
        self.self_tests: dict[str, tuple[int, int, bool, bool]] = {}
        for file in self.files:
            syntax = file.fa.syntax
            if syntax is not None and syntax.main_block != (0, 0):
                imported = any(m in referenced for m in file.modules)
                first, last = syntax.main_block
                self.self_tests[file.path] = (first, last, imported, "." in file.module)

    def callee(self, file: ModelFile, call: Expr) -> str | None:
        return self.dotted(file, call.refs[0])

    def constructed(self, file: ModelFile, call: Expr, fid: int) -> str | None:
        """The class a call constructs: its callee, or the owning class of a method that
        calls ``cls(...)`` (a classmethod constructor, EfficientNet-like ``from_name``
        returning ``cls(blocks_args, global_params)``: it builds that class)."""
        dotted = self.callee(file, call)
        if dotted is not None or file.chain(call.refs[0]) != ["cls"]:
            return dotted
        fn = file.function(fid)
        if fn is None or not fn.method or "." not in fn.qualname:
            return None
        owner = self.resolve(file, fn.qualname.split(".")[:-1])
        return owner if owner in self.classes else None

    def conditions(self, file: ModelFile, link: int) -> list[tuple[str, bool | None, str]]:
        """The config tests an expression is built under, innermost first, up to its def:
        (the test as written, whether the branch it is in runs (None: the config does not
        say), why: ``MODEL.RPN_ONLY = True at configs/fcos/x.yaml:5 (...)``). A branch is an
        ``if``'s body (the test holds) or what follows it (the test fails)."""
        tests = dict(file.facts.tests)
        out: list[tuple[str, bool | None, str]] = []
        links = file.facts.links
        while link >= 0:
            stmt, is_def, in_body, link = links[link]
            if is_def:
                break
            if stmt in tests:
                holds, why = self._evaluate(tests[stmt])
                if holds is None and not why and not _CONFIG_READ.search(tests[stmt]):
                    continue  # a section entry's test no section file tells: no config test
                out.append((tests[stmt], None if holds is None else holds == in_body, why))
        return out

    def _evaluate(self, test: str) -> tuple[bool | None, str]:
        """Whether a test of config keys holds in the chosen config (its YAML over the
        Python defaults): ``cfg.MODEL.FCOS_ON``, ``not cfg.MODEL.RPN_ONLY``,
        ``cfg.MODEL.NAME == "x"``, evaluated by the one evaluator of a branch test
        (:func:`~apiscan.review.evaluate.holds`), a key valued as the config writes it;
        (None, "") when a value is unknown. The why names each key read, with its place."""
        try:
            node = ast.parse(test, mode="eval").body
        except SyntaxError:
            return None, ""
        expr = ValueReader(ast.Module(body=[], type_ignores=[]), test).expr(node)
        section = self._section_test(expr)
        if section is not None:
            return section
        read: dict[str, None] = {}

        def lookup(e: ValueExpr, depth: int) -> object:
            chain = e.chain() if e.kind == "Attribute" else None
            keys = [k for k in chain or () if k.isupper()]
            if not chain or len(keys) < 2 or chain[-len(keys) :] != keys:
                return UNKNOWN
            found = self._config_value(".".join(keys))
            if found is None:
                return UNKNOWN
            text, where = found
            read[f"{'.'.join(keys)} = {text} at {where}"] = None
            return config_value(text)

        value = holds(expr, lookup)
        if value is UNKNOWN or not read:
            return None, ""
        return bool(value), "; ".join(read)

    def _sections(self) -> tuple[dict[str, set[str]], str] | None:
        """The sectioned config file (Darknet's ``.cfg``) the training builds its network
        from, read as data (:func:`~apiscan.review.config_files.section_values`), and
        where it is named: the default of a training script's config option, else the
        file the documented commands running that script pass the option (yolor's
        ``train.py --cfg cfg/yolor_p6.cfg``). None when no such file, or several, is named."""
        if self._sections_memo is not None:
            return self._sections_memo or None
        found: dict[str, tuple[dict[str, set[str]], str]] = {}
        for path, options in self.argparse.by_path.items() if self.root is not None else ():
            if "train" not in PurePosixPath(path).name or self.skip(path):
                continue
            for option in options:
                if not re.search(r"cfg|config", option.dest):
                    continue
                value, where = option.value, f"the default of --{option.dest} at {path}"
                if not (isinstance(value, str) and value.endswith(".cfg")):
                    named = script_config(self.root, path, f"--{option.dest}")  # type: ignore[arg-type]
                    if named is None:
                        continue
                    value, where = named[0], f"the training command at {named[1]}"
                if not value.endswith(".cfg"):
                    continue
                read = section_values(self.root / value)  # type: ignore[operator]
                if read is not None:
                    found.setdefault(value, (read, f"{value} ({where})"))
        self._sections_memo = next(iter(found.values())) if len(found) == 1 else ()
        return self._sections_memo or None

    def _section_test(self, expr: ValueExpr) -> tuple[bool | None, str] | None:
        """Whether a builder's test of one entry of a parsed section holds (``mdef['type']
        == 'dwt'``, ``mdef['activation'] in ('swish', 'mish')``) in the sectioned config
        the training names (:meth:`_sections`): a key the file sets is compared with the
        values the file gives it, a key it never sets (the header the parser keeps under
        ``'type'``) with the section headers when two of the literals it is compared with
        somewhere are headers. A literal none of them equals never matches: the branch
        never runs (False for ``==``/``in``); otherwise the sections differ, so unknown
        (None, with why: still a test of the config, under which the branch may run).
        None for any other test."""
        sections = self._sections()
        if sections is None or expr.kind != "Compare" or len(expr.parts) != 2:
            return None
        data, where = sections
        left, right = expr.parts
        if left.kind == "Constant" and expr.name in ("Eq", "NotEq"):
            left, right = right, left
        key = left.parts[1] if left.kind == "Subscript" and len(left.parts) == 2 else None
        if key is None or key.kind != "Constant" or not isinstance(key.value, str):
            return None
        literals = [right] if right.kind == "Constant" else list(right.parts)
        if right.kind not in ("Constant", "Tuple", "List", "Set") or not all(
            x.kind == "Constant" and isinstance(x.value, str) for x in literals
        ):
            return None
        if expr.name not in ("Eq", "NotEq", "In", "NotIn"):
            return None
        values = data.get(key.value)
        if values is None and len(self._compared(key.value) & data[""]) >= 2:
            values = data[""]
        if values is None:
            return None
        shown = ", ".join(str(x.value) for x in literals)
        if any(x.value in values for x in literals):
            return None, f"some sections only in {where}"  # a test the sections differ on
        why = f"{key.value} is never {shown} in {where}"
        if values is data[""]:
            why = f"no [{shown}] section in {where}"
        self._section_whys.add(why)
        return expr.name in ("NotEq", "NotIn"), why

    def _compared(self, key: str) -> set[str]:
        """The string literals the code's tests compare an entry ``[key]`` with."""
        if self._compared_memo is None:
            self._compared_memo = {}
            for file in self.files:
                for _, test in file.facts.tests:
                    for m in re.finditer(r"\[['\"](\w+)['\"]\]\s*==\s*['\"]([^'\"]+)['\"]", test):
                        self._compared_memo.setdefault(m[1], set()).add(m[2])
        return self._compared_memo.get(key, set())

    def _config_value(self, key: str) -> tuple[str, str] | None:
        """A yacs key's value where the training reads it: the chosen YAML's, else the
        Python default when no YAML sets the key (with several YAMLs and none chosen, a
        key one of them sets is unknown)."""
        yacs = self.yacs
        if yacs is None:
            return None
        if yacs.chosen is not None:
            setting = yacs.flat.get(yacs.chosen, {}).get(key)
            if setting is not None:
                return setting.text, f"{setting.loc()} ({yacs.chosen_by})"
        elif any(key in flat for flat in yacs.flat.values()):
            return self._documented_value(key)
        default = yacs.defaults.get(key)
        return (default.text, f"{default.loc()} (the default)") if default is not None else None

    def _documented_value(self, key: str) -> tuple[str, str] | None:
        """With several YAMLs and none chosen, the value of ``key`` every config the
        training script's documented commands pass agrees on (each its own setting, else
        the Python default): Swin's ``MODEL.TYPE`` is ``swin`` in the configs its
        ``main.py`` commands train, whatever other scripts' or undocumented configs set.
        None when they differ, or no command names one."""
        yacs = self.yacs
        values = yacs.documented_values(key) if yacs is not None else None
        if yacs is None or values is None or len(values) != 1:
            return None
        (text, count), _ = next(iter(values.items()))
        first = yacs.documented[0][1]
        return text, f"every config of the documented training commands ({count}, first at {first})"

    def _branch_pick(self, dotted: str) -> tuple[str, str] | None:
        """The one class a builder with a ``return`` per config branch returns under the
        chosen config (maskrcnn-benchmark's ``build_rpn``: ``if cfg.MODEL.FCOS_ON: return
        build_fcos(...)``, then RetinaNet, then ``RPNModule``): (class, why), the returns
        taken in line order, each skipped when a test around it fails; None when a test
        before the pick cannot be evaluated. A class only a skipped return builds, and no
        construction the chosen config runs (:meth:`_unbuilt`), is not built by the config
        (``not_built``, with the test that fails): the configured run never reaches its
        code (RetinaNet's module, head, loss and post-processing under ``RETINANET_ON``
        off), as a part a builder builds under a failing test (:meth:`_skipped_in`)."""
        found = self._def(dotted)
        if found is None:
            return None
        file, fid = found
        for ref in sorted(file.returns_in(fid), key=lambda r: file.exprs[r].line):
            tests = self.conditions(file, file.exprs[ref].link)
            failed = [t for t in tests if t[1] is False]
            if failed:
                skipped = self.built(file, ref, fid, 1)
                if skipped is not None and skipped in self._unbuilt():
                    self.not_built.setdefault(skipped, (failed[0][0], failed[0][2]))
                continue
            if any(runs is None for _, runs, _ in tests):
                return None
            cls = self.built(file, ref, fid, 1)
            if cls is None:
                return None
            return cls, "; ".join(why for _, _, why in tests)
        return None

    def registry_picks(self) -> set[str]:
        """The defs registered into a table that the chosen config does not pick: every
        look-up of the table is a subscript by a config key whose value is known (the chosen
        YAML's over the Python default: ``REGISTRY[cfg.MODEL.HEAD.PREDICTOR]`` with
        ``PREDICTOR: "FPNPredictor"``), and the table is used no other way (iterated, handed
        on, looked up by a name not known): its other entries are never built by the
        configured run, so their initialisation is no recipe row. Nothing without a yacs
        config, nor for a table with one entry."""
        if self.yacs is None:
            return set()
        # a look-up in a model the config leaves out never runs (SlowFast's
        # ``ContrastiveModel`` asking ``get_loss_func("contrastive_loss")``): read again
        # without the classes the last reading left out, until nothing changes
        self._skipped_owners = set(self._not_picked)
        found: set[str] = set()
        for _ in range(3):
            again = self._registry_picks_once()
            if again == found:
                break
            found = again
            self._skipped_owners = set(self._not_picked) | found
        self._skipped_owners = set()
        return found

    def _registry_picks_once(self) -> set[str]:
        """One reading of :meth:`registry_picks`."""
        tables = {**self.registries.tables, **self._dict_tables()}
        ends = {registry.rpartition(".")[2] for registry, table in tables.items() if len(table) > 1}
        picked: dict[str, set[str]] = {}
        unknown: set[str] = set()
        for file in self.files:
            values = file.fa.syntax.values if file.fa.syntax is not None else None
            if values is None:
                continue
            # each expression with the def it is read in (-1: the module's code)
            exprs = [(c.expr, c.function) for c in values.calls]
            exprs += [(a.value, -1) for a in values.assigns]
            exprs += [(loop.iter, loop.function) for loop in values.loops]
            for d in values.defs:
                fn = -1 if d.is_class else d.function
                exprs += [(a.value, fn) for a in d.assigns] + [(r, fn) for r in d.returns]
            # a table filled at run time (pycls's ``_models[name] = ctor`` in
            # ``register_model``) holds entries no code names
            for a in (*values.assigns, *(a for d in values.defs for a in d.assigns)):
                if a.target.kind == "Subscript" and a.target.parts:
                    filled = self._registry(file, a.target.parts[0], ends, tables)
                    if filled is not None:
                        unknown.add(filled)
            for x, fn in exprs:
                looked_up: set[int] = set()
                for e in x.walk():
                    if (
                        e.kind == "Call"
                        and e.func.kind == "Attribute"
                        and e.func.name == "get"
                        and len(e.args) == 1
                        and not e.keywords
                    ):
                        # ``DATASET_REGISTRY.get(name)`` (a fvcore-style registry) with the
                        # name followed to the config key it comes from
                        registry = self._registry(file, e.func.target, ends, tables)
                        if registry is None:
                            continue
                        looked_up.add(id(e.func.target))
                        keys = self._key_values(file, fn, e.args[0], 0)
                        if keys is None or not keys <= tables[registry].keys():
                            unknown.add(registry)
                        else:
                            picked.setdefault(registry, set()).update(keys)
                    elif e.kind == "Subscript" and e.parts:
                        looked_up.add(id(e.parts[0]))
                        registry = self._registry(file, e.parts[0], ends, tables)
                        if registry is None or len(e.parts) < 2:
                            continue
                        index = e.parts[1]
                        key = self._config_key(index)
                        # a name (a factory's parameter: ``return _LOSSES[loss_name]``) is
                        # followed to what its callers pass
                        keys = {key} if key is not None else None
                        if keys is None and index.kind != "Attribute":
                            keys = self._key_values(file, fn, index, 0)
                        if keys is None or not keys <= tables[registry].keys():
                            unknown.add(registry)
                        else:
                            picked.setdefault(registry, set()).update(keys)
                    elif e.kind == "Attribute" and e.name in REGISTER and e.parts:
                        looked_up.add(id(e.parts[0]))  # ``@REG.register("x")``: filling it
                    elif e.kind == "Attribute" and e.name in ("keys", "__contains__") and e.parts:
                        looked_up.add(id(e.parts[0]))  # ``if name not in TABLE.keys()``
                    elif e.kind in ("Name", "Attribute") and id(e) not in looked_up:
                        registry = self._registry(file, e, ends, tables)
                        if registry is not None:
                            unknown.add(registry)  # used some other way
        told = {registry: keys for registry, keys in picked.items() if registry not in unknown}
        # a def registered into several tables is built when any of them picks it
        chosen = {tables[registry][k] for registry, keys in told.items() for k in keys}
        left = {d for registry in told for d in tables[registry].values() if d} - chosen
        # an entry a picked one calls is built with it (a pyramid's builder calling the
        # table's plain backbone builder for its bottom-up path)
        left -= self._called_by(chosen, left)
        # an entry a picked one subclasses is built with it (pycls's ``AnyNet`` under
        # ``RegNet``)
        return {d for d in left if not self._inherited_by(d, chosen)}

    def entry_picks(self) -> set[str]:
        """The repository classes a table of named entries holds that the run's option does
        not name: an entry is a call of one callee with a string key (its ``name=`` or first
        positional argument) and a class (``OptimInfo(name="lamb", opt_class=Lamb)``, one
        call per entry, registered into a table the factory looks the option's value up in);
        the option is an argparse option of the same name as a parameter of a def in the
        module building the entries (``create_optimizer(params, opt, ...)`` beside ``--opt``),
        each of whose values (the documented command's, else the default) is a key. The
        entries of the other keys are never built by the run: alternatives, as a registry's
        other models. An entry a picked one calls or subclasses, or one built directly
        elsewhere, stays the run's."""
        options = {
            dest: found
            for dest, found in self.argparse.values().items()
            if found and all(isinstance(v, str) and v for v in found)
        }
        if not options:
            return set()
        # callee -> key -> the repository classes its entries name; callee -> entries' files
        tables: dict[str, dict[str, set[str]]] = {}
        homes: dict[str, set[str]] = {}
        entry_lines: set[tuple[str, int, int]] = set()
        for file in self.files:
            values = file.fa.syntax.values if file.fa.syntax is not None else None
            if values is None:
                continue
            for c in values.calls:
                e = c.expr
                if e.func.kind not in ("Name", "Attribute"):
                    continue
                named = {k.name: k.target for k in e.keywords}
                key_expr = named.get("name") or (e.args[0] if e.args else None)
                if key_expr is None or not isinstance(key_expr.value, str) or not key_expr.value:
                    continue
                classes: set[str] = set()
                for arg in (*e.args, *named.values()):
                    if arg is key_expr or arg.kind not in ("Name", "Attribute"):
                        continue
                    dotted = self.resolve(file, arg.full().split("."))
                    if dotted is not None and self._repository_class(dotted):
                        classes.add(dotted)
                callee = self.resolve(file, e.func.full().split("."))
                if callee is None:
                    continue
                table = tables.setdefault(callee, {})
                table.setdefault(key_expr.value.lower(), set()).update(classes)
                homes.setdefault(callee, set()).add(file.module)
                if classes:
                    entry_lines.add((file.path, e.line, e.col))
        found: set[str] = set()
        for callee, table in tables.items():
            entries = {cls for classes in table.values() for cls in classes}
            if len(table) < 2 or len(entries) < 2:
                continue
            params = {
                name
                for module in homes[callee]
                for f in (self.by_module.get(module),)
                if f is not None and f.fa.syntax is not None and f.fa.syntax.values is not None
                for d in f.fa.syntax.values.defs
                if not d.is_class
                for name, _ in d.params
            }
            picks = [
                {str(v).lower() for v in values}
                for dest, values in options.items()
                if dest in params and {str(v).lower() for v in values} <= table.keys()
            ]
            if len(picks) != 1:
                continue  # no option, or several, names this table's keys
            chosen = {cls for key in picks[0] for cls in table[key]}
            left = entries - chosen
            left -= self._called_by(chosen, left)
            left = {d for d in left if not self._inherited_by(d, chosen)}
            found |= left - self._built_directly(left, entry_lines)
        return found

    def _repository_class(self, dotted: str) -> bool:
        """Whether ``dotted`` names a class the repository defines."""
        if self.hierarchy is not None and self.hierarchy.resolve(dotted) is not None:
            dotted = self.hierarchy.resolve(dotted) or dotted
        module, _, name = dotted.rpartition(".")
        file = self.by_module.get(module)
        return file is not None and file.defs.get(name) == -1

    def _built_directly(self, classes: set[str], entries: set[tuple[str, int, int]]) -> set[str]:
        """The classes of ``classes`` a call outside the entries ``entries`` (path, line,
        column) builds or names as an argument; not the class's own code (``super(Lamb,
        self).__init__(...)``, a classmethod building it)."""
        if not classes:
            return set()
        ends = {c.rpartition(".")[2] for c in classes}
        out: set[str] = set()
        for file in self.files:
            if self.skip(file.path):
                continue
            values = file.fa.syntax.values if file.fa.syntax is not None else None
            own = (
                [
                    (d.line, d.end_line)
                    for d in values.defs
                    if d.is_class and f"{file.module}.{d.qual}" in classes
                ]
                if values is not None
                else []
            )
            for c in values.calls if values is not None else ():
                if (file.path, c.expr.line, c.expr.col) in entries:
                    continue
                if c.expr.func.kind == "Name" and c.expr.func.name == "super":
                    continue
                if any(a <= c.expr.line <= z for a, z in own):
                    continue
                for x in (c.expr.func, *c.expr.args, *(k.target for k in c.expr.keywords)):
                    if x.kind in ("Name", "Attribute") and x.name in ends:
                        dotted = self.resolve(file, x.full().split("."))
                        if dotted in classes:
                            out.add(dotted)
        return out

    def _called_by(self, chosen: set[str], left: set[str]) -> set[str]:
        """The entries of ``left`` (dotted defs) that a def of ``chosen`` calls, directly or
        through another such entry: the call graph's resolved edges (the scan's call
        facts)."""
        calls: dict[str, set[str]] = {}  # dotted def -> the entries of ``left`` it calls
        for file in self.files:
            for c in file.fa.calls:
                if c.caller and c.callee in left:
                    for module in file.fa.modules:
                        calls.setdefault(f"{module}.{c.caller}", set()).add(c.callee)
        found: set[str] = set()
        todo = list(chosen)
        while todo:
            for d in calls.get(todo.pop(), set()) - found:
                found.add(d)
                todo.append(d)
        return found

    def _inherited_by(self, cls: str, chosen: set[str]) -> bool:
        """Whether one of the classes ``chosen`` derives from ``cls`` (through the
        repository's classes); False when the hierarchy is not known."""
        if self.hierarchy is None:
            return False
        todo, seen = [cls], {cls}
        while todo:
            for sub in self.hierarchy.subclasses(todo.pop()):
                if sub in chosen:
                    return True
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
        return False

    def _registry(
        self, file: ModelFile, expr: ValueExpr, ends: set[str], tables: dict[str, dict[str, str]]
    ) -> str | None:
        """The registry table (dotted) a name or attribute chain stands for, else None."""
        text = expr.full()
        if text.rpartition(".")[2] not in ends or not re.fullmatch(r"[\w.]+", text):
            return None
        registry = self.resolve(file, text.split("."))
        return registry if registry in tables else None

    def _dict_tables(self) -> dict[str, dict[str, str]]:
        """Module-level dicts of the repository's module classes by name (SlowFast's
        ``_LOSSES = {"cross_entropy": nn.CrossEntropyLoss, "contrastive_loss":
        ContrastiveLoss, ...}``), as :meth:`registry_picks` reads a registry: dotted table ->
        key -> the dotted entry ("" for an entry that names nothing: ``partial(...)``). Only
        dicts whose keys are all strings and that name one module class at least."""
        out: dict[str, dict[str, str]] = {}
        for file in self.files:
            for assign in file.assigns_in(-1):
                value = file.expr(assign.value)
                if not assign.single or value is None or value.kind != "dict":
                    continue
                keys = [file.expr(k) for k in value.keys]
                if len(keys) < 2 or any(
                    k is None or k.kind != "const" or not k.value for k in keys
                ):
                    continue
                entries = {
                    k.value or "": self.dotted(file, ref) or ""
                    for k, ref in zip(keys, value.refs, strict=True)
                    if k is not None
                }
                if any(dotted in self.classes for dotted in entries.values()):
                    out[f"{file.module}.{assign.names[0]}"] = entries
        return out

    def _key_values(self, file: ModelFile, fn: int, expr: ValueExpr, depth: int) -> set[str] | None:
        """Every string a registry's key ``expr`` read in the def ``fn`` of ``file`` may
        hold in the configured run: a literal, a yacs key's value in the chosen config, a
        local's assigned values (every branch's), a parameter's values at every call of the
        def, through the string methods a name flows through (SlowFast's ``name =
        dataset_name.capitalize()`` with ``construct_loader`` passing ``cfg.TRAIN.DATASET``
        in one branch, ``cfg.TEST.DATASET`` in another); None when one cannot be told."""
        if depth > 4:
            return None
        known: dict[str, list[object]] = {}
        todo = [expr]
        while todo:
            e = todo.pop()
            if e.kind == "Attribute" and (strings := self._config_strings(e)) is not None:
                known[f"cfg:{e.full()}"] = sorted(strings)  # ``cfg.TRAIN.DATASET``, not its parts
            elif e.kind != "Name":
                todo.extend(e.parts)
            else:
                found = self._name_values(file, fn, e, depth + 1)
                if found is None:
                    return None
                known[f"={e.name}"] = sorted(found)

        def key(e: ValueExpr) -> str | None:
            if e.kind == "Name":
                return f"={e.name}"
            return f"cfg:{e.full()}" if e.kind == "Attribute" else None

        found = values_of(expr, key, known)
        if found is None or not all(isinstance(v, str) for v in found):
            return None
        return {str(v) for v in found}

    def _name_values(
        self, file: ModelFile, fn: int, name: ValueExpr, depth: int
    ) -> set[str] | None:
        """The strings a plain name read in the def ``fn`` may hold (:meth:`_key_values`):
        each value the def assigns it, else, for a parameter, what each call passes."""
        values = file.fa.syntax.values if file.fa.syntax is not None else None
        if values is None or fn < 0:
            return None
        d = values.defs[fn]
        assigned = [a for a in d.assigns if a.target.kind == "Name" and a.target.name == name.name]
        if assigned:
            out: set[str] = set()
            for a in assigned:
                found = self._key_values(file, fn, a.value, depth)
                if found is None:
                    return None
                out |= found
            return out
        if name.name not in d.positional or d.owner >= 0 or d.vararg:
            return None  # a method's callers are not told apart here
        index = d.positional.index(name.name)
        dotted = f"{file.module}.{d.qual}"
        out = set()
        calls = 0
        for caller in self.files:
            cvalues = caller.fa.syntax.values if caller.fa.syntax is not None else None
            for c in cvalues.calls if cvalues is not None else ():
                func = c.expr.func
                chain = func.chain() if func.kind in ("Name", "Attribute") else None
                if not chain or chain[-1] != d.name or self.resolve(caller, chain) != dotted:
                    continue
                owner = cvalues.defs[c.function].owner if c.function >= 0 else -1  # type: ignore[union-attr]
                if owner >= 0 and (
                    f"{caller.module}.{cvalues.defs[owner].qual}" in self._skipped_owners  # type: ignore[union-attr]
                ):
                    continue  # a method of a model the run's config leaves out never runs
                if c.expr.unpacks():
                    return None
                passed = {k.name: k.target for k in c.expr.keywords}
                arg = c.expr.args[index] if index < len(c.expr.args) else passed.get(name.name)
                if arg is None:
                    return None
                found = self._key_values(caller, c.function, arg, depth)
                if found is None:
                    return None
                out |= found
                calls += 1
        return out if calls else None

    def _config_strings(self, expr: ValueExpr) -> set[str] | None:
        """The strings a yacs key read as ``cfg.MODEL.X.Y`` holds in the run: the chosen
        YAML's (or the value its command passes after it), else the Python default; with no
        YAML chosen, the default's and every YAML file's that sets the key (ResNeSt's
        ``MODEL.NAME``: ``resnet50`` in the defaults and in its one YAML). None when the key
        is no yacs key or a value is no string."""
        chain = expr.full().split(".") if expr.kind == "Attribute" else []
        keys = [k for k in chain if k.isupper()]
        yacs = self.yacs
        if yacs is None or len(keys) < 2 or chain[-len(keys) :] != keys:
            return None
        key = ".".join(keys)
        default = yacs.defaults.get(key)
        if yacs.chosen is not None:
            given = yacs.overrides.get(key) or yacs.flat.get(yacs.chosen, {}).get(key) or default
            texts = [given.text] if given is not None else []
        else:
            texts = [default.text] if default is not None else []
            texts += [flat[key].text for flat in yacs.flat.values() if key in flat]
        values = [config_value(text) for text in texts]
        if not values or not all(isinstance(v, str) for v in values):
            return None
        return {str(v) for v in values}

    def _config_key(self, expr: ValueExpr) -> str | None:
        """The value of a yacs key read as ``cfg.MODEL.X.Y`` in the chosen config."""
        chain = expr.full().split(".") if expr.kind == "Attribute" else []
        keys = [k for k in chain if k.isupper()]
        if len(keys) < 2 or chain[-len(keys) :] != keys:
            return None
        found = self._config_value(".".join(keys))
        if found is None:
            return None
        value = config_value(found[0])
        return value if isinstance(value, str) else None

    def _skipped_in(self, dotted: str) -> list[str]:
        """What the builder ``dotted`` builds only in a branch the chosen config skips, each
        with its test and the value that fails it (FCOS's ``build_roi_heads``: ``ROIBoxHead
        (not cfg.MODEL.RPN_ONLY: MODEL.RPN_ONLY = True at configs/fcos/x.yaml:5 (...))``)."""
        found = self._def(dotted) if self.yacs is not None else None
        if found is None or not found[0].facts.tests:
            return []
        file, fid = found
        out: list[str] = []
        for ref, inner in file.facts.calls:
            if inner != fid:
                continue
            failed = [t for t in self.conditions(file, file.exprs[ref].link) if t[1] is False]
            cls = self.built(file, ref, fid, 1) if failed else None
            if cls is not None:
                test, _, why = failed[0]
                if cls in self._unbuilt():
                    self.not_built.setdefault(cls, (test, why))
                shown = f"{cls.rpartition('.')[2]} ({test}: {why})"
                if shown not in out:
                    out.append(shown)
        return out

    def _unbuilt(self) -> set[str]:
        """Module classes a builder builds only under a config test that fails: the call
        that builds them (directly or through a builder) is in a branch the chosen config
        does not run, and no call of the same def outside such a branch builds them
        (maskrcnn-benchmark's ``if not cfg.MODEL.RPN_ONLY: ... build_roi_box_head(...)``,
        FCOS's config setting ``RPN_ONLY: True``)."""
        if self._unbuilt_memo is not None:
            return self._unbuilt_memo
        dead: set[str] = set()
        alive: set[str] = set()
        by_sections: set[str] = set()  # dead by a test the section file fails
        told: dict[str, tuple[str, str]] = {}  # built under tests that all hold
        told_by = self.yacs is not None or self._sections() is not None
        for file in self.files if told_by else ():
            if not file.facts.tests:
                continue
            for ref, fid in file.facts.calls:
                tests = self.conditions(file, file.exprs[ref].link)
                if not tests:
                    continue
                cls = self.built(file, ref, fid, 1)
                if cls is None:
                    continue
                failing = [why for _, runs, why in tests if runs is False]
                (dead if failing else alive).add(cls)
                if any(why in self._section_whys for why in failing):
                    by_sections.add(cls)
                if all(runs is True for _, runs, _ in tests):
                    told.setdefault(cls, (tests[0][0], tests[0][2]))
        self._unbuilt_memo = dead - alive
        self.section_unbuilt = by_sections - alive
        self.built_under = told
        return self._unbuilt_memo

    def dotted(self, file: ModelFile, ref: int) -> str | None:
        return self.resolve(file, file.chain(ref))

    def resolve(self, file: ModelFile, parts: list[str] | None) -> str | None:
        """The dotted name a name chain stands for in ``file`` (imports, relative ones too,
        and the module's own defs); a re-exported class by its defining module."""
        if parts is None:
            return None
        root = parts[0]
        if root in file.imports:
            head = file.imports[root]
        elif root in file.defs or root in file.globals:
            head = f"{file.module}.{root}"  # a def, or a module-level object (a registry)
        else:
            star = self._star_source(file, root)
            if star is None:
                return None
            head = f"{star}.{root}"  # ``from .parts import *``: where the name is bound
        dotted = ".".join([head, *parts[1:]])
        if dotted not in self.classes and self.hierarchy is not None:
            # a re-export (``from yolox.models import YOLOX``) spells the class elsewhere
            resolved = self.hierarchy.resolve(dotted)
            if resolved in self.classes:
                return resolved
        if dotted not in self.classes:
            # a module-level alias (yolov9's ``Model = DetectionModel`` in models/yolo.py,
            # which every training script builds as ``Model(cfg, ch=3, nc=nc)``)
            module, _, name = dotted.rpartition(".")
            registries = getattr(self, "registries", None)  # None while it is being built
            aliased = registries.in_module(module, name) if registries and module else None
            if aliased is not None and aliased != dotted and aliased in self.classes:
                return aliased
        return dotted

    def _star_source(self, file: ModelFile, name: str, depth: int = 0) -> str | None:
        """The module a star import of ``file`` takes ``name`` from: one that defines it,
        binds it at module level or imports it, or star-imports it in turn."""
        for module in file.stars:
            source = self.by_module.get(module)
            if source is None or source is file:
                continue
            if name in source.defs or name in source.globals or name in source.imports:
                return module
            if depth < 3 and self._star_source(source, name, depth + 1) is not None:
                return module  # re-bound there by its own star import: spelled from it
        return None

    def _parameter(self, cls: str, index: int) -> str:
        """The name of ``cls.__init__``'s positional parameter ``index`` (``argN`` unknown).
        An inherited constructor names them (``class DeepLabV3(_SimpleSegmentationModel):
        pass`` takes its base's ``backbone`` and ``classifier``)."""
        defining = self.hierarchy.method(cls, "__init__") if self.hierarchy else None
        if defining is not None:
            cls = defining.rpartition(".")[0]
        name = cls.rpartition(".")[2]
        file = self._class_file(cls)
        init = file.function(file.defs.get(f"{name}.__init__", -1)) if file else None
        if init is not None and init.params is not None and index < len(init.params):
            return init.params[index]
        return f"arg{index + 1}"

    def _class_file(self, cls: str) -> ModelFile | None:
        """The file defining a module class: where the structure found it, as two files
        may share a module name (CenterTrack's networks/dla.py and backbones/dla.py, both
        ``dla`` once ``src/lib/model/networks`` is a source folder)."""
        node = self.classes.get(cls)
        file = self.by_path.get(node.where.path) if node is not None else None
        return file or self.by_module.get(cls.rpartition(".")[0])

    def _module_file(self, module: str) -> ModelFile | None:
        """The file of a module, also when a script puts its folder on ``sys.path`` in a
        way the scan does not follow (CenterTrack's ``_init_paths`` adding ``src/lib``:
        ``model.model`` is ``src.lib.model.model``): the one module ending so."""
        file = self.by_module.get(module)
        if file is not None or not module:
            return file
        if module not in self._suffixes:
            tail = "." + module
            found = {f.path: f for m, f in self.by_module.items() if m.endswith(tail)}
            self._suffixes[module] = next(iter(found.values())) if len(found) == 1 else None
        return self._suffixes[module]

    def _def(self, dotted: str, depth: int = 0) -> tuple[ModelFile, int] | None:
        """The function ``dotted`` names, through a package's re-exports
        (``detectron2.modeling.backbone.build_backbone`` is defined in ``.build``), a
        method's through its class's."""
        module, _, name = dotted.rpartition(".")
        file = self._module_file(module)
        if file is None and "." in module:  # a method: ``pkg.mod.Class._make_stage``
            module, _, owner = module.rpartition(".")
            file = self._module_file(module)
            name = f"{owner}.{name}"
        if file is None:
            return None
        if name in file.defs:
            fid = file.defs[name]
            return (file, fid) if fid >= 0 else None
        head, dot, rest = name.partition(".")
        target = file.imports.get(name)
        if target is None and dot and head in file.imports:
            # a method of a class the package re-exports (``ModelBuilder.build_encoder``
            # through ``from .models import ModelBuilder``)
            target = f"{file.imports[head]}.{rest}"
        if target is None and (star := self._star_source(file, name)) is not None:
            target = f"{star}.{name}"
        if target and target != dotted and depth < 3:
            return self._def(target, depth + 1)
        return None

    def built(self, file: ModelFile, ref: int, fn: int, depth: int = 0) -> str | None:
        """The module class the expression ``ref`` evaluates to (in the def ``fn``, -1 for
        the module's code): a construction, a local name bound to one, or a call of a
        builder that returns one."""
        expr = file.expr(ref)
        if expr is None or depth > _FOLLOW:
            return None
        if expr.kind == "tuple":
            return self.built(file, expr.refs[0], fn, depth)
        if expr.kind == "name":
            line = expr.line
            above = sorted(
                (
                    a
                    for a in file.assigns_in(fn)
                    if expr.value in a.names and a.line < line and not a.line <= line <= a.end_line
                ),
                key=lambda a: a.line,
            )
            # The last assignment above the use (model = Bench(model) reads the one before);
            # when every one is in a branch the use is not in (``if arch in vits: student =
            # ...`` / ``elif xcit: ...``), the first of them that builds a module.
            # an assignment in a branch that returns before the use (Swin's ``if
            # is_pretrain: model = build_simmim(config); return model``) never reaches it
            exits = [
                r
                for ref in file.returns_in(fn)
                if (r := file.exprs[ref]).kind == "name" and r.line < line
            ]
            above = [
                a
                for a in above
                if not any(a.line < r.line and file.same_branch(a, r) for r in exits)
            ]
            bound = [a for a in above if file.same_branch(a, expr)]
            if bound:
                return self.built(file, bound[-1].value, fn, depth + 1)
            above = self._config_branches(file, above, fn, depth)
            for a in above:
                cls = self.built(file, a.value, fn, depth + 1)
                if cls is not None:
                    return cls
            return None
        if expr.kind != "call":
            return None
        func = file.exprs[expr.refs[0]]
        inner = file.expr(func.refs[0]) if func.kind == "attr" and func.refs else None
        if func.value in SELF_RETURNING and inner is not None and inner.kind == "call":
            return self.built(file, func.refs[0], fn, depth + 1)  # ``Net(...).to(device)``
        lookup = self.registries.lookup(file, ref, fn)
        if lookup is not None:  # REGISTRY.get(cfg.NAME)(cfg): the registered default
            return self._returned(lookup.target, depth)
        dotted = self.callee(file, expr)
        if dotted is None and func.kind == "name":
            bound = self._bound_attr(file, func, fn, depth)
            if bound is not None:
                return self._returned(bound.target, depth)
        if dotted is None:
            return self._table_entry(file, expr, fn, depth)
        return self._returned(dotted, depth) or self._class_argument(file, expr, dotted)

    def _bound_attr(self, file: ModelFile, func: Expr, fn: int, depth: int) -> Lookup | None:
        """``Detector(...)`` where ``Detector = MODEL.VoteNet`` and ``MODEL =
        importlib.import_module(FLAGS.model)`` (a training script picking its network module
        by an option, then a class of it in branches on the same option): the class the
        binding that runs with the defaults names, in the module the option's default loads
        (the last one, the ``else`` a default falls to, when no test tells); the classes the
        other branches bind (in the module another value loads, where the default's has no
        such class) are not picked (alternatives)."""
        above = [
            a
            for a in file.assigns_in(fn)
            if a.single and a.names[0] == func.value and a.line < func.line
        ]
        attrs = [
            a
            for a in above
            if (v := file.expr(a.value)) is not None
            and v.kind == "attr"
            and (
                self.registries.module_attr(file, a.value, fn) is not None
                or self.registries.sibling_attr(file, a.value, fn) is not None
            )
        ]
        if not attrs:
            return None
        runs: list[Assign] = []
        fails: list[Assign] = []
        for a in attrs:
            tests = self.conditions(file, a.link)
            # a class the default's module does not define is bound in a branch another
            # value of the option takes (``MODEL.BoxNet`` with ``votenet`` loaded)
            loaded = self.registries.module_attr(file, a.value, fn) is not None
            off = not loaded or any(holds is False for _, holds, _ in tests)
            (fails if off else runs).append(a)
        if not runs:
            return None
        for a in fails:
            lookup = self.registries.module_attr(file, a.value, fn)
            # (a class of the module another value of the option loads: ``MODEL.BoxNet``)
            target = lookup.target if lookup is not None else None
            target = target or self.registries.sibling_attr(file, a.value, fn)
            cls = self._returned(target, depth) if target is not None else None
            if cls is not None:
                self._not_picked.add(cls)
        lookup = self.registries.module_attr(file, runs[-1].value, fn)
        if lookup is None:
            return None
        # the classes the failing branches bind: what another value of the option builds
        others = tuple(
            (file.text(a.value, 40), found.target)
            for a in fails
            if (found := self.registries.module_attr(file, a.value, fn)) is not None
        )
        how = f"{func.value} = {lookup.how}"
        return Lookup(lookup.target, how, lookup.alternatives + others)

    def _config_branches(
        self, file: ModelFile, above: list[Assign], fn: int, depth: int
    ) -> list[Assign]:
        """The bindings of a local that reaches its use from several config branches (Swin's
        ``build_model``: ``if model_type == 'swin': model = SwinTransformer(...) elif ==
        'swinv2': ...``, ``model_type`` read from ``config.MODEL.TYPE``), those whose tests
        hold under the chosen config first. The classes only a failing branch builds are
        not picked (the other architectures a config type selects: alternatives, not
        ported); with no binding known to run, the order is kept and nothing is left out."""
        if len(above) < 2:
            return above
        runs: list[Assign] = []
        fails: list[Assign] = []
        for a in above:
            tests = self.conditions(file, a.link)
            if any(holds is False for _, holds, _ in tests):
                fails.append(a)
            elif tests and all(holds for _, holds, _ in tests):
                runs.append(a)
        if not runs or not fails:
            return above
        for a in fails:
            cls = self.built(file, a.value, fn, depth + 1)
            if cls is not None:
                self._not_picked.add(cls)
        return [*runs, *(a for a in above if a not in runs and a not in fails)]

    def _table_entry(self, file: ModelFile, call: Expr, fn: int, depth: int) -> str | None:
        """A call of an entry of a dict of classes or builders picked at run time
        (``SUPPORTED_BACKBONES[arch](...)``, ``model_zoo[model_name](...)``): the module
        class of the entry its key selects by default when that is known (a literal, an
        argparse or configuration default), else the class most entries build (DINOv2's
        ``vit_small`` ... ``vit_giant2`` all build ``DinoVisionTransformer``), the first
        entry's on a tie."""
        func = file.exprs[call.refs[0]]
        picked = self._getattr_entry(file, func, fn, depth)
        if picked is not None:
            return picked
        if func.kind == "name" and fn >= 0:
            # ``model_class = _network_factory[arch]; model = model_class(...)`` (CenterTrack,
            # maskrcnn-benchmark's ``meta_arch``): the entry the name is bound to
            # (or its first name: ``model_fun, dim_in = model_dict[name]`` over entries
            # written ``[resnet50, 2048]``)
            bound = file.bound_above(fn, func.value or "", func.line + 1)
            value = file.expr(bound[0]) if bound is not None and bound[1] <= 0 else None
            func = value if value is not None and value.kind == "sub" else func
        if func.kind != "sub":
            return None
        found = self._table(file, func.refs[0], fn)
        if found is None:
            return None
        tfile, table, tfn = found
        key = self.registries.key(file, func.refs[1], fn) or self._argument(file, func.refs[1], fn)
        entries = list(zip(table.keys, table.refs, strict=True))
        if key is not None:
            names = {k: kexpr.value for k, _ in entries if (kexpr := tfile.expr(k)) is not None}
            chosen = [(k, v) for k, v in entries if names.get(k) == key[0]]
            if not chosen:  # ``'dla_34'`` picks ``'dla'`` (the builder cuts the depth off)
                prefixes = [n for n in names.values() if n and key[0].startswith(n)]
                longest = max(prefixes, key=len) if prefixes else None
                chosen = [(k, v) for k, v in entries if longest and names.get(k) == longest]
            if chosen:
                # the entries the default leaves out build nothing that trains (CenterTrack's
                # ``'dlav0': DLASegv0`` beside the picked ``'dla'``): alternatives, whose
                # initialisers and blocks are no part of the model
                # the path to the picked class is what the trail records, not these look-ups
                trail = None if self.trail is None else list(self.trail)
                others = []
                for k, value in entries:
                    if (k, value) not in chosen:
                        other = self._entry_class(tfile, value, tfn, depth)
                        if other is not None:
                            self._not_picked.add(other)
                        # a factory function the entry names (CenterNet's ``'res':
                        # get_pose_net``): left out with the class it builds
                        factory = self.dotted(tfile, value)
                        found = self._def(factory) if factory and factory != other else None
                        if found is not None and found[1] >= 0:
                            source, fid = found
                            self._not_picked.add(
                                f"{source.module}.{source.functions[fid].qualname}"
                            )
                        others.append(names.get(k) or tfile.text(k, 30))
                picked = self._entry_class(tfile, chosen[0][1], tfn, depth)
                if trail is not None:
                    self.trail = trail
                if picked is not None and others:
                    self.table_picks.setdefault(
                        picked,
                        f"{names.get(chosen[0][0])} picked by {key[1]}; also {', '.join(others)}",
                    )
            entries = chosen or entries
        built: Counter[str] = Counter()
        for _, value in entries:
            cls = self._entry_class(tfile, value, tfn, depth)
            if cls is not None:
                built[cls] += 1
        return built.most_common(1)[0][0] if built else None

    def _getattr_entry(self, file: ModelFile, func: Expr, fn: int, depth: int) -> str | None:
        """``getattr(resnet, backbone)(...)`` on a repository module (pytorch-segmentation's
        PSPNet): the class the function its name selects returns when the name is known,
        else the class most of the module's functions return."""
        if func.kind != "call" or self.callee(file, func) not in (None, "getattr"):
            return None
        head = file.exprs[func.refs[0]]
        args = file.args(func)
        if head.kind != "name" or head.value != "getattr" or len(args) < 2:
            return None
        module = self.dotted(file, args[0])
        source = self._module_file(module or "")
        if source is None:
            return None
        key = self.registries.key(file, args[1], fn)
        if key is not None:
            return self._returned(f"{source.module}.{key[0]}", depth + 1)
        return self._most_returned(source, depth)

    def _most_returned(self, source: ModelFile, depth: int) -> str | None:
        """The module class most of a module's public functions return: what a name picked
        from it at run time builds when the code holds no name it defines."""
        built: Counter[str] = Counter()
        for name, fid in source.defs.items():
            if "." not in name and fid >= 0 and not name.startswith("_"):
                cls = self._returned(f"{source.module}.{name}", depth + 1)
                if cls is not None:
                    built[cls] += 1
        return built.most_common(1)[0][0] if built else None

    def _handed_model(self, file: ModelFile, ref: int, fid: int) -> str | None:
        """The model a callable handed to a constructor builds, as a reader names it
        (moco-v3's ``MoCo_ResNet(partial(torchvision_models.__dict__[args.arch],
        zero_init_residual=True), ...)``, ``--arch`` default ``resnet50``:
        ``torchvision.models.resnet50``): through ``functools.partial`` to a function picked
        from a module's ``__dict__`` by a name the code holds by default, or named directly.
        A repository module's pick is the class its function returns; where the default
        names none of its functions (``vits.__dict__[args.arch]`` in the branch taken for
        ``vit*`` names only), the class most of them return. None for anything else."""
        expr = file.expr(ref)
        for _ in range(3):  # ``partial(partial(f, a), b)``
            if expr is None or expr.kind != "call" or not file.args(expr):
                break
            if self.callee(file, expr) != "functools.partial":
                return None
            ref = file.args(expr)[0]
            expr = file.expr(ref)
        if expr is None:
            return None
        if expr.kind in ("name", "attr"):
            dotted = self.dotted(file, ref) or ""
            cls = dotted if dotted in self.classes else self._returned(dotted, 1)
            if cls is not None:
                return cls.rpartition(".")[2]
            return dotted if self._zoo_function(dotted) else None
        inner = file.expr(expr.refs[0]) if expr.kind == "sub" and expr.refs else None
        if inner is None or inner.kind != "attr" or inner.value != "__dict__":
            return None
        module = self.dotted(file, inner.refs[0]) or ""
        key = self.registries.key(file, expr.refs[1], fid) if len(expr.refs) > 1 else None
        source = self._module_file(module)
        if source is None:  # another package's zoo: its function of that name
            named = f"{module}.{key[0]}" if key is not None else ""
            return f"{named} ({key[1]})" if key and self._zoo_function(named) else None
        if key is not None and key[0] in source.defs:
            cls = self._returned(f"{source.module}.{key[0]}", 1)
            return f"{cls.rpartition('.')[2]} ({key[1]})" if cls is not None else None
        cls = self._most_returned(source, 0)
        if cls is None:
            return None
        picked = f"{key[0]!r} names none of them" if key is not None else "named at run time"
        return f"{cls.rpartition('.')[2]} (what most of {module}'s functions build; {picked})"

    @staticmethod
    def _zoo_function(dotted: str) -> bool:
        """A model constructor of a PyTorch model library (``torchvision.models.resnet50``)."""
        package, _, tail = dotted.rpartition(".")
        return (
            dotted.partition(".")[0] in TORCH_MODEL_PACKAGES
            and ".models" in f".{package}"
            and tail[:1].islower()
        )

    def _argument(self, file: ModelFile, ref: int, fn: int) -> tuple[str, str] | None:
        """The name a builder's parameter takes from the script that calls it (CenterTrack's
        ``create_model(opt.arch, ...)``, ``--arch`` default ``'dla_34'``), when the key is
        one: a parameter by its name, else a name the def rebinds that is none of its later
        parameters (its first: ``arch = arch[:arch.find('_')]``)."""
        expr = file.expr(ref)
        function = file.function(fn)
        given = self.arguments.get((file.path, fn))
        if expr is None or expr.kind != "name" or function is None or given is None:
            return None
        name = expr.value or ""
        if name in (function.params or ()):
            return given.get(name)
        if not function.method and name not in file.globals and name not in file.imports:
            return given.get("")
        return None

    def _entry_class(self, file: ModelFile, ref: int, fn: int, depth: int) -> str | None:
        """The module class a table's entry is or builds: a class or a builder function
        named (``MobileNetV2Backbone``, ``vit_small``), or a construction."""
        expr = file.expr(ref)
        if expr is not None and expr.kind == "tuple":  # ``[resnet50, 2048]``: its builder
            ref = expr.refs[0]
            expr = file.expr(ref)
        if expr is None or depth > 4:
            return None
        if expr.kind in ("name", "attr"):
            dotted = self.dotted(file, ref)
            if dotted is not None:
                cls = self._returned(dotted, depth + 1)
                if cls is not None:
                    return cls
        return self.built(file, ref, fn, depth + 1)

    def _table(self, file: ModelFile, ref: int, fn: int) -> tuple[ModelFile, Expr, int] | None:
        """The dict literal the name ``ref`` is bound to: in the def ``fn``, in its module,
        or in the module it is imported from (``from .backbones import
        SUPPORTED_BACKBONES``): (its file, the dict, the def it is in)."""
        expr = file.expr(ref)
        if expr is None or expr.kind != "name":
            return None
        for scope in (fn, -1) if fn >= 0 else (-1,):
            bound = [a for a in file.assigns_in(scope) if a.single and a.names[0] == expr.value]
            value = file.expr(bound[-1].value) if bound else None
            if value is not None and value.kind == "dict":
                return file, value, scope
        dotted = self.dotted(file, ref)
        for _ in range(3):
            module, _, name = (dotted or "").rpartition(".")
            source = self.by_module.get(module)
            if source is None:
                return None
            bound = [a for a in source.assigns_in(-1) if a.single and a.names[0] == name]
            value = source.expr(bound[-1].value) if bound else None
            if value is not None and value.kind == "dict":
                return source, value, -1
            dotted = source.imports.get(name)  # re-exported by a package's __init__
        return None

    def _returned(self, dotted: str, depth: int) -> str | None:
        """The module class ``dotted`` is, or that the def ``dotted`` returns: its return
        annotation (``-> ResNet``), else what its ``return`` statements build."""
        if dotted in self.classes:
            return dotted
        found = self._def(dotted)
        if found is None:
            return self._inherited_builder(dotted)
        file, fid = found
        function = file.functions[fid]
        if function.annotation >= 0:
            annotated = self.dotted(file, function.annotation)
            if annotated in self.classes:
                return annotated
        for ref in file.returns_in(fid):
            if not file.own_return(ref, fid):
                continue  # a nested def's (``def norm_layer(x): return Identity()``)
            cls = self.built(file, ref, fid, depth + 1)
            if cls is not None:
                if self.trail is not None:
                    self.trail.append(function.name)
                return cls
        return None

    def _inherited_builder(self, dotted: str) -> str | None:
        """The repository class whose class-level builder ``dotted`` is when the class
        inherits it from another package's base (BLIP's ``BertModel.from_pretrained(
        'bert-base-uncased', config=...)``, transformers' ``PreTrainedModel.from_pretrained``
        building the repository's own ``BertModel``), else None."""
        receiver, _, tail = dotted.rpartition(".")
        if receiver not in self.classes or not _CLASS_BUILDER.match(tail):
            return None
        if self.hierarchy is None or not self.hierarchy.foreign_ancestors(receiver):
            return None
        return receiver

    def _globals_entry(self, file: ModelFile, func: Expr, owner: str = "") -> str | None:
        """A module function picked from ``globals()`` by a formatted name (CenterTrack's
        ``self.base = globals()['dla{}'.format(num_layers)](...)``): the classes the
        file's functions of that pattern build, with the look-up. By a plain name
        (CenterNet's ``globals()[base_name]``, the caller formatting ``'dla{}'``): the
        classes any of the file's functions build, ``owner`` (the class being built, which
        the file's own builder returns) left out."""
        table = file.expr(func.refs[0])
        key = file.expr(func.refs[1]) if len(func.refs) > 1 else None
        if table is None or key is None or table.kind != "call" or key.kind not in ("call", "name"):
            return None
        if file.text(func.refs[0], 20) != "globals()":
            return None
        if key.kind == "name":
            pattern, shown = re.compile(r".*"), f"{key.value}"
        else:
            form = file.expr(file.exprs[key.refs[0]].refs[0]) if key.refs else None
            if form is None or form.kind != "const" or not form.value or "{}" not in form.value:
                return None
            pattern = re.compile(".*".join(re.escape(p) for p in form.value.split("{}")))
            shown = f"{form.value!r}..."
        built = {
            cls
            for name, fid in file.defs.items()
            if "." not in name and fid >= 0 and pattern.fullmatch(name)
            if (cls := self._returned(f"{file.module}.{name}", 1)) is not None and cls != owner
        }
        if not built:
            return None
        names = " or ".join(sorted(c.rpartition(".")[2] for c in built))
        return f"{names} ({file.text(func.refs[0], 20)}[{shown}])"

    def _returned_each(self, dotted: str, chosen: bool = False) -> list[str]:
        """The module classes the def ``dotted`` returns, one per ``return``, in line order;
        a returned local bound in each branch of an ``if`` (semseg's ``build_encoder``:
        ``if arch == 'resnet18': net_encoder = Resnet(...) elif ...``, then ``return
        net_encoder``) returns each branch's class. With ``chosen``, only the branches the
        run's values take (``arch`` given the config's ``resnet50dilated``), when that
        leaves any."""
        found = self._def(dotted)
        if found is None:
            return []
        file, fid = found
        out: dict[str, int] = {}
        taken: dict[str, int] = {}
        for ref in file.returns_in(fid):
            for value in self._branch_values(file, ref, fid):
                cls = self.built(file, value, fid, 1)
                if cls is not None:
                    line = file.exprs[value].line
                    out.setdefault(cls, line)
                    if not (self.unchosen and self.unchosen(file.path, line)):
                        taken.setdefault(cls, line)
        kept = taken if chosen and taken else out
        return sorted(kept, key=lambda c: kept[c])

    @staticmethod
    def _branch_values(file: ModelFile, ref: int, fid: int) -> list[int]:
        """The values a returned expression may hold: a local's bindings above it when none
        is in the return's own branch (one per branch), else the expression itself."""
        expr = file.exprs[ref]
        if expr.kind != "name":
            return [ref]
        above = [
            a
            for a in file.assigns_in(fid)
            if a.single and a.names[0] == expr.value and a.line < expr.line
        ]
        if not above or any(file.same_branch(a, expr) for a in above):
            return [ref]
        return [a.value for a in sorted(above, key=lambda a: a.line)]

    def _picked_by(self, file: ModelFile, call: Expr, dotted: str) -> str:
        """The argument of the builder call ``call`` that names the class it picks (``arch=
        cfg.MODEL.arch_encoder.lower()``): the one passed for a parameter named as a choice
        of model (:data:`_PICKER`), as written; "" when none is."""
        found = self._def(dotted)
        if found is None:
            return ""
        owner, fid = found
        params = [p for p in owner.functions[fid].params or () if p not in ("self", "cls")]
        args = file.args(call)
        for i, arg in enumerate(call.refs[1:]):
            name = call.keywords[i - len(args)] if i >= len(args) else "".join(params[i : i + 1])
            if name and _PICKER.fullmatch(name):
                # an argument the scan keeps no record of (``args.arch``) is named only
                return f"{name}={file.text(arg, 50)}" if arg >= 0 else name
        return ""

    def _candidates(self, file: ModelFile, ref: int, fid: int) -> tuple[str, list[str], str]:
        """(the builder, the classes it may return, what picks one: ``by arch=cfg.MODEL.
        arch``, else ``at run time: <the call>``) of the part ``ref`` (a call of a builder,
        or a local bound to one) when that builder returns one of several classes, one per
        branch; else ("", [], "")."""
        expr = file.expr(ref)
        if expr is not None and expr.kind == "name":
            bound = file.bound_above(fid, expr.value or "", expr.line)
            ref = bound[0] if bound is not None and bound[1] < 0 else -1
            expr = file.expr(ref)
        if expr is None or expr.kind != "call":
            return "", [], ""
        dotted = self.callee(file, expr)
        if dotted is None or dotted in self.classes:
            return "", [], ""
        either = self._returned_each(dotted)
        if len(either) < 2:
            return "", [], ""
        # the branches the run's values take (the config's ``arch``): the part is theirs
        either = [c for c in self._returned_each(dotted, chosen=True) if c in either]
        picked = self._picked_by(file, expr, dotted)
        call = file.text(ref, 60)
        if picked and "=" not in picked:
            picked = f"{picked} in {call}"
        return dotted, either, f"by {picked}" if picked else f"at run time: {call}"

    def _class_argument(self, file: ModelFile, call: Expr, dotted: str) -> str | None:
        """A generic builder handed the class to build (timm's ``build_model_with_cfg(
        ResNet, variant, ...)``): the module class passed first."""
        if not any(w in dotted.rpartition(".")[2].lower() for w in ("build", "create")):
            return None
        for arg in file.args(call)[:1]:
            named = self.dotted(file, arg) if file.exprs[arg].kind in ("name", "attr") else None
            if named in self.classes:
                return named
        return None

    def parts_of(self, cls: str, limit: int = 8) -> list[tuple[str, str]]:
        """What a model is made of, as its constructor says: the entries of the dict its
        ``from_config`` returns (detectron2's ``configurable`` classes: ``"backbone":
        build_backbone(cfg)``), else each ``self.<attr> = ...`` of ``__init__`` that builds a
        repository module or a third-party one (``self.blocks = ModuleList([Block(...)])``
        with timm's ``Block``)."""
        name = cls.rpartition(".")[2]
        file = self._class_file(cls)
        if file is None:
            return []
        parts: list[tuple[str, str]] = []
        fact = self.hierarchy.classes.facts.get(cls) if self.hierarchy is not None else None
        for base in fact.bases if fact is not None else ():
            if base.partition(".")[0] not in self.local | {"torch", ""}:
                parts.append(("extends", base))  # timm's VisionTransformer, built by timm
        config = file.defs.get(f"{name}.from_config", -1)
        for ref in file.returns_in(config) if config >= 0 else ():
            returned = file.exprs[ref]
            if returned.kind != "dict":
                continue
            for key_ref, value in zip(returned.keys, returned.refs, strict=True):
                key = file.expr(key_ref)
                if key is None or key.kind != "const" or key.value is None:
                    continue
                built = self.built(file, value, config)
                if built is not None and built != cls:
                    parts.append((key.value, self._shown(file, built, value)))
        builder = file.defs.get(f"{name}.build_model", -1)
        if not parts and builder >= 0:
            # fairseq's classmethod: ``decoder = TransformerDecoder(...); return cls(decoder)``
            for ref in file.returns_in(builder):
                call = file.exprs[ref]
                func = file.expr(call.refs[0]) if call.kind == "call" else None
                if func is None or func.kind != "name" or func.value != "cls":
                    continue
                args = file.args(call)
                for i, arg in enumerate(call.refs[1:]):
                    built = self.built(file, arg, builder)
                    if built is None or built == cls:
                        continue
                    key = (
                        call.keywords[i - len(args)] if i >= len(args) else self._parameter(cls, i)
                    )
                    parts.append((key or "**", self._shown(file, built, arg)))
        if not parts:
            # its own constructor's parts, then those its repository bases' constructors
            # build (RITM's HRNetModel: its feature extractor, ISModel's distance maps)
            # an attribute assigned in each branch of an ``if`` (RAFT's ``if args.small:
            # self.fnet = SmallEncoder(...) else: self.fnet = BasicEncoder(...)``) lists
            # each branch's part
            own: dict[str, list[str]] = {}
            for owner, owner_file in [(cls, file), *self._repo_bases(cls)]:
                owner_name = owner.rpartition(".")[2]
                init = owner_file.defs.get(f"{owner_name}.__init__", -1)
                mine: dict[str, list[str]] = {}
                for attr, value, fids in owner_file.facts.self_parts if init >= 0 else ():
                    if init not in fids or (attr in own and attr not in mine):
                        continue  # set by a subclass's constructor already
                    part = self._part(owner_file, value, init, cls, attr)
                    if part is not None and part not in mine.get(attr, []):
                        mine.setdefault(attr, []).append(part)
                for attr, found in mine.items():
                    own.setdefault(attr, found)
            # attributes taken from one construction (``self.layer1 = model.layer1`` ...
            # of ``model = getattr(resnet, backbone)(...)``) are one entry
            shared: dict[str, list[str]] = {}
            for attr, found in own.items():
                shared.setdefault(" or ".join(found), []).append(attr)
            for attr, found in own.items():
                part = " or ".join(found)
                attrs = shared[part] if " (" in part else [attr]
                if attrs[0] == attr:
                    parts.append((", ".join(attrs), part))
            node = self.classes.get(cls)
            if node is not None and not node.children and not self.injected.get(cls):
                # a model built of torch's layers and another package's models alone
                # (barlowtwins: torchvision's ResNet-50, a projector ``nn.Sequential(*layers)``
                # of the linear layers a loop appends, a ``BatchNorm1d``): its torch modules
                # are the parts a port writes
                init = file.defs.get(f"{name}.__init__", -1)
                shown_attrs = {a for found, _ in parts for a in found.split(", ")}
                layers = {layer for layer, _ in node.layers}
                for attr, part in self._torch_parts(file, init):
                    kind = part.partition(" (")[0]
                    if attr not in shown_attrs and kind in layers and not _STATELESS.search(kind):
                        parts.append((attr, part))
            # module classes the constructor builds that no attribute shows: blocks
            # appended to a ``ModuleList`` (ConvNeXt's ``self.stages.append(stage)`` of
            # ``Block``s, Swin's ``self.layers.append(BasicLayer(...))``)
            shown = " ".join(part for _, part in parts)
            node = self.classes.get(cls)
            # (a class built only in a config branch the chosen config skips is not built)
            unbuilt = self._unbuilt()
            rest = [
                short
                for child in (node.children if node is not None else ())
                if not re.search(rf"\b{re.escape(short := child.rpartition('.')[2])}\b", shown)
                and child not in unbuilt
                and child not in self._not_picked
            ]
            if rest:
                parts.append((ALSO_BUILDS, ", ".join(rest)))
            parts += self._zoo_bodies(file, cls, parts)
        if not parts:
            parts = _yaml_parts(file, name)
        return _within(parts, limit)

    def _zoo_bodies(
        self, file: ModelFile, cls: str, parts: Sequence[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """The model library's networks a constructor builds into a local and takes its
        blocks from (``inception = fid_inception_v3()``, whose builder makes torchvision's
        ``inception_v3`` and swaps blocks in, then ``self.blocks`` of ``inception.Conv2d_1a_3x3``
        ...): the body the model is cut from, which no attribute names, so a port writes it
        too. One part per library model, named by the first construction that reaches it
        (a branch building the same network another way adds nothing)."""
        init = file.defs.get(f"{cls.rpartition('.')[2]}.__init__", -1)
        if init < 0:
            return []
        shown = " ".join(part for _, part in parts)
        found: dict[str, str] = {}
        # a local bound to the whole call (an attribute's value, a dict of networks kept
        # for reference are shown, or no part, already)
        for a in sorted(file.assigns_in(init), key=lambda a: a.line):
            value = file.expr(a.value) if a.single and a.value >= 0 else None
            if value is None or value.kind != "call":
                continue
            model = self._foreign_part(file, a.value, init)
            if model is None:
                continue
            library = model.rpartition(" → ")[2]
            if library not in shown:
                found.setdefault(library, model)
        return [(BUILT_FROM, model) for model in found.values()]

    def _torch_parts(self, file: ModelFile, init: int) -> list[tuple[str, str]]:
        """The torch modules a constructor (the def ``init``) stores in its attributes:
        (attr, ``torch.nn.BatchNorm1d``); a container with the kinds of layers it holds,
        given to it or gathered in a list it is handed (``torch.nn.Sequential (Linear,
        BatchNorm1d, ReLU)`` of ``layers.append(nn.Linear(...))`` in a loop)."""
        if init < 0:
            return []
        qualname = file.functions[init].qualname
        values = file.fa.syntax.values if file.fa.syntax is not None else None
        d = _own_def(file.fa, qualname)
        if values is None or d is None:
            return []
        fids = {n for n, other in enumerate(values.defs) if other.qual == qualname}

        def layer(call: ValueExpr) -> str | None:
            chain = call.func.chain() if call.kind == "Call" else None
            dotted = self.resolve(file, chain) or ""
            tail = dotted.rpartition(".")[2]
            return dotted if dotted.startswith("torch.nn.") and tail[:1].isupper() else None

        def kinds(node: ValueExpr) -> list[str]:
            out: list[str] = []
            lists = {e.name for e in node.walk() if e.kind == "Name"}
            gathered = [e for e in node.walk()[1:] if e.kind == "Call"]
            for a in d.assigns:
                if a.target.kind == "Name" and a.target.name in lists:
                    gathered += [e for e in a.value.walk() if e.kind == "Call"]
            for c in values.calls:
                chain = c.expr.func.chain() if c.function in fids else None
                if chain and len(chain) == 2 and chain[0] in lists and chain[1] in _FILLS:
                    gathered += [e for e in c.expr.walk()[1:] if e.kind == "Call"]
            for call in gathered:
                found = layer(call)
                short = found.rpartition(".")[2] if found else ""
                if found and found not in _CONTAINERS and short not in out:
                    out.append(short)
            return out

        def wrapped(call: ValueExpr) -> tuple[str, str] | None:
            """(layer, wrapper) of a function handed a layer it returns wrapped
            (``norm(nn.Conv2d(...))`` with ``norm = spectral_norm``, ``weight_norm(nn.Linear(
            ...))``): the layer is the part."""
            if call.kind != "Call" or not call.args or call.func.kind != "Name":
                return None
            if not call.func.name[:1].islower():
                return None  # a class (a repository module taking a layer) is a part itself
            found = layer(call.args[0])
            return (found, call.func.name) if found is not None else None

        parts: list[tuple[str, str]] = []
        for attr, value, around in file.facts.self_parts:
            node = file.exprs[value].node
            found = layer(node) if init in around and attr.isidentifier() else None
            through = ""
            if found is None and init in around and attr.isidentifier():
                # a layer wrapped by a function: the layer, said through what
                found, through = wrapped(node) or (None, "")
            if found is None or any(a == attr for a, _ in parts):
                continue
            inside = kinds(node) if found in _CONTAINERS else []
            shown = f"{found} ({', '.join(inside)})" if inside else found
            parts.append((attr, f"{shown} (through {through})" if through else shown))
        return parts

    def _repo_bases(self, cls: str) -> list[tuple[str, ModelFile]]:
        """The repository classes ``cls`` derives from, nearest first, with their files."""
        found: list[tuple[str, ModelFile]] = []
        if self.hierarchy is None:
            return found
        facts = self.hierarchy.classes.facts
        todo = list(facts[cls].bases) if cls in facts else []
        seen = {cls}
        while todo and len(seen) < 12:
            base = self.hierarchy.resolve(todo.pop(0))
            if base is None or base in seen or base not in facts:
                continue
            seen.add(base)
            file = self._class_file(base)
            if file is not None:
                found.append((base, file))
            todo.extend(b for b in facts[base].bases if b)
        return found

    def _part(self, file: ModelFile, value: int, fn: int, owner: str, attr: str = "") -> str | None:
        """The modules a constructor's assignment (to ``self.<attr>``) builds: repository
        classes, classes and model-zoo constructors of other packages (never torch's own
        layers, except in a part set by name, ``setattr(self, head, fc)`` in a loop over a
        dict of heads: CenterTrack's heads are ``nn.Sequential`` of convolutions, one per
        key)."""
        set_by_name = bool(attr) and not attr.isidentifier()
        found: list[str] = []
        todo: deque[int] = deque([value])
        followed: set[int] = set()
        # what a plain dict holds (SimCLR's ``self.resnet_dict = {"resnet18": models.
        # resnet18(...), ...}``) is no module of the model's, unless it is the repository's
        plain: set[int] = set()
        while todo:
            ref = todo.popleft()
            expr = file.exprs[ref]
            if expr.kind == "name" and fn >= 0 and ref not in followed:
                # ``model = getattr(resnet, backbone)(...)``, then ``self.layer1 =
                # model.layer1``: the stages of a backbone built into a local
                followed.add(ref)
                bound = [
                    a
                    for a in file.assigns_in(fn)
                    if a.single and a.names[0] == expr.value and a.line < expr.line
                ]
                # the last binding the use sees; with none in its branch, each branch's
                # (semseg's ``if layers == 50: resnet = models.resnet50(...) elif ... else
                # resnet = models.resnet152(...)``: the depth is a choice, not the last one)
                # (RetinaFace's ``backbone = None``, then ``if cfg['name'] == ...: backbone =
                # MobileNetV1() elif ...: backbone = models.resnet50(...)``: the branches'
                # bindings after the last one the use's own branch makes reach it too)
                mine = [i for i, a in enumerate(bound) if file.same_branch(a, expr)][-1:]
                seen = bound[mine[0] :] if mine else bound[-1:]
                if seen and not file.same_branch(seen[0], expr):
                    seen = [a for a in bound if not file.same_branch(a, expr)]
                calls = [
                    a.value
                    for a in seen
                    if (last := file.expr(a.value)) is not None and last.kind == "call"
                ]
                # bindings of different classes in different branches are alternatives
                # (RetinaFace's ``MobileNetV1 or torchvision.models.resnet50``); one class
                # built in each (semseg's depths) is one part, its constructions listed
                alternatives = [
                    p for value in calls if (p := self._part(file, value, fn, owner, attr))
                ]
                if len({p.partition(" (")[0] for p in alternatives}) > 1:
                    either = " or ".join(dict.fromkeys(alternatives))
                    if either not in found:
                        found.append(either)
                else:
                    todo.extend(calls)
                continue
            if expr.kind != "call":
                inner = [r for r in (*expr.refs, *expr.keys, *expr.inner) if r >= 0]
                todo.extend(inner)
                if expr.kind == "dict" or ref in plain:
                    plain.update(inner)
                continue
            func = file.exprs[expr.refs[0]]
            if func.kind == "either":
                # ``(FrozenImageCLIP if frozen_clip else ImageCLIP)(device)``: each class the
                # conditional may call is the part, one of them per run
                either = [
                    d.rpartition(".")[2]
                    for r in func.refs
                    if (d := self.dotted(file, r) or "") in self.classes and d != owner
                ]
                if either:
                    shown = " or ".join(dict.fromkeys(either))
                    if shown not in found:
                        found.append(shown)
                todo.extend(r for r in expr.refs[1:] if r >= 0)
                continue
            built = self.built(file, ref, fn)
            dotted = self.callee(file, expr) or ""
            receiver = file.expr(func.refs[0]) if func.kind == "attr" else None
            if (
                built is None
                and not dotted
                and func.kind == "attr"
                and _BUILDER_NAME.match(func.value or "")
                and not (
                    receiver is not None and receiver.kind == "name" and receiver.value == "self"
                )
            ):
                # a builder handed in at run time (``cfg.build_backbone(cfg, input_shape=
                # ShapeSpec(...))``): it builds the part; its arguments are only its inputs.
                # The class's own methods are the repository's (SSD's create_prior_boxes
                # makes a tensor): what they build is known, or not a part.
                shown = f"{file.text(expr.refs[0], 40)}(...)"
                if shown not in found:
                    found.append(shown)
                continue
            function = file.function(fn)
            table = (
                self._self_table_parts(file, func.value or "", owner)
                if built is None and func.kind == "attr" and receiver is not None
                and receiver.kind == "name" and receiver.value == "self"
                else []
            )  # fmt: skip
            if table:  # SimCLR's ``self._get_basemodel(name)``: ``self.resnet_dict[name]``
                shown = " or ".join(table)
                if shown not in found:
                    found.append(shown)
                continue
            if (
                built is None
                and func.kind == "attr"
                and receiver is not None
                and receiver.kind == "name"
                and receiver.value == "self"
                and _BUILDER_NAME.match((func.value or "").lstrip("_"))
                and function is not None
                and function.method
            ):
                # the class's own builder method (HRNet's ``self.stage2, _ =
                # self._make_stage(...)`` of HighResolutionModules, ResNet's
                # ``self._make_layer(Bottleneck, 64, 3)``): what it builds, else the module
                # classes it is handed
                method = f"{file.module}.{function.qualname.rpartition('.')[0]}.{func.value}"
                inside = self._builder_builds(method, attr) or [
                    name.rpartition(".")[2]
                    for arg in file.args(expr)
                    if file.exprs[arg].kind in ("name", "attr")
                    and (name := self.dotted(file, arg) or "") in self.classes
                ]
                inside = [i for i in inside if not i.endswith("(...)")]
                shown = f"{func.value}(...) → {' or '.join(inside)}" if inside else ""
                if shown and shown not in found:
                    found.append(shown)
                continue
            if (
                built is None
                and not dotted
                and func.kind == "name"
                and function is not None
                and func.value in (function.params or ())
                and not _LAYER_PARAMETER.fullmatch(func.value or "")
            ):
                # a class or builder the constructor is handed (moco-v3's ``self.base_encoder
                # = base_encoder(num_classes=mlp_dim)``): the caller picks the part
                shown = f"{func.value}(...), passed in"
                if shown not in found:
                    found.append(shown)
                continue
            if built is None and func.kind == "sub":
                by_name = self._globals_entry(file, func, owner)
                if by_name is not None:  # ``globals()['dla{}'.format(num_layers)](...)``
                    if by_name not in found:
                        found.append(by_name)
                    continue
            top = dotted.partition(".")[0]
            tail = dotted.rpartition(".")[2]
            if not (set_by_name and top == "torch"):  # the container is the part, not its layers
                todo.extend(r for r in expr.refs if r >= 0)
            if built is not None and built != owner:
                shown = self._shown(file, built, ref)
                either = self._returned_each(dotted) if dotted else []
                if len(either) > 1 and built in either:
                    # a builder returning one class per branch (maskrcnn-benchmark's
                    # ``build_rpn``: FCOSModule if cfg.MODEL.FCOS_ON, RetinaNet, RPN): the
                    # one the chosen config's values take, else each with its test
                    names = " or ".join(c.rpartition(".")[2] for c in either)
                    shown = f"{names} ({file.text(ref, 60)})"
                    pick = self._branch_pick(dotted)
                    if pick is not None:
                        others = [c for c in either if c != pick[0]]
                        self._not_picked.update(others)
                        why = f"; {pick[1]}" if pick[1] else ""
                        names = ", ".join(c.rpartition(".")[2] for c in others)
                        why += f"; not picked: {names}" if others else ""
                        shown = f"{pick[0].rpartition('.')[2]} ({file.text(ref, 60)}{why})"
            elif built is None and top in self.local and _BUILDER_NAME.match(tail.lstrip("_")):
                # a repository builder that returns no class of its own (DPT's
                # ``_make_encoder`` returning timm's ViT and a module of convolutions):
                # followed to the models it builds for this attribute
                inside = self._builder_builds(dotted, attr)
                shown = f"{tail}(...)" + (f" → {' or '.join(inside)}" if inside else "")
                skipped = self._skipped_in(dotted)
                if skipped:
                    shown += f"; not built by the config: {', '.join(skipped)}"
            elif ref not in plain and (zoo := self._zoo_model(file, expr, dotted, fn)):
                # a model zoo's constructor (barlowtwins' ``self.backbone = torchvision.
                # models.resnet50(zero_init_residual=True)``): the part, pretrained or not
                shown = zoo
            elif (
                (
                    top
                    and top != "torch"
                    and top not in self.local
                    # a standard-library object is no part (yolov9's ``self.yaml_file =
                    # Path(cfg).name``); a third-party model class is (timm's, transformers')
                    and top not in sys.stdlib_module_names
                    and (tail[:1].isupper() or tail in ("create_model", "from_pretrained"))
                )
                or (set_by_name and top == "torch" and tail[:1].isupper())
            ):
                shown = dotted
            else:
                continue
            if shown not in found:
                found.append(shown)
        return ", ".join(sorted(_one_per_class(found))) if found else None

    def _self_table_parts(self, file: ModelFile, method: str, owner: str) -> list[str]:
        """The models a method of ``owner`` returns by picking an entry of a dict its
        constructor fills (SimCLR's ``_get_basemodel(name)`` returning
        ``self.resnet_dict[name]`` of ``{"resnet18": models.resnet18(...), "resnet50":
        models.resnet50(...)}``): each entry's zoo constructor or repository class, in the
        dict's order (the key is the caller's: each is a choice)."""
        name = owner.rpartition(".")[2]
        fid = file.defs.get(f"{name}.{method}", -1)
        init = file.defs.get(f"{name}.__init__", -1)
        if fid < 0 or init < 0:
            return []
        picked: list[int] = []
        for ref in file.returns_in(fid):
            returned = file.exprs[ref]
            if returned.kind == "name":
                picked += [
                    a.value
                    for a in file.assigns_in(fid)
                    if a.single and a.names[0] == returned.value and a.value >= 0
                ]
            else:
                picked.append(ref)
        tables: set[str] = set()
        for ref in picked:
            sub = file.exprs[ref]
            target = file.expr(sub.refs[0]) if sub.kind == "sub" and sub.refs else None
            receiver = file.expr(target.refs[0]) if target and target.kind == "attr" else None
            if receiver is not None and receiver.kind == "name" and receiver.value == "self":
                tables.add(target.value or "")  # type: ignore[union-attr]
        out: list[str] = []
        defaults = {o.text for o in self.argparse.with_default(self.by_path) if o.text is not None}
        for attr, value, fids in file.facts.self_parts:
            table = file.exprs[value]
            if attr not in tables or init not in fids or table.kind != "dict":
                continue
            labels: dict[str, str] = {}
            for key_ref, entry in zip(table.keys, table.refs, strict=True):
                call = file.expr(entry)
                key = file.expr(key_ref)
                if call is None or call.kind != "call" or key is None:
                    continue
                label = self._zoo_model(file, call, self.callee(file, call) or "")
                built = self.built(file, entry, init) if label is None else None
                label = label or (built.rpartition(".")[2] if built is not None else None)
                if label is not None:
                    labels.setdefault(key.value or "", label)
            # the key an argparse default names, when one alone is (SimCLR's ``--arch``
            # defaults to "resnet18"): that entry, the others said to be not picked
            chosen = [k for k in labels if k in defaults]
            if len(chosen) == 1 and len(labels) > 1:
                others = ", ".join(v for k, v in labels.items() if k != chosen[0])
                pick = f"{labels[chosen[0]]} (default {chosen[0]!r}; not picked: {others})"
                labels = {chosen[0]: pick}
            out += [label for label in labels.values() if label not in out]
        return out

    def _builder_builds(self, dotted: str, attr: str = "", depth: int = 0) -> list[str]:
        """The models a repository builder function builds, one entry per branch (DPT's
        ``_make_encoder`` → ``_make_pretrained_vitb_rn50_384`` → ``timm.create_model(
        "vit_base_resnet50_384")``): a model zoo's constructor by the name it is given
        (``timm vit_base_resnet50_384``), repository module classes, followed through the
        repository functions and registered builders it calls. ``self.pretrained,
        self.scratch = _make_encoder(...)`` reads, for ``pretrained``, what the builder
        assigns to its own ``pretrained``, each assignment a branch; what one branch builds
        together is listed with commas."""
        shown: list[str] = []
        for group in self._builds(dotted, attr, depth):
            text = ", ".join(label for label, _ in group)
            if text and text not in shown:
                shown.append(text)
        return shown[:_BUILDER_SHOWN]

    def _builds(self, dotted: str, attr: str, depth: int) -> list[list[tuple[str, bool]]]:
        """Per branch, (label, weak) of what :meth:`_builder_builds` finds: weak, a
        repository class met below the builder itself, shown only where its branch builds no
        stronger part (DPT's readout ``Slice`` beside timm's ViT is a piece of it;
        maskrcnn-benchmark's ``ResNet`` inside a registered backbone builder is the
        backbone)."""
        found = self._def(dotted) if depth <= _BUILDER_DEPTH else None
        if found is None:
            return []
        file, fid = found
        named = [a for a in file.assigns_in(fid) if attr and attr in a.names]
        # the branch the defaults take, where the work items tell it (MiDaS's
        # ``_make_encoder`` assigns ``pretrained`` in six branches; the default's runs)
        taken = [a for a in named if not (self.unchosen and self.unchosen(file.path, a.line))]
        named = taken or named
        groups = [[a.value] for a in named if a.value >= 0]
        if not named:  # everything it calls, together: the calls whose innermost def it is
            # (but those in a branch the chosen config skips: :meth:`_skipped_in` names them)
            groups = [
                [
                    ref
                    for ref, inner in file.facts.calls
                    if inner == fid
                    and not (
                        file.facts.tests
                        and self.yacs is not None
                        and any(
                            runs is False
                            for _, runs, _ in self.conditions(file, file.exprs[ref].link)
                        )
                    )
                ]
            ]
            # and those in a string-keyed branch the defaults leave out
            taken_refs = [
                ref
                for ref in groups[0]
                if not (self.unchosen and self.unchosen(file.path, file.exprs[ref].line))
            ]
            groups = [taken_refs or groups[0]]
        out: list[list[tuple[str, bool]]] = []
        for group in groups:
            built: list[tuple[str, bool]] = []
            for ref in group:
                for item in self._built_by_call(file, ref, fid, depth):
                    if item[0] not in {label for label, _ in built}:
                        built.append(item)
            if any(not weak for _, weak in built):
                built = [(label, weak) for label, weak in built if not weak]
            out.append(built)
        return out

    def _built_by_call(
        self, file: ModelFile, ref: int, fid: int, depth: int
    ) -> list[tuple[str, bool]]:
        """What one call in a builder builds (see :meth:`_builds`)."""
        expr = file.expr(ref)
        if expr is None or expr.kind != "call":
            return []
        dotted = self.callee(file, expr) or ""
        zoo = self._zoo_model(file, expr, dotted, fid)
        if zoo is not None:
            return [(zoo, False)]
        cls = self.built(file, ref, fid)
        if cls is not None:
            return [(cls.rpartition(".")[2], depth > 0)]
        lookup = self.registries.lookup(file, ref, fid)
        if lookup is not None:  # a registered builder returning no class of its own
            dotted = lookup.target
        if dotted.partition(".")[0] in self.local:
            inside = [item for group in self._builds(dotted, "", depth + 1) for item in group]
            # a builder of torch layers alone (DPT's ``_make_scratch``) is named; a helper
            # that builds nothing by its name (timm's ``_is_blurpool``) is not
            tail = dotted.rpartition(".")[2]
            named = depth == 0 and _BUILDER_NAME.match(tail.lstrip("_"))
            return inside or ([(f"{tail}(...)", False)] if named else [])
        return []

    def _zoo_model(self, file: ModelFile, call: Expr, dotted: str, fid: int = -1) -> str | None:
        """A model another package builds by name: ``timm.create_model("vit_base_resnet50_
        384")`` is ``timm vit_base_resnet50_384``, ``torch.hub.load("facebookresearch/WSL-
        Images", ...)`` ``torch.hub facebookresearch/WSL-Images``, ``torchvision.models.
        resnet50(...)`` ``torchvision.models.resnet50``; a name a settings object of the def
        ``fid`` holds is followed to its string (:meth:`_setting`)."""
        top, _, tail = dotted.rpartition(".")
        package = dotted.partition(".")[0]
        if not package or package in self.local:
            return None
        args = file.args(call)
        first = file.expr(args[0]) if args else None
        name = first.value if first is not None and first.kind == "const" else None
        if name is None and args and tail in _BY_NAME_CALLS:
            name = self._setting(file, args[0], fid)
        if tail in _BY_NAME_CALLS and name:
            return f"{top if top != package else package} {name}"
        if package in TORCH_MODEL_PACKAGES and ".models" in dotted and tail[:1].islower():
            return dotted
        return None

    def _setting(self, file: ModelFile, ref: int, fid: int) -> str | None:
        """The string a field of a settings object holds (Depth Pro's ``config =
        VIT_CONFIG_DICT[preset]``, then ``timm.create_model(config.timm_preset)``): the
        object the def binds the name to, a construction or an entry of a module-level
        dict of them (the entry a literal key picks, else every entry), and of each the
        keyword it passes, else the class's field default (a dataclass or NamedTuple
        field). The one string they all agree on, None otherwise."""
        expr = file.expr(ref)
        obj = file.expr(expr.refs[0]) if expr is not None and expr.kind == "attr" else None
        if expr is None or obj is None or obj.kind != "name" or not expr.value:
            return None
        bound = file.bound_above(fid, obj.value or "", expr.line) if fid >= 0 else None
        if bound is None or bound[1] >= 0:
            return None
        node = file.exprs[bound[0]].node
        if node.kind == "Subscript" and node.parts[0].kind == "Name":
            key = node.parts[1]
            module = file.fa.syntax.values if file.fa.syntax is not None else None
            tables = [
                a.value
                for a in (module.assigns if module is not None else ())
                if a.target.kind == "Name" and a.target.name == node.parts[0].name
            ]
            if not tables or tables[-1].kind != "Dict":
                return None
            table = tables[-1]
            entries = list(zip(table.keys, table.items, strict=True))
            if key.kind == "Constant" and isinstance(key.value, str):
                entries = [(k, v) for k, v in entries if k == key.value] or entries
            values = {self._field_of(file, v, expr.value) for _, v in entries}
        else:
            values = {self._field_of(file, node, expr.value)}
        return values.pop() if len(values) == 1 else None

    def _field_of(self, file: ModelFile, node: ValueExpr, field: str) -> str | None:
        """The string the construction ``node`` (``ViTConfig(timm_preset="vit_large_
        patch14_dinov2", ...)``) sets ``field`` to: its keyword, else the class's default."""
        if node.kind != "Call" or node.func.kind not in ("Name", "Attribute"):
            return None
        for keyword in node.keywords:
            if keyword.name == field:
                value = keyword.target
                return value.value if isinstance(value.value, str) else None
        chain = node.func.chain()
        cls = self.resolve(file, chain) if chain else None
        module, _, name = (cls or "").rpartition(".")
        source = self._module_file(module)
        values = source.fa.syntax.values if source is not None and source.fa.syntax else None
        for d in values.defs if values is not None else ():
            if d.is_class and d.qual == name:
                for a in d.assigns:
                    if a.target.kind == "Name" and a.target.name == field:
                        value = field_default(a.value)
                        return value.value if isinstance(value.value, str) else None
        return None

    @staticmethod
    def _shown(file: ModelFile, cls: str, ref: int) -> str:
        via = file.text(ref, 60)
        shown = cls.rpartition(".")[2]
        return shown if via.startswith(shown) else f"{shown} ({via})"

    def top_models(self) -> tuple[TopModel, ...]:
        found: list[TopModel] = []
        named: dict[str, list[TopModel]] = {}
        injected: set[str] = set()  # classes that are parts of another construction
        factories: list[TopModel] = []  # a class picked into a variable, built from a config
        runs: dict[Where, int] = {}  # how many classes run the method of a construction
        candidates: set[str] = set()  # builders whose classes are a part's alternatives
        alternatives: set[str] = set()  # the classes those builders may return
        for file in self.files:
            if self.skip(file.path):
                continue
            for ref, fid in file.facts.calls:
                call = file.exprs[ref]
                by_name = self._by_name(file, ref, fid)
                if by_name is not None:
                    named.setdefault(by_name.cls, []).append(by_name)
                    continue
                dotted = self.constructed(file, call, fid)
                if dotted not in self.classes:
                    factory = self._class_factory(file, call, fid)
                    if factory is not None and factory not in factories:
                        factories.append(factory)
                    continue
                if self.classes[dotted].role in _NOT_TOP:
                    continue
                fn = file.function(fid)
                if self._model_method(file, fn, dotted):
                    continue
                parts = []
                foreign: list[tuple[str, str]] = []  # third-party models handed in
                constructed = False  # a part the construction is handed built
                for arg, name in self._arguments(file, call, dotted):
                    cls = self.built(file, arg, fid)
                    constructed |= cls is not None and cls != dotted
                    cls = cls or self._class_passed(file, arg)
                    if cls is None:
                        if (model := self._foreign_part(file, arg, fid)) is not None:
                            foreign.append((name or "**", model))
                        continue
                    if cls == dotted or self.classes[cls].role in _NOT_TOP:
                        continue  # a criterion handed to a task is no part of a model
                    # a part a builder picks among several classes by an argument
                    # (``net_encoder = ModelBuilder.build_encoder(arch=cfg.MODEL.arch)``):
                    # each class is an alternative of the part, none a model of its own
                    picker, either, picked = self._candidates(file, arg, fid)
                    either = [
                        c for c in either if c != dotted and self.classes[c].role not in _NOT_TOP
                    ]
                    recursive = False
                    if picker and either and cls not in either:
                        # the branches the run's values take build other classes than the
                        # builder's first (semseg's ``resnet50dilated``): theirs; the
                        # classes of the branches they leave are no models of their own
                        cls = either[0]
                        alternatives.update(self._returned_each(picker))
                        if len(either) == 1:
                            candidates.add(picker)
                            picked = f"{picked}, the branch the run's values take"
                    if not picker or cls not in either:
                        either = [cls]
                    elif self._def(picker) != (file, fid):
                        candidates.add(picker)
                        alternatives.update(either)
                    else:
                        # a recursive builder (shap-e's ``model_from_config`` building a
                        # ``Transmitter`` of two parts it builds by their configs' names):
                        # the construction stays, each part one of the classes it may
                        # return; none of them a known child (any class the config names)
                        recursive = True
                    injected.update(() if recursive else either)
                    if not recursive and not _WRAPPER.search(dotted.rpartition(".")[2]):
                        # it wraps any model
                        self.injected.setdefault(dotted, set()).update(either)
                        for part in either:
                            self.injected_at.setdefault((dotted, part), set()).add(
                                (file.path, call.line)
                            )
                    via = file.text(arg, 60)
                    shown = " or ".join(c.rpartition(".")[2] for c in either)
                    if len(either) > 1 or picked.endswith("the branch the run's values take"):
                        via = f"picked {picked}"
                    if len(either) > _BUILDER_SHOWN:
                        names = ", ".join(c.rpartition(".")[2] for c in either[:3])
                        shown = f"one of {len(either)} classes: {names}, ..."
                    parts.append(
                        (name or "**", shown if via.startswith(shown) else f"{shown} ({via})")
                    )
                    # what the builder handed that part in turn (``encoder = Encoder(
                    # patch_encoder=patch_encoder)``): ``encoder.patch_encoder``
                    parts += [
                        (f"{name or '**'}.{inner}", model)
                        for inner, model in self._handed_in(file, arg, fid, cls)
                    ]
                # a builder function, or a script's module code (``diffusion =
                # GaussianDiffusion(Unet(...))`` under ``if __name__ == "__main__"``)
                if parts and (fn is None or fn.name != "__init__"):
                    parts += foreign
                    builder = fn.name if fn is not None else ""
                    model = TopModel(dotted, file.where(call.line), builder, tuple(parts))
                    if not constructed:
                        self.fed.append(model)
                        continue
                    runs[model.where] = self._runs(file, fn)
                    same = next(
                        (
                            i
                            for i, m in enumerate(found)
                            if (m.cls, m.builder, m.parts) == (dotted, builder, model.parts)
                        ),
                        None,
                    )
                    if same is None:
                        found.append(model)
                    elif runs[model.where] > runs.get(found[same].where, 1):
                        found[same] = model  # the one more classes run stands for both
        # One entry per model a registry picks: the training entry's pick first; an
        # evaluation or benchmark script's default (validate.py's dpn92) is not the model
        # when a training script picks one.
        if any(_trains(m.where.path, m.builder) for picks in named.values() for m in picks):
            named = {
                cls: kept
                for cls, picks in named.items()
                if (kept := [m for m in picks if not side_script(m.where.path)])
            }
        for picks in named.values():
            pick = min(
                picks, key=lambda m: (not _trains(m.where.path, m.builder), len(m.where.path))
            )
            found.append(self._with_builder_parts(pick, found))
        beside: list[TopModel] = []
        if named and not any(_trains(m.where.path, m.builder) for m in found):
            # only inference code picks a model by name (a reader's recognizer loaded by
            # ``importlib``): the models training scripts build themselves are trained, top
            # models too (not "other" classes no training reaches), after the picks
            known = {m.cls for m in found}
            beside = [
                m
                for m in self._scripted()
                if _trains(m.where.path, m.builder) and m.cls not in known
            ]
        # what a part's builder constructs is an alternative of that part, not a model
        inside_builders = {
            (owner.path, owner.functions[fid].name)
            for dotted in candidates
            if (found_def := self._def(dotted)) is not None
            for owner, fid in [found_def]
        }
        found = [m for m in found if (m.where.path, m.builder) not in inside_builders]
        run_time: TopModel | None = None
        if not named:
            # picked at run time with no default, named by the documented training command
            # (``--arch fconv_iwslt_de_en``): that model; the registry's others are what
            # other commands build, alternatives of this run
            run = self.readings.documented_run
            documented = self.registries.documented(
                (c for c, m in self.classes.items() if m.role not in _NOT_TOP),
                [run] if run is not None else [],
            )
            if documented is not None:
                cls, why, others = documented
                # with the parts its builder hands it (``build_model``: encoder, decoder)
                built = next((m for m in found if m.cls == cls and m.parts), None)
                own = built.parts if built is not None else self.parts_of(cls)
                parts = (("selected by", why), *own)
                run_time = TopModel(cls, self.classes[cls].where, "", tuple(parts))
                self._unconfigured.update(others)
                # what the registry's other entries build is no model of this run: the
                # tree shows them apart, as alternatives
                found = [m for m in found if m.cls not in set(others)]
        if not named and run_time is None:
            # picked at run time with no default: the registry's main model
            picked = self.registries.most_variants(
                c for c, m in self.classes.items() if m.role not in _NOT_TOP
            )
            if picked is not None:
                cls, why = picked
                parts = (("selected by", why), *self.parts_of(cls))
                run_time = TopModel(cls, self.classes[cls].where, "", tuple(parts))
        if not named:  # an entry script's builder call says which model runs
            # a class an entry script builds through a part's builder (``Builder.
            # build_encoder(arch=...)`` handed to ``SegModel``) is an alternative of it
            scripted = [m for m in self._scripted() if m.cls not in alternatives]
            if scripted and run_time is None:  # with the parts its builder injects
                run_time = self._injected_into(scripted[0], found)
                # a neck or head wired up by a registered builder (maskrcnn-benchmark's
                # ``FPN`` in ``build_resnet_fpn_backbone``) is a part of it, not a model
                found = [m for m in found if self.classes[m.cls].role not in _PARTS]
                known = {m.cls for m in found}  # built with its parts injected already
                found += [m for m in scripted[1:] if m.cls not in known]
        found = [m for m in found if not _wraps_one(m)]
        if factories and not named:
            # the composite a factory builds from a config comes first; the towers its
            # constructor builds through builders are its parts, not models of their own
            inside = _named_parts(factories)
            found = [
                *factories,
                *(m for m in found if m.cls.rpartition(".")[2] not in inside),
            ]
        # a library module's self-test (``GaussianDiffusion(Unet(...))`` under ``if
        # __name__ == "__main__"`` in classifier_free_guidance.py) tries a model out: it
        # is not the entry point that says which model the repository trains
        tests = [m for m in found if self._in_self_test(m)]
        found = [m for m in found if m not in tests]
        if not found and run_time is None:
            found = [m for m in self._roots() if not _wraps_one(m) and m not in tests]
            found = [m for m in found if not self._in_self_test(m)]
        if not found and run_time is None:
            # built only by files counted apart (MODNet's demos and export scripts build
            # ``MODNet(backbone_pretrained=False)``; its trainer takes the model in): the
            # repository's own model, as they build it
            found = [m for m in self._roots(apart=True) if not _wraps_one(m)]
            found = [m for m in found if not self._in_self_test(m)]
        if not found and run_time is None and self.options is not None:
            # built by name from an option file (``network_g: {type: NAFNet}``)
            picks = self.options.networks(self.classes)
            for cls, why in picks[:1]:
                parts = (("selected by", why), *self.parts_of(cls))
                run_time = TopModel(cls, self.classes[cls].where, "", tuple(parts))
        if not found and run_time is None:
            # picked by a name only a configuration file holds (pytorch-segmentation's
            # ``getattr(models, config['arch']['type'])``): the models the package a
            # training script imports exports
            found = self._package_choices()
            if found and self.configured:  # a config's default is the main model
                run_time = found[0]
                # the others are what other configs would pick: listed after it, not
                # built in this run (their initialisation rows are not the recipe's)
                self._unconfigured.update(m.cls for m in found if m.cls != run_time.cls)
        if not found and run_time is None and not tests:
            # no script builds a model: the one the documentation's examples build from the
            # package and train, when they do
            export = self._package_export(tests, documented_only=True)
            if export is not None:
                injected.discard(export.cls)
                return (export,)
        if not found and run_time is None and tests:
            # only self-tests build a model: a library's; its package's main export is the
            # model a user builds, the self-tests' models after it
            export = self._package_export(tests)
            found = tests if export is None else [export, *tests]
            if export is not None:
                injected.discard(export.cls)
                if export.parts and export.parts[0][1].startswith(DOCUMENTED_BUILD):
                    # the documentation says which model is built: the self-tests' copies
                    # in variant modules are theirs, not the run's
                    return (export,)
                return tuple([export, *(m for m in tests if m.cls != export.cls)][:TOP_MODELS])
        inside = _named_parts(found)  # a registry's pick inside another pick is a part
        # Models nothing else wraps first; a model a wrapper takes (DETR in a segmentation
        # head built only with --masks) is still listed: the wrapper may be optional.
        tops = sorted(
            found,
            key=lambda m: (
                # built in a branch the defaults leave out (moco-v3-like ``if args.arch.
                # startswith('vit')`` with ``--arch resnet50``): after the one that runs
                bool(self.unchosen and self.unchosen(m.where.path, m.where.line)),
                m.cls in injected or m.cls.rpartition(".")[2] in inside,
                -self.built_in.get(m.cls, 0),  # the root most model scripts build first
                # a method most experiment classes inherit builds what their training runs
                # (YOLOX's yolox_base.Exp.get_model, run by every size but the two that
                # define their own: yolov3, nano)
                -runs.get(m.where, 1),
                -len(m.parts),
                m.where.path,
                m.where.line,
            ),
        )
        tops += [m for m in beside if m.cls not in {t.cls for t in tops}]
        if run_time is None:  # a class a by-name builder constructs from its dotted name
            picks = self._class_named()
            shown = {m.cls for m in picks}
            tops = [*picks, *(m for m in tops if m.cls not in shown)]
        if run_time is not None:  # the registry's main model first, then what builds it
            tops = [run_time, *(m for m in tops if m.cls != run_time.cls)]
        picked = self._framework_networks() or self._target_networks()
        if not picked and not any(_trains(m.where.path, m.builder) for m in tops):
            # no training script builds a model itself: the networks its option files
            # name (``network_g: {type: EDSR}``) are what it trains, not the models the
            # inference scripts build (BasicSR's inference/inference_ridnet.py)
            picked = self._named_by_options()
            named = {m.cls for m in picked}
            if named:  # the others: built by scripts no training runs
                self._unconfigured.update(m.cls for m in tops if m.cls not in named)
        if picked:  # what the framework's training builds comes before what scripts build
            shown = {m.cls for m in picked}
            tops = [*picked, *(m for m in tops if m.cls not in shown)]
        return tuple(self._trained_subclasses(tops)[:TOP_MODELS])

    def _trained_subclasses(self, tops: list[TopModel]) -> list[TopModel]:
        """A top model that no training builds, whose subclass a training file builds
        (Cutie-like ``CutieTrainWrapper(CUTIE)`` built by ``trainer.py`` while only the
        evaluation builds ``CUTIE``): the subclass is the model the training runs, shown
        with the class it extends and that class's parts."""
        if self.hierarchy is None:
            return tops
        out: list[TopModel] = []
        for m in tops:
            if _trains(m.where.path, m.builder):
                # the subclass a base's construction stood for, already listed
                if not any(
                    t.cls == m.cls and t.parts[:1] and t.parts[0][0] == "extends" for t in out
                ):
                    out.append(m)
                continue
            if any(t.parts[:1] == (("extends", m.cls.rpartition(".")[2]),) for t in out):
                continue  # another construction of the class its subclass stands for
            subs = {
                c
                for sub in self.hierarchy.subclasses(m.cls)
                for c in (sub, self.hierarchy.resolve(sub))
                if c in self.classes and self.classes[c].role not in _NOT_TOP
            }
            built = self._trained_construction(subs) if subs else None
            if built is None:
                out.append(m)
                continue
            sub, where, builder = built
            extends = ("extends", m.cls.rpartition(".")[2])
            parts = tuple(p for p in m.parts if p[0] != ALSO_BUILT_BY)
            if all(t.cls != sub for t in out):
                out.append(TopModel(sub, where, builder, (extends, *parts)))
        return out

    def _trained_construction(self, classes: set[str]) -> tuple[str, Where, str] | None:
        """(class, where, builder) of the first construction of one of ``classes`` in a
        training file or function of a ported file, or None."""
        for file in self.files:
            if self.skip(file.path):
                continue
            for ref, fid in file.facts.calls:
                call = file.exprs[ref]
                dotted = self.constructed(file, call, fid)
                if dotted not in classes:
                    continue
                fn = file.function(fid)
                builder = fn.name if fn is not None else ""
                if _trains(file.path, builder):
                    return dotted, file.where(call.line), builder
        return None

    def _runs(self, file: ModelFile, fn: Function | None) -> int:
        """How many of the repository's classes run the method ``fn`` (its class and the
        subclasses that inherit it); 1 for a function or a script's code."""
        if fn is None or self.hierarchy is None or "." not in fn.qualname:
            return 1
        owner = self.resolve(file, fn.qualname.split(".")[:-1])
        return max(1, len(self.hierarchy.inheritors(owner, fn.name))) if owner else 1

    def _model_method(self, file: ModelFile, fn: Function | None, cls: str) -> bool:
        """``fn`` is a method of another module class, or a def nested in one (ImageBind-like
        ``Model._create_modality_preprocessors`` building each modality's preprocessor, or
        its nested ``instantiate_trunk``): what it builds becomes a part of that class, so
        the construction names no top model."""
        if fn is None or "." not in fn.qualname:
            return False
        names = fn.qualname.split(".")[:-1]
        for end in range(len(names), 0, -1):
            owner = self.resolve(file, names[:end])
            if owner in self.classes and owner != cls:
                return True
        return False

    def _arguments(self, file: ModelFile, call: Expr, cls: str) -> list[tuple[int, str]]:
        """(argument, the parameter of ``cls``'s constructor it is passed for, "" when
        unknown) of a construction: a keyword's name, else the positional parameter's."""
        args = file.args(call)
        return [
            (
                arg,
                (call.keywords[i - n] if i >= (n := len(args)) else self._parameter(cls, i)) or "",
            )
            for i, arg in enumerate(call.refs[1:])
        ]

    def _handed_in(self, file: ModelFile, ref: int, fid: int, cls: str) -> list[tuple[str, str]]:
        """(parameter, third-party model) of what the builder's own construction of ``cls``
        that the local ``ref`` holds was handed (:meth:`_foreign_part`)."""
        expr = file.expr(ref)
        if expr is None or expr.kind != "name":
            return []
        bound = file.bound_above(fid, expr.value or "", expr.line)
        call = file.expr(bound[0]) if bound is not None and bound[1] < 0 else None
        if call is None or call.kind != "call" or self.callee(file, call) != cls:
            return []
        return [
            (name or "**", model)
            for arg, name in self._arguments(file, call, cls)
            if (model := self._foreign_part(file, arg, fid)) is not None
        ]

    def _foreign_part(
        self, file: ModelFile, ref: int, fid: int, position: int = -1, depth: int = 0
    ) -> str | None:
        """The third-party model an argument holds, as a reader names it: a zoo call
        (``timm vit_large_patch14_dinov2``; ``timm.create_model(config.timm_preset)`` when
        the name is not a literal), directly or through the builder's locals and the
        repository factory that returns it (``encoder, cfg = create_backbone(preset=...)``,
        the factory returning ``model, config``: ``create_backbone(preset=...) → ...``).
        ``position`` is the element of a returned tuple the local unpacks (-1: the whole).
        None for anything else."""
        expr = file.expr(ref)
        if expr is None or depth > _FOLLOW:
            return None
        if expr.kind == "tuple" and position <= 0:  # ``return model, config``
            return self._foreign_part(file, expr.refs[0], fid, -1, depth + 1)
        if expr.kind == "name" and position < 0:
            bound = file.bound_above(fid, expr.value or "", expr.line)
            if bound is None:
                return None
            return self._foreign_part(file, bound[0], fid, bound[1], depth + 1)
        if expr.kind != "call":
            return None
        dotted = self.callee(file, expr)
        if dotted is None or dotted in self.classes:
            return None
        package, tail = dotted.partition(".")[0], dotted.rpartition(".")[2]
        if package not in self.local:
            if position >= 0 or (package not in TORCH_MODEL_PACKAGES):
                return None
            named = self._zoo_model(file, expr, dotted, fid)
            if named is not None or tail not in _BY_NAME_CALLS:
                return named
            given = expr.node.args  # the name an option or config holds
            return f"{dotted}({given[0].text[:40] if given else ''})"
        found = self._def(dotted)
        if found is None:
            return None
        dfile, dfid = found
        models = {
            m
            for ret in dfile.returns_in(dfid)
            if (m := self._foreign_part(dfile, ret, dfid, position, depth + 1)) is not None
        }
        if not models and position <= 0:
            # a factory that wraps the zoo model it creates before returning it (a ViT
            # factory's ``create_vit`` returning ``model.model`` of the wrapper it built
            # around ``timm.create_model(...)``): the zoo model is what it returns
            models = {
                m
                for call, inner in dfile.facts.calls
                if inner == dfid
                and (m := self._foreign_part(dfile, call, dfid, -1, depth + 1)) is not None
            }
        if len(models) != 1:
            return None
        # named by the outermost builder the local was assigned from, as a part a constructor
        # builds through a builder is (``_make_encoder(...) → timm vit_base_resnet50_384``)
        return f"{file.text(ref, 60)} → {models.pop().rpartition(' → ')[2]}"

    def _class_passed(self, file: ModelFile, ref: int) -> str | None:
        """The module class an argument names without calling it (``ResNet(num_classes,
        Bottleneck, [3, 4, 6, 3])``): the constructor builds its layers of it (``block(...)``
        in ``_make_layer``), so it is a part of the model; None for any other argument."""
        expr = file.expr(ref)
        if expr is None or expr.kind not in ("name", "attr"):
            return None
        dotted = self.dotted(file, ref)
        return dotted if dotted in self.classes else None

    def _framework_networks(self) -> list[TopModel]:
        """The networks an installed framework's training builds from the option file by
        name (``network_g: {type: RRDBNet}``, ``network_d: {type: UNetDiscriminatorSN}``),
        the most used first, when the training entry point hands control to the framework
        (:func:`~apiscan.review.config_files.framework_training`): the repository's class
        where it defines one (registered with the framework), else the framework's own,
        named by the dotted name the code imports it by (``basicsr.archs.rrdbnet_arch.
        RRDBNet``) or under the package: a third-party part to port with the framework."""
        options = self.options
        if options is None or options.framework is None:
            return []
        package = options.framework.package
        own = {cls.rpartition(".")[2] for cls in self.classes}
        imported: dict[str, str] = {}
        for file in self.files:
            facts = file.fa.syntax
            for top, names in facts.package_uses if facts is not None else ():
                for name in names if top == package else ():
                    imported.setdefault(name.rpartition(".")[2], name)
        foreign = [
            imported.get(name, f"{package}.{name}")
            for name in options.types("backbone")
            if name not in own
        ]
        entry = options.framework
        built = (FRAMEWORK_BUILT, f"{entry.entry} at {entry.where}")
        out: list[TopModel] = []
        picks = options.named_networks([*self.classes, *foreign])
        # the file's order (``network_g`` before ``network_d``), each class once
        picks.sort(key=lambda p: (p[2].path, p[2].line))
        for cls, why, where in picks:
            if any(m.cls == cls for m in out):
                continue
            if cls in self.classes:
                parts = (("selected by", why), built, *self.parts_of(cls))
                out.append(TopModel(cls, self.classes[cls].where, "", tuple(parts)))
            else:
                third = f"{package} (third-party: port it with the framework)"
                parts = (("selected by", why), built, ("defined in", third))
                out.append(TopModel(cls, where, "", parts))
        return self._option_alternatives(out)

    def _option_alternatives(self, out: list[TopModel]) -> list[TopModel]:
        """The repository's networks the chosen option file does not build: those the other
        option files name (HAT's ``network_d: UNetDiscriminatorSN`` of its GAN fine-tuning)
        and those registered with the framework that no option file names (a compact
        variant kept for another task). Each an alternative of the first picked model,
        said so, none built by this run (:attr:`_unconfigured`: no recipe rows, no work)."""
        options = self.options
        if not out or options is None or options.chosen is None:
            return out
        picked = {m.cls for m in out}
        by_short: dict[str, list[str]] = {}
        for cls, node in self.classes.items():
            if node.role not in _NOT_TOP:
                by_short.setdefault(cls.rpartition(".")[2], []).append(cls)
        shown: list[str] = []
        named = options.unchosen_networks()
        for name, (section, count) in sorted(named.items()):
            found = [c for c in by_short.get(name, ()) if c not in picked]
            if found:
                self._unconfigured.update(found)
                files = f"{count} other option file{'s' if count > 1 else ''}"
                shown.append(f"{name} ({section} in {files})")
        # a class registered with the framework by its decorator that no file names
        every = {*named, *(c.rpartition(".")[2] for c in picked)}
        for file in self.files:
            for qual, _, decorators in file.facts.decorated:
                cls = f"{file.module}.{qual}"
                if (
                    cls in self.classes
                    and cls not in picked
                    and qual not in every
                    and self.classes[cls].role not in _NOT_TOP
                    and any(chain and key in ("", qual) for _, chain, key in decorators)
                ):
                    self._unconfigured.add(cls)
                    shown.append(f"{qual} (registered, named by no option file)")
        if not shown:
            return out
        first = out[0]
        return [replace(first, parts=(*first.parts, ("alternatives", ", ".join(shown)))), *out[1:]]

    def _target_networks(self) -> list[TopModel]:
        """The models OmegaConf configs build by their dotted ``target`` (latent-diffusion's
        ``model: {target: ldm.models.diffusion.ddpm.LatentDiffusion, params: ...}``, built
        by ``instantiate_from_config(config.model)`` from the configs the command line
        names), the most configs' first: what the training builds, whatever scripts
        construct directly. Only the repository's own classes."""
        options = self.options
        if options is None or options.type_key != "target":
            return []
        out: list[TopModel] = []
        for cls, why, where in options.named_networks(self.classes):
            if all(m.cls != cls for m in out):
                parts = (("selected by", why), *self.parts_of(cls))
                parts += tuple(self._configured_parts(options, where, parts))
                out.append(TopModel(cls, self.classes[cls].where, "", tuple(parts)))
        return out

    def _configured_parts(
        self, options: OptionFiles, where: Where, shown: Sequence[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """The parts the chosen config hands the model it builds at ``where`` by a nested
        dotted ``target`` of its params (``model.params.first_stage_config.target:
        ldm.models.autoencoder.AutoencoderKL``, ``cond_stage_config``, ``unet_config``):
        each ``<key> ← <Class>``, named by the params key, for the repository's classes the
        constructor's own parts (``shown``) do not already show. None for another file's
        model or without a chosen config."""
        if options.chosen is None or where.path != options.chosen:
            return []
        flat = options.flat.get(options.chosen, {})
        top = next(
            (k.removesuffix(".target") for k, s in flat.items() if s.line == where.line),
            None,
        )
        if top is None:
            return []
        by_name: dict[str, list[str]] = {}
        for cls in self.classes:
            by_name.setdefault(cls.rpartition(".")[2], []).append(cls)
        seen = {value.partition(" ")[0] for _, value in shown}
        out: list[tuple[str, str]] = []
        for key, setting in flat.items():
            if not key.startswith(f"{top}.params.") or not key.endswith(".target"):
                continue
            dotted = setting.text.strip("'\"")
            name = dotted.rpartition(".")[2]
            if not any(f".{dotted}".endswith(f".{c}") for c in by_name.get(name, [])):
                continue  # a torch class (``torch.nn.Identity``) or another package's
            part = key.removeprefix(f"{top}.params.").removesuffix(".target")
            if name not in seen:
                out.append((part, name))
        return out

    def _named_by_options(self) -> list[TopModel]:
        """The repository's networks its training option YAMLs build by ``type`` (BasicSR's
        ``network_g: {type: EDSR}`` in options/train/, read by ``define_network(opt[
        'network_g'])``), the most files' first, without a framework between: the
        training's models. None where no option file names one of the classes."""
        options = self.options
        if options is None or options.framework is not None or options.type_key != "type":
            return []
        out: list[TopModel] = []
        for cls, why in options.networks(self.classes):
            if all(m.cls != cls for m in out) and self.classes[cls].role not in _NOT_TOP:
                parts = (("selected by", why), *self.parts_of(cls))
                out.append(TopModel(cls, self.classes[cls].where, "", tuple(parts)))
        if not out:
            return out
        # the networks the other option files name: with a file picked, alternatives of its
        # network (other trainings' picks, their initialisation no row of this one); with
        # none, models of the trainings no documented command runs, listed after them
        by_name: dict[str, list[str]] = {}
        for cls in self.classes:
            by_name.setdefault(cls.rpartition(".")[2], []).append(cls)
        first = out[0].cls.rpartition(".")[2]
        every = replace(options, chosen=None)  # every training option file
        for name, section in sorted(every.types("backbone").items()):
            found = sorted(by_name.get(name, []))
            if not found or any(m.cls == found[0] for m in out):
                continue
            if self.classes[found[0]].role in _NOT_TOP:
                continue
            key = f"{section}.{options.type_key}"
            path = next(
                p
                for p, flat in options.flat.items()
                if key in flat and flat[key].text.strip("'\"").rpartition(".")[2] == name
            )
            if options.chosen is not None:
                why = f"an alternative to {first}: {key}: {name} in {path}, a file not picked"
                self._unconfigured.add(found[0])
            else:
                why = f"{key}: {name} in {path}, a training option file no documented command names"
            parts = (("selected by", why), *self.parts_of(found[0]))
            out.append(TopModel(found[0], self.classes[found[0]].where, "", tuple(parts)))
        return out

    def _class_named(self) -> list[TopModel]:
        """The module classes a ``class_name=`` keyword (or a dict literal's
        ``'class_name'`` entry) names by their dotted path, where the repository builds
        objects by name (stylegan2-ada's ``G_kwargs = dnnlib.EasyDict(class_name=
        'training.networks.Generator', ...)`` in train.py, built by
        ``dnnlib.util.construct_class_by_name(**G_kwargs)``): that class is what the
        training builds, however many other functions construct it directly (legacy.py's
        checkpoint converters). Training scripts' picks first."""
        builders = sorted(  # the one that names a class first (construct_class_by_name)
            {
                call.callee.rpartition(".")[2]
                for file in self.files
                for call in file.fa.calls
                if BY_NAME_BUILDER.fullmatch(call.callee.rpartition(".")[2])
            }
        )
        if not builders:
            return []
        builders.sort(key=lambda name: ("class" not in name, name))
        found: dict[str, TopModel] = {}
        # (the object named, its TopModel) of the names set in branches the defaults leave
        # out: alternatives of the class the branch that runs names for the same object
        unpicked: list[tuple[str, TopModel]] = []
        by_target: dict[str, str] = {}  # the object named -> the class that runs
        for file in self.files:
            values = file.fa.syntax.values if file.fa.syntax is not None else None
            if values is None or self.skip(file.path):
                continue
            exprs = [(call.expr, call.function, "") for call in values.calls]
            # a dict literal's entry, or a name set on the object (stylegan3's
            # ``c.G_kwargs.class_name = 'training.networks_stylegan3.Generator'`` in the
            # ``else`` of ``if opts.cfg == 'stylegan2':``)
            assigns = [(a, -1) for a in values.assigns]
            assigns += [(a, i) for i, d in enumerate(values.defs) for a in d.assigns]
            for a, fid in assigns:
                exprs.append((a.value, fid, ""))
                if a.target.kind == "Attribute" and a.target.name == "class_name":
                    exprs.append((a.value, fid, a.target.parts[0].text))
            for expr, fid, target in exprs:
                if not target:
                    entries = list(class_name_entries(expr))
                elif isinstance(expr.value, str) and expr.literal:
                    entries = [(expr.line, expr.value)]
                else:
                    entries = []
                for line, name in entries:
                    cls = self._class_of(name) if "." in name else None
                    if cls not in self.classes or cls in found:
                        continue
                    if self.classes[cls].role in _NOT_TOP or _DATA_WORDS & set(words(cls)):
                        continue  # a loss, or an augmentation pipe built the same way
                    builder = values.defs[fid].name if 0 <= fid < len(values.defs) else ""
                    shown = f"{target}.class_name = {name!r}" if target else f"class_name={name!r}"
                    why = f"{shown} ({file.path}:{line}) → {builders[0]}()"
                    off = self.unchosen(file.path, line) if self.unchosen is not None else ""
                    if off and target:
                        why = f"{why}, {_only_if(off)}"
                        parts = (("selected by", why), *self.parts_of(cls))
                        model = TopModel(cls, file.where(line), builder, tuple(parts))
                        unpicked.append((f"{file.path}:{target}", model))
                        continue
                    if target:
                        by_target.setdefault(f"{file.path}:{target}", cls)
                    parts = (("selected by", why), *self.parts_of(cls))
                    found[cls] = TopModel(cls, file.where(line), builder, tuple(parts))
        picked = sorted(
            found.values(),
            key=lambda m: (not _trains(m.where.path, m.builder), m.where.path, m.where.line),
        )
        for target, model in unpicked:
            chosen = by_target.get(target)
            if chosen is None or model.cls in found:
                continue
            (name, why), *parts = model.parts
            short = chosen.rpartition(".")[2]
            if short == model.cls.rpartition(".")[2]:  # two modules' ``Generator``
                short = ".".join(chosen.split(".")[-2:])
            why = f"an alternative to {short}: {why}"
            found[model.cls] = replace(model, parts=((name, why), *parts))
            picked.append(found[model.cls])
            self._unconfigured.add(model.cls)
        return picked

    def _scripted(self) -> list[TopModel]:
        """The models the entry scripts build through a repository builder function
        (maskrcnn-benchmark's ``model = build_detection_model(cfg)``, Swin's ``build_model(
        config)``, CenterTrack's ``create_model(opt.arch, ...)``): the class the builder
        returns for the names the script hands it (an argparse or configuration default),
        followed through tables and registries; a training script's first, one per class."""
        out: dict[str, TopModel] = {}
        entries = sorted(
            # a training script is one even where it is counted apart as a tool
            # (maskrcnn-benchmark's tools/train_net.py: its loop lives in the package), not
            # a vendored copy's (DINOv2's train.py in Depth-Anything's torchhub/)
            (
                f
                for f in self.entries
                if not self.skip(f.path)
                or (_trains(f.path) and not self.skip(f.path).startswith(VENDORED))
            ),
            key=lambda f: (not _trains(f.path), f.path.count("/"), len(f.path), f.path),
        )
        #: (file, ref, fid, class or builder, what leaves it out) of the constructions in
        #: branches the defaults leave out: the alternatives of the one that runs
        skipped: list[tuple[ModelFile, int, int, str, str]] = []
        ran: dict[str, str] = {}  # path -> the first model its constructions that run build
        for file in entries:
            for ref, fid in file.facts.calls:
                call = file.exprs[ref]
                dotted = self.callee(file, call)
                if dotted is None:
                    continue
                off = self.unchosen(file.path, call.line) if self.unchosen is not None else ""
                if off:  # a branch the defaults leave out (``--depth`` 50: not resnet18)
                    skipped.append((file, ref, fid, dotted, off))
                    continue
                if dotted in self.classes:
                    self._constructed(file, ref, fid, dotted, out)
                    if dotted in out:
                        ran.setdefault(file.path, dotted)
                    continue
                owner = self._class_builder(dotted)
                if owner is not None:
                    if owner not in out:
                        fn = file.function(fid)
                        how = f"{file.text(ref, 60)} in {file.path}"
                        parts = (("selected by", how), *self.parts_of(owner))
                        where = file.where(call.line)
                        out[owner] = TopModel(owner, where, fn.name if fn else "", parts)
                    continue
                if self._dataset(dotted):
                    # a dataset's constructor builds its feature extractor (glow-tts-like
                    # ``TextMelLoader`` building a ``TacotronSTFT``): a data-pipeline module
                    # run in the data workers, not the model the script trains
                    continue
                target = self._def(dotted)
                if target is None and dotted.partition(".")[0] in self.local:
                    # a trainer class of the repository's, no module (XMem's ``XMemTrainer(
                    # config)``): the model its constructor builds is the one trained
                    self._trainer_model(file, ref, fid, dotted, out)
                    continue
                if (
                    target is None
                    or dotted.partition(".")[0] not in self.local
                    or target[0] is file  # the script's own function: its constructions count
                ):
                    continue
                self._hand(file, call, fid, target)
                self.trail = []
                cls = self.built(file, ref, fid)
                trail, self.trail = self.trail, None
                if cls is not None and cls in out:
                    ran.setdefault(file.path, cls)
                if cls is None or self._never_top(cls, out) or self._reloads(cls, target):
                    continue
                fn = file.function(fid)
                how = f"{file.text(ref, 60)} in {file.path}"
                if trail:
                    how += " → " + " → ".join(f"{t}()" for t in reversed(trail))
                parts = (("selected by", how), *self.parts_of(cls))
                out[cls] = TopModel(cls, file.where(call.line), fn.name if fn else "", parts)
                self.trails[out[cls]] = tuple(trail)
                ran.setdefault(file.path, cls)
        alternatives = self._branch_alternatives(skipped, out, ran)  # may say how ``out``'s run
        return [*out.values(), *alternatives]

    def _branch_alternatives(
        self,
        skipped: Sequence[tuple[ModelFile, int, int, str, str]],
        out: dict[str, TopModel],
        ran: Mapping[str, str],
    ) -> list[TopModel]:
        """The models an entry script builds in the branches its defaults (or its
        documented command) leave out, beside the one it builds in the branch they take
        (recognize-anything's ``if args.model_type == 'ram_plus': ram_plus(...) elif ...
        == 'ram': ram(...)`` with ``--model-type ram_plus``): each an alternative of that
        model, said so, never a free-standing class; their classes are not picked (what
        only they build is no part of the run: :attr:`_unconfigured`). The model that
        runs is said to be the branch the defaults take. Only where a model of the same
        script runs: with none, nothing is told."""
        found: dict[str, TopModel] = {}
        for file, ref, fid, dotted, off in skipped:
            chosen = out.get(ran.get(file.path, ""))
            if chosen is None:
                continue
            if dotted in self.classes:
                cls: str | None = dotted
            else:
                cls = self._class_builder(dotted)
                target = self._def(dotted) if cls is None else None
                if target is not None and dotted.partition(".")[0] in self.local:
                    cls = self.built(file, ref, fid)
            if cls is None or cls == chosen.cls or cls in found or self._never_top(cls, out):
                continue
            node = self.classes[cls]
            if not (node.children or node.layers):
                continue
            short = chosen.cls.rpartition(".")[2]
            fn = file.function(fid)
            why = f"an alternative to {short}: {file.text(ref, 60)}, {_only_if(off)}"
            parts = (("selected by", why), *self.parts_of(cls))
            where = file.where(file.exprs[ref].line)
            found[cls] = TopModel(cls, where, fn.name if fn else "", parts)
            self._unconfigured.add(cls)
        for cls in dict.fromkeys(ran[m.where.path] for m in found.values()):
            chosen = out[cls]  # the one that runs: the branch the defaults take
            if chosen.parts[:1] and chosen.parts[0][0] == "selected by":
                continue
            others = [
                f"{a.cls.rpartition('.')[2]} ({a.where})"
                for a in found.values()
                if ran[a.where.path] == cls
            ]
            how = f"the branch the defaults take; the others build {', '.join(others)}"
            out[cls] = replace(chosen, parts=(("selected by", how), *chosen.parts))
        return list(found.values())

    def _class_builder(self, dotted: str) -> str | None:
        """The repository's model class a script builds through a class-level builder it
        inherits or defines (Depth-Anything's ``DepthAnything.from_pretrained(...)``, from
        huggingface_hub's ``PyTorchModelHubMixin``; ``Model.from_config(cfg)``,
        ``Net.build(args)``): the call returns an instance of the class, so it builds it.
        None for any other call."""
        owner, _, method = dotted.rpartition(".")
        owner = self._class_of(owner) or owner
        node = self.classes.get(owner)
        if node is None or not _CLASS_BUILDER.match(method) or node.role in _NOT_TOP:
            return None
        return owner

    def _trainer_model(
        self, file: ModelFile, ref: int, fid: int, trainer: str, out: dict[str, TopModel]
    ) -> None:
        """The model a training script's trainer class builds in its constructor (XMem's
        train.py: ``XMemTrainer(config, ...)``, whose ``__init__`` wraps ``XMem(config)`` in
        ``DistributedDataParallel``): the first module class constructed there that builds
        parts or layers, no loss and no wrapper. Only a training script's trainer counts
        (an evaluation script's ``Evaluator`` builds the model to reload it)."""
        init = self._def(f"{trainer}.__init__")
        if init is None or not _trains(file.path):
            return
        tfile, tfid = init
        for tref, inner in tfile.facts.calls:
            if inner != tfid:
                continue
            cls = self.callee(tfile, tfile.exprs[tref])
            node = self.classes.get(cls or "")
            if (
                cls is None
                or node is None
                or self._never_top(cls, out)
                or not (node.children or node.layers)
            ):
                continue
            fn = file.function(fid)
            short = trainer.rpartition(".")[2]
            how = f"{file.text(ref, 60)} in {file.path} → {short}.__init__()"
            parts = (("selected by", how), *self.parts_of(cls))
            out[cls] = TopModel(cls, file.where(file.exprs[ref].line), fn.name if fn else "", parts)
            return

    def _dataset(self, dotted: str) -> bool:
        """Whether ``dotted`` is a repository class deriving from a torch dataset."""
        return self.hierarchy is not None and bool(
            DATASETS & self.hierarchy.torch_ancestors(dotted)
        )

    def _never_top(self, cls: str, out: dict[str, TopModel]) -> bool:
        """``cls`` is no (further) top model: already found, a role that is never one (a
        loss, a block...) or a wrapper (``DistributedDataParallel``, ``ModelEMA``)."""
        return (
            cls in out
            or self.classes[cls].role in _NOT_TOP
            or bool(_WRAPPER.search(cls.rpartition(".")[2]))
        )

    def _reloads(self, cls: str, target: tuple[ModelFile, int]) -> bool:
        """The builder fills a container module with checkpoints it loads (yolov9's
        ``attempt_load`` appending each ``torch.load``-ed model to an ``Ensemble(
        nn.ModuleList)`` to evaluate it): a trained model re-loaded, not a model built."""
        if self.hierarchy is None or not _CONTAINERS & self.hierarchy.torch_ancestors(cls):
            return False
        file, fid = target
        fn = file.function(fid)
        return fn is not None and any(
            use.api in _CHECKPOINT_LOADS
            for use in file.fa.uses  # the scan's torch uses, by the function they are in
            if use.function == fn.qualname or use.function.startswith(fn.qualname + ".")
        )

    def _constructed(
        self, file: ModelFile, ref: int, fid: int, cls: str, out: dict[str, TopModel]
    ) -> None:
        """A model class a training script constructs itself, no builder between (yolov9's
        train_dual.py: ``model = Model(cfg, ch=3, nc=nc)``) is what it trains: met in the
        script's order with its builder calls, so a later ``attempt_load(best)`` that
        evaluates the saved checkpoint does not come first."""
        node = self.classes[cls]
        fn = file.function(fid)
        if (
            not _trains(file.path)
            or self._never_top(cls, out)
            or not (node.children or node.layers)
            # a script that defines its network (llm.c's train_gpt2.py: ``Block.__init__``
            # building ``CausalSelfAttention``): a part built in another module class's
            # constructor or method is that class's part, not a model the script trains
            or self._model_method(file, fn, cls)
        ):
            return
        # no "selected by": the construction at ``where`` says it all (no builder, no name)
        parts = tuple(self.parts_of(cls))
        out[cls] = TopModel(cls, file.where(file.exprs[ref].line), fn.name if fn else "", parts)

    def _hand(self, file: ModelFile, call: Expr, fid: int, target: tuple[ModelFile, int]) -> None:
        """Record the names a script's call hands a builder's parameters (``""``: the first,
        which the records do not name) for :meth:`_argument`."""
        tfile, tfid = target
        params = tfile.functions[tfid].params or ()
        given: dict[str, tuple[str, str]] = {}
        for i, arg in enumerate(file.args(call)):
            key = self.registries.key(file, arg, fid)
            name = "" if i == 0 else (params[i - 1] if i - 1 < len(params) else None)
            if key is not None and name is not None:
                given[name] = key
        if given:
            self.arguments[(tfile.path, tfid)] = given

    def _injected_into(self, pick: TopModel, found: list[TopModel]) -> TopModel:
        """A script's pick (:meth:`_scripted`) with the parts the builder on its way hands
        the constructor (``assemble`` building ``QueryDetector(trunk, transformer)``), then
        those its constructor builds itself; that builder's entry is the same model, so it
        is dropped from ``found``."""
        trail = self.trails.get(pick, ())
        for model in [*found, *self.fed]:
            if model.cls == pick.cls and model.builder and model.builder in trail:
                if model in found:
                    found.remove(model)
                given = dict(model.parts)
                own = [(n, p) for n, p in pick.parts[1:] if n not in given]
                return replace(pick, parts=(pick.parts[0], *model.parts, *own))
        return pick

    def _with_builder_parts(self, pick: TopModel, found: list[TopModel]) -> TopModel:
        """A registry's pick whose constructor takes its parts in (``DeepLabV3(backbone,
        classifier)``) has the parts the builder on its way injects (``_segm_mobilenet``
        reached from ``deeplabv3plus_mobilenet``); that builder's entry is the same model,
        so it is dropped from ``found``."""
        if any(name not in ("selected by", "alternatives", ALSO_BUILDS) for name, _ in pick.parts):
            return pick
        trail = self.trails.get(pick, ())
        for model in [*found, *self.fed]:
            if model.cls == pick.cls and model.builder and model.builder in trail:
                if model in found:
                    found.remove(model)
                how = pick.parts[0][1]
                if not how.endswith(f" → {model.builder}()"):
                    how += f" → {model.builder}()"
                # the layers its constructor builds itself after the parts handed in
                given = {name for name, _ in model.parts}
                own = [(n, p) for n, p in pick.parts[1:] if n not in given]
                return replace(pick, parts=(("selected by", how), *model.parts, *own))
        return pick

    def _in_self_test(self, model: TopModel) -> bool:
        """The construction is in the ``if __name__ == "__main__":`` block of a library
        module: one other files import, or a package's module trying out a class it
        defines (a training script in a package builds classes it imports)."""
        block = self.self_tests.get(model.where.path)
        if block is None or not block[0] <= model.where.line <= block[1]:
            return False
        imported, in_package = block[2], block[3]
        defined = self.classes[model.cls].where.path if model.cls in self.classes else ""
        return imported or (in_package and defined == model.where.path)

    def _package_export(
        self, tests: Sequence[TopModel], documented_only: bool = False
    ) -> TopModel | None:
        """The root module class the repository's top package exports first (``from
        denoising_diffusion_pytorch import GaussianDiffusion``: its ``__init__.py`` imports
        it first), with its parts; a part its constructor takes as a parameter is named as
        the self-tests pass it to a class of the same name."""
        parents = {child for m in self.classes.values() for child in m.children}
        packages = sorted(
            (f for f in self.files if f.path.endswith("__init__.py") and not self.skip(f.path)),
            key=lambda f: (f.module.count("."), f.path),
        )
        tried = {m.cls.rpartition(".")[2] for m in tests}
        for file in packages[:1]:
            exported = {
                node.cls: node
                for target in file.imports.values()
                if (node := self.classes.get(self._class_of(target) or "")) is not None
                and node.cls not in parents
                and node.role not in _NOT_TOP
            }
            shown = self._documented_top(file, exported)
            if shown is not None or documented_only:
                return shown
            # the class the self-tests try out (by name), then the one the package's
            # namesake module defines (denoising_diffusion_pytorch/denoising_diffusion_
            # pytorch.py), then the first defined
            package = file.module.rpartition(".")[2]
            for node in sorted(
                exported.values(),
                key=lambda n: (
                    n.cls.rpartition(".")[2] not in tried,
                    n.cls.rpartition(".")[0].rpartition(".")[2] != package,
                    n.where.path,
                    n.where.line,
                ),
            ):
                parts = dict(self.parts_of(node.cls))
                short = node.cls.rpartition(".")[2]
                for test in tests:
                    if test.cls.rpartition(".")[2] != short:
                        continue
                    for name, part in test.parts:
                        if name not in parts and name not in ("selected by", ALSO_BUILT_BY):
                            parts[name] = f"{part}, as the self-test at {test.where} passes it"
                why = (
                    f"the model the package exports ({file.path}); no script builds one, "
                    "its modules' __main__ self-tests try models out"
                )
                return TopModel(node.cls, node.where, "", (("selected by", why), *parts.items()))
        return None

    def _documented_top(
        self, package: ModelFile, exported: Mapping[str, ModuleNode]
    ) -> TopModel | None:
        """The module class of the package that its documentation's Python examples build
        and hand to a trainer they build too (``Trainer(diffusion, ...)`` after
        ``diffusion = GaussianDiffusion(model, ...)``), else the first they build that they
        hand to no other module class; its parts as the examples hand them
        (``model`` <- ``Unet``). None where the examples build none of its classes."""
        from apiscan.review.commands import documented_builds

        builds = [b for b in documented_builds(self.root) if b.module == package.module]
        by_name = {node.cls.rpartition(".")[2]: node for node in exported.values()}
        models = [b for b in builds if b.name in by_name]
        if not models:
            return None
        trained = {name for b in builds if b.name not in by_name for _, _, name in b.passed}
        inner = {name for b in models for _, _, name in b.passed}
        pick = next((b for b in models if b.name in trained), None) or next(
            (b for b in models if b.name not in inner), None
        )
        if pick is None:
            return None
        node = by_name[pick.name]
        params = self._init_params(node.cls)
        parts = dict(self.parts_of(node.cls))
        for slot, _, name in pick.passed:
            if isinstance(slot, int):
                if slot >= len(params):
                    continue
                slot = params[slot]
            part = by_name.get(name)
            shown = f"{name} ({part.where})" if part is not None else name
            parts[slot] = f"{shown}, as the documentation's example at {pick.where} passes it"
        why = (
            f"{DOCUMENTED_BUILD} ({pick.where}: {pick.name}(...)); "
            "no script of the repository builds one"
        )
        return TopModel(node.cls, node.where, "", (("selected by", why), *parts.items()))

    def _init_params(self, cls: str) -> list[str]:
        """The positional parameters of a class's ``__init__`` after ``self``, as the scan
        recorded them ([] when not known)."""
        file = self._class_file(cls)
        values = file.fa.syntax.values if file is not None and file.fa.syntax else None
        if values is None:
            return []
        qual = f"{cls.rpartition('.')[2]}.__init__"
        d = next((d for d in values.defs if d.qual == qual), None)
        return [name for name, _ in d.params][1:] if d is not None else []

    def _passed(
        self, file: ModelFile, call: Expr, fid: int, parts: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """Parts a constructor builds from what it is handed (``base_encoder(...), passed
        in``) say what this construction hands it (moco-v3's ``partial(vits.__dict__[
        args.arch], ...)``)."""
        cls = self.callee(file, call) or ""
        given = {self._parameter(cls, i): arg for i, arg in enumerate(file.args(call))}
        out = []
        for name, part in parts:
            param = part.partition("(...), passed in")
            if param[1] and not param[2] and param[0] in given:
                arg = given[param[0]]
                text = file.text(arg, 60)  # "" where the record keeps no source
                part = f"{part}: {text}" if text else part
                model = self._handed_model(file, arg, fid)
                if model is not None:  # what it builds, then how it is handed in
                    shown, _, how = model.partition(" (")
                    part = f"{shown} ({f'{how[:-1]}; ' if how else ''}{part})"
            out.append((name, part))
        return out

    def _package_choices(self) -> list[TopModel]:
        """The root module classes a package's ``__init__.py`` exports, when a training
        script imports that package (``import models``) and at least two such models are
        exported: one of them is picked at run time, by a name the code does not hold."""
        parents = {child for m in self.classes.values() for child in m.children}
        for script in self.files:
            if self.skip(script.path) or not _trains(script.path):
                continue
            for target in sorted(set(script.imports.values())):
                package = self.by_module.get(target)
                if package is None or not package.path.endswith("__init__.py"):
                    continue
                exported = [
                    node
                    for name in package.imports.values()
                    if (node := self.classes.get(self._class_of(name) or "")) is not None
                    and node.cls not in parents
                    and node.role not in _NOT_TOP
                    and (node.children or node.layers)
                ]
                exported = list({n.cls: n for n in exported}.values())
                if len(exported) < 2:
                    continue
                why = (
                    f"a name given at run time: {script.path} imports {package.path}, "
                    f"which exports {len(exported)} models"
                )
                picked = self._configured(script, exported)
                self.configured = picked is not None
                if picked is not None:  # the config's default first, the others after it
                    node, how = picked
                    exported = [node, *(n for n in exported if n is not node)]
                    alternative = f"an alternative to {node.cls.rpartition('.')[2]}: {why}"
                    why = f"{how}; {script.path} imports {package.path}, which exports "
                    why += f"{len(exported)} models: the others are alternatives"
                return [
                    TopModel(
                        n.cls,
                        n.where,
                        "",
                        (
                            ("selected by", why if i == 0 or picked is None else alternative),
                            *self.parts_of(n.cls),
                        ),
                    )
                    for i, n in enumerate(exported)
                ]
        return []

    def _configured(
        self, script: ModelFile, exported: Sequence[ModuleNode]
    ) -> tuple[ModuleNode, str] | None:
        """The exported model a JSON config the script loads names by default (``"arch":
        {"type": "PSPNet"}``), with how: a value under a key naming the model (``arch``,
        ``model``, ``type``, ``name``) first, else the first value naming one."""
        by_name = {n.cls.rpartition(".")[2]: n for n in exported}
        named = [
            (path, key, value)
            for path, key, value in json_config_names(
                self.root, script, self.argparse.by_path.get(script.path, ())
            )
            if value in by_name
        ]
        named.sort(key=lambda found: not _MODEL_KEYS & set(found[1].lower().split(".")))
        if not named:
            return None
        path, key, value = named[0]
        return by_name[value], f"{path}: {key} = {value!r}, the config {script.path} loads"

    def _class_of(self, dotted: str) -> str | None:
        """The module class a dotted name stands for, through the repository's re-exports."""
        if dotted in self.classes or self.hierarchy is None:
            return dotted
        return self.hierarchy.resolve(dotted)

    def _by_name(self, file: ModelFile, ref: int, fid: int) -> TopModel | None:
        """A model a registry builds by name (see :mod:`apiscan.review.registry`), with the
        name it takes by default and the parts its constructor builds."""
        lookup = self.registries.lookup(file, ref, fid)
        head = file.expr(file.exprs[ref].refs[0]) if file.exprs[ref].refs else None
        if lookup is None and head is not None and head.kind == "name":
            # ``Detector = MODEL.VoteNet`` then ``Detector(...)``: the binding's look-up
            lookup = self._bound_attr(file, head, fid, 0)
        if lookup is None:
            return None
        self.trail = []
        cls = self._returned(lookup.target, 0)
        trail, self.trail = self.trail, None
        if cls is None:  # a registered function returning a third-party class (DeiT's)
            return self._by_name_foreign(file, ref, fid, lookup)
        if self.classes[cls].role in _NOT_TOP:
            return None
        how = lookup.how
        if lookup.target != cls:  # a registered function: the variant it builds
            how += f" → {lookup.target.rpartition('.')[2]}()"
        if lookup.registered:
            others = self._registered_alternatives(lookup, cls)
        else:
            others = self._alternatives(lookup)
        parts = (("selected by", how), *self.parts_of(cls), *others)
        if self.yacs is not None and self.yacs.chosen is not None:
            # the run's YAML names the model: the registry's others are another config's
            for _, target in lookup.alternatives:
                other = self._returned(target, 0)
                if other is not None and other != cls:
                    self._unconfigured.add(other)
        fn = file.function(fid)
        model = TopModel(cls, file.where(file.exprs[ref].line), fn.name if fn else "", parts)
        self.trails[model] = tuple(trail)
        return model

    def _class_factory(self, file: ModelFile, call: Expr, fid: int) -> TopModel | None:
        """A model class picked into a variable and built from a config dict (open_clip's
        ``create_model``: ``model_class = CLIP`` in the last ``else`` of branches on the
        model config's keys, ``CoCa``, ``CustomTextCLIP``... in the others, then
        ``model_class(**model_cfg)``): every assignment of the variable in the def names a
        repository model class, and the call passes no positional argument (the dict is the
        constructor's config, not beside models handed in: a sequence generator's
        ``seq_gen_cls(models, tgt_dict, **kwargs)``). The class of the last assignment (the
        fallback a config without the keys the tests look for takes) is the model, with its
        constructor's parts and the other classes as alternatives."""
        head = file.expr(call.refs[0]) if call.refs else None
        fn = file.function(fid)
        if head is None or head.kind != "name" or fn is None or None not in call.keywords:
            return None
        if file.args(call):  # the dict is not the whole config (a generator given models)
            return None
        assigns = sorted(
            (a for a in file.assigns_in(fid) if head.value in a.names),
            key=lambda a: a.line,
        )
        picked: list[str] = []
        for a in assigns:
            value = file.expr(a.value) if a.value >= 0 else None
            dotted = self.resolve(file, file.chain(a.value)) if value is not None else None
            if dotted not in self.classes or self.classes[dotted].role in _NOT_TOP:
                return None
            picked.append(dotted)
        if not picked:
            return None
        cls = picked[-1]
        others = [c.rpartition(".")[2] for c in dict.fromkeys(picked[:-1]) if c != cls]
        why = (
            f"{head.value} = {cls.rpartition('.')[2]}, the fallback of {fn.name}'s branches on "
            "its config, built from a config dict"
        )
        parts = [("selected by", why), *self.parts_of(cls)]
        if others:
            parts.append(("alternatives", ", ".join(others)))
        return TopModel(cls, file.where(call.line), fn.name, tuple(parts))

    def registered_picks(self) -> set[str]:
        """The defs and classes a ``@register_model`` pick (or a pick from a module's
        namespace) by a known name takes anywhere in the repository (every script's
        ``create_model(args.model)`` with its own default):
        a model one script trains is no alternative because the entry's name is another."""
        out: set[str] = set()
        for file in self.files:
            for ref, fid in file.facts.calls:
                func = file.exprs[file.exprs[ref].refs[0]]
                by_name = func.kind in ("name", "attr") and func.value in BY_NAME_FUNCTIONS
                if not by_name and func.kind != "sub":  # ``module.__dict__[key](...)`` too
                    continue
                lookup = self.registries.lookup(file, ref, fid)
                if lookup is not None and lookup.registered:
                    out.add(lookup.target)
                    out.add(self._returned(lookup.target, 0) or lookup.target)
        return out

    def _registered_alternatives(self, lookup: Lookup, cls: str) -> list[tuple[str, str]]:
        """The models the other names of a ``@register_model`` table build, the run's name
        known (``create_model(args.model)`` with ``--model convnext_tiny``): ConvNeXt's
        ``convnext_isotropic_small`` ... building ``ConvNeXtIsotropic`` beside the picked
        ``convnext_tiny``. The run builds none of them, nor runs the functions registered
        for other sizes of the picked model: all are left out (:attr:`_unconfigured`: no
        recipe rows, no work: :attr:`registered_out`), the other classes shown with the
        names that build them."""
        self.registered_in.update((lookup.target, cls))
        by_class: dict[str, list[str]] = {}
        for key, target in lookup.alternatives:
            other = self._returned(target, 0)
            if other is None:
                continue
            # the function registered under another name does not run, whatever it builds
            self.registered_out.add(target)
            if other not in self.classes:
                continue  # a third-party model: no class of the repository to leave out
            if other != cls:
                by_class.setdefault(other, []).append(key)
        self.registered_out.update(by_class)
        shown = []
        for other, keys in list(by_class.items())[:_BUILDER_SHOWN]:
            names = ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
            shown.append(f"{other.rpartition('.')[2]} ({names})")
        more = len(by_class) - _BUILDER_SHOWN
        text = ", ".join(shown) + (f" and {more} more models" if more > 0 else "")
        return [("alternatives", text)] if shown else []

    def _alternatives(self, lookup: Lookup) -> list[tuple[str, str]]:
        """The other models the look-up's key picks (HRNet's ``PoseResNet`` from
        ``models.pose_resnet.get_pose_net`` beside ``pose_hrnet``), each with how many of the
        YAML configs name it."""
        shown = []
        yacs = self.yacs
        for key, target in lookup.alternatives:
            cls = self._returned(target, 0)
            if cls is None:
                continue
            module, _, name = target.rpartition(".")
            entry = f"{cls.rpartition('.')[2]} ({module.rpartition('.')[2]}.{name}"
            if yacs is not None and yacs.flat:
                named = sum(
                    1
                    for flat in yacs.flat.values()
                    if any(
                        k.endswith("NAME") and v.text.strip("'\"") == key for k, v in flat.items()
                    )
                )
                entry += f"; named by {named} of {len(yacs.flat)} YAML configs"
            shown.append(entry + ")")
        return [("alternatives", ", ".join(shown))] if shown else []

    def _by_name_foreign(
        self, file: ModelFile, ref: int, fid: int, lookup: Lookup
    ) -> TopModel | None:
        """A registered function that returns a third-party model class built with its
        arguments (DeiT's ``@register_model def deit_base_patch16_224`` returning timm's
        ``VisionTransformer(patch_size=16, embed_dim=768, ...)``): that class is the model,
        shown with the constant arguments the function passes and the functions registered
        beside it (the other sizes a ``--model`` name picks)."""
        found = self._def(lookup.target)
        if found is None:
            return None
        dfile, dfid = found
        for ret in dfile.returns_in(dfid):
            built = self._foreign_call(dfile, ret, dfid)
            if built is None:
                continue
            cls, call = built
            fn = file.function(fid)
            name = lookup.target.rpartition(".")[2]
            parts: list[tuple[str, str]] = [
                ("selected by", f"{lookup.how} → {name}()"),
                (THIRD_PARTY, f"{cls}({', '.join(_constant_keywords(call))})"),
            ]
            others = self.registries.registered_beside(lookup.target)
            shown = ", ".join(others[:_BUILDER_SHOWN])
            more = len(others) - _BUILDER_SHOWN
            shown += f" and {more} more" if more > 0 else ""
            # the repository's own models that other names of the table build (DeiT III's
            # ``vit_models`` beside the timm ViT the picked name returns): left out as
            # beside a pick of the repository's own class
            own = self._registered_alternatives(lookup, cls)
            if own:
                shown = "; ".join(filter(None, (shown, own[0][1])))
            if shown:
                parts.append(("alternatives", shown))
            where = file.where(file.exprs[ref].line)
            return TopModel(cls, where, fn.name if fn else "", tuple(parts))
        return None

    def _foreign_call(self, file: ModelFile, ref: int, fid: int) -> tuple[str, Expr] | None:
        """(the third-party class, its construction) the returned expression ``ref`` is: a
        construction, or a local name bound to one above the ``return``."""
        expr = file.expr(ref)
        if expr is not None and expr.kind == "name":
            bound = [
                a
                for a in file.assigns_in(fid)
                if a.single and a.names[0] == expr.value and a.line <= expr.line
            ]
            expr = file.expr(max(bound, key=lambda a: a.line).value) if bound else None
        if expr is None or expr.kind != "call":
            return None
        dotted = self.callee(file, expr)
        if dotted is None or dotted in self.classes:
            return None
        top, tail = dotted.partition(".")[0], dotted.rpartition(".")[2]
        if (
            "." not in dotted
            or top in self.local
            or top == "torch"
            or top in sys.stdlib_module_names
            or not tail[:1].isupper()
        ):
            return None
        return dotted, expr

    def _roots(self, apart: bool = False) -> list[TopModel]:
        """When no builder injects parts and no registry picks the model: each root module
        (built by no other module, not a loss) that a function constructs, with its parts;
        a model's own ``__init__`` never counts, nor files counted apart unless ``apart``
        (then only classes defined in the files that are ported). A class only classes of
        files counted apart build is a root (litgpt's LoRA ``GPT``, built by a tutorial's
        ``LitLLM`` and by ``finetune/lora.py``)."""
        parents = {
            child
            for m in self.classes.values()
            if apart or not self.skip(m.where.path)
            for child in m.children
        }
        #: files defining module classes: a leaf module one of them builds (DPT's
        #: ``get_readout_oper`` building a ``ProjectReadout``) is a piece, not a model
        libraries = {m.where.path for m in self.classes.values()}
        found: dict[str, TopModel] = {}
        #: every builder function of a root, in the order met (retinanet's resnet18 ... 152)
        builders: dict[str, list[str]] = {}
        #: the files whose builder functions build each root (RITM's 22 model scripts, each
        #: an ``init_model`` the training script loads by path)
        scripts: dict[str, set[str]] = {}
        for file in self.files:
            if self.skip(file.path) and not apart:
                continue
            for ref, fid in file.facts.calls:
                call = file.exprs[ref]
                dotted = self.constructed(file, call, fid)
                node = self.classes.get(dotted or "")
                fn = file.function(fid)
                if (
                    node is None
                    or node.cls in parents
                    or node.role in _NOT_TOP
                    # a root built of torch layers alone is a model too when a script builds
                    # it (CRAFT's RefineNet, run after the main network; moco-v3's MoCo_ViT,
                    # its encoders injected), or when the file defining it trains it
                    # (barlowtwins' main.py: ``BarlowTwins``, a torchvision ResNet-50 and a
                    # projector of torch layers, built beside its LARS and training loop)
                    or not (
                        node.children
                        or (node.layers and (file.path not in libraries or _trains_here(file)))
                    )
                    or (fn is not None and fn.method and fn.name == "__init__")
                    or (apart and self.skip(node.where.path))
                ):
                    continue
                if fn is not None and not fn.method:  # a module-level builder function
                    builders.setdefault(node.cls, []).append(fn.name)
                    scripts.setdefault(node.cls, set()).add(file.path)
                model = TopModel(
                    node.cls,
                    file.where(call.line),
                    fn.name if fn else "",
                    tuple(self._passed(file, call, fid, self.parts_of(node.cls))),
                )
                # the first construction met, unless a training script's or one outside a
                # library module's self-test comes later (CRAFT's craft.py tries CRAFT out
                # under ``__main__``; test.py is the script that runs it)
                if node.cls in found and not (
                    _trains(file.path, fn.name if fn else "")
                    or (self._in_self_test(found[node.cls]) and not self._in_self_test(model))
                ):
                    continue
                found[node.cls] = model
        for cls, model in found.items():
            # one entry per root, but a depth or size picked among several builders is a choice
            # the lead should see, not hidden behind the first builder met
            others = [b for b in dict.fromkeys(builders.get(cls, ())) if b != model.builder]
            elsewhere = len(scripts.get(cls, set()) - {model.where.path})
            if elsewhere > 1 and len(scripts) > 1:  # one of several models picked by file
                others.append(f"{model.builder or 'the module'} in {elsewhere} other files")
            if others:
                also = (ALSO_BUILT_BY, ", ".join(others))
                found[cls] = replace(model, parts=(*model.parts, also))
        self.built_in.update({cls: len(paths) for cls, paths in scripts.items()})
        return list(found.values())


def tree_roots(
    modules: Sequence[ModuleNode],
    tops: Sequence[TopModel],
    apart: Iterable[tuple[str, str]],
    alternatives: Iterable[str] = (),
) -> tuple[list[ModuleNode], list[ModuleNode]]:
    """(the roots of the model's tree, the roots listed apart), in ``modules``' order.

    Classes defined in files the review counts apart (``apart``: the review's (path, why)
    listing: what is not ported with the model) are no roots beside the model: YOLOP's
    ``lib/models/common2.py`` and ``lib/core/activations.py``, which nothing imports, and
    ``export_onnx.py``'s own copy of the model; the reports list them apart, each with why
    its file is counted apart (the review's own reason, whatever it is: timm's
    ``vision_transformer.py`` reads "adapter for jax" there as everywhere in the review).
    What only they build is a root of the model's tree when its own file is ported (a
    detectron2 adapter wrapping the detector the training builds), and a top model stays a
    root wherever it is defined (MODNet's, built only by its demos), and beside the
    ``alternatives`` the run's config leaves out when only they build it (an unpicked
    wrapper building the picked model as its backbone)."""
    paths = {path for path, _ in apart}
    models = {t.cls for t in tops}
    counted = {m.cls for m in modules if m.where.path in paths and m.cls not in models}
    builders: dict[str, set[str]] = {}
    for m in modules:
        for child in m.children:
            builders.setdefault(child, set()).add(m.cls)
    others = set(alternatives)
    roots = [
        m
        for m in modules
        if m.cls not in counted
        and not {
            b
            for b in builders.get(m.cls, set()) - counted
            if not (m.cls in models and b in others)
            # an alternative a class of the run builds in a branch the config does not take
            # (a segmentation model's unpicked backbones) heads the alternatives' own tree
            and not (m.cls in others and b not in others)
        }
    ]
    unreached = [m for m in modules if m.cls in counted and not builders.get(m.cls)]
    return roots, unreached


def tree_children(node: ModuleNode, alternatives: Collection[str]) -> tuple[str, ...]:
    """The parts a tree shows under ``node``: not the ``alternatives`` the run's config
    leaves out when ``node`` is the run's own (DeepLab built with the default ResNet
    backbone: its Xception, DRN and MobileNet branches are listed with the alternatives,
    :func:`tree_roots`, not as its parts)."""
    if node.cls in alternatives:
        return tuple(node.children)
    return tuple(c for c in node.children if c not in alternatives)


def _constant_keywords(call: Expr, limit: int = 8) -> list[str]:
    """``name=value`` for the keyword arguments of ``call`` given as literals (the sizes of
    a third-party model: ``patch_size=16, embed_dim=768, depth=12, num_heads=12``), read
    from the call's value record."""
    return [
        f"{k.name}={k.target.text}"
        for k in call.node.keywords
        if k.name and k.target.literal and len(k.target.text) <= 20
    ][:limit]


def config_value(text: str) -> object:
    """The value a config key's text stands for (``True``, ``0.5``, ``'x'``; YAML's
    ``true``/``false``/``null``; an unquoted word is the string), so a test compares and
    tests it as Python does."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    words = {"true": True, "false": False, "null": None, "~": None, "": None}
    stripped = text.strip()
    return words[stripped.lower()] if stripped.lower() in words else stripped.strip("'\"")


def picked_imports(file: ModelFile, options: Iterable[OptionDefault]) -> dict[str, str]:
    """Local name -> the dotted name the import the file's argparse defaults pick binds,
    for a name imported in several ``if``/``elif`` branches (stylegan2-pytorch's train.py:
    ``if args.arch == 'stylegan2': from model import Generator`` / ``elif args.arch ==
    'swagan': from swagan import Generator`` with ``--arch`` defaulting to 'stylegan2'
    builds model.Generator, not the one imported last). The tests are evaluated by the
    recipe's evaluator (:func:`~apiscan.review.evaluate.holds`), a name ``args.X`` valued by
    the file's ``add_argument("--X", default=...)`` (``options``, its rows of the review's
    argparse table); a name no branch is known to pick keeps
    the plain import table's binding."""
    by_name: dict[str, list[tuple[str, tuple[tuple[ValueExpr, bool], ...]]]] = {}
    for found in file.facts.branch_imports:
        module = file.from_module(found.level, found.module) if found.level else found.module
        by_name.setdefault(found.local, []).append((f"{module}.{found.name}", found.tests))
    if not by_name:
        return {}
    defaults = {o.dest: o.text for o in options if o.text is not None}

    def lookup(expr: ValueExpr, depth: int) -> object:
        if expr.kind == "Name" and expr.name == "__name__":
            return "__main__"  # the script is run: its ``__main__`` block holds the branches
        chain = expr.chain() if expr.kind == "Attribute" else None
        if chain is None or len(chain) != 2 or chain[1] not in defaults:
            return UNKNOWN
        return defaults[chain[1]]

    out: dict[str, str] = {}
    for local, choices in by_name.items():
        if len({dotted for dotted, _ in choices}) < 2:
            continue
        taken = []
        for dotted, tests in choices:
            values = [(holds(test, lookup), in_body) for test, in_body in tests]
            if all(v is not UNKNOWN and bool(v) == in_body for v, in_body in values):
                taken.append(dotted)
        if len(set(taken)) == 1:
            out[local] = taken[0]
    return out


#: The part of a model built from a YAML file's layers (:func:`_yaml_parts`).
YAML_PARTS = "from the model YAML the constructor reads"


def _yaml_parts(file: ModelFile, name: str) -> list[tuple[str, str]]:
    """A constructor that reads a YAML file and hands what it read to a function of the
    repository (yolov9's ``DetectionModel``: ``self.yaml = yaml.safe_load(f)``, then
    ``self.model, self.save = parse_model(deepcopy(self.yaml), ch=[ch])``): its parts are
    the YAML's layers, built by that function (read from the scan's value records)."""
    values = file.fa.syntax.values if file.fa.syntax is not None else None
    if values is None:
        return []
    init = next((i for i, d in enumerate(values.defs) if d.qual == f"{name}.__init__"), -1)
    calls = [c.expr for c in values.calls if c.function == init >= 0]
    callees = [c.parts[0].text if c.parts else "" for c in calls]
    if not any(callee.startswith("yaml.") and "load" in callee for callee in callees):
        return []
    for call, callee in zip(calls, callees, strict=True):
        if callee.isidentifier() and callee in file.defs and "yaml" in call.text[len(callee) :]:
            return [("parts", f"{YAML_PARTS}, by {call.text}")]
    return []


#: A function that builds an object from its dotted name (dnnlib's
#: ``construct_class_by_name``, ``call_func_by_name``; hydra's ``instantiate``).
#: Words of a class a by-name builder constructs that say it processes data, not a model.
_DATA_WORDS = frozenset({"augment", "augmentation", "transform", "transforms"})
BY_NAME_BUILDER = re.compile(r"\w+_by_name|instantiate")


def class_name_entries(expr: ValueExpr) -> Iterator[tuple[int, str]]:
    """(line, string) of each ``class_name='a.b.C'`` keyword and ``{'class_name': 'a.b.C'}``
    entry in a call's value expression, nested calls and dicts included."""
    todo = [expr]
    while todo:
        node = todo.pop()
        if node.kind == "keyword" and node.name == "class_name" and node.parts:
            value = node.parts[0]
            if isinstance(value.value, str) and value.literal:
                yield value.line, value.value
        if node.kind == "Dict" and node.keys:  # its parts: the keys written, then the values
            for key, value in zip(node.keys, node.parts[-len(node.keys) :], strict=False):
                if key == "class_name" and isinstance(value.value, str) and value.literal:
                    yield value.line, value.value
        todo.extend(node.parts)


def _one_per_class(shown: list[str]) -> list[str]:
    """One entry per class, its constructions in source order: ``ResNet (models.resnet50(
    ...) or models.resnet101(...))`` for a depth chosen in branches."""
    vias: dict[str, list[str]] = {}
    for entry in shown:
        cls, sep, via = entry.partition(" (")
        vias.setdefault(cls if sep else entry, []).append(via[:-1] if sep else "")
    return [
        f"{cls} ({' or '.join(v for v in ways if v)})" if any(ways) else cls
        for cls, ways in vias.items()
    ]


def _within(parts: list[tuple[str, str]], limit: int) -> list[tuple[str, str]]:
    """At most ``limit`` parts, none dropped: attributes holding the same part first share
    one entry (RetinaFace's ``ssh1, ssh2, ssh3``: ``SSH``), then what is left over is named
    in the last entry, :data:`ALSO_BUILDS` (its third head, built by a helper, was cut)."""
    if len(parts) <= limit:
        return parts
    shared: dict[str, list[str]] = {}
    for attr, part in parts:
        if attr != ALSO_BUILDS:
            shared.setdefault(part, []).append(attr)
    merged = [(", ".join(attrs), part) for part, attrs in shared.items()]
    merged += [(attr, part) for attr, part in parts if attr == ALSO_BUILDS]
    if len(merged) <= limit:
        return merged
    rest: list[str] = []
    for _, part in merged[limit - 1 :]:
        for piece in part.rpartition(" → ")[2].split(", "):
            if piece and piece not in rest:
                rest.append(piece)
    return [*merged[: limit - 1], (ALSO_BUILDS, ", ".join(rest))]


def _only_if(off: str) -> str:
    """What leaves a construction out (:func:`~apiscan.review.work.string_choices`'
    ``main() only if args.x == 'a'``, ``build()`` of a function the defaults never run)
    as a clause: ``only if args.x == 'a'``, ``in build(), which the defaults do not run``."""
    if off.startswith("only if "):
        return off
    if " only if " in off:
        return "only if " + off.partition(" only if ")[2]
    return f"in {off}, which the defaults do not run"


def _wraps_one(model: TopModel) -> bool:
    """A wrapper of whatever model it is handed: named so (:data:`_WRAPPER`) and built
    around one part. DINO's MultiCropWrapper(backbone, head) is built of two: the model."""
    parts = [
        name
        for name, _ in model.parts
        if name not in ("selected by", "extends", ALSO_BUILT_BY, ALSO_BUILDS)
    ]
    return bool(_WRAPPER.search(model.cls.rpartition(".")[2])) and len(parts) <= 1


def _entry_name(path: str) -> bool:
    """A script named as an entry point (main.py, train.py, run_*.py)."""
    name = PurePosixPath(path).stem
    return name in ("main", "run") or name.startswith(("train", "main_", "run_"))


#: Class-level builders that return an instance of their class (``from_pretrained``,
#: ``from_config``, ``build``, ``create``, ``load_from_checkpoint``).
_CLASS_BUILDER = re.compile(r"^(?:from_\w+|build(?:_model)?|create(?:_model)?|load_from_\w+)$")


def _constructed_not_alternatives(
    tops: Sequence[TopModel], constructed: Collection[str]
) -> tuple[TopModel, ...]:
    """``tops`` with the classes of ``constructed`` (built by a ported script itself) taken
    out of each model's ``alternatives`` entry (``SRVGGNetCompact (registered, named by no
    option file)``), the entry dropped when nothing is left."""
    names = {c.rpartition(".")[2] for c in constructed}
    if not names:
        return tuple(tops)
    out = []
    for m in tops:
        parts = []
        for name, part in m.parts:
            if name == "alternatives":
                # entries split at the commas outside their parentheses
                entries = re.split(r", (?![^()]*\))", part)
                kept = [a for a in entries if a.partition(" (")[0] not in names]
                if not kept:
                    continue
                part = ", ".join(kept)
            parts.append((name, part))
        out.append(replace(m, parts=tuple(parts)))
    return tuple(out)


def _trains_here(file: ModelFile) -> bool:
    """The file itself runs a training step (an optimizer, a backward pass): what it
    builds is the model it trains, not a piece of a library."""
    return any(trains(u.api) for u in file.fa.uses)


def _trains(path: str, builder: str = "") -> bool:
    """A training script's construction is the one a reader looks for first."""
    return "train" in PurePosixPath(path).name or "train" in builder


def top_models(
    analyses: Sequence[FileAnalysis],
    modules: Sequence[ModuleNode],
    skip: Callable[[str], str],
    hierarchy: Hierarchy | None = None,
    root: Path | None = None,
    readings: Readings | None = None,
    not_built: dict[str, tuple[str, str]] | None = None,
    unchosen: Callable[[str, int], str] | None = None,
    injected: dict[str, set[str]] | None = None,
    not_picked: set[str] | None = None,
    built_under: dict[str, tuple[str, str]] | None = None,
    tables: dict[str, set[str]] | None = None,
    injected_at: dict[tuple[str, str], set[tuple[str, int]]] | None = None,
) -> tuple[TopModel, ...]:
    """The models builders construct with parts injected (``skip(path)`` is non-empty for
    files counted apart: a hub file or an adapter builds the same model again); ``root``,
    the repository's directory, for the JSON configs that name a model; ``readings``, the
    review's (its YAML configs read once), read here when not given; ``unchosen(path,
    line)``, non-empty for a call the string-keyed branches the defaults take leave out
    (:func:`apiscan.review.work.string_choices`, the work items' own reading): a builder's
    branch it leaves out is no alternative of a part. ``not_built`` is filled with the
    classes a part's builder builds only in a branch the chosen config skips (class -> (the
    test, why it fails)), for the files those branches alone reach; ``injected`` with the
    module classes constructions hand each module class's constructor (its parts, for
    :func:`with_top_roles`); ``not_picked`` with the module classes a pick by a value
    known by default leaves out (a table's other entries, a per-branch builder's other
    classes), whose initialisers the recipe does not show; ``built_under`` with the classes
    a builder builds only under config tests the chosen config passes (class -> (the test,
    why it holds)): the configuration decided those parts are built; ``tables`` with each
    registry's registered defs (registry -> their dotted names)."""
    builders = _Builders(analyses, modules, skip, hierarchy, root, readings, unchosen)
    tops = builders.top_models()
    if not_built is not None:
        not_built.update(builders.not_built)
    if built_under is not None:
        builders._unbuilt()
        built_under.update(builders.built_under)
    if injected is not None:
        injected.update(builders.injected)
    if injected_at is not None:  # where each was handed (the tree drops left-out ones)
        injected_at.update(builders.injected_at)
    tops = tuple(
        replace(m, parts=(*m.parts, ("alternatives", builders.table_picks[m.cls])))
        if m.cls in builders.table_picks
        and m.parts
        and m.parts[0][0] == "selected by"
        and all(name != "alternatives" for name, _ in m.parts)
        else m
        for m in tops
    )
    # a registered network no option file names that a ported script constructs itself
    # (Real-ESRGAN's inference script building the compact network): run by that script,
    # no alternative of the trained one
    # (one a pick selects, its alternatives included, is the pick's to tell)
    constructed = {
        m.cls
        for m in tops
        if m.builder
        and not skip(m.where.path)
        and all(name != "selected by" for name, _ in m.parts)
    }
    tops = _constructed_not_alternatives(tops, constructed & builders._unconfigured)
    if not_picked is not None:
        # the models shown and the parts their constructions are handed (FPN's
        # ``bottom_up``, built by the other entry of the table the picked builder calls):
        # built by the run, whatever other entry of a table also names them
        chosen = {m.cls for m in tops}
        parts: set[str] = set()
        todo = list(chosen)
        while todo:
            for part in builders.injected.get(todo.pop(), ()):
                if part not in chosen and part not in parts:
                    parts.add(part)
                    todo.append(part)
        # (the models a package exports that the config does not name stay listed, and
        # left out all the same) ... unless a ported script constructs one itself: that
        # script runs it, so it is ported and priced
        not_picked.update(
            c for c in builders._unconfigured if c not in parts and c not in constructed
        )
        chosen |= parts
        not_picked.update(c for c in builders._not_picked if c not in chosen)
        not_picked.update(c for c in builders.registry_picks() if c not in chosen)
        not_picked.update(c for c in builders.entry_picks() if c not in chosen)
        if builders.registered_out:
            taken = builders.registered_in | builders.registered_picks()
            not_picked.update(builders.registered_out - taken - chosen)
        builders._unbuilt()
        not_picked.update(c for c in builders.section_unbuilt if c not in chosen)
    if tables is not None:
        for registry, entries in builders.registries.tables.items():
            tables.setdefault(registry, set()).update(entries.values())
    return tops


def _named_parts(tops: Sequence[TopModel]) -> set[str]:
    """Short class names the top models list as their parts. An alternative of the same
    short name as the model (``vgg_model.Model`` picked, ``model.Model`` the other branch's)
    is another module's model, no part of it."""
    return {
        piece
        for m in tops
        for name, part in m.parts
        if name not in ("selected by", "extends")
        # "one of 19 classes: A, B, ..." a recursive builder picks: no class known a part
        if not part.startswith("one of ")
        for piece in re.split(r", | or ", part.partition(" (")[0])
        if not (name == "alternatives" and piece == m.cls.rpartition(".")[2])
    }


def with_top_roles(
    modules: Sequence[ModuleNode],
    tops: Sequence[TopModel],
    injected: Mapping[str, Iterable[str]] | None = None,
) -> tuple[ModuleNode, ...]:
    """A class the code builds as its top model is the model, whatever its name says
    (``GPT``, ``Whisper``, ``MaskedAutoencoderViT``), unless its name gave it a role.

    A class handed to another's constructor (``injected``: a builder's ``Net(encoder=
    encoder, decoder=decoder)``, ``ResNet(num_classes, Bottleneck, ...)``) is a part of
    it, as one it builds itself is: a child in the tree, a block where nothing gave it a
    role, never a free-standing "other"; so is a class a top model names as a part (the
    ViT moco-v3's ``partial(vits.__dict__[args.arch])`` builds), with the role the part's
    name gives where it names one (``backbone`` ← ``ResNet``)."""
    inside = _named_parts(tops)  # classes named as a part of some top model are parts
    chosen = {m.cls for m in tops if m.cls.rpartition(".")[2] not in inside}
    # the first is the model the entry point builds, even where another model wraps it
    # (Swin's SimMIM pre-training around its SwinTransformer)
    chosen |= {m.cls for m in tops[:1] if any(name == "selected by" for name, _ in m.parts)}
    known = {m.cls for m in modules}
    # the model itself stays a root where a task or wrapper is handed it
    given = {
        cls: sorted(c for c in parts if c in known and c != cls and c not in chosen)
        for cls, parts in (injected or {}).items()
    }
    parts = {c for found in given.values() for c in found}
    # the role a top model's part name gives the class it names (``backbone`` ← ``ResNet``)
    named_roles = {
        piece: role
        for m in tops
        for name, part in m.parts
        if (role := _role_of_words(words(name)[-1:])) is not None
        # each class a builder may pick for the part (``MobileNetV2Dilated or Resnet``)
        for piece in part.partition(" (")[0].split(" or ")
    }
    # the network class a top model extends (a training subclass of it) is the model too
    extended = {part for m in tops for name, part in m.parts if name == "extends"}
    out = []
    for m in modules:
        short = m.cls.rpartition(".")[2]
        if (m.cls in chosen or short in extended) and m.role in ("other", "block"):
            m = replace(m, role="model")
        elif short in named_roles and m.role in ("other", "block"):
            m = replace(m, role=named_roles[short])
        elif (m.cls in parts or short in inside) and m.role == "other":
            m = replace(m, role="block")
        more = tuple(c for c in given.get(m.cls, ()) if c not in m.children)
        out.append(replace(m, children=m.children + more) if more else m)
    return tuple(out)


def configured_parts(
    tops: Sequence[TopModel],
    analyses: Sequence[FileAnalysis],
    taken: Callable[[str, int], bool | None],
) -> list[TopModel]:
    """The top models with the parts their constructor builds per branch as the run's values
    take them (``taken``: the recipe's reading of a line's branches, the YAML the entry
    loads included): a class built only in a branch those values skip is no part (``if
    opt.Transformation == 'TPS':`` with ``Transformation: 'None'``); where the taken branch
    builds a layer of the framework instead (``if opt.Prediction == 'CTC': self.Prediction =
    nn.Linear(...)``), the part is that layer; where no branch builds it, it is none. A part
    no branch decides, or whose tests cannot be told, is left as the tree found it."""
    # a module name several files share (a ``model`` module beside a ``model`` package):
    # each is tried, the first defining the class decides
    by_module: dict[str, list[FileAnalysis]] = {}
    for fa in analyses:
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None:
            for module in fa.modules:
                by_module.setdefault(module, []).append(fa)
    out: list[TopModel] = []
    for top in tops:
        module, _, name = top.cls.rpartition(".")
        found = [
            (fa, values, init)
            for fa in by_module.get(module, ())
            if fa.syntax is not None and (values := fa.syntax.values) is not None
            for owner, d in enumerate(values.defs)
            if d.is_class and d.qual == name
            for init in values.defs
            if init.owner == owner and init.name == "__init__"
        ]
        if not found or not top.parts:
            out.append(top)
            continue
        fa, values, init = found[0]
        #: attribute -> (the run takes its branch, the callees' last names, the value)
        built: dict[str, list[tuple[bool | None, list[str], ValueExpr]]] = {}
        for a in init.assigns:
            target = a.target
            if target.kind != "Attribute" or target.target.kind != "Name":
                continue
            if target.target.name != "self":
                continue
            names = [e.callee() for e in a.value.walk() if e.kind == "Call" and e.callee()]
            built.setdefault(target.name, []).append((taken(fa.path, a.line), names, a.value))
        parts: list[tuple[str, str]] = []
        for label, text in top.parts:
            found = built.get(label, [])
            if not any(run is False for run, _, _ in found):
                parts.append((label, text))
                continue
            skipped = {n for run, names, _ in found if run is False for n in names}
            kept = {n for run, names, _ in found if run is not False for n in names}
            shown = [
                alt
                for alt in text.split(" or ")
                if alt.split(" ")[0] not in skipped or alt.split(" ")[0] in kept
            ]
            if shown:
                parts.append((label, " or ".join(shown)))
                continue
            runs = [value for run, _, value in found if run is True]
            if runs:
                layer = runs[0].callee() if runs[0].kind == "Call" else ""
                parts.append(
                    (
                        label,
                        f"{layer or runs[0].shown()} ({runs[0].shown()}: the branch the run's "
                        "values take)",
                    )
                )
            else:
                parts.append((label, "none (the run's values skip the branch that builds it)"))
        out.append(replace(top, parts=tuple(parts)) if parts != list(top.parts) else top)
    return out
