"""What a file's syntax says beyond its torch APIs: plain records for the feasibility review.

The review asks questions no torch API marks: which packages a file imports and what it uses
from them, which attribute a constructor stores a child module in (``self.neck = ...``), where
a module stored as ``self.matcher`` is called and whether a loop runs the call, which model-zoo
constructors run with pretrained weights, which functions send tensors to a host library, which
def encloses a line. The worker answers them from Python's tree, which it has
already built for positions, so the review never reads or parses a file again (the facts are
cached with the rest of the file's analysis).

Every fact here is a string, a number or a tuple of them: cheap to pickle, deterministic
(source order). A *function* is named by its module-relative qualified name (``Head.forward``,
nested ``outer.inner``); when a file defines two functions with one name (``@property`` and its
setter), the first one defined is the one meant, as the review always read it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apiscan.extract.input_steps import InputStep
    from apiscan.extract.models import ModelFacts
    from apiscan.extract.values import FileValues, ValueReader

#: Longest source text kept for one value (an argument of a model-zoo constructor).
TEXT_LIMIT = 100
#: Host libraries whose calls in the network or loss path mean a device → host → device trip.
HOST_LIBRARIES = ("numpy.", "scipy.", "cv2.", "sklearn.", "lap.", "pycocotools.")
#: Calls that take a tensor to the host, and that bring a host value back as a tensor.
TO_HOST_METHODS = frozenset({"cpu", "numpy", "tolist"})
FROM_HOST = frozenset({"torch.as_tensor", "torch.from_numpy", "torch.tensor", "torch.Tensor"})
#: ``from_pretrained`` of what holds no weights: tokenizers, configs, processors.
_NOT_WEIGHTS = re.compile(r"Tokeni[sz]er|Config|Processor|FeatureExtractor|Scheduler")
#: Third-party model libraries whose ``X.from_pretrained(...)`` builds a released model with
#: its weights (a language model, DiT's ``diffusers`` VAE encoding every batch, a CLIP
#: encoder): the port needs a MindSpore counterpart of the model and its weights converted.
PRETRAINED_LIBRARIES = ("transformers.", "diffusers.", "open_clip.", "sentence_transformers.")
#: open_clip's constructors of a named architecture with ``pretrained=`` weights.
_OPEN_CLIP = frozenset(
    {
        "open_clip.create_model",
        "open_clip.create_model_and_transforms",
        "open_clip.create_model_from_pretrained",
    }
)
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
#: The top-level packages of the model zoos: a name of one a star import brings is the
#: package (:meth:`_Reader._zoo_dotted`).
_ZOO_ROOTS = frozenset({m.partition(".")[0] for m in ZOO_MODULES} | {"timm"})
#: Packages whose names the file uses are not recorded for: torch's are the scan's findings.
_UNRECORDED_PACKAGES = frozenset({"torch"})

_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def node_kinds(bases: tuple[type, ...]) -> frozenset[type]:
    """``bases`` and every subclass of them: for a node ``ast.parse`` made, ``type(node) in``
    it is ``isinstance(node, bases)`` without the subclass checks (the walks over every node
    of a file test each node's kind this way)."""
    out: set[type] = set()
    todo = list(bases)
    while todo:
        cls = todo.pop()
        if cls not in out:
            out.add(cls)
            todo += cls.__subclasses__()
    return frozenset(out)


def def_names(tree: ast.Module) -> tuple[dict[ast.AST, str], dict[str, _Def]]:
    """Every def's and class's module-relative qualified name (``Net.forward``), through
    statements only (not expressions), and the first def of each name."""
    qualname: dict[ast.AST, str] = {}
    first: dict[str, _Def] = {}
    stack: list[tuple[ast.AST, str]] = [(tree, "")]
    while stack:
        node, prefix = stack.pop()
        for child in child_nodes(node):
            if isinstance(child, _Def):
                q = f"{prefix}.{child.name}" if prefix else child.name
                qualname[child] = q
                first.setdefault(q, child)
                stack.append((child, q))
            elif isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                stack.append((child, prefix))
    return qualname, first


@dataclass(frozen=True, slots=True)
class ZooCall:
    """A model-zoo constructor called (``torchvision.models.resnet50(weights=...)``,
    ``torchvision.models.<args.arch>`` for ``getattr(torchvision.models, args.arch)()``,
    ``timm.create_model``, ``torch.hub.load``, ``X.from_pretrained`` of a third-party model
    library: :data:`PRETRAINED_LIBRARIES`)."""

    callee: str
    line: int
    #: (keyword, its source text cut at :data:`TEXT_LIMIT`), in the call's order
    keywords: tuple[tuple[str, str], ...]
    #: the positional arguments' source texts, cut alike (``torch.hub.load``'s repository
    #: and model)
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HostTrip:
    """A function that calls a host library and takes something to the host (``.cpu()``,
    ``.numpy()``, ``.tolist()``): how the review names a host round trip the scan found there
    (DS121)."""

    function: str
    #: (library function, line) of each host call, in the order ``ast.walk`` meets them
    host: tuple[tuple[str, int], ...]
    back: bool  # brings a host value back as a tensor (``torch.as_tensor``...)


@dataclass(frozen=True, slots=True)
class Pipeline:
    """A function that threads an image through calls statement by statement (the SSD
    tutorial's ``transform()``: ``new_image = photometric_distort(new_image)``, then
    ``expand``, ``random_crop``, ``flip`` under ``if random.random() < 0.5``...): the data
    augmentation written without a ``Compose``."""

    function: str  # qualified name of the def
    line: int
    end_line: int
    #: (the call's source text, the test it runs under ("" when always), the name of the
    #: file's own function it calls ("" for any other callee)), in the order they run
    steps: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class RegistrySetup:
    """``build, register, ... = setup_registry("--criterion", default="cross_entropy")``:
    classes registered under names and picked by a command-line option (fairseq). A
    registry written by hand is one too: a module-level decorator factory ``def
    register_task(name, ...)`` whose inner function stores the class in a module-level table
    under its first parameter (``TASK_REGISTRY[name] = cls``), picked by the option its name
    ends with (``--task``); its default is the option's, which the argparse table holds."""

    option: str
    default: str | None  # the default name, when a literal
    #: the names bound to the register decorators (``register_criterion``)
    registers: tuple[str, ...]
    line: int
    #: written by hand (``def register_task``): a pick only where the argparse table
    #: declares the option or the documented command gives it
    hand: bool = False


@dataclass(frozen=True, slots=True)
class LazyAugmentations:
    """The augmentations a lazy config hands a training data mapper (detectron2's
    ``L(DatasetMapper)(is_train=True, augmentations=[L(T.ResizeShortestEdge)(...), ...])``),
    each step as its class and arguments."""

    stored: str  # what the config stores the loader in (``dataloader.train``), or ""
    line: int
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SyntaxFacts:
    """The review's facts of one file (module docstring); lines are of the parsed text (a
    notebook's joined code: ``FileAnalysis.cells`` maps them to cells)."""

    #: local name → absolute dotted name, for every absolute import in the file (function
    #: level included; relative imports left out)
    imports: tuple[tuple[str, str], ...] = ()
    #: top-level package → the dotted names the file uses from it (whole attribute chains
    #: through the names its imports bind; torch left out)
    package_uses: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: (attribute, first line, last line of the value, functions it is in) of every
    #: ``self.<attribute> = <value>``; the functions are every enclosing one, outermost first
    self_assigns: tuple[tuple[str, int, int, tuple[str, ...]], ...] = ()
    #: (attribute, line, inside a loop) of every call ``self.<attribute>(...)``
    self_calls: tuple[tuple[str, int, bool], ...] = ()
    zoo_calls: tuple[ZooCall, ...] = ()
    host_trips: tuple[HostTrip, ...] = ()
    #: (def or class, line of its ``def``/``class``, decorators named through the imports:
    #: ``triton.jit``, ``torch.no_grad``) of every decorated one whose decorators resolve
    decorators: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    #: (name as the import statement names it, line of the first statement naming it) of
    #: every import, function level and relative ones included (``from . import _C`` →
    #: ``._C``; ``from a.b import c`` → ``a.b.c``; ``import a.b as d`` → ``a.b``): where a
    #: name the file reaches through an import comes in, when no call of it is written
    import_lines: tuple[tuple[str, int], ...] = ()
    #: top-level packages imported only inside a function (a lazy import: timm's
    #: ``_load_weights`` importing ``jax.numpy`` to read Flax checkpoints), sorted
    lazy_imports: tuple[str, ...] = ()
    #: the module runs as a script: an ``if __name__ == ...`` statement at its top level
    main_guard: bool = False
    #: top-level packages imported in a ``try:`` whose handler catches the import's failure
    #: (``except ImportError``, ``ModuleNotFoundError``, ``Exception`` or bare): optional,
    #: the code runs without them (timm's ``apex`` fused norms beside the PyTorch path)
    optional_packages: tuple[str, ...] = ()
    #: (name as :attr:`import_lines` writes it, line) of each import a ``try:`` makes in its
    #: own body whose handler catches the import's failure and binds every name it imports
    #: to a stand-in (Swin-like ``from kernels.window_process import WindowProcess`` with
    #: ``WindowProcess = None`` in ``except``): code written to run without that module
    optional_modules: tuple[tuple[str, int], ...] = ()
    #: (first line, last line) of that top-level ``if __name__ == ...`` block, (0, 0) if none
    main_block: tuple[int, int] = (0, 0)
    #: (def or class, first line, last line) of every one (the first of each name), in the
    #: order they were named: what encloses a line (an evaluation function's transforms)
    spans: tuple[tuple[str, int, int], ...] = ()
    pipelines: tuple[Pipeline, ...] = ()
    registry_setups: tuple[RegistrySetup, ...] = ()
    #: (decorator's last name, the name it registers, line of the def) of every
    #: ``@register_x("name")`` with a literal name
    registered: tuple[tuple[str, str, int], ...] = ()
    lazy_augmentations: tuple[LazyAugmentations, ...] = ()
    #: (switch, its value's source text, line) of every ``torch.backends.cudnn.deterministic
    #: = ...`` / ``cudnn.benchmark = ...`` (a single-target assignment)
    cudnn_flags: tuple[tuple[str, str, int], ...] = ()
    #: (line, the subscript's text, the test of the ``if`` around it, the function, the class
    #: the function is a method of or "") of every ``x[..., ::-1]`` under an ``if`` of the
    #: function it is in: a random flip written as indexing, when the function handles data
    flips: tuple[tuple[int, str, str, str, str], ...] = ()
    #: (def or class, is a class, the class it is a method of or "") of every one named in
    #: :attr:`spans`, in that order
    def_kinds: tuple[tuple[str, bool, str], ...] = ()
    #: (function, first line, last line, what it sets) of every function named as a weight
    #: initialisation (:data:`INIT_NAME`) that sets something: (target, literal value) of
    #: each literal attribute assignment, (callee, arguments) of each ``fill_``/``normal_``...
    #: call, in source order
    init_routines: tuple[tuple[str, int, int, tuple[tuple[str, str], ...]], ...] = ()
    #: the inference path's steps written as code (normalise, pad, resize, upscale,
    #: threshold: :mod:`apiscan.extract.input_steps`)
    input_steps: tuple[InputStep, ...] = ()
    #: the file's expression table and what the recipe's value follower reads
    #: (:mod:`apiscan.extract.values`), the model tree's index over it included
    values: FileValues | None = None

    @property
    def models(self) -> ModelFacts | None:
        """What the model tree follows: constructions, builders' returns, registries (an
        index over the value records' expressions, kept in them)."""
        return self.values.models if self.values is not None else None

    def enclosing(self, line: int) -> str:
        """The innermost def or class around ``line`` (a line of the parsed text), "" at
        module level."""
        inside = [(first, q) for q, first, last in self.spans if first <= line <= last]
        return max(inside)[1] if inside else ""


def syntax_facts(
    tree: ast.Module, text: str, unreachable: Sequence[tuple[int, int]] = ()
) -> SyntaxFacts:
    """The facts of a file from Python's tree of ``text`` (see :class:`SyntaxFacts`).
    ``unreachable``: (first, last line) of the statements no path reaches
    (:func:`apiscan.extract.unreachable`): their calls are no value record (no recipe row,
    no work item reads them)."""
    from apiscan.extract.models import model_facts
    from apiscan.extract.values import ValueReader

    table = ValueReader(tree, text)  # one expression table: both records read it
    table.index()  # one walk: the children it lists serve every reader
    reader = _Reader(tree, text, table)
    values = table.build()
    if unreachable:
        from apiscan.extract import reached

        values = replace(
            values, calls=tuple(c for c in values.calls if reached(c.expr.line, unreachable))
        )
    models = model_facts(tree, text, reader.first, reader.imports_made, table)
    if unreachable:
        # ... nor a construction, assignment or return of the model tree (a branch's
        # ``raise NotImplementedError`` followed by the build it no longer runs)
        from apiscan.extract import reached

        exprs = models.exprs
        models = replace(
            models,
            calls=tuple(c for c in models.calls if reached(exprs[c[0]].line, unreachable)),
            assigns=tuple(a for a in models.assigns if reached(a.line, unreachable)),
            unpacked=tuple(a for a in models.unpacked if reached(a.line, unreachable)),
            returns=tuple(r for r in models.returns if reached(exprs[r[0]].line, unreachable)),
        )
    return replace(reader.facts(), values=replace(values, models=models))


def node_text(lines: Sequence[str], node: ast.AST, limit: int | None = TEXT_LIMIT) -> str:
    """The node's source on one line (whitespace runs collapsed), cut at ``limit``."""
    place = node_position(node)
    if place is None:
        return ast.unparse(node)
    lineno, end_lineno, col, end_col = place
    chunks = [line.encode("utf-8") for line in lines[lineno - 1 : end_lineno]]
    if not chunks:
        return ast.unparse(node)
    return shorten(joined_text(chunks, col, end_col), limit)


def node_position(node: ast.AST) -> tuple[int, int, int, int] | None:
    """(line, end line, byte column, end byte column) of a node; None for one without."""
    lineno = getattr(node, "lineno", None)
    end_lineno = getattr(node, "end_lineno", None)
    col = getattr(node, "col_offset", None)
    end_col = getattr(node, "end_col_offset", None)
    if lineno is None or end_lineno is None or col is None or end_col is None:
        return None
    return lineno, end_lineno, col, end_col


#: "( x )" left by joining a node's lines.
_SPACED = re.compile(r"([(\[{]) | ([)\]}])")


def joined_text(chunks: Sequence[bytes], col: int, end_col: int) -> str:
    """The source of a node spanning ``chunks`` (its lines, UTF-8 encoded; byte columns) on
    one line: whitespace runs collapsed, no space left inside brackets by line breaks."""
    if len(chunks) == 1:
        parts = [chunks[0][col:end_col]]
    else:
        parts = [chunks[0][col:], *chunks[1:-1], chunks[-1][:end_col]]
    text = " ".join(b"\n".join(parts).decode("utf-8", errors="replace").split())
    return _SPACED.sub(r"\1\2", text)


def shorten(text: str, limit: int | None) -> str:
    """``text`` cut at ``limit`` characters, an ellipsis marking the cut."""
    if limit is not None and len(text) > limit:
        return text[: limit - 1] + "…"
    return text


def import_table(nodes: Iterable[ast.Import | ast.ImportFrom]) -> dict[str, str]:
    """Every absolute import of the file, flattened (function-level ones included): enough to
    name torchvision, numpy and ``random`` calls, which the scan does not resolve."""
    table: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    table[alias.asname] = alias.name
                else:
                    root = alias.name.partition(".")[0]
                    table[root] = root
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    table[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return table


def import_lines(nodes: Iterable[ast.Import | ast.ImportFrom]) -> tuple[tuple[str, int], ...]:
    """(name as written, line) of each name the imports ``nodes`` name, the first statement
    of each name (see :attr:`SyntaxFacts.import_lines`), sorted by name."""
    lines: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        else:
            module = "." * node.level + (node.module or "")
            sep = "" if module.endswith(".") else "."
            named = [f"{module}{sep}{a.name}" for a in node.names if a.name != "*"]
        for name in named:
            if name not in lines or node.lineno < lines[name]:
                lines[name] = node.lineno
    return tuple(sorted(lines.items()))


def callee_name(call: ast.Call) -> str:
    """The last name of what a call calls (``f`` of ``a.b.f(...)``), "" for anything else."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def is_zoo_constructor(name: str) -> bool:
    """``torchvision.models.resnet50`` (or ``.detection.<fn>``, ``.<getattr name>``),
    ``timm.create_model``, ``torch.hub.load``; never a layer, helper, weights enum or class
    that a zoo package also exports (``timm.models.layers.DropPath``)."""
    if name in ("torch.hub.load", "timm.create_model", "timm.models.create_model"):
        return True
    if name in _OPEN_CLIP:
        return True
    if name.startswith(PRETRAINED_LIBRARIES) and name.endswith(".from_pretrained"):
        return not _NOT_WEIGHTS.search(name)
    head, bracket, key = name.partition("<")  # torchvision.models.<args.arch>: dots in the key
    module, _, tail = head.rpartition(".") if bracket else name.rpartition(".")
    if bracket:
        tail = bracket + key
    return (
        module in ZOO_MODULES
        and not tail.startswith("_")
        and (tail.startswith("<") or tail[:1].islower())
    )


def _package_uses(
    imports: Sequence[ast.Import | ast.ImportFrom], attributes: Sequence[ast.Attribute]
) -> dict[str, set[str]]:
    """What the file uses from each imported top-level package: ``from timm.models import
    create_model`` uses ``timm.models.create_model``; ``import numpy as np`` then
    ``np.random.default_rng(...)`` uses ``numpy.random.default_rng`` (the whole attribute
    chain, not each link). Names are bound file-wide: an approximation, a local variable
    shadowing ``np`` is not told apart. ``attributes`` come breadth first (a chain's
    outermost link first)."""
    bound: dict[str, str] = {}  # local name -> dotted module path
    uses: dict[str, set[str]] = {}  # top-level package -> dotted names
    for node in imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.partition(".")[0]
                uses.setdefault(top, set())
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[top] = top
                if "." in alias.name:
                    uses[top].add(alias.name)
        elif not node.level and node.module:  # relative: the repository's own code
            top = node.module.partition(".")[0]
            used = uses.setdefault(top, set())
            for alias in node.names:
                if alias.name == "*":
                    used.add(f"{node.module}.*")
                else:
                    used.add(f"{node.module}.{alias.name}")
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    # Names are resolved once every import is bound: a name may be used in a function above
    # the (function-level or late) import that binds it.
    inner: set[int] = set()  # ids of the inner links of chains already recorded
    for node in attributes:
        if id(node) in inner:
            continue
        parts: list[str] = []
        current: ast.expr = node
        while isinstance(current, ast.Attribute):
            parts.append(current.attr)
            current = current.value
            inner.add(id(current))
        if isinstance(current, ast.Name) and current.id in bound:
            dotted = ".".join([bound[current.id], *reversed(parts)])
            uses[dotted.partition(".")[0]].add(dotted)
    return uses


#: the kinds :class:`_Reader` reads (it only walks past the others)
_READ_TYPES = node_kinds(
    (
        ast.Attribute,
        ast.Call,
        ast.Import,
        ast.ImportFrom,
        ast.Assign,
        ast.AnnAssign,
        ast.Subscript,
        ast.Try,
    )
)
#: Exceptions whose handler makes the imports of its ``try:`` optional.
_IMPORT_FAILURES = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _import_tops(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The top-level packages an absolute import names (``import a.b, c``: ``a`` and ``c``;
    ``from a.b import x``: ``a``); none for a relative one (the repository's own code)."""
    if isinstance(node, ast.Import):
        return {a.name.partition(".")[0] for a in node.names}
    if node.module and not node.level:
        return {node.module.partition(".")[0]}
    return set()


def _optional_imports(node: ast.Try) -> set[str]:
    """The top-level packages a ``try:`` imports in its own body when one of its handlers
    catches the import's failure."""

    def caught(handler: ast.ExceptHandler) -> bool:
        kinds = handler.type
        names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        return kinds is None or any(
            isinstance(n, ast.Name) and n.id in _IMPORT_FAILURES for n in names
        )

    if not any(caught(h) for h in node.handlers):
        return set()
    tops: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            tops |= _import_tops(stmt)
    return tops


def _fallback_imports(node: ast.Try) -> list[ast.Import | ast.ImportFrom]:
    """The imports of a ``try:``'s own body (:func:`_optional_imports`) whose every bound
    name a handler catching the import's failure assigns again: the stand-in the code runs
    with when the module is missing. A ``try:`` that returns what it imports builds (fairseq's
    ``DynamicConv``: ``from ...dynamicconv_layer import DynamicconvLayer; return
    DynamicconvLayer(...)``) with a handler that neither raises nor returns falls through
    to the code after it: that code is the stand-in, every import of the body optional."""
    imports = [s for s in node.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    found: list[ast.Import | ast.ImportFrom] = []
    if not imports:
        return found
    if isinstance(node.body[-1], ast.Return) and not node.orelse and not node.finalbody:
        for handler in node.handlers:
            kinds = handler.type
            names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            caught = kinds is None or any(
                isinstance(n, ast.Name) and n.id in _IMPORT_FAILURES for n in names
            )
            if caught and not any(
                isinstance(s, (ast.Raise, ast.Return)) for s in ast.walk(handler)
            ):
                return imports
    for handler in node.handlers:
        kinds = handler.type
        names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        if not (
            kinds is None
            or any(isinstance(n, ast.Name) and n.id in _IMPORT_FAILURES for n in names)
        ):
            continue
        bound = {
            t.id
            for s in handler.body
            if isinstance(s, ast.Assign)
            for target in s.targets
            for t in (target.elts if isinstance(target, ast.Tuple) else [target])
            if isinstance(t, ast.Name)
        }
        for stmt in imports:
            names_bound = {
                (a.asname or a.name).partition(".")[0] for a in stmt.names if a.name != "*"
            }
            if names_bound and names_bound <= bound and stmt not in found:
                found.append(stmt)
    return found


class _Reader:
    """Every node once, breadth first as ``ast.walk`` goes, with the functions and loops
    around it: read from the expression table's one walk (its order, and the nearest
    function and loop it notes above each node), never a walk of its own."""

    def __init__(self, tree: ast.Module, text: str, table: ValueReader) -> None:
        self.tree = tree
        self.lines = text.split("\n")
        #: every def's qualified name, and the first def of each name
        self.qualname, self.first = table.qualname, table.first
        #: each function's own body, listed once by the table, and ``ast.walk`` on the
        #: children it listed
        self.own = table.own
        self.walk = table.walk
        #: each call with the functions around it (first defs of their names, outermost
        #: first) and whether a loop is around it (a function defined in a loop included)
        self.calls: list[tuple[ast.Call, tuple[str, ...], bool]] = []
        self.attributes: list[ast.Attribute] = []
        self.imports_made: list[ast.Import | ast.ImportFrom] = []
        #: ids of the imports made inside a def
        self.lazy: set[int] = set()
        #: (attribute, first line, last line of the value, functions) of ``self.x = ...``
        self.assigns: list[tuple[str, int, int, tuple[str, ...]]] = []
        #: single-target assignments to an attribute (``cudnn.benchmark = True``)
        self.attr_assigns: list[ast.Assign] = []
        #: subscripts that reverse an axis (``img[:, ::-1]``)
        self.reversed: list[ast.Subscript] = []
        #: top-level packages imported only optionally (:func:`_optional_imports`)
        self.optional: set[str] = set()
        #: the imports a ``try:`` falls back from (:func:`_fallback_imports`)
        self.fallbacks: list[ast.Import | ast.ImportFrom] = []
        around = table.around
        defs = table.defs
        qualname, first = self.qualname, self.first
        #: def index -> the functions (first defs of their names) from the outermost down
        #: to that def, itself included when it is a function that is the first of its name
        chains: dict[int, tuple[str, ...]] = {-1: ()}

        def functions_of(fn: int) -> tuple[str, ...]:
            made = chains.get(fn)
            if made is None:
                node = defs[fn]
                outer = functions_of(around[id(node)][0])
                qual = qualname[node]
                made = chains[fn] = (*outer, qual) if first.get(qual) is node else outer
            return made

        read = _READ_TYPES
        for node in table.walked:
            kind = type(node)
            if kind not in read:  # most nodes (names, constants, contexts...): walked past
                continue
            if kind is ast.Attribute:
                self.attributes.append(node)  # type: ignore[arg-type]
            elif kind is ast.Call:
                fn, _scope, _near, looped = around[id(node)]
                self.calls.append((node, functions_of(fn), looped))  # type: ignore[arg-type]
            elif kind is ast.Import or kind is ast.ImportFrom:
                self.imports_made.append(node)  # type: ignore[arg-type]
                if around[id(node)][0] >= 0:  # inside a def
                    self.lazy.add(id(node))
            elif kind is ast.Assign or kind is ast.AnnAssign:
                self._self_assign(node, functions_of(around[id(node)][0]))  # type: ignore[arg-type]
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Attribute)
                ):
                    self.attr_assigns.append(node)
            elif kind is ast.Try:
                self.optional |= _optional_imports(node)  # type: ignore[arg-type]
                self.fallbacks += _fallback_imports(node)  # type: ignore[arg-type]
            elif isinstance(node, ast.Subscript) and reverses(node.slice):
                self.reversed.append(node)
        self.imports = import_table(self.imports_made)

    def _lazy_imports(self) -> tuple[str, ...]:
        """The top-level packages this file imports only inside functions."""
        lazy: set[str] = set()
        eager: set[str] = set()
        for node in self.imports_made:
            (lazy if id(node) in self.lazy else eager).update(_import_tops(node))
        return tuple(sorted(lazy - eager))

    def _self_assign(self, node: ast.Assign | ast.AnnAssign, functions: tuple[str, ...]) -> None:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif node.value is not None:
            targets, value = [node.target], node.value
        else:
            return
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                last = value.end_lineno or value.lineno
                self.assigns.append((target.attr, value.lineno, last, functions))

    def facts(self) -> SyntaxFacts:
        uses = _package_uses(self.imports_made, self.attributes)
        assigns, self_calls = self._self_facts()
        main_blocks = [
            (node.lineno, node.end_lineno or node.lineno)
            for node in self.tree.body
            if isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name)
            and node.test.left.id == "__name__"
        ]
        from apiscan.extract.input_steps import read_input_steps  # it reads this module's helpers

        steps = read_input_steps(self.tree, self.qualname, self.text, self.own, self.walk)
        return SyntaxFacts(
            imports=tuple(sorted(self.imports.items())),
            package_uses=tuple(
                (top, tuple(sorted(names)))
                for top, names in sorted(uses.items())
                if top not in _UNRECORDED_PACKAGES
            ),
            self_assigns=tuple(assigns),
            self_calls=tuple(self_calls),
            zoo_calls=tuple(self._zoo_calls()),
            host_trips=tuple(self._host_trips()),
            decorators=tuple(self._decorators()),
            lazy_imports=self._lazy_imports(),
            import_lines=import_lines(self.imports_made),
            main_guard=bool(main_blocks),
            optional_packages=tuple(sorted(self.optional)),
            optional_modules=import_lines(self.fallbacks),
            main_block=main_blocks[0] if main_blocks else (0, 0),
            spans=tuple(
                (q, node.lineno, node.end_lineno or node.lineno) for q, node in self.first.items()
            ),
            pipelines=tuple(self._pipelines()),
            registry_setups=(*self._registry_setups(), *self._hand_registries()),
            registered=tuple(self._registered()),
            lazy_augmentations=tuple(self._lazy_augmentations()),
            cudnn_flags=tuple(self._cudnn_flags()),
            flips=tuple(self._flips()),
            def_kinds=tuple(self._def_kinds()),
            init_routines=tuple(self._init_routines()),
            input_steps=steps,
        )

    def _def_kinds(self) -> Iterator[tuple[str, bool, str]]:
        methods = {
            child: self.qualname[node]
            for node in self.first.values()
            if isinstance(node, ast.ClassDef)
            for child in node.body
            if isinstance(child, _FuncDef)
        }
        for qual, node in self.first.items():
            yield qual, isinstance(node, ast.ClassDef), methods.get(node, "")

    def _init_routines(self) -> Iterator[tuple[str, int, int, tuple[tuple[str, str], ...]]]:
        for qual, fn in self.first.items():
            if not isinstance(fn, _FuncDef) or not INIT_NAME.fullmatch(fn.name):
                continue
            found: list[tuple[int, int, str, str]] = []
            for node in self.own(fn):
                if isinstance(node, ast.Assign | ast.AnnAssign):
                    target = single_target(node)
                    if isinstance(target, ast.Attribute) and is_literal(node.value):
                        found.append(
                            (node.lineno, node.col_offset, self.text(target), self.text(node.value))
                        )
                elif isinstance(node, ast.Call) and callee_name(node) in _INIT_CALLEES:
                    args = ", ".join(self.text(a) for a in [*node.args, *node.keywords])
                    found.append((node.lineno, node.col_offset, self.text(node.func), args))
            if found:
                values = tuple((key, value) for _, _, key, value in sorted(found))
                yield qual, fn.lineno, fn.end_lineno or fn.lineno, values

    def _cudnn_flags(self) -> Iterator[tuple[str, str, int]]:
        for node in self.attr_assigns:
            name = self.dotted(node.targets[0])
            if name in CUDNN_FLAGS:
                yield name, self.text(node.value), node.lineno

    def _flips(self) -> Iterator[tuple[int, str, str, str, str]]:
        for node in self.reversed:
            path = _ancestors(self.tree, node)
            at = [i for i, n in enumerate(path) if isinstance(n, _FuncDef)]
            if not at:
                continue  # module code
            fn = path[at[-1]]
            # the innermost ``if`` around the subscript, when it is in the same function
            innermost = next((n for n in reversed(path) if isinstance(n, ast.If)), None)
            if innermost is None or innermost not in path[at[-1] + 1 :]:
                continue
            owner = path[at[-1] - 1]
            cls = self.qualname.get(owner, "") if isinstance(owner, ast.ClassDef) else ""
            yield (
                node.lineno,
                self.text(node),
                self.text(innermost.test),
                self.qualname.get(fn, ""),
                cls,
            )

    def _lazy_augmentations(self) -> Iterator[LazyAugmentations]:
        for node in self.tree.body:
            if not isinstance(node, ast.Assign | ast.Expr):
                continue
            stored = self.text(node.targets[0]) if isinstance(node, ast.Assign) else ""
            for call in self.walk(node):
                lazy = _lazy_class(call)
                if lazy is None or not isinstance(call, ast.Call):
                    continue
                keywords = {k.arg: k.value for k in call.keywords if k.arg}
                train = keywords.get("is_train")
                augs = keywords.get("augmentations")
                if not isinstance(augs, ast.List) or (
                    isinstance(train, ast.Constant) and train.value is False
                ):
                    continue
                steps = []
                for step in augs.elts:
                    inner = _lazy_class(step)
                    if inner is not None and isinstance(step, ast.Call):
                        args = [self.text(a) for a in step.args]
                        args += [f"{k.arg}={self.text(k.value)}" for k in step.keywords if k.arg]
                        steps.append(f"{self.text(inner)}({', '.join(args)})")
                    else:
                        steps.append(self.text(step))
                yield LazyAugmentations(stored, call.lineno, tuple(steps))

    def _pipelines(self) -> Iterator[Pipeline]:
        for qual, fn in self.first.items():
            if not isinstance(fn, _FuncDef) or not PIPELINE_NAME.search(fn.name):
                continue
            steps = []
            for stmt, when in _statements(fn.body, ""):
                value = stmt.value if isinstance(stmt, ast.Assign) else None
                if isinstance(value, ast.Subscript):
                    # ``image = image[y0:y1, x0:x1]``: a crop at computed bounds
                    stored = _names(stmt.targets) & _names([value.value])
                    if stored and IMAGE_NAME.search(" ".join(sorted(stored))) and _cut(value):
                        steps.append((self.text(value), when, ""))
                    continue
                call = _threaded_call(value)
                if call is None:
                    continue
                stored = _names(stmt.targets)
                passed = _names(call.args)
                if stored & passed and IMAGE_NAME.search(" ".join(sorted(stored & passed))):
                    own = call.func.id if isinstance(call.func, ast.Name) else ""
                    steps.append((self.text(value), when, own if own in self.first else ""))
            if len(steps) >= MIN_THREADED:
                yield Pipeline(qual, fn.lineno, fn.end_lineno or fn.lineno, tuple(steps))

    def _registry_setups(self) -> Iterator[RegistrySetup]:
        for node in self.tree.body:
            call = node.value if isinstance(node, ast.Assign) else None
            if not (
                isinstance(node, ast.Assign)
                and isinstance(call, ast.Call)
                and callee_name(call) == "setup_registry"
                and call.args
                and isinstance(call.args[0], ast.Constant)
                and str(call.args[0].value).startswith("--")
            ):
                continue
            default = next((k.value for k in call.keywords if k.arg == "default"), None)
            registers = tuple(
                n.id
                for t in node.targets
                for n in ast.walk(t)
                if isinstance(n, ast.Name) and n.id.startswith("register")
            )
            literal = default.value if isinstance(default, ast.Constant) else None
            yield RegistrySetup(
                str(call.args[0].value),
                None if literal is None else str(literal),
                registers,
                node.lineno,
            )

    def _hand_registries(self) -> Iterator[RegistrySetup]:
        """The hand-written registries of :class:`RegistrySetup`: ``def register_x(name,
        ...)`` at module level with a nested def storing into a module-level table under
        ``name`` (``X_REGISTRY[name] = cls``)."""
        tables = {
            t.id
            for node in self.tree.body
            if isinstance(node, ast.Assign)
            and (
                isinstance(node.value, ast.Dict)
                or (isinstance(node.value, ast.Call) and callee_name(node.value) == "dict")
            )
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        for node in self.tree.body:
            if not (
                isinstance(node, ast.FunctionDef)
                and node.name.startswith("register_")
                and len(node.name) > len("register_")
                and node.args.args
            ):
                continue
            key = node.args.args[0].arg
            stores = any(
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id in tables
                and isinstance(target.slice, ast.Name)
                and target.slice.id == key
                for inner in node.body
                if isinstance(inner, ast.FunctionDef)
                for stmt in ast.walk(inner)
                if isinstance(stmt, ast.Assign)
                for target in stmt.targets
            )
            if stores:
                option = "--" + node.name[len("register_") :].replace("_", "-")
                yield RegistrySetup(option, None, (node.name,), node.lineno, hand=True)

    def _registered(self) -> Iterator[tuple[str, str, int]]:
        for node in self.first.values():
            for dec in node.decorator_list:
                if (
                    isinstance(dec, ast.Call)
                    and callee_name(dec).startswith("register")
                    and dec.args
                    and isinstance(dec.args[0], ast.Constant)
                ):
                    yield callee_name(dec), str(dec.args[0].value), node.lineno

    def _decorators(self) -> Iterator[tuple[str, int, tuple[str, ...]]]:
        for qual, node in self.first.items():
            names = [
                self.dotted(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list
            ]
            resolved = tuple(n for n in names if n)
            if resolved:
                yield qual, node.lineno, resolved

    def dotted(self, expr: ast.AST) -> str | None:
        """``T.RandomCrop`` → ``torchvision.transforms.RandomCrop`` through the file's imports."""
        return dotted_name(self.imports, expr)

    def text(self, node: ast.AST, limit: int | None = TEXT_LIMIT) -> str:
        return node_text(self.lines, node, limit)

    def _self_facts(
        self,
    ) -> tuple[list[tuple[str, int, int, tuple[str, ...]]], list[tuple[str, int, bool]]]:
        """``self.x = ...`` with the functions around it; ``self.x(...)`` with whether a loop
        runs it; and which functions call a host library."""
        #: the functions that call a host library (nested ones and those around them)
        self.host_callers: set[str] = set()
        host_imported = any(f"{n}.".startswith(HOST_LIBRARIES) for n in self.imports.values())
        calls: list[tuple[str, int, bool]] = []  # breadth first, as the review lists them
        for call, functions, looped in self.calls:
            func = call.func
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
                calls.append((func.attr, call.lineno, looped))
            if not functions:
                continue
            if host_imported and (self.dotted(func) or "").startswith(HOST_LIBRARIES):
                self.host_callers.update(functions)
        assigns = sorted(self.assigns, key=lambda a: (a[1], a[2], a[0], a[3]))
        return assigns, calls

    def _zoo_dotted(self, expr: ast.AST) -> str | None:
        """:meth:`dotted`, or the zoo package a name no import of the file binds spells in a
        file with a star import (``from .transforms import *`` bringing the ``import
        torchvision`` of that module: ``torchvision.models`` is the package's)."""
        found = self.dotted(expr)
        if found is not None:
            return found
        parts = name_chain(expr)
        if parts is None or parts[0] not in _ZOO_ROOTS or parts[0] in self.imports:
            return None
        starred = any(
            isinstance(node, ast.ImportFrom)
            and id(node) not in self.lazy
            and any(alias.name == "*" for alias in node.names)
            for node in self.imports_made
        )
        return ".".join(parts) if starred else None

    def _zoo_callee(self, func: ast.expr) -> str | None:
        """``torchvision.models.resnet50``, or ``torchvision.models.<name>`` for
        ``getattr(torchvision.models, name)(...)``, of the callable ``func``; None for
        anything else."""
        if (
            isinstance(func, ast.Subscript)
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "__dict__"
        ):  # torchvision.models.__dict__[args.arch]()
            owner = self._zoo_dotted(func.value.value)
            return f"{owner}.<{self.text(func.slice, 40)}>" if owner else None
        if (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Name)
            and func.func.id == "getattr"
            and func.args
        ):
            owner = self._zoo_dotted(func.args[0])
            if owner is None:
                return None
            return f"{owner}.<{self.text(func.args[1], 40)}>" if len(func.args) > 1 else owner
        return self._zoo_dotted(func)

    def _zoo_calls(self) -> Iterator[ZooCall]:
        for call, _, _ in self.calls:
            name = self._zoo_callee(call.func)
            args = call.args
            if name == "functools.partial" and args:
                # ``partial(torchvision.models.__dict__[args.arch], zero_init_residual=True)``
                # (moco-v3): the constructor is called later with what the partial binds
                name, args = self._zoo_callee(args[0]), args[1:]
            if not name or name.startswith(ZOO_EXCLUDED) or not is_zoo_constructor(name):
                continue
            keywords = {k.arg: k.value for k in call.keywords if k.arg}
            yield ZooCall(
                name,
                call.lineno,
                tuple((k, self.text(v)) for k, v in keywords.items()),
                tuple(self.text(a) for a in args),
            )

    def _host_methods(self) -> dict[str, str]:
        """Each method (qualified name) that calls a host library, directly or through an
        attribute its class sets to a host library's object (``self.to_t =
        interpolate.interp1d(...)`` in ``__init__``, called in ``sigma_to_t``), with that
        library call: a method calling it on what left the device takes a round trip."""
        attrs: dict[str, str] = {}  # "Cls.attr" -> the host library call that made it
        for qual, fn in self.first.items():
            owner = qual.rpartition(".")[0]
            if not owner or not isinstance(fn, _FuncDef):
                continue
            for node in self.walk(fn):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(target := node.targets[0], ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and isinstance(node.value, ast.Call)
                    and (made := self.dotted(node.value.func) or "").startswith(HOST_LIBRARIES)
                ):
                    attrs[f"{owner}.{target.attr}"] = made
        methods: dict[str, str] = {}
        for qual, fn in self.first.items():
            owner = qual.rpartition(".")[0]
            if not owner or not isinstance(fn, _FuncDef):
                continue
            for node in self.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                name = self.dotted(node.func) or ""
                if not name.startswith(HOST_LIBRARIES):
                    name = attrs.get(f"{owner}.{_self_method(node)}", "")
                if name:
                    methods[qual] = name
                    break
        return methods

    def _host_trips(self) -> Iterator[HostTrip]:
        host_imported = any(f"{n}.".startswith(HOST_LIBRARIES) for n in self.imports.values())
        methods = self._host_methods() if host_imported else {}
        for qual, fn in self.first.items():
            owner = qual.rpartition(".")[0]
            if not isinstance(fn, _FuncDef):
                continue
            if qual not in self.host_callers and not (methods and owner):
                continue  # no host library call below it, nor a method making one
            nodes = self.walk(fn)
            # a method of its own class that calls a host library (``self.sigma_to_t(s)``
            # for each ``s`` of ``sigmas.cpu().numpy()``): a host call here too
            helpers = {
                id(node): methods[f"{owner}.{called}"]
                for node in nodes
                if isinstance(node, ast.Call)
                and owner
                and (called := _self_method(node))
                and f"{owner}.{called}" in methods
                and f"{owner}.{called}" != qual
            }
            if qual not in self.host_callers and not helpers:
                continue  # no host library call below it
            pulled = _pulled_names(nodes)
            host: list[tuple[str, int]] = []
            out: list[int] = []  # lines taking a tensor to the host
            back: list[int] = []  # lines making a host value a tensor again
            for node in nodes:
                if not isinstance(node, ast.Call):
                    continue
                name = self.dotted(node.func) or ""
                if id(node) in helpers:
                    if _reads_pulled(node, pulled):
                        host.append(
                            (f"{helpers[id(node)]} (self.{_self_method(node)})", node.lineno)
                        )
                elif name.startswith(HOST_LIBRARIES):
                    # only a host call on what left the device: ``np.interp(step, ...)`` of
                    # a warm-up schedule or ``np.concatenate(dataset.labels)`` before the
                    # loop in a training function takes no tensor anywhere
                    if _reads_pulled(node, pulled):
                        host.append((name, node.lineno))
                elif name in FROM_HOST:
                    if _reads_pulled(node, pulled):
                        # a call spanning lines ends after what it wraps: ``torch.tensor([f(s)
                        # for s in x.cpu().numpy()], ...)`` brings it back
                        back.append(node.end_lineno or node.lineno)
                elif isinstance(node.func, ast.Attribute) and node.func.attr in TO_HOST_METHODS:
                    out.append(node.lineno)
            # A trip starts on the device: a tensor goes to the host before the host library
            # runs. A host value put through torch and handed back as numpy (detectron2's
            # ``BoxMode.convert``: ``torch.from_numpy(np.asarray(box))`` ... ``arr.numpy()``)
            # runs the other way, on data the host already holds.
            last = max((line for _, line in host), default=0)
            if host and any(line <= last for line in out):
                back += _indexing_lines(nodes, HOST_LIBRARIES, self.dotted, _joined_names(nodes))
                yield HostTrip(qual, tuple(host), any(line >= min(out) for line in back))


def _self_method(call: ast.Call) -> str:
    """``m`` of a call ``self.m(...)``, "" for any other call."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.attr if func.value.id == "self" else ""
    return ""


def _bound_names(target: ast.AST) -> Iterator[str]:
    """The names a binding target binds: ``a``, ``a, b``, ``self.cache`` (by its text, not
    ``self``), ``rows`` of ``rows[i] = ...`` (the container written into)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Attribute):
        if text := _attribute_text(target):
            yield text
    elif isinstance(target, (ast.Subscript, ast.Starred)):
        yield from _bound_names(target.value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _bound_names(element)


def _attribute_text(node: ast.AST) -> str:
    """``a.b.c`` of a chain of attributes on a name, "" for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def _pulled_names(nodes: Sequence[ast.AST]) -> frozenset[str]:
    """The names of a function bound to what left the device (``.cpu()``, ``.numpy()``,
    ``.tolist()``) or to what was computed from it (a host library's answer on it, an
    expression of it), in any order of the bindings (a loop carries them round): the data a
    host round trip takes out and brings back. ``nodes``: the function's."""
    bindings: list[tuple[list[str], ast.AST]] = []
    for node in nodes:
        if isinstance(node, ast.Assign):
            bindings.append(([n for t in node.targets for n in _bound_names(t)], node.value))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            bindings.append((list(_bound_names(node.target)), node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            bindings.append((list(_bound_names(node.target)), node.iter))
        elif isinstance(node, ast.NamedExpr):
            bindings.append((list(_bound_names(node.target)), node.value))
    pulled: set[str] = set()
    changed = True
    while changed:
        changed = False
        for names, value in bindings:
            if not set(names) <= pulled and _reads_pulled(value, pulled):
                pulled.update(names)
                changed = True
    return frozenset(pulled)


def _reads_pulled(expr: ast.AST, pulled: frozenset[str] | set[str]) -> bool:
    """Does ``expr`` take a tensor to the host or read a name bound to what did?"""
    for n in ast.walk(expr):
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in TO_HOST_METHODS
        ):
            return True
        if isinstance(n, ast.Name) and n.id in pulled:
            return True
        if isinstance(n, ast.Attribute) and _attribute_text(n) in pulled:
            return True
    return False


def _joined_names(nodes: Sequence[ast.AST]) -> set[str]:
    """Names a function joins into text (``' | '.join(token)``): what they hold are strings
    on the host, never tensors."""
    return {
        arg.id
        for node in nodes
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
        for arg in node.args
        if isinstance(arg, ast.Name)
    }


def _indexing_lines(
    nodes: Sequence[ast.AST],
    libraries: tuple[str, ...],
    dotted: Callable[[ast.AST], str | None],
    text: set[str] | frozenset[str] = frozenset(),
) -> list[int]:
    """Lines where a name bound to a host library's result indexes something (``gt_idxs,
    shift_idxs = linear_sum_assignment(cost.cpu().numpy())`` then ``labels[shift_idxs]``):
    the host's answer comes back into torch as an index, with no ``torch.as_tensor``.
    ``nodes``: a function's, as ``ast.walk`` meets them. ``text``: names joined into text
    (:func:`_joined_names`): an index picking what one of them holds (``token =
    tag_names[index]`` then ``' | '.join(token)``) picks strings on the host, and nothing
    comes back into torch."""
    names: set[str] = set()
    for node in nodes:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and (dotted(node.value.func) or "").startswith(libraries)
        ):
            for target in node.targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    picked = {
        id(sub)
        for node in nodes
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id in text for t in node.targets)
        for sub in ast.walk(node.value)
        if isinstance(sub, ast.Subscript)
    }
    return [
        node.lineno
        for node in nodes
        if isinstance(node, ast.Subscript)
        and id(node) not in picked
        and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node.slice))
    ]


#: Functions that may apply a data pipeline step by step.
PIPELINE_NAME = re.compile(r"transform|augment|preprocess", re.IGNORECASE)
#: Names of what such a pipeline threads: the image (its boxes follow it).
IMAGE_NAME = re.compile(r"im(a?ge?)?|img|pic|sample", re.IGNORECASE)
#: Fewer threaded calls than this are a helper, not a pipeline.
MIN_THREADED = 3


#: Functions named for a weight initialisation, and the in-place calls that set weights.
INIT_NAME = re.compile(
    r"_?(init_weights?|init_params|initiali[sz]e\w*|reset_parameters|weights?_init\w*|init_\w+"
    # simple-faster-rcnn's ``normal_init(m, mean, stddev)``, mmcv-style ``kaiming_init``
    r"|(normal|xavier|kaiming|constant|uniform|trunc_normal|msra|zeros?|orthogonal)_init)"
)
INIT_CALLS = frozenset({"fill_", "normal_", "uniform_", "zero_", "constant_", "copy_"})
#: the in-place initialisers torch.nn.init names, which repositories also define themselves
#: (DINO's and timm's ``trunc_normal_``, written before torch had one)
INIT_FUNCTIONS = frozenset(
    {
        "trunc_normal_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
        "orthogonal_",
        "zeros_",
        "ones_",
        "eye_",
        "dirac_",
        "sparse_",
        "lecun_normal_",
        "variance_scaling_",
    }
)
_INIT_CALLEES = INIT_CALLS | INIT_FUNCTIONS


def single_target(stmt: ast.AST) -> ast.expr | None:
    """The target of an assignment to one target (``x = v``, ``x: T = v``), else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return stmt.targets[0]
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return stmt.target
    return None


def own_body(fn: ast.AST) -> list[ast.AST]:
    """Nodes of a function's own body: nested functions and classes are other scopes. A list
    built without ``ast.iter_child_nodes``' generators (the review reads every function's
    body this way: a tenth of its facts' CPU went to the generators)."""
    stack = child_nodes(fn)
    out: list[ast.AST] = []
    scopes = _OTHER_SCOPES
    while stack:
        node = stack.pop()
        out.append(node)
        if type(node) not in scopes:
            stack += child_nodes(node)
    return out


#: the node kinds that open a scope of their own
_OTHER_SCOPES = node_kinds((ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``list(ast.iter_child_nodes(node))`` without its generator, reading only the fields
    of the node's kind that can hold nodes (a name's ``id``, a constant's ``value``...
    never do: the commonest nodes have one such field or none)."""
    kind = type(node)
    names = _NODE_FIELDS.get(kind)
    if names is None:
        names = _NODE_FIELDS[kind] = tuple(
            name
            for name in kind._fields
            if name not in _SCALAR_FIELDS and not (kind is ast.Constant and name == "value")
        )
    out: list[ast.AST] = []
    for name in names:
        field = getattr(node, name, None)
        if isinstance(field, ast.AST):
            out.append(field)
        elif isinstance(field, list):
            out += [item for item in field if isinstance(item, ast.AST)]
    return out


def walk_nodes(node: ast.AST) -> list[ast.AST]:
    """``list(ast.walk(node))`` (the same breadth-first order) without its generators."""
    out = [node]
    i = 0
    while i < len(out):
        out += child_nodes(out[i])
        i += 1
    return out


#: Fields that hold an identifier, a number or a string in Python's grammar, never a node.
_SCALAR_FIELDS = frozenset(
    {"id", "attr", "arg", "name", "module", "level", "kind", "type_comment", "is_async"}
    | {"conversion", "asname", "tag"}
)
#: each node kind's fields that may hold nodes (filled as kinds are met)
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


#: The cuDNN switches a recipe's reproducibility rows show.
CUDNN_FLAGS = frozenset({"torch.backends.cudnn.deterministic", "torch.backends.cudnn.benchmark"})


def reverses(index: ast.AST) -> bool:
    """``::-1`` among a subscript's slices (a step that is the literal -1)."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(isinstance(p, ast.Slice) and literal_value(p.step) == -1 for p in parts)


#: The node kinds a literal is built of (``0.01 / 64.0``, ``(0.9, 0.999)``, ``-1``).
_LITERAL_KINDS = (
    ast.Constant,
    ast.UnaryOp,
    ast.BinOp,
    ast.Tuple,
    ast.List,
    ast.Set,
    ast.Dict,
    ast.operator,
    ast.unaryop,
    ast.expr_context,
)


def is_literal(node: ast.AST) -> bool:
    """Built only from constants and operators (``0.01 / 64.0``, ``(0.9, 0.999)``, ``-1``)."""
    return all(isinstance(n, _LITERAL_KINDS) for n in ast.walk(node))


def literal_value(node: ast.AST | None) -> object:
    """The Python value of a literal, or None when it is not one."""
    if node is None or not is_literal(node):
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None  # "0.01 / 64.0": a literal, but not one literal_eval computes


def _ancestors(tree: ast.AST, target: ast.AST) -> list[ast.AST]:
    """The nodes from ``tree`` down to ``target``'s parent: a search that skips every
    statement whose lines do not hold ``target`` (a file with a flip pays for one path, not
    for a parent map of the whole tree)."""
    line = getattr(target, "lineno", 0)
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    path: list[ast.AST] = []
    while stack:
        node, depth = stack.pop()
        del path[depth:]
        if node is target:
            return path
        path.append(node)
        for child in ast.iter_child_nodes(node):
            first = getattr(child, "lineno", None)
            if first is not None and not first <= line <= (child.end_lineno or first):
                continue
            stack.append((child, depth + 1))
    return []


def _lazy_class(node: ast.AST) -> ast.expr | None:
    """``X`` of ``L(X)(...)`` / ``LazyCall(X)(...)`` (a lazy config's deferred call)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Call):
        return None
    inner = node.func
    if callee_name(inner) in ("L", "LazyCall") and len(inner.args) == 1:
        return inner.args[0]
    return None


def _threaded_call(value: ast.AST | None) -> ast.Call | None:
    """The call that takes the image in ``value``: the value itself, or the innermost call of
    a method chain on a call's result (``np.fliplr(image).copy()``: ``np.fliplr(image)``)."""
    call = value if isinstance(value, ast.Call) else None
    while (
        call is not None
        and not call.args
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Call)
    ):
        call = call.func.value
    return call


def _cut(sub: ast.Subscript) -> bool:
    """A slice with a bound computed at run time (``image[y0:y1]``, not ``image[:, ::-1]``)."""
    parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
    return any(
        isinstance(p, ast.Slice) and any(b is not None and _names([b]) for b in (p.lower, p.upper))
        for p in parts
    )


def _names(exprs: Iterable[ast.AST]) -> set[str]:
    """Every name read or bound anywhere in ``exprs``."""
    return {n.id for e in exprs for n in ast.walk(e) if isinstance(n, ast.Name)}


def _statements(body: Sequence[ast.stmt], when: str) -> Iterator[tuple[ast.stmt, str]]:
    """Statements in the order they run, into ``if`` bodies (with their test; the ``else``
    with it negated) and the bodies of ``with``, loops and ``try``."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            test = ast.unparse(stmt.test)
            yield from _statements(stmt.body, f"{when} and {test}" if when else test)
            yield from _statements(
                stmt.orelse, f"{when} and not ({test})" if when else f"not ({test})"
            )
        elif isinstance(stmt, ast.With | ast.For | ast.While | ast.Try):
            yield from _statements(stmt.body, when)
        else:
            yield stmt, when


def name_chain(expr: ast.AST) -> list[str] | None:
    """``cfg.MODEL.META_ARCHITECTURE`` → ``["cfg", "MODEL", "META_ARCHITECTURE"]``: the names
    of an attribute chain from its root name; None when the root is not a plain name (a
    call, a subscript)."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return parts[::-1]


def dotted_name(imports: Mapping[str, str], expr: ast.AST) -> str | None:
    """The dotted name ``expr`` spells through a file's imports (local name → module path):
    ``T.RandomCrop`` → ``torchvision.transforms.RandomCrop``; None when it starts elsewhere."""
    parts = name_chain(expr)
    if parts is None or parts[0] not in imports:
        return None
    return ".".join([imports[parts[0]], *parts[1:]])
