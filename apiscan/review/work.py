"""Porting work the API tables do not show, and which files are ported at all.

An API table says whether ``scipy.optimize.linear_sum_assignment`` has a MindSpore row; a
migration lead needs to know that it runs on the host on every training step, between a
``.cpu()`` and a ``torch.as_tensor``. The same goes for a backbone built by
``torchvision.models`` with pretrained weights (a MindSpore counterpart and a weight
conversion), for the checkpoint the code loads, and for a parameter MindSpore lacks that a call
really passes (``antialias=True``). Each item has its places and a sentence saying why it
matters.

Which files are ported decides what the effort counts: tools, demos, export scripts, hub files,
plotting, notebooks and adapters for other frameworks are counted apart
(:class:`Ancillary`; ``review-ancillary`` in ``[tool.apiscan]`` replaces the patterns).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from apiscan.config import path_matches
from apiscan.model import ApiFinding, ScanResult
from apiscan.program.index import Hierarchy
from apiscan.review.model import WORK_KINDS, Where, WorkItem
from apiscan.review.sources import FuncDef, Source, Sources, is_test_path

#: Directories whose code is not ported with the model (anywhere in the path).
ANCILLARY_DIRS: dict[str, str] = {
    "tools": "tools",
    "tool": "tools",
    "scripts": "scripts",
    "demo": "demo",
    "demos": "demo",
    "examples": "examples",
    "notebooks": "notebooks",
    "docs": "documentation",
    "doc": "documentation",
    "deploy": "deployment/export",
    "deployment": "deployment/export",
    "export": "deployment/export",
    "benchmarks": "benchmarks",
    "benchmark": "benchmarks",
    "projects": "side projects",
    "log": "training output",
    "logs": "training output",
    "runs": "training output",
    "work_dirs": "training output",
    "wandb": "training output",
    "visualizer": "plotting",
    "visualization": "plotting",
    "vis": "plotting",
}
#: File name patterns of code that is not ported with the model.
ANCILLARY_FILES: dict[str, str] = {
    "hubconf.py": "torch.hub entry points",
    "setup.py": "packaging",
    "*export*.py": "deployment/export",
    "*onnx*.py": "deployment/export",
    "*plot*.py": "plotting",
    "*visuali[sz]*.py": "plotting",
    "*demo*.py": "demo",
    "*.ipynb": "notebook",
}
#: Frameworks a file adapts the model to (an adapter is not ported with the model).
FOREIGN_FRAMEWORKS = frozenset(
    {
        "detectron2",
        "tensorflow",
        "jax",
        "flax",
        "onnx",
        "onnxruntime",
        "tensorrt",
        "openvino",
        "coremltools",
        "paddle",
        "mmdet",
        "mmcv",
        "lightning",
        "pytorch_lightning",
    }
)
#: Host libraries whose calls in the network or loss path mean a device → host → device trip.
HOST_LIBRARIES = ("numpy.", "scipy.", "cv2.", "sklearn.", "lap.", "pycocotools.")
#: Calls that take a tensor to the host, and that bring a host value back as a tensor.
TO_HOST_METHODS = frozenset({"cpu", "numpy", "tolist"})
FROM_HOST = frozenset({"torch.as_tensor", "torch.from_numpy", "torch.tensor", "torch.Tensor"})
#: ``from_pretrained`` of what holds no weights: tokenizers, configs, processors.
_NOT_WEIGHTS = re.compile(r"Tokeni[sz]er|Config|Processor|FeatureExtractor")
#: Model zoos whose constructors are pretrained backbones.
ZOO_MODULES = frozenset(
    {
        "torchvision.models",
        "torchvision.models.detection",
        "torchvision.models.segmentation",
        "torchvision.models.video",
    }
)
ZOO_EXCLUDED = ("torchvision.models._utils", "torchvision.models.feature_extraction")
PRETRAINED_KEYWORDS = frozenset({"pretrained", "weights", "pretrained_backbone"})
#: Torch APIs that load a checkpoint.
CHECKPOINT_APIS = frozenset(
    {
        "torch.load",
        "torch.hub.load_state_dict_from_url",
        "torch.utils.model_zoo.load_url",
    }
)
#: Parameter values that pass nothing MindSpore would miss.
NEUTRAL_VALUES = frozenset({"False", "None", "0", "()", "[]", "{}"})
#: Packages whose APIs a parameter gap is plumbing for (loaders, optimizers): they have idioms.
PLUMBING = (
    "torch.optim.",
    "torch.utils.data.",
    "torch.distributed.",
    "torch.cuda.",
    "torchvision.datasets.",
)
#: What a parameter note says when only the keyword's spelling differs (dim= → axis=).
SPELLING = "has no parameter named"
#: Parameters about placement and memory: MindSpore places tensors globally.
PLACEMENT = frozenset({"device", "non_blocking", "memory_format", "layout", "pin_memory"})


#: Folders of side projects and examples: their own training loops are not the repository's.
_SIDE_DIRS = frozenset({"examples", "projects", "demo", "demos", "docs", "benchmarks"})
#: Module methods that run in the network or loss path without the scan's help.
_PATH_METHOD = re.compile(r"forward\w*|__call__|\w*(loss|match|assign)\w*")
_NOT_NETWORK = re.compile(r"visuali[sz]|plot|draw|show|log_|print", re.IGNORECASE)


class Ancillary:
    """Which files are counted apart from the effort, and why: tests, tools, demos, exports,
    hub files, plotting, notebooks, adapters for other frameworks. ``patterns`` (globs as in
    ``exclude``) replace the built-in directory and file-name lists when given; files in
    ``keep`` (the training step: ``tools/train.py`` building the optimizer) are ported."""

    def __init__(
        self,
        sources: Sources,
        patterns: Sequence[str] | None = None,
        keep: Iterable[str] = (),
    ) -> None:
        self.patterns = tuple(patterns) if patterns is not None else None
        #: files that hold the training step (an optimizer, a backward pass): always ported
        self.keep = frozenset(keep)
        self._why: dict[str, str] = {}
        self._read = frozenset(sources.modules)
        local = {m.partition(".")[0] for mods in sources.modules.values() for m in mods}
        for src in sources.all(tests=True):
            why = self._classify(src, local)
            if why:
                self._why[src.path] = why

    def _classify(self, src: Source, local: set[str]) -> str:
        path = src.path
        if is_test_path(path):
            return "tests"
        if self.patterns is not None:
            hit = next((p for p in self.patterns if path_matches(path, p)), None)
            return f"matches {hit!r}" if hit else ""
        foreign = sorted(
            {
                top
                for name in src.imports.values()
                if (top := name.partition(".")[0]) in FOREIGN_FRAMEWORKS and top not in local
            }
        )
        if foreign:  # a training script for detectron2 trains the adapter, not the model
            return f"adapter for {', '.join(foreign)}"
        parts = PurePosixPath(path).parts
        if path in self.keep and not set(parts[:-1]) & _SIDE_DIRS:
            return ""  # the training step in tools/ or scripts/ is ported
        for pattern, why in ANCILLARY_FILES.items():  # tools/demo.py is a demo
            if path_matches(parts[-1].lower(), pattern):
                folder = next((d.lower() for d in parts[:-1] if d.lower() in ANCILLARY_DIRS), "")
                if why == "notebook" and folder:  # demo/visualize.ipynb: a demo
                    return ANCILLARY_DIRS[folder]
                return why
        for part in parts[:-1]:
            if part.lower() in ANCILLARY_DIRS:
                return ANCILLARY_DIRS[part.lower()]
        return ""

    def why(self, path: str) -> str:
        """Why ``path`` is counted apart; "" when it is ported. A file the review does not
        read (a visualiser's ``.cpp``) is told by its folders, or the configured patterns."""
        if path in self._why or path in self._read:
            return self._why.get(path, "")
        if self.patterns is not None:
            hit = next((p for p in self.patterns if path_matches(path, p)), None)
            return f"matches {hit!r}" if hit else ""
        folders = [d.lower() for d in PurePosixPath(path).parts[:-1]]
        return next((ANCILLARY_DIRS[d] for d in folders if d in ANCILLARY_DIRS), "")

    def listing(self) -> tuple[tuple[str, str], ...]:
        """(path, why) of every file counted apart, tests left out (they are never ported)."""
        return tuple((p, w) for p, w in sorted(self._why.items()) if w != "tests")


def ported(findings: Iterable[ApiFinding], ancillary: Ancillary) -> list[ApiFinding]:
    """The findings in files that are ported with the model."""
    return [f for f in findings if not ancillary.why(f.path)]


def work_items(
    result: ScanResult, sources: Sources, hierarchy: Hierarchy, ancillary: Ancillary
) -> tuple[WorkItem, ...]:
    """Every work item of the ported files, in the order of :data:`WORK_KINDS`."""
    network = {(f.path, f.function) for f in result.api_findings if f.scope == "network"}
    items: list[WorkItem] = []
    backbones: list[WorkItem] = []
    local = {m.partition(".")[0] for mods in sources.modules.values() for m in mods}
    for src in sources.all():
        if ancillary.why(src.path):
            continue
        items.extend(
            _with_callers(t, sources, ancillary) for t in _round_trips(src, network, hierarchy)
        )
        backbones.extend(b for b in _backbones(src) if b.what.partition(".")[0] not in local)
    items.extend(_one_per_backbone(backbones))
    items.extend(_checkpoints(ported(result.api_findings, ancillary)))
    items.extend(_parameters(ported(result.api_findings, ancillary)))
    order = list(WORK_KINDS)
    return tuple(
        sorted(items, key=lambda i: (order.index(i.kind), i.where[0].path, i.where[0].line))
    )


def _one_per_backbone(found: Sequence[WorkItem]) -> list[WorkItem]:
    """One item per backbone (the same constructor with the same arguments), with every
    place that builds it: a student and a teacher, or each evaluation script, load one
    architecture and convert one set of weights."""
    groups: dict[str, list[WorkItem]] = {}
    for item in found:  # with or without "pretrained weights": the same architecture
        key = item.what.replace(", pretrained weights", "").replace("(pretrained weights)", "")
        groups.setdefault(key, []).append(item)
    out = []
    for items in groups.values():
        shown = max(items, key=lambda i: (len(i.why), len(i.what)))  # the pretrained one
        out.append(
            WorkItem(
                kind=shown.kind,
                what=shown.what,
                where=tuple(dict.fromkeys(w for i in items for w in i.where)),
                why=shown.why,
                uses=len(items),
            )
        )
    return out


def _functions(src: Source) -> Iterable[tuple[str, FuncDef]]:
    for qual, node in src.defs.items():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield qual, node


def _is_module_method(src: Source, fn: FuncDef, hierarchy: Hierarchy) -> bool:
    owner = src.class_of(fn)
    if owner is None or not src.module or not _PATH_METHOD.fullmatch(fn.name):
        return False
    cls = f"{src.module}.{src.qualname[owner]}"
    return "torch.nn.Module" in hierarchy.torch_ancestors(cls)


def _round_trips(
    src: Source, network: set[tuple[str, str]], hierarchy: Hierarchy
) -> Iterable[WorkItem]:
    """Functions of the network or loss path (a Module's method, or a function the scan
    placed in the network graph) that send tensors to a host library and back."""
    for qual, fn in _functions(src):
        if _NOT_NETWORK.search(fn.name):
            continue  # visualisation and logging helpers of a Module run beside the step
        if (src.path, qual) not in network and not _is_module_method(src, fn, hierarchy):
            continue
        host: list[tuple[str, ast.Call]] = []
        out = back = False
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            name = src.dotted(node.func) or ""
            if name.startswith(HOST_LIBRARIES):
                host.append((name, node))
            elif name in FROM_HOST:
                back = True
            elif isinstance(node.func, ast.Attribute) and node.func.attr in TO_HOST_METHODS:
                out = True
        if host and out and back:  # numpy arrays alone (.tolist() of an np array) go nowhere
            names = sorted({n for n, _ in host})
            yield WorkItem(
                kind="host-round-trip",
                what=f"{qual}: {', '.join(names)}",
                where=tuple(dict.fromkeys(src.where(c) for _, c in host)),
                why=(
                    "tensors leave the device for "
                    + ", ".join(names)
                    + " and come back (.cpu()/.numpy() then torch.as_tensor)"
                    + " every time this runs in the network or loss path: a graph break "
                    "under GRAPH_MODE and a device synchronisation per call; keep it on the "
                    "host outside the compiled cell, or write the computation with MindSpore ops"
                ),
                uses=len(host),
            )


#: Tensor constructors a collate function fills when it pads a batch to its largest item.
_PAD_CONSTRUCTORS = frozenset({"zeros", "ones", "full", "empty", "new_zeros", "new_full", "pad"})


def padded_batches(
    result: ScanResult, sources: Sources, ancillary: Ancillary
) -> tuple[tuple[str, str], ...]:
    """(path, function) of the collate functions (``DataLoader(collate_fn=...)``, followed
    one call deep) that pad each batch to its largest item: a ``max`` over the items and a
    tensor built to that size. Every batch then has its own shape, as with multi-scale
    training: the compiled network needs fixed buckets or one padded size."""
    defs: dict[str, list[tuple[Source, FuncDef]]] = {}
    for src in sources.all():
        for qual, fn in _functions(src):
            defs.setdefault(qual.rpartition(".")[2], []).append((src, fn))
    found: set[tuple[str, str]] = set()
    for f in result.api_findings:
        if f.api != "torch.utils.data.DataLoader" or f.args is None or ancillary.why(f.path):
            continue
        collate = next((text for name, text in f.args.keywords if name == "collate_fn"), "")
        name = collate.rpartition(".")[2]
        for src, fn in defs.get(name, []):
            todo = [(src, fn)] + [
                target
                for call in ast.walk(fn)
                if isinstance(call, ast.Call)
                for target in defs.get(_callee_tail(call), [])
            ]
            for fsrc, fdef in todo:
                if _pads_to_max(fdef):
                    found.add((fsrc.path, fsrc.qualname.get(fdef, fdef.name)))
    return tuple(sorted(found))


def _callee_tail(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _pads_to_max(fn: FuncDef) -> bool:
    calls = [_callee_tail(c) for c in ast.walk(fn) if isinstance(c, ast.Call)]
    return any("max" in c for c in calls) and any(c in _PAD_CONSTRUCTORS for c in calls)


def _attribute_names(cls: str) -> set[str]:
    """What a Module instance of ``cls`` is usually stored as: ``matcher`` and
    ``box_matcher`` for ``BoxMatcher``."""
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", cls)
    return {words[-1].lower(), "_".join(w.lower() for w in words)} if words else set()


def _with_callers(item: WorkItem, sources: Sources, ancillary: Ancillary) -> WorkItem:
    """A round trip in ``Cls.forward`` with the places that call the module through the
    attribute it is usually stored in (``self.matcher(...)``), saying which run in a loop:
    each call is one more trip per step."""
    qual = item.what.partition(":")[0]
    cls, _, method = qual.rpartition(".")
    if method not in ("forward", "__call__") or not cls:
        return item
    names = _attribute_names(cls.rpartition(".")[2])
    calls: list[tuple[Where, bool]] = []
    for src in sources.all():
        if ancillary.why(src.path):
            continue
        for call in src.calls:
            func = call.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in names
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
                looped = src.enclosing(call, (ast.For, ast.While, ast.comprehension))
                calls.append((src.where(call), looped is not None))
    if not calls:
        return item
    listed = ", ".join(f"{w}{' (in a loop)' if loop else ''}" for w, loop in calls)
    loops = sum(1 for _, loop in calls if loop)
    more = f"; {loops} of them in a loop, one more trip per iteration" if loops else ""
    return WorkItem(
        kind=item.kind,
        what=item.what,
        where=item.where + tuple(w for w, _ in calls),
        why=item.why + f"; the module is called at {listed}{more}",
        uses=item.uses,
    )


def _zoo_callee(src: Source, call: ast.Call) -> str | None:
    """``torchvision.models.resnet50``, or ``torchvision.models.<name>`` for
    ``getattr(torchvision.models, name)(...)``; None for anything else."""
    func = call.func
    if (
        isinstance(func, ast.Subscript)
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "__dict__"
    ):  # torchvision.models.__dict__[args.arch]()
        owner = src.dotted(func.value.value)
        return f"{owner}.<{src.text(func.slice, 40)}>" if owner else None
    if (
        isinstance(func, ast.Call)
        and isinstance(func.func, ast.Name)
        and func.func.id == "getattr"
        and func.args
    ):
        owner = src.dotted(func.args[0])
        if owner is None:
            return None
        return f"{owner}.<{src.text(func.args[1], 40)}>" if len(func.args) > 1 else owner
    return src.dotted(func)


def _is_zoo_constructor(name: str) -> bool:
    """``torchvision.models.resnet50`` (or ``.detection.<fn>``, ``.<getattr name>``),
    ``timm.create_model``, ``torch.hub.load``; never a layer, helper, weights enum or class
    that a zoo package also exports (``timm.models.layers.DropPath``)."""
    if name in ("torch.hub.load", "timm.create_model", "timm.models.create_model"):
        return True
    if name.startswith("transformers.") and name.endswith(".from_pretrained"):
        return not _NOT_WEIGHTS.search(name)
    head, bracket, key = name.partition("<")  # torchvision.models.<args.arch>
    module, _, tail = head.rpartition(".") if bracket else name.rpartition(".")
    if bracket:
        tail = bracket + key
    return (
        module in ZOO_MODULES
        and not tail.startswith("_")
        and (tail.startswith("<") or tail[:1].islower())
    )


def _backbones(src: Source) -> Iterable[WorkItem]:
    for call in src.calls:
        name = _zoo_callee(src, call)
        if not name or name.startswith(ZOO_EXCLUDED):
            continue
        if not _is_zoo_constructor(name):
            continue
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        pretrained = [
            f"{k}={src.text(v, 40)}"
            for k, v in keywords.items()
            if k in PRETRAINED_KEYWORDS and src.text(v) not in NEUTRAL_VALUES
        ]
        explicit = keywords.get("pretrained")
        if (name.endswith(".from_pretrained") or name == "torch.hub.load") and (
            explicit is None or src.text(explicit) not in NEUTRAL_VALUES
        ):
            pretrained.insert(0, "pretrained weights")  # what these calls load by default
        norm = keywords.get("norm_layer")
        details = pretrained + ([f"norm_layer={src.text(norm, 40)}"] if norm is not None else [])
        if name == "torch.hub.load" and call.args:  # which hub repository and model
            details = [src.text(a, 40) for a in call.args[:2]] + details
        why = "needs a MindSpore counterpart of the architecture (MindCV or a port)"
        if pretrained:
            why += (
                " and its pretrained weights converted to a MindSpore checkpoint (parameter "
                "names and BatchNorm statistics mapped), checked against PyTorch's outputs"
            )
        if norm is not None:
            why += "; the custom normalisation layer it is built with must be ported too"
        yield WorkItem(
            kind="pretrained-backbone",
            what=name + (f"({', '.join(details)})" if details else ""),
            where=(src.where(call),),
            why=why,
        )


def _checkpoints(findings: Sequence[ApiFinding]) -> Iterable[WorkItem]:
    """One item for all the checkpoint loading: one format to convert, however many calls."""
    found = sorted(
        (f for f in findings if f.api in CHECKPOINT_APIS and f.usage == "call"),
        key=lambda f: f.sort_key(),
    )
    if not found:
        return
    yield WorkItem(
        kind="checkpoint",
        what=", ".join(sorted({f.api for f in found})),
        where=tuple(dict.fromkeys(Where(f.path, f.span.line, f.cell) for f in found)),
        why=(
            "PyTorch checkpoints (pickled state dicts) do not load into MindSpore: convert "
            "each released checkpoint once (parameter names, BatchNorm gamma/beta/moving "
            "statistics) with mindspore.save_checkpoint and load it with "
            "mindspore.load_checkpoint + load_param_into_net"
        ),
        uses=len(found),
    )


def _passed(f: ApiFinding, param: str) -> str | None:
    """The text ``f``'s call passes for ``param`` (None when it does not pass it by name)."""
    if f.args is None:
        return None
    return next((text for name, text in f.args.keywords if name == param), None)


def _parameters(findings: Sequence[ApiFinding]) -> Iterable[WorkItem]:
    groups: dict[tuple[str, str, str], list[ApiFinding]] = {}
    for f in findings:
        if f.api.startswith(PLUMBING) or f.disposition in ("idiom", "delete"):
            continue
        for change in f.param_changes:
            if change.kind != "unsupported" or change.param in PLACEMENT:
                continue
            if SPELLING in change.note:
                continue  # the keyword is spelled otherwise or passed by position: a rewrite
            value = _passed(f, change.param)
            if value is None or value in NEUTRAL_VALUES:
                continue  # passed positionally or left at a harmless value: nothing to miss
            groups.setdefault((f.api, change.param, change.note), []).append(f)
    for (api, param, note), found in sorted(groups.items()):
        found.sort(key=lambda f: f.sort_key())
        values = sorted({_passed(f, param) or "" for f in found})
        yield WorkItem(
            kind="unsupported-param",
            what=f"{api}({param}={' | '.join(values)})",
            where=tuple(dict.fromkeys(Where(f.path, f.span.line, f.cell) for f in found)),
            why=(note or "MindSpore has no such parameter")
            + f" (scope: {', '.join(sorted({f.scope for f in found}))}): the behaviour it "
            "selects must be reproduced, or the difference measured",
            uses=len(found),
        )
