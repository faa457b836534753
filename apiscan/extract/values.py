"""The values the review's recipe follows, recorded by the worker from Python's tree.

The recipe follows an argument to the literal it stands for (a name to its assignments, a
parameter to its call sites and default, ``args.lr`` to its argparse default, ``self.lr`` and
``cfg.lr`` to the class that sets them). It reads these records instead of parsing the file a
second time: the worker already holds the tree when a review is asked for
(``task.syntax``), so it writes down, once, what the follower asks of a file:

- every expression it may follow, as a small :class:`Expr` tree carrying its source text and
  place (never an ``ast`` node: records cross processes and live in the cache);
- every def and class (:class:`DefValues`): its parameters with their defaults, the
  assignments of its own body (each target of a chained one), its augmented assignments
  (``lbox *= 0.05``: a loss term's weight written in place), what it returns, the names
  its loops bind;
- every call (:class:`CallValues`), in the order ``ast.walk`` meets them, with the function
  it is in (call sites, argparse options, repository calls);
- the module's own assignments, and the star and relative imports.

Positions are those of Python's tree (lines of the parsed text, columns in UTF-8 bytes); a
call also carries its end column in characters, as the scan's findings count them.
"""

from __future__ import annotations

import ast
import pickle
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from itertools import pairwise, repeat
from typing import TYPE_CHECKING, NamedTuple

from apiscan.extract.syntax import (
    _LITERAL_KINDS as _LITERAL,
)
from apiscan.extract.syntax import (
    _SPACED,
    TEXT_LIMIT,
    child_nodes,
    def_names,
    joined_text,
    node_kinds,
    node_position,
    shorten,
    single_target,
)

if TYPE_CHECKING:
    from apiscan.extract.models import ModelFacts

#: Node kinds whose children an :class:`Expr` keeps (operators and contexts are named by
#: their parent: a ``BinOp``'s ``name`` is its operator's).
_KEPT = (ast.expr, ast.keyword, ast.comprehension)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_KEPT_TYPES = node_kinds(_KEPT)
_LITERAL_TYPES = node_kinds(_LITERAL)
#: what :meth:`ValueReader.build` reads of the walk's other nodes
_SCOPE_TYPES = node_kinds(_SCOPES)
#: the kinds with a ``body`` field (a list of statements, or a lambda's expression)
_BODY_TYPES = frozenset(kind for kind in node_kinds((ast.AST,)) if "body" in kind._fields)
#: the loops whose body (and target, iterable) the syntax facts call looped
_LOOP_TYPES = node_kinds((ast.For, ast.While, ast.comprehension))
_BUILT_TYPES = node_kinds((ast.Call, ast.For, ast.AsyncFor, ast.ImportFrom))
#: what collapsing whitespace or :data:`_SPACED` would change in a one-line text
_RESPACED = re.compile(r"\s\s|[^\S ]|^\s|\s$|[(\[{] | [)\]}]")


class Expr(NamedTuple):
    """An expression as the recipe reads it (a named tuple: cheap to build and to pickle,
    and the record holds one per expression of the file).

    ``kind`` is the ``ast`` class name (``Name``, ``Attribute``, ``Call``, ``keyword``...);
    ``parts`` its children in ``ast.iter_child_nodes`` order (expressions, keywords and
    comprehensions only), so a walk over them meets names in the order ``ast.walk`` does."""

    kind: str
    #: source text on one line, whitespace runs collapsed, cut at :data:`TEXT_LIMIT`
    text: str
    line: int
    col: int
    end_line: int
    end_col: int
    #: a ``Name``'s id, an ``Attribute``'s attr, a ``keyword``'s arg ("" for ``**``), an
    #: operator's class name for ``BinOp``/``UnaryOp``/``BoolOp``/``Compare`` (its first)
    name: str = ""
    parts: tuple[Expr, ...] = ()
    #: a ``Dict``'s keys: the string of each constant string key, else None
    keys: tuple[str | None, ...] = ()
    #: built only from constants and operators (``0.01 / 64.0``, ``(0.9, 0.999)``)
    literal: bool = False
    #: a ``Constant``'s value
    value: object = None
    #: the whole text when :attr:`text` was cut, else None
    whole: str | None = None

    def full(self) -> str:
        return self.text if self.whole is None else self.whole

    def shown(self, limit: int | None = TEXT_LIMIT) -> str:
        """The text cut at ``limit`` (None: never)."""
        return shorten(self.full(), limit)

    # -- the children by role
    @property
    def func(self) -> Expr:
        """A call's callee."""
        return self.parts[0]

    @property
    def args(self) -> tuple[Expr, ...]:
        """A call's positional arguments."""
        return tuple(p for p in self.parts[1:] if p.kind != "keyword")

    @property
    def keywords(self) -> tuple[Expr, ...]:
        """A call's keyword arguments (``keyword`` nodes: ``name`` and ``value``)."""
        return tuple(p for p in self.parts if p.kind == "keyword")

    @property
    def target(self) -> Expr:
        """An attribute's, subscript's, starred's or keyword's inner value."""
        return self.parts[0]

    @property
    def items(self) -> tuple[Expr, ...]:
        """A dict's values (one per :attr:`keys`)."""
        return self.parts[len(self.parts) - len(self.keys) :] if self.keys else ()

    def unpacks(self) -> bool:
        """A call passes ``*args`` or ``**kwargs``: any parameter it does not name may be in
        it (the one reading of an unpacking call, for every binder of calls to defs)."""
        return any(a.kind == "Starred" for a in self.args) or any(not k.name for k in self.keywords)

    def callee(self) -> str:
        """The last name of what a call calls (``f`` of ``a.b.f(...)``), "" for anything else."""
        func = self.parts[0] if self.parts else None
        return func.name if func is not None and func.kind in ("Name", "Attribute") else ""

    def walk(self) -> list[Expr]:
        """This expression and every part, breadth first (``ast.walk``'s order)."""
        out = [self]
        i = 0
        while i < len(out):
            out.extend(out[i].parts)
            i += 1
        return out

    def chain(self) -> list[str] | None:
        """``cfg.MODEL.NAME`` → ``["cfg", "MODEL", "NAME"]``; None unless rooted at a name."""
        parts: list[str] = []
        node = self
        while node.kind == "Attribute":
            parts.append(node.name)
            node = node.parts[0]
        if node.kind != "Name":
            return None
        parts.append(node.name)
        return parts[::-1]


def literal_value(expr: Expr | None) -> object:
    """The Python value of a literal number, string or sequence of them (what
    ``ast.literal_eval`` computes of it), else None: the one reading of a literal the
    review's recipe and inference steps share."""
    if expr is None or not expr.literal:
        return None
    if expr.kind == "Constant":
        return expr.value
    if expr.kind == "UnaryOp" and expr.name in ("USub", "UAdd"):
        inner = literal_value(expr.parts[0])
        if isinstance(inner, int | float | complex) and not isinstance(inner, bool):
            return -inner if expr.name == "USub" else +inner
        return None
    if expr.kind in ("Tuple", "List"):
        items = [literal_value(p) for p in expr.parts]
        if any(i is None and p.text != "None" for i, p in zip(items, expr.parts, strict=True)):
            return None
        return tuple(items) if expr.kind == "Tuple" else items
    return None


def field_default(value: Expr) -> Expr:
    """A dataclass field's default: ``seed: int = field(default=1, metadata=...)`` → ``1``,
    ``lr: List[float] = field(default_factory=lambda: [0.25])`` → ``[0.25]`` (fairseq's
    configuration dataclasses); any other value as it is."""
    if not (value.kind == "Call" and value.callee() == "field"):
        return value

    for keyword in value.keywords:
        if keyword.name == "default":
            return keyword.target
        if keyword.name == "default_factory" and keyword.target.kind == "Lambda":
            return keyword.target.parts[-1]
    return value


def is_numeric(value: object) -> bool:
    """A number, or a non-empty list or tuple of them (a mean, a size, a threshold): of
    :func:`literal_value`'s values, those a setting or a preprocessing step is."""
    if isinstance(value, list | tuple):
        return bool(value) and all(is_numeric(v) for v in value)
    return isinstance(value, int | float) and not isinstance(value, bool)


class ArgOption(NamedTuple):
    """An argparse option as ``parser.add_argument(...)`` declares it."""

    #: the attribute the parsed namespace holds it in (``batch_size`` for ``--batch-size``)
    dest: str
    #: the flag that names it (the first long one: ``--batch-size``)
    option: str
    #: the ``default=`` expression, None without one
    default: Expr | None
    #: the ``action=`` constant ("" without one)
    action: str
    #: a positional argument or a ``required=True`` option: the command line always gives it
    required: bool = False
    #: how many of a command line's words it takes: 0 for a flag (``store_true``), one
    #: without ``nargs`` (``--rank 0 /data``: the path is a positional), N for ``nargs=N``,
    #: None for any number (``nargs="+"``, ``"*"``, a name)
    words: int | None = 1


#: The argparse actions that take no word of the command line.
_FLAG_ACTIONS = frozenset(
    ("store_true", "store_false", "store_const", "append_const", "count", "help", "version")
)


def _word_count(action: str, nargs: Expr | None) -> int | None:
    """How many words an option with ``action`` and ``nargs`` takes (:attr:`ArgOption.words`):
    argparse gives a ``store`` option exactly one and leaves the next to the positionals."""
    if action in _FLAG_ACTIONS:
        return 0
    if nargs is None:
        return 1
    if nargs.kind == "Constant" and nargs.value == "?":
        return 1
    if nargs.kind == "Constant" and isinstance(nargs.value, int) and nargs.value >= 0:
        return nargs.value
    return None


def argparse_option(expr: Expr) -> ArgOption | None:
    """``parser.add_argument("-b", "--batch-size", default=64)`` → the option ``batch_size``;
    None for any other call: the one reading of an argparse declaration (the recipe's
    settings, the inference path's numbers and the model tree's default architecture).
    A click option declared as a decorator (``@click.option('--cfg', type=click.Choice([
    ...]), required=True)``, stylegan3's train.py) is read the same way (:func:`click_option`)."""
    if not (expr.kind == "Call" and expr.func.kind == "Attribute"):
        return None
    if expr.func.name == "option" and expr.func.text == "click.option":
        return click_option(expr)
    if expr.func.name != "add_argument":
        return None
    names = [a.value for a in expr.args if a.kind == "Constant" and isinstance(a.value, str)]
    if not names:
        return None
    keywords = {k.name: k.target for k in expr.keywords if k.name}
    longs = [n for n in names if n.startswith("--")]
    option = longs[0] if longs else names[0]
    dest_node = keywords.get("dest")
    if dest_node is not None and dest_node.kind == "Constant" and isinstance(dest_node.value, str):
        dest = dest_node.value
    else:
        dest = option.lstrip("-").replace("-", "_")
    action = keywords.get("action")
    shown = action.value if action is not None and action.kind == "Constant" else ""
    # a positional argument is given unless ``nargs`` lets it be left out
    nargs = keywords.get("nargs")
    optional = option.startswith("-") or (
        nargs is not None and nargs.kind == "Constant" and nargs.value in ("?", "*")
    )
    flag = keywords.get("required")
    required = not optional or (
        flag is not None and not (flag.kind == "Constant" and not flag.value)
    )
    words = _word_count(str(shown), nargs)
    return ArgOption(dest, option, keywords.get("default"), str(shown), required, words)


def click_option(expr: Expr) -> ArgOption | None:
    """A ``click.option(...)`` declaration as an option, read as an argparse one is
    (:func:`argparse_option` hands it here): its name is the bare identifier among the
    declarations (``click.option('-n', '--dry-run', 'dry')``: ``dry``), else the longest
    flag's (before a ``/--no-x`` twin) with its dashes made underscores and lower-cased, as
    click names the keyword argument the command receives (``--dry-run`` → ``dry_run``);
    ``is_flag=True`` stores True, as argparse's ``store_true`` does. Required when
    ``required=True`` says so. None for any other call."""
    if not (expr.kind == "Call" and expr.func.kind == "Attribute"):
        return None
    if expr.func.name != "option" or expr.func.text != "click.option":
        return None
    names = [a.value for a in expr.args if a.kind == "Constant" and isinstance(a.value, str)]
    flags = [n for n in names if n.startswith("-")]
    if not flags:
        return None
    bare = [n for n in names if n.isidentifier()]
    option = max(flags, key=len)
    dest = bare[0] if bare else option.lstrip("-").split("/")[0].replace("-", "_")
    keywords = {k.name: k.target for k in expr.keywords if k.name}
    flag = keywords.get("is_flag")
    action = "store_true" if flag is not None and flag.kind == "Constant" and flag.value else ""
    needed = keywords.get("required")
    required = needed is not None and not (needed.kind == "Constant" and not needed.value)
    # click's ``nargs=-1`` takes any number (no count), ``nargs=2`` two, a flag none
    nargs = keywords.get("nargs")
    words = 0 if action else _word_count("", nargs)
    return ArgOption(dest.lower(), option, keywords.get("default"), action, required, words)


@dataclass(frozen=True, slots=True)
class AssignValues:
    """``target = value`` (``target: T = value`` too); a chained ``a = b = value`` is one
    record per target, left to right, sharing the statement's line and order."""

    target: Expr
    value: Expr
    line: int
    #: a statement of its scope's own body, not nested in an ``if``/``for``/``with``...
    top: bool
    annotated: bool
    #: its place in ``ast.walk``'s order over the file (sorting by it gives that order)
    order: int
    #: the test of the ``if`` that follows it in the same body when that ``if`` starts by
    #: assigning (``lr = ...`` then ``if lr < 1e-5: lr = 1e-5``: ``lr < 1e-5``), else None
    guard: Expr | None = None
    #: the ``if`` statements around it, innermost first (as a call's): which of
    #: ``if args.network == "a": cfg = cfg_a`` / ``elif ...: cfg = cfg_b`` runs is told by
    #: them, though no call sits in those branches
    ifs: tuple[IfValues, ...] = ()


@dataclass(frozen=True, slots=True)
class DefValues:
    """A def or class of the file."""

    #: module-relative qualified name (``Net.forward``)
    qual: str
    name: str
    is_class: bool
    line: int
    end_line: int
    #: index (in :attr:`FileValues.defs`) of the class this def is a method of, else -1
    owner: int
    #: index of the function ``ast``'s nearest enclosing function is for this def's own
    #: body: the def itself for a function, the function around a class (-1 if none)
    function: int
    #: (name, default) of every named parameter, positional ones first
    params: tuple[tuple[str, Expr | None], ...] = ()
    #: names of the positional parameters (``self`` included)
    positional: tuple[str, ...] = ()
    vararg: bool = False
    static: bool = False
    #: the name of its ``**kwargs`` parameter ("" without one): a config builder
    #: ``get_args(**kwargs)`` holds the caller's ``**Cfg`` entries under it
    kwarg: str = ""
    #: assignments of its own body (one per target) (nested defs left out), in
    #: :func:`~apiscan.extract.syntax.own_body` order
    assigns: tuple[AssignValues, ...] = ()
    #: values of its own ``return`` statements, in the same order
    returns: tuple[Expr, ...] = ()
    #: names bound by the targets of its own ``for`` loops
    loop_names: tuple[str, ...] = ()
    #: (first line, last line) of its own ``for`` and ``while`` loops: an assignment later
    #: in a loop's body reaches a use earlier in it on the next pass
    loop_spans: tuple[tuple[int, int], ...] = ()
    #: the augmented assignments of its own body, loops included, by line (``lbox *=
    #: 0.05`` after a loop summing the term: the weight a loss term is given in place)
    updates: tuple[UpdateValues, ...] = ()
    #: the ``if`` statements of its own body (an ``elif`` is one of its own), in source
    #: order: the branches a schedule function picks its factor by (``if i < burn_in: ...
    #: elif i < steps[0]: ...``), whatever calls they hold
    branches: tuple[IfValues, ...] = ()
    #: a function's decorators, outermost first (``@weighted_loss``: a repository decorator
    #: whose wrapper ``(pred, target, weight=None, reduction='mean', **kwargs)`` is what
    #: callers call)
    decorators: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class IfValues:
    """An ``if`` statement: its test, the function it is in, its span."""

    test: Expr
    function: int
    line: int
    col: int
    end_line: int
    end_col: int
    #: the last line of the ``if``'s own body: a line after it (up to ``end_line``) is in
    #: its ``elif``/``else``; 0 when not recorded
    body_end: int = 0


@dataclass(frozen=True, slots=True)
class UpdateValues:
    """An in-place update: an augmented assignment (``v *= d``: ``op`` "Mult"), or, in a
    loop body, a call (``v.mul_(d).add_(...)``: ``op`` "")."""

    #: the augmented assignment's target, or the call
    node: Expr
    op: str
    #: the statement holding it: its text (whole for an augmented assignment, cut at
    #: TEXT_LIMIT for a call's statement) and line
    statement: str
    line: int
    #: the augmented assignment's right-hand side (``g_lr -= self.g_lr / n``: the step a
    #: hand-written schedule takes); None for a call
    value: Expr | None = None
    #: the ``if`` statements around an augmented assignment, innermost first (as a call's):
    #: which branch grows a list (``params += [{...}]`` for biases, ``else`` for weights)
    ifs: tuple[IfValues, ...] = ()


@dataclass(frozen=True, slots=True)
class LoopValues:
    """A ``for`` loop: what it iterates, the names it binds, what its body updates."""

    iter: Expr
    names: tuple[str, ...]
    function: int
    line: int
    #: the texts of the ``with`` items around it and of the decorators of the functions
    #: around it, up to its class or module (``torch.no_grad()``), innermost first
    contexts: tuple[str, ...]
    #: every augmented assignment and call of its body, statement by statement, each
    #: statement's breadth first (``ast.walk``'s order)
    updates: tuple[UpdateValues, ...]


@dataclass(frozen=True, slots=True)
class CallValues:
    """A call, with the function it is in."""

    expr: Expr
    #: index of the nearest enclosing function (in :attr:`FileValues.defs`), else -1
    function: int
    #: the end column in characters (the scan's findings end there)
    end_char: int
    #: index of the def or class whose own body holds the call (-1: the module's; -2: none,
    #: the call is in a lambda)
    scope: int = -1
    #: the ``if`` statements around the call, innermost first
    ifs: tuple[IfValues, ...] = ()
    #: the call is a statement of its own (``lr_sched.adjust_learning_rate(...)``)
    statement: bool = False
    #: what the call's result is assigned to (``x = call(...)``, one target), else None
    stored: Expr | None = None
    #: the names the statement holding the call assigns (``t = [T.Resize(...)]``: ``t``)
    assigned: tuple[str, ...] = ()
    #: its place in :func:`~apiscan.extract.syntax.own_body`'s order over its scope
    own_order: int = -1
    #: the call is in an ``except`` handler of a ``try`` in its own function: a fallback
    #: that runs only when the ``try``'s body failed (``except: load_darknet_weights(...)``
    #: after ``torch.load``)
    fallback: bool = False

    @property
    def when(self) -> Expr | None:
        """The test of the nearest ``if`` around the call."""
        return self.ifs[0].test if self.ifs else None

    @property
    def when_function(self) -> int:
        return self.ifs[0].function if self.ifs else -1

    @property
    def when_text(self) -> str:
        """The nearest ``if``'s test as the call runs under it, "" with none: negated for a
        call in that ``if``'s ``else`` (open_clip's ``Compose`` in the ``else`` of ``if
        use_timm:`` runs when ``not use_timm``)."""
        if not self.ifs:
            return ""
        near = self.ifs[0]
        text = near.test.text
        if near.body_end and near.body_end < self.expr.line <= near.end_line:
            simple = near.test.kind in ("Name", "Attribute", "Call", "Subscript")
            return f"not {text}" if simple else f"not ({text})"
        return text


@dataclass(frozen=True, slots=True)
class FileValues:
    """What the recipe's value follower reads of one file (module docstring)."""

    #: every def and class, in :func:`~apiscan.extract.syntax.def_names` order
    defs: tuple[DefValues, ...] = ()
    #: assignments of the module's own body, in ``own_body`` order
    assigns: tuple[AssignValues, ...] = ()
    #: every call, in ``ast.walk`` order
    calls: tuple[CallValues, ...] = ()
    #: (level, module) of every ``from X import *``
    star_imports: tuple[tuple[int, str], ...] = ()
    #: (bound name, level, module, imported name) of every relative ``from .X import y``
    relative_imports: tuple[tuple[str, int, str, str], ...] = ()
    #: every ``for`` loop, in ``ast.walk`` order
    loops: tuple[LoopValues, ...] = ()
    #: the module's own ``for`` and ``while`` loops (:attr:`DefValues.loop_spans`)
    loop_spans: tuple[tuple[int, int], ...] = ()
    #: the augmented assignments of the module's own body, by line (:attr:`DefValues.updates`)
    updates: tuple[UpdateValues, ...] = ()
    #: the model tree's index over the same expressions (:mod:`apiscan.extract.models`)
    models: ModelFacts | None = None

    def __reduce__(self) -> tuple[Callable[[bytes], FileValues], tuple[bytes]]:
        """Pickled as one compressed blob of its fields: the expression table is most of a
        reviewed file's cache entry (a tree of small tuples whose texts repeat their
        parts'), and a quarter of that size once compressed; the value records and the
        model tree's index share their expressions inside it."""
        fields = tuple(getattr(self, name) for name in _FIELDS)
        return _unpacked, (zlib.compress(pickle.dumps(fields, pickle.HIGHEST_PROTOCOL), 1),)


_FIELDS = tuple(f.name for f in dataclass_fields(FileValues))


def _unpacked(blob: bytes) -> FileValues:
    """A :class:`FileValues` from its pickled blob (:meth:`FileValues.__reduce__`)."""
    return FileValues(*pickle.loads(zlib.decompress(blob)))


#: ``list(ast.iter_child_nodes(node))`` without its generators (the walk lists the children
#: of every node of the file once)
_children = child_nodes


def _loop_spans(own: Sequence[ast.AST]) -> tuple[tuple[int, int], ...]:
    """(first line, last line) of the ``for`` and ``while`` loops among a scope's own nodes."""
    return tuple(
        (n.lineno, n.end_lineno or n.lineno)
        for n in own
        if isinstance(n, ast.For | ast.AsyncFor | ast.While)
    )


def file_values(tree: ast.Module, text: str) -> FileValues:
    """The value record of a file from Python's tree of ``text``."""
    return ValueReader(tree, text).build()


class ValueReader:
    """Builds the records of one tree (:func:`file_values`); :meth:`expr` reads one expression."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.strs = text.split("\n")
        self.lines = [line.encode("utf-8") for line in self.strs]
        self.ascii = [line.isascii() for line in self.strs]
        self.made: dict[int, Expr] = {}
        #: id of each node -> its children (``ast.iter_child_nodes``), listed once
        self.kids: dict[int, list[ast.AST]] = {}
        #: id of each statement -> the statement after it in the same ``body``
        self.after: dict[int, ast.stmt] = {}
        #: id of each node -> its parent, and its place in ``ast.walk``'s order (build)
        self.parent: dict[int, ast.AST] = {}
        self.order: dict[int, int] = {}
        self.ifs: dict[int, IfValues] = {}
        #: id of each scope -> its own body (:meth:`own`)
        self.owns: dict[int, list[ast.AST]] = {}
        self.around: dict[int, tuple[int, int, ast.If | None, bool]] = {}
        self.walked: list[ast.AST] = []
        self.defs: list[ast.AST] = []
        self.qualname: dict[ast.AST, str] = {}
        self.first: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = {}
        self.def_index: dict[int, int] = {}

    # -- expressions
    def expr(self, node: ast.AST) -> Expr:
        made = self.made.get(id(node))
        if made is not None:
            return made
        parts_list: list[Expr] = []
        # kinds compared by type, not isinstance: this runs for every expression of the
        # file, and ``ast.parse`` makes no subclasses of its node classes
        kind = type(node)
        literal = kind in _LITERAL_TYPES
        children = self.kids.get(id(node))
        for child in ast.iter_child_nodes(node) if children is None else children:
            child_kind = type(child)
            if child_kind in _KEPT_TYPES:
                part = self.expr(child)
                parts_list.append(part)
                literal = literal and part.literal
            elif child_kind not in _LITERAL_TYPES:
                literal = False
        parts = tuple(parts_list)
        name = ""
        value: object = None
        keys: tuple[str | None, ...] = ()
        if kind is ast.Name:
            name = node.id  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            name = node.attr  # type: ignore[attr-defined]
        elif kind is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
        elif kind is ast.keyword:
            name = node.arg or ""  # type: ignore[attr-defined]
        elif kind is ast.BinOp or kind is ast.UnaryOp or kind is ast.BoolOp:
            name = type(node.op).__name__  # type: ignore[attr-defined]
        elif kind is ast.Compare:
            name = type(node.ops[0]).__name__  # type: ignore[attr-defined]
        elif kind is ast.Dict:
            keys = tuple(
                k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None
                for k in node.keys  # type: ignore[attr-defined]
            )
        # a name's text is its id: one string, pickled once
        whole = name if kind is ast.Name else self.text(node)
        text = shorten(whole, TEXT_LIMIT)
        made = Expr(
            kind.__name__,
            text,
            getattr(node, "lineno", 0),
            getattr(node, "col_offset", 0),
            getattr(node, "end_lineno", 0) or 0,
            getattr(node, "end_col_offset", 0) or 0,
            name,
            parts,
            keys,
            literal,
            value,
            whole if text != whole else None,
        )
        self.made[id(node)] = made
        return made

    def text(self, node: ast.AST) -> str:
        """:func:`~apiscan.extract.syntax.node_text` without a limit, on encoded lines."""
        place = node_position(node)
        if place is None:
            return ast.unparse(node)
        lineno, end_lineno, col, end_col = place
        if lineno == end_lineno and 0 < lineno <= len(self.strs) and self.ascii[lineno - 1]:
            raw = self.strs[lineno - 1][col:end_col]  # most nodes: one ASCII line, as written
            if not _RESPACED.search(raw):
                return raw
        chunks = self.lines[lineno - 1 : end_lineno]
        if not chunks:
            return ast.unparse(node)
        return joined_text(chunks, col, end_col)

    def if_values(self, node: ast.If, function: int) -> IfValues:
        made = self.ifs.get(id(node))
        if made is None:
            made = self.ifs[id(node)] = IfValues(
                self.expr(node.test),
                function,
                node.lineno,
                node.col_offset,
                node.end_lineno or node.lineno,
                node.end_col_offset or 0,
                node.body[-1].end_lineno or node.lineno,
            )
        return made

    def loop(self, node: ast.For | ast.AsyncFor, function: int) -> LoopValues:
        contexts: list[str] = []
        current = self.parent.get(id(node))
        while current is not None and not isinstance(current, ast.ClassDef | ast.Module):
            if isinstance(current, ast.With | ast.AsyncWith):
                contexts += [self.cut(i.context_expr) for i in current.items]
            elif isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef):
                contexts += [self.cut(d) for d in current.decorator_list]
            current = self.parent.get(id(current))
        updates = []
        for stmt in node.body:
            for sub in self.walk(stmt):
                if isinstance(sub, ast.AugAssign):
                    updates.append(self.augmented(sub))
                elif isinstance(sub, ast.Call):
                    around = self.statement_of(sub)
                    updates.append(
                        UpdateValues(
                            self.expr(sub), "", self.cut(around), getattr(around, "lineno", 0)
                        )
                    )
        names = tuple(n.id for n in self.walk(node.target) if isinstance(n, ast.Name))
        return LoopValues(
            self.expr(node.iter),
            names,
            function,
            node.lineno,
            tuple(contexts),
            tuple(updates),
        )

    def augmented(self, node: ast.AugAssign) -> UpdateValues:
        """The record of ``target op= value``."""
        return UpdateValues(
            self.expr(node.target),
            type(node.op).__name__,
            self.text(node),
            node.lineno,
            self.expr(node.value),
            self.ifs_around(node),
        )

    def own_updates(self, own: Sequence[ast.AST]) -> tuple[UpdateValues, ...]:
        """The augmented assignments of a scope's own body, by line and column."""
        found = [n for n in own if type(n) is ast.AugAssign]
        found.sort(key=lambda n: (n.lineno, n.col_offset))
        return tuple(self.augmented(n) for n in found)  # type: ignore[arg-type]

    def walk(self, node: ast.AST) -> list[ast.AST]:
        """``ast.walk(node)``, on the children listed once."""
        out = [node]
        i = 0
        kids = self.kids
        while i < len(out):
            current = out[i]
            found = kids.get(id(current))
            out.extend(ast.iter_child_nodes(current) if found is None else found)
            i += 1
        return out

    def own(self, fn: ast.AST) -> list[ast.AST]:
        """:func:`~apiscan.extract.syntax.own_body`, in its order, on the children listed
        once; listed once per scope too (the value records, the inference path's steps and
        the weight initialisations all read every function's own body). Callers never
        change the list."""
        made = self.owns.get(id(fn))
        if made is not None:
            return made
        made = self.owns[id(fn)] = self._own(fn)
        return made

    def _own(self, fn: ast.AST) -> list[ast.AST]:
        kids = self.kids
        stack = list(kids.get(id(fn), ()))
        out = []
        scopes = _SCOPE_TYPES
        while stack:
            node = stack.pop()
            out.append(node)
            if type(node) not in scopes:
                stack.extend(kids.get(id(node), ()))
        return out

    def statement_of(self, node: ast.AST) -> ast.AST:
        current = node
        while not isinstance(current, ast.stmt) and id(current) in self.parent:
            current = self.parent[id(current)]
        return current

    def cut(self, node: ast.AST) -> str:
        """The text cut at :data:`TEXT_LIMIT`, reading only the first lines of a long
        statement when they already hold more than the cut keeps."""
        first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if first is not None and last is not None and last - first > 8:
            chunks = self.lines[first - 1 : first + 8]
            chunks = [chunks[0][getattr(node, "col_offset", 0) :], *chunks[1:]]
            head = " ".join(b"\n".join(chunks).decode("utf-8", errors="replace").split())
            head = _SPACED.sub(r"\1\2", head)
            if len(head) > TEXT_LIMIT + 10:
                return shorten(head, TEXT_LIMIT)
        return shorten(self.text(node), TEXT_LIMIT)

    def char_col(self, lineno: int, byte_col: int) -> int:
        if not 0 < lineno <= len(self.lines) or self.ascii[lineno - 1]:
            return byte_col
        return len(self.lines[lineno - 1][:byte_col].decode("utf-8", errors="ignore"))

    # -- statements
    def assigns(self, nodes: Sequence[ast.AST], body: Sequence[ast.AST]) -> list[AssignValues]:
        top = {id(n) for n in body}
        order = self.order
        out = []
        for node in nodes:
            if isinstance(node, ast.Assign):
                targets = node.targets  # ``net_w = net_h = 480``: each target, left to right
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets = [node.target]
            else:
                continue
            value = node.value
            after = self.after.get(id(node))
            guard = None
            if isinstance(after, ast.If) and after.body and single_target(after.body[0]):
                guard = self.expr(after.test)
            made = self.expr(value)
            ifs = self.ifs_around(node)
            out += [
                AssignValues(
                    self.expr(target),
                    made,
                    node.lineno,
                    id(node) in top,
                    isinstance(node, ast.AnnAssign),
                    order[id(node)],
                    guard,
                    ifs,
                )
                for target in targets
            ]
        return out

    def index(self) -> list[ast.AST]:
        """Walk the tree once (``ast.walk``'s order, returned): each node's children, parent,
        place in that order, the statement after each statement, and the def the
        :func:`~apiscan.extract.syntax.def_names` order numbers around each node. Every
        record of the file (these value records, the model tree's) reads this walk."""
        if self.walked:
            return self.walked
        qualname, self.first = def_names(self.tree)
        self.defs = list(qualname)
        self.qualname = qualname
        index = self.def_index = {id(node): n for n, node in enumerate(self.defs)}
        parent = self.parent
        kids = self.kids
        after = self.after
        #: id -> (nearest function, nearest scope, nearest ``if``, whether a loop is)
        #: strictly above the node (the syntax facts' calls read the last)
        around = self.around
        around[id(self.tree)] = (-1, -1, None, False)
        walked: list[ast.AST] = [self.tree]
        i = 0
        scopes, bodies, loops = _SCOPE_TYPES, _BODY_TYPES, _LOOP_TYPES
        while i < len(walked):
            node = walked[i]
            i += 1
            children = kids[id(node)] = _children(node)
            if not children:
                continue
            kind = type(node)
            fn, scope, near, looped = around[id(node)]
            if kind in scopes:
                scope = -2 if kind is ast.Lambda else index.get(id(node), -1)
                if kind is not ast.ClassDef and kind is not ast.Lambda:
                    fn = scope
            elif kind is ast.If:
                near = node
            elif kind in loops:
                looped = True
            ids = list(map(id, children))
            parent.update(zip(ids, repeat(node)))
            around.update(zip(ids, repeat((fn, scope, near, looped))))
            walked += children
            if kind in bodies:
                body = node.body  # type: ignore[attr-defined]
                if isinstance(body, list):
                    after.update((id(a), b) for a, b in pairwise(body))
        self.order = {id(node): n for n, node in enumerate(walked)}
        self.walked = walked
        return walked

    def ifs_around(self, node: ast.AST) -> tuple[IfValues, ...]:
        """The ``if`` statements around ``node``, innermost first."""
        ifs = []
        near = self.around[id(node)][2]
        while near is not None:
            ifs.append(self.if_values(near, self.function_of(near)))
            near = self.around[id(near)][2]
        return tuple(ifs)

    def function_of(self, node: ast.AST) -> int:
        """The nearest function around ``node`` (an index of the defs), else -1."""
        return self.around[id(node)][0]

    def build(self) -> FileValues:
        walked = self.index()
        qualname = self.qualname
        nodes = self.defs
        index = self.def_index
        parent = self.parent
        around = self.around
        function_of = self.function_of

        module_own = self.own(self.tree)
        own_order = {id(n): i for i, n in enumerate(module_own) if isinstance(n, ast.Call)}
        defs = []
        for node in nodes:
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            owner = parent.get(id(node))
            own = self.own(node)
            own_order.update((id(n), i) for i, n in enumerate(own) if isinstance(n, ast.Call))
            returns = tuple(
                self.expr(n.value) for n in own if isinstance(n, ast.Return) and n.value
            )
            loop_names = tuple(
                dict.fromkeys(
                    n.id
                    for loop in own
                    if isinstance(loop, ast.For | ast.AsyncFor)
                    for n in self.walk(loop.target)
                    if isinstance(n, ast.Name)
                )
            )
            common = dict(
                qual=qualname[node],
                name=node.name,
                line=node.lineno,
                end_line=node.end_lineno or node.lineno,
                owner=index.get(id(owner), -1) if isinstance(owner, ast.ClassDef) else -1,
                assigns=tuple(self.assigns(own, node.body)),
                returns=returns,
                loop_names=loop_names,
                loop_spans=_loop_spans(own),
                updates=self.own_updates(own),
            )
            if isinstance(node, ast.ClassDef):
                defs.append(DefValues(is_class=True, function=function_of(node), **common))
                continue
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
            defaults += list(args.defaults)
            params = [(a.arg, d) for a, d in zip(positional, defaults, strict=True)]
            params += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
            defs.append(
                DefValues(
                    is_class=False,
                    function=index[id(node)],
                    params=tuple((p, self.expr(d) if d else None) for p, d in params),
                    positional=tuple(a.arg for a in positional),
                    vararg=args.vararg is not None,
                    kwarg=args.kwarg.arg if args.kwarg is not None else "",
                    branches=tuple(
                        self.if_values(n, index[id(node)]) for n in own if isinstance(n, ast.If)
                    ),
                    static=any(
                        isinstance(d, ast.Name) and d.id == "staticmethod"
                        for d in node.decorator_list
                    ),
                    decorators=tuple(self.expr(d) for d in node.decorator_list),
                    **common,
                )
            )
        calls = []
        loops: list[LoopValues] = []
        stars: list[tuple[int, str]] = []
        relative: list[tuple[str, int, str, str]] = []
        for node in walked:
            if type(node) not in _BUILT_TYPES:
                continue
            if isinstance(node, ast.Call):
                end = node.end_lineno or node.lineno
                holder = parent.get(id(node))
                # ``lr = get_lr(it) if decay_lr else learning_rate``: a call that is a
                # branch of a conditional expression is stored where the expression is
                below: ast.AST = node
                while type(holder) is ast.IfExp and holder.test is not below:
                    below, holder = holder, parent.get(id(holder))
                stored = single_target(holder) if holder is not None else None
                fn, scope, _near, _looped = around[id(node)]
                ifs = self.ifs_around(node)
                statement = holder
                while statement is not None and not isinstance(statement, ast.stmt):
                    statement = parent.get(id(statement))
                assigned = ()
                if isinstance(statement, ast.Assign):
                    assigned = tuple(t.id for t in statement.targets if isinstance(t, ast.Name))
                fallback = False
                up = statement
                while up is not None and type(up) not in _SCOPE_TYPES:
                    if type(up) is ast.ExceptHandler:
                        fallback = True
                        break
                    up = parent.get(id(up))
                calls.append(
                    CallValues(
                        self.expr(node),
                        fn,
                        self.char_col(end, node.end_col_offset or 0) + 1,
                        scope,
                        ifs,
                        isinstance(holder, ast.Expr),
                        self.expr(stored) if stored is not None else None,
                        assigned,
                        own_order.get(id(node), -1),
                        fallback,
                    )
                )
            elif isinstance(node, ast.For | ast.AsyncFor):
                loops.append(self.loop(node, function_of(node)))
            elif isinstance(node, ast.ImportFrom):
                if [a.name for a in node.names] == ["*"]:
                    stars.append((node.level, node.module or ""))
                elif node.level:
                    relative += [
                        (a.asname or a.name, node.level, node.module or "", a.name)
                        for a in node.names
                    ]
        return FileValues(
            defs=tuple(defs),
            assigns=tuple(self.assigns(module_own, self.tree.body)),
            calls=tuple(calls),
            star_imports=tuple(stars),
            relative_imports=tuple(relative),
            loops=tuple(loops),
            loop_spans=_loop_spans(module_own),
            updates=self.own_updates(module_own),
        )
