"""What the review's model tree needs from a file's syntax, recorded by the worker.

The model tree follows constructions across files: ``create(cfg)`` returning
``Net(trunk, head)`` where ``trunk = make_trunk(cfg)`` returns a ``Trunk``; a registry look-up
(``REGISTRY.get(cfg.MODEL.NAME)(cfg)``, ``models.__dict__[args.arch]()``) resolved to the
name it takes by default; the parts a constructor builds. The review answers that from these
records instead of parsing every file again (:mod:`apiscan.review.structure`).

The record is a small expression table (:class:`Expr`, referred to by index): the calls whose
callee the review can name (a name the file imports, defines or binds at module level, or a
registry look-up on one: ``self.conv(x)`` or ``x.view(...)`` never build a module), the values
of assignments to plain names, ``return`` values and return annotations, every value a
constructor stores in ``self``, each expression with what the follower asks of it (a name
and the branch it is read in, an attribute chain, a string literal, a tuple's first element,
a dict's keys and values, a call's callee, arguments and keyword names, and the source text
a review shows, cut at :data:`TEXT_LIMIT`). Anything else is kept only as the calls inside
it. Built only when the scan is asked for a
review (``FileTask.syntax``); plain tuples and frozen dataclasses, cached with the rest of the
file's facts.

Orders are Python's own walk (``ast.walk``, breadth first): where the follower takes the
first or the last of several candidates, it takes the one it did when it walked the tree.
"""

from __future__ import annotations

import ast
import builtins
import copy
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from apiscan.extract.syntax import def_names, name_chain, node_kinds, shorten
from apiscan.extract.values import Expr as ValueExpr
from apiscan.extract.values import ValueReader, argparse_option

#: Longest source text kept for one expression (a part shown as ``Backbone (build(cfg))``).
TEXT_LIMIT = 60
#: Nested expressions encoded at most (deeper ones are kept as the calls inside them).
_DEPTH = 150

_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
#: The index standing for an argument or a dict's value the follower never reads.
_UNREAD = -1
#: Python's own names: never what a star import binds.
_BUILTINS = frozenset(dir(builtins))
#: ``nn.Module`` methods that return the module they are called on.
SELF_RETURNING = frozenset(
    {"to", "cuda", "cpu", "eval", "train", "float", "half", "double", "requires_grad_"}
)
#: Compound statements whose branches decide which assignment a later use reads.
_BRANCHING = (ast.If, ast.Try, ast.For, ast.While)
#: the kinds :meth:`_Recorder.facts` reads (it only walks past the others)
_FACT_TYPES = node_kinds(
    (
        ast.Call,
        ast.Assign,
        ast.Return,
        ast.ImportFrom,
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        *_BRANCHING,
    )
)


@dataclass(frozen=True, slots=True)
class Expr:
    """One expression as the model tree follows it: an entry of the file's expression table
    (:attr:`node`, the :class:`~apiscan.extract.values.Expr` the value records hold too:
    its line, name and text are recorded once) with the branch it is read in and the parts
    the follower reads. ``kind`` is ``name``, ``attr``, ``const``, ``tuple``, ``dict``,
    ``sub`` (subscript), ``either`` (a conditional expression called), ``call`` or ``other``;
    ``refs`` are indexes of
    :attr:`ModelFacts.exprs`:

    - name: :attr:`value` is the name, ``link`` the innermost branch around it
      (:attr:`ModelFacts.links`; a call's too);
    - attr: :attr:`value` the attribute, ``refs`` (the object,);
    - const: :attr:`value` the string, None for any other constant;
    - tuple: ``refs`` (the first element,), ``inner`` the calls in the others;
    - dict: ``keys`` and ``refs`` its keys (-1 for ``**x``) and values;
    - sub: ``refs`` (the object, the index);
    - either: ``refs`` (the value if true, the value if false) of a conditional expression
      in a callee's place (``(A if frozen else B)(...)``);
    - call: ``refs`` (the callee, positional arguments..., keyword values...), ``keywords``
      the names of the last ``len(keywords)`` refs (None for ``**x``);
    - other: ``inner`` the outermost calls inside it (in a constructor's part).

    Outside a constructor's part (``ModelFacts.self_parts``), an argument after the first
    or a dict's value that cannot be a module (a literal, an attribute, an operation, a call
    the review cannot name) is -1, and a tuple's or an operation's inner calls are left out
    (each call the review can name is in ``ModelFacts.calls`` on its own).
    """

    kind: str
    #: the expression in the file's table (shared with the value records)
    node: ValueExpr
    link: int = -1
    #: a review may show its source (a call, a tuple, a callee): :attr:`text` is kept
    shown: bool = False
    refs: tuple[int, ...] = ()
    keywords: tuple[str | None, ...] = ()
    keys: tuple[int, ...] = ()
    inner: tuple[int, ...] = ()

    @property
    def line(self) -> int:
        return self.node.line

    @property
    def value(self) -> str | None:
        """A name's name, an attribute's attribute, a string constant's string."""
        kind = self.kind
        if kind in ("name", "attr"):
            return self.node.name
        if kind == "const":
            value = self.node.value
            return value if isinstance(value, str) else None
        return None

    @property
    def text(self) -> str:
        """The source on one line, cut at :data:`TEXT_LIMIT`, where a review may show it
        ("" for a name: the name itself)."""
        if not self.shown or self.kind == "name":
            return ""
        return shorten(self.node.full(), TEXT_LIMIT)

    def __reduce__(self) -> tuple[type[Expr], tuple[object, ...]]:
        """Pickled as a call with the fields up to the last one that is not its default:
        a name is three values, not eight (the table holds tens of thousands of them)."""
        values = (
            self.kind,
            self.node,
            self.link,
            self.shown,
            self.refs,
            self.keywords,
            self.keys,
            self.inner,
        )
        end = len(values)
        while end > 2 and values[end - 1] == _EXPR_DEFAULTS[end - 1]:
            end -= 1
        return Expr, values[:end]


#: :class:`Expr`'s defaults, field by field (kind and node have none).
_EXPR_DEFAULTS: tuple[object, ...] = ("", None, -1, False, (), (), (), ())


@dataclass(frozen=True, slots=True)
class Function:
    """A ``def`` (every one, nested ones and redefinitions included)."""

    qualname: str
    name: str
    line: int
    method: bool  # defined directly in a class body
    #: the return annotation (an index of ``exprs``), -1 without one
    annotation: int
    #: names of the positional parameters after the first (``self``); None with ``*args``
    params: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Assign:
    """``name = value`` (one of the targets a plain name)."""

    names: tuple[str, ...]  # the plain names among its targets
    single: bool  # one target, a plain name
    line: int
    end_line: int
    value: int  # index of the value in ``exprs``; -1 when the follower never reads its kind
    link: int  # the innermost branch around the statement
    functions: tuple[int, ...]  # the defs around it (indexes of ``functions``), outermost first
    module: bool  # the module's own code (no def or class around it)


#: (top-level def or class, its name, (architecture, registry chain, key) per decorator); an
#: architecture decorator's key is the architecture's own name (no registry chain)
Decorated = tuple[str, str, tuple[tuple[str, tuple[str, ...], str], ...]]


@dataclass(frozen=True, slots=True)
class ModelFacts:
    """The model tree's facts of one file (module docstring)."""

    exprs: tuple[Expr, ...] = ()
    functions: tuple[Function, ...] = ()
    #: (qualified name, index of its def in ``functions`` or -1 for a class) of the first def
    #: or class of each name
    defs: tuple[tuple[str, int], ...] = ()
    #: every call whose callee the review can name (module docstring): (its index in
    #: ``exprs``, the innermost def around it or -1), walk order
    calls: tuple[tuple[int, int], ...] = ()
    assigns: tuple[Assign, ...] = ()
    #: (attribute, index of the value in ``exprs``, the defs around it) of every assignment
    #: whose first target is ``self.<attribute>``, and of every ``setattr(self, name, value)``
    #: (an attribute that is no identifier: ``head in self.heads``), walk order: the parts a
    #: constructor builds
    self_parts: tuple[tuple[str, int, tuple[int, ...]], ...] = ()
    #: every ``return`` with a value: (its index in ``exprs``, the defs around it), walk order
    returns: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: (compound statement, is a def, in its body (not its test, ``else`` or handlers),
    #: the link around it) per link: the ``if``/``try``/``for``/``while`` branches and defs
    #: an expression or assignment is in, innermost first, followed through the last field
    links: tuple[tuple[int, bool, bool, int], ...] = ()
    #: (level, module, ((name, as-name or ""), ...)) of every relative import, walk order
    relative_imports: tuple[tuple[int, str, tuple[tuple[str, str], ...]], ...] = ()
    #: names the module's own assignments bind (``META_ARCH_REGISTRY = Registry(...)``)
    globals: tuple[str, ...] = ()
    #: (name, the name assigned to it or "") of each single-name module-level assignment, in
    #: source order (``mae_vit_base_patch16 = mae_vit_base_patch16_dec512d8b``)
    aliases: tuple[tuple[str, str], ...] = ()
    #: (top-level def or class, its name, ((architecture registered or "", registry name
    #: chain or (), registered key) per decorator)): ``@register_model``,
    #: ``@REGISTRY.register()``, ``@register_model_architecture("transformer", ...)``
    decorated: tuple[Decorated, ...] = ()
    #: (dest, default string or None, line of the default) of every ``add_argument`` with a
    #: default, walk order
    options: tuple[tuple[str, str | None, int], ...] = ()
    #: (last two names of the target, string value or None, line) of every single-target
    #: assignment of a literal to a chain of three names or more (``_C.MODEL.NAME = "x"``)
    config: tuple[tuple[str, str | None, int], ...] = ()
    #: (compound statement, its test as written) of every ``if`` that reads a config key
    #: (``if not cfg.MODEL.RPN_ONLY:``): the review evaluates it where the config says
    tests: tuple[tuple[int, str], ...] = ()
    #: every ``from X import Y`` inside an ``if`` outside a def's own branches' reach:
    #: the import a script's argparse default picks (stylegan2-pytorch's ``if args.arch ==
    #: 'stylegan2': from model import Generator`` / ``elif ...: from swagan import ...``)
    branch_imports: tuple[BranchImport, ...] = ()
    #: every assignment to one tuple of plain names (``encoder, config = create_backbone(
    #: preset=...)``), its :attr:`Assign.names` the targets in order: what a builder's local
    #: holds when a factory returns the model with its config (:attr:`assigns` keeps only
    #: plain-name targets, which these are not)
    unpacked: tuple[Assign, ...] = ()


@dataclass(frozen=True, slots=True)
class BranchImport:
    """One name a ``from`` import inside ``if`` branches binds, with the tests around it."""

    #: the name it binds in the file, the level of a relative import, the module and name
    local: str
    level: int
    module: str
    name: str
    line: int
    #: (the ``if`` test, whether the import is in its body (else: its ``else``)),
    #: innermost first, up to the def around it: an ``elif`` is an ``if`` in an ``else``
    tests: tuple[tuple[ValueExpr, bool], ...]


#: Decorator names that register the def they decorate (``@register_model``,
#: ``@REGISTRY.register()``, ``@MODELS.register_module()``).
REGISTER = ("register", "register_module", "register_model")


def model_facts(
    tree: ast.Module,
    text: str,
    first: Mapping[str, ast.AST] | None = None,
    imports: Iterable[ast.Import | ast.ImportFrom] | None = None,
    table: ValueReader | None = None,
) -> ModelFacts:
    """The model tree's facts of a file from Python's tree of ``text``. ``first`` (the first
    def of each qualified name: :func:`~apiscan.extract.syntax.def_names`) and ``imports``
    (every import statement) are the syntax facts' own, when it has them; ``table`` is the
    file's expression table the value records were built with (its walk and expressions are
    shared: :class:`Expr`)."""
    if first is None:
        first = def_names(tree)[1]
    if imports is None:
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    if table is None:
        table = ValueReader(tree, text)
    table.index()
    return _Recorder(tree, table, first, imports).facts()


class _Recorder:
    """One walk (``ast.walk``'s order, breadth first) with the defs, class and branch around
    each node: the calls, assignments and returns the follower reads, in that order."""

    def __init__(
        self,
        tree: ast.Module,
        table: ValueReader,
        first: Mapping[str, ast.AST],
        imports: Iterable[ast.Import | ast.ImportFrom],
    ) -> None:
        self.tree = tree
        self.table = table
        self.kids = table.kids
        self.first = first
        self.exprs: list[Expr] = []
        self.memo: dict[int, int] = {}
        self.functions: list[Function] = []
        self.fid: dict[int, int] = {}  # id(def) -> index in functions
        self.def_nodes: list[ast.AST] = []  # the def of each of ``functions``
        #: per def met, its locals bound once to a config key read (see :func:`_config_aliases`)
        self.aliases: dict[int, dict[str, ast.expr]] = {}
        self.links: list[tuple[int, bool, bool, int]] = []
        self.loops: list[ast.AST] | None = None  # see :meth:`_nodes`
        bound: set[str] = set()  # local names of the file's imports, absolute and relative
        torch: set[str] = set()  # those bound only to torch's modules (``nn``, ``F``)
        other: set[str] = set()
        self.importlib = False
        #: ``from .parts import *`` (not torch's): any name the file calls may come from it
        self.star = False
        for node in imports:
            for alias in node.names:
                local = alias.asname or alias.name.partition(".")[0]
                source = alias.name if isinstance(node, ast.Import) else node.module or ""
                bound.add(local)
                level = getattr(node, "level", 0)
                in_torch = not level and (source == "torch" or source.startswith("torch."))
                (torch if in_torch else other).add(local)
                self.importlib |= not level and source.startswith("importlib")
                self.star |= alias.name == "*" and not in_torch
        self.module_names = list(_module_names(tree))
        #: names a callee's first name must be for the review to name what it calls
        self.roots = bound | {q for q in first if "." not in q} | {n for n, _ in self.module_names}
        #: callees the review never follows: torch's own (``nn.Conv2d``, ``F.relu``)
        self.torch = torch - other - (self.roots - bound)

    # ------------------------------------------------------------------- expressions
    def may_build(self, call: ast.Call) -> bool:
        """Whether the review can name what ``call`` builds: its callee starts at a name the
        file imports or binds at module level, or it is a registry look-up on one
        (``M.__dict__[k](...)``, ``R.get(k)(...)``, ``importlib.import_module(k).f(...)``,
        ``eval('models.' + k + '.f')(...)``), or ``cls(...)`` (a classmethod constructor), or
        an entry of a table (``BACKBONES[k](...)``, ``model_zoo[k](...)``).
        A local called with a dict spread into it (``model_class(**cfg)``) too: a class
        picked in branches and built from a config.
        ``x.view(...)`` on a local, ``self.conv(x)``, torch's ``nn.Conv2d(...)``: never (a
        constructor's part keeps them all: ``nn.Sequential(Block(...))``)."""
        func = call.func
        if isinstance(func, ast.IfExp):
            # ``(FrozenCLIP if frozen else CLIP)(device)``: one of two named classes
            return any(
                (chain := name_chain(branch)) is not None
                and chain[0] in self.roots
                and chain[0] not in self.torch
                for branch in (func.body, func.orelse)
            )
        parts = name_chain(func)
        if parts is not None:
            if parts[0] in self.torch:
                return False
            return (
                parts[0] in self.roots
                or (self.importlib and len(parts) == 2)
                # ``Detector = MODEL.VoteNet`` in a branch, then ``Detector(...)``, where
                # ``MODEL = importlib.import_module(FLAGS.model)``: the local's assignments
                # name the class
                or (self.importlib and isinstance(func, ast.Name) and func.id not in _BUILTINS)
                or (self.star and parts[0] not in _BUILTINS)
                # a class picked into a local and built from a config dict (open_clip's
                # ``model_class(**model_cfg)``): the review follows the local's assignments
                or (
                    isinstance(func, ast.Name)
                    and parts[0] not in _BUILTINS
                    and any(k.arg is None for k in call.keywords)
                )
                # a classmethod constructor's ``cls(...)`` (EfficientNet-like ``from_name``):
                # it builds the class that defines the method
                or (isinstance(func, ast.Name) and func.id == "cls")
            )
        if (
            isinstance(func, ast.Subscript)
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "__dict__"
        ):
            parts = name_chain(func.value.value)
        elif isinstance(func, ast.Subscript):
            # an entry of a table of classes or builders (``BACKBONES[name](...)``,
            # ``model_zoo[name](...)``); a module's own layers (``self.blocks[i](x)``) never
            parts = name_chain(func.value)
            return parts is not None and parts[0] != "self" and parts[0] not in self.torch
        elif (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Attribute)
            and func.func.attr == "get"
            and func.args
        ):
            parts = name_chain(func.func.value)
        elif (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Name)
            and func.func.id == "getattr"
            and func.args
        ):
            # ``getattr(resnet, backbone)(pretrained)``: a module's function picked by name
            parts = name_chain(func.args[0])
        elif (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Name)
            and func.func.id == "eval"
            and len(func.args) == 1
            and isinstance(func.args[0], ast.BinOp)
        ):
            # ``eval('models.' + cfg.MODEL.NAME + '.get_pose_net')(cfg)``: a function picked
            # by a dotted name built from a config key (HRNet's train.py)
            return True
        elif isinstance(func, ast.Call) and (func.args or func.keywords):
            # ``get_model(cfg.MODEL.NAME)(**kwargs)``: what a factory of the repository
            # returns for a name (a registry's entry), called
            parts = name_chain(func.func)
            return parts is not None and parts[0] in self.roots and parts[0] not in self.torch
        return parts is not None and parts[0] in self.roots

    def _chained(self, call: ast.Call) -> bool:
        """``Darknet(path).to(device)``, ``Net().cuda()``: a method returning the module it
        is called on, called on a construction the review can name."""
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in SELF_RETURNING
            and isinstance(func.value, ast.Call)
            and self.may_build(func.value)
        )

    def encode(
        self, node: ast.AST, link: int, depth: int = 0, callee: bool = False, whole: bool = False
    ) -> int:
        """The index of ``node`` in the expression table, recording it (and what the
        follower reads below it) on first use; ``link`` is the branch around it (one
        expression is never split by a branch). The source text is kept where a review may
        show it: a call's, a tuple's (a part built as its first element), a ``callee``'s
        (how a registry look-up was read); a literal or a name is never shown. ``whole``: every call
        below is kept (a constructor's part: a builder handed in at run time is shown);
        otherwise a call the review cannot name is kept as an empty ``other``."""
        found = self.memo.get(id(node))
        if found is not None:
            return found
        shown = callee or isinstance(node, ast.Call | ast.Tuple)
        made = self.table.expr(node)
        down = depth + 1

        def sub(child: ast.AST, callee: bool = False) -> int:
            return self.encode(child, link, down, callee, whole)

        if depth > _DEPTH:
            expr = Expr("other", made, shown=shown)
        elif isinstance(node, ast.Name):
            expr = Expr("name", made, link)
        elif isinstance(node, ast.Attribute):
            expr = Expr("attr", made, shown=shown, refs=(sub(node.value),))
        elif isinstance(node, ast.Constant):
            expr = Expr("const", made, shown=shown)
        elif isinstance(node, ast.Tuple) and node.elts:
            inner = tuple(self._calls_in(list(node.elts[1:]), link, down)) if whole else ()
            expr = Expr("tuple", made, shown=shown, refs=(sub(node.elts[0]),), inner=inner)
        elif isinstance(node, ast.Dict):
            # an entry written as a list (``'resnet50': [resnet50, 2048]``, unpacked as
            # ``model_fun, dim_in = model_dict[name]``) is read as a tuple: its first
            # element is what the entry builds
            values = tuple(
                self._entry(v, link, down)
                if isinstance(v, ast.List) and v.elts
                else sub(v)
                if self._read(v, whole)
                else _UNREAD
                for v in node.values
            )
            keys = tuple(-1 if k is None else sub(k) for k in node.keys)
            expr = Expr("dict", made, shown=shown, refs=values, keys=keys)
        elif isinstance(node, ast.Subscript):
            expr = Expr("sub", made, shown=shown, refs=(sub(node.value), sub(node.slice)))
        elif isinstance(node, ast.IfExp) and callee:
            # ``(FrozenCLIP if frozen else CLIP)(device)``: the class called is one of two
            expr = Expr("either", made, shown=shown, refs=(sub(node.body), sub(node.orelse)))
        elif isinstance(node, ast.Call) and (
            whole
            or self.may_build(node)
            or _makes_cls(node)
            or _calls_local(node)
            or self._chained(node)
            or _getattr(node)
        ):
            # the first argument is read whatever it is (the name a registry or a module
            # look-up takes, the class a generic builder gets); the others only when they
            # may be a module (timm's ``_cfg(url=..., mean=...)`` tables are literals)
            refs = (sub(node.func, True), *(sub(n) for n in node.args[:1]))
            later = (*node.args[1:], *(k.value for k in node.keywords))
            refs += tuple(sub(n) if self._read(n, whole) else _UNREAD for n in later)
            keywords = tuple(k.arg for k in node.keywords)
            # a call keeps its branch too: the review evaluates the config tests around it
            expr = Expr("call", made, link, shown=shown, refs=refs, keywords=keywords)
        elif isinstance(node, ast.Call):
            expr = Expr("other", made, shown=shown)
        elif whole:
            inner = tuple(self._calls_in(self.kids.get(id(node), []), link, down))
            expr = Expr("other", made, shown=shown, inner=inner)
        else:
            expr = Expr("other", made, shown=shown)
        self.memo[id(node)] = len(self.exprs)
        self.exprs.append(expr)
        return len(self.exprs) - 1

    def _entry(self, node: ast.List, link: int, depth: int) -> int:
        """A dict's list entry as a tuple of its first element (see :meth:`encode`)."""
        found = self.memo.get(id(node))
        if found is not None:
            return found
        first = self.encode(node.elts[0], link, depth)
        self.memo[id(node)] = len(self.exprs)
        self.exprs.append(Expr("tuple", self.table.expr(node), shown=True, refs=(first,)))
        return len(self.exprs) - 1

    def _read(self, node: ast.AST, whole: bool) -> bool:
        """Whether the follower may read ``node`` as an argument or a dict's value: a name,
        a tuple or a construction may be a module (in a constructor's part, anything: the
        calls inside it are its parts)."""
        return whole or (
            isinstance(node, ast.Name | ast.Tuple)
            or (isinstance(node, ast.Call) and (self.may_build(node) or _makes_cls(node)))
        )

    def _calls_in(self, nodes: list[ast.AST], link: int, depth: int) -> Iterator[int]:
        """The outermost calls among ``nodes`` and below them, encoded whole."""
        todo: deque[ast.AST] = deque(nodes)
        while todo:
            node = todo.popleft()
            if isinstance(node, ast.Call):
                yield self.encode(node, link, depth, whole=True)
            else:
                todo.extend(self.kids.get(id(node), ()))

    def _option(self, call: ast.Call) -> tuple[str, str | None, int] | None:
        """``parser.add_argument("--model", default="resnet50")`` → ("model", "resnet50",
        line of the default), read from the value table (:func:`argparse_option`, the one
        reading of an argparse declaration); None without a default."""
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"):
            return None  # no table entry built for the other calls
        found = argparse_option(self.table.expr(call))
        if found is None or found.default is None:
            return None
        value = found.default.value if found.default.kind == "Constant" else None
        return found.dest, value if isinstance(value, str) else None, found.default.line

    def _config_test(self, test: ast.expr, fids: tuple[int, ...]) -> ast.expr | None:
        """The ``if`` test as a config test: itself when it reads a config key, else with
        the def's locals bound once to a key read put back (Swin's builder: ``model_type =
        config.MODEL.TYPE``, then ``if model_type == 'swin':``); None when it reads none."""
        if _reads_config(test):
            return test
        if not fids:
            return None
        fid = fids[-1]
        if fid not in self.aliases:
            self.aliases[fid] = _config_aliases(self.def_nodes[fid])
        aliases = self.aliases[fid]
        if not aliases or not any(
            isinstance(n, ast.Name) and n.id in aliases for n in ast.walk(test)
        ):
            return None
        out = _Substitute(aliases).visit(copy.deepcopy(test))
        return out if _reads_config(out) else None

    # ------------------------------------------------------------------------- facts
    def facts(self) -> ModelFacts:
        calls: list[tuple[int, int]] = []
        assigns: list[Assign] = []
        unpacked: list[Assign] = []
        returns: list[tuple[int, tuple[int, ...]]] = []
        self_parts: list[tuple[str, int, tuple[int, ...]]] = []
        relative: list[tuple[int, str, tuple[tuple[str, str], ...]]] = []
        options: list[tuple[str, str | None, int]] = []
        config: list[tuple[str, str | None, int]] = []
        tests: list[tuple[int, str]] = []
        branch_imports: list[BranchImport] = []
        ifs: dict[int, ast.If] = {}  # compound statement number -> the ``if``
        stmts = 0  # compound statements numbered as met
        #: (node, defs around it, a class around it, the branch around it, its qualname
        #: prefix), breadth first as ``ast.walk`` goes
        #: (``owner``: 0 outside classes, 1 in one, 2 directly in a class body)
        todo: deque[tuple[ast.AST, tuple[int, ...], int, int, str]] = deque(
            [(self.tree, (), 0, -1, "")]
        )
        while todo:
            node, fids, owner, link, prefix = todo.popleft()
            in_class = min(owner, 1)
            children = self.kids[id(node)]
            if type(node) not in _FACT_TYPES:
                if children:
                    todo.extend((c, fids, in_class, link, prefix) for c in children)
                continue
            if isinstance(node, ast.Call):
                if self.may_build(node):
                    calls.append((self.encode(node, link), fids[-1] if fids else -1))
                option = self._option(node)
                if option is not None:
                    options.append(option)
                dynamic = self._setattr(node)
                if dynamic is not None:  # ``setattr(self, name, module)``: a part too
                    attr, values = dynamic
                    self_parts.extend(
                        (attr, self.encode(value, link, whole=True), fids) for value in values
                    )
            elif isinstance(node, ast.Assign):
                first = node.targets[0]
                # ``self.pretrained, self.scratch = _make_encoder(...)`` (DPT): each attribute
                # of a tuple target is a part the one value builds
                targets = first.elts if isinstance(first, ast.Tuple) else [first]
                attrs = [
                    t.attr
                    for t in targets
                    if isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                ]
                if attrs:
                    value = self.encode(node.value, link, whole=True)
                    self_parts.extend((attr, value, fids) for attr in attrs)
                if (
                    len(node.targets) == 1
                    and isinstance(first, ast.Tuple)
                    and all(isinstance(t, ast.Name) for t in first.elts)
                ):
                    unpacked.append(
                        Assign(
                            tuple(t.id for t in first.elts),  # type: ignore[attr-defined]
                            False,
                            node.lineno,
                            node.end_lineno or node.lineno,
                            self._value(node.value, link),
                            link,
                            fids,
                            not fids and not owner,
                        )
                    )
                names = tuple(t.id for t in node.targets if isinstance(t, ast.Name))
                if names:
                    assigns.append(
                        Assign(
                            names,
                            len(node.targets) == 1 and isinstance(node.targets[0], ast.Name),
                            node.lineno,
                            node.end_lineno or node.lineno,
                            self._value(node.value, link),
                            link,
                            fids,
                            not fids and not owner,
                        )
                    )
                if len(node.targets) == 1 and isinstance(node.value, ast.Constant):
                    parts = name_chain(node.targets[0])
                    if parts and len(parts) >= 3:
                        value = node.value.value
                        config.append(
                            (
                                ".".join(parts[-2:]),
                                value if isinstance(value, str) else None,
                                node.lineno,
                            )
                        )
            elif isinstance(node, ast.Return) and node.value is not None:
                value = self._value(node.value, link, returned=True)
                if value >= 0:
                    returns.append((value, fids))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    relative.append(
                        (
                            node.level,
                            node.module or "",
                            tuple((a.name, a.asname or "") for a in node.names),
                        )
                    )
                if link >= 0:
                    branch_imports.extend(self._branch_imports(node, link, ifs))
            elif isinstance(node, _FuncDef):
                fid = len(self.functions)
                self.fid[id(node)] = fid
                self.def_nodes.append(node)
                qual = f"{prefix}.{node.name}" if prefix else node.name
                self.links.append((stmts, True, True, link))
                stmts += 1
                inner = len(self.links) - 1
                names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)][1:]
                self.functions.append(
                    Function(
                        qual,
                        node.name,
                        node.lineno,
                        owner == 2,
                        -1 if node.returns is None else self.encode(node.returns, inner),
                        None if node.args.vararg is not None else tuple(names),
                    )
                )
                todo.extend((c, (*fids, fid), in_class, inner, qual) for c in children)
                continue
            elif isinstance(node, ast.ClassDef):
                qual = f"{prefix}.{node.name}" if prefix else node.name
                todo.extend(
                    (c, fids, 2 if isinstance(c, _FuncDef) else 1, link, qual) for c in children
                )
                continue
            elif isinstance(node, _BRANCHING):
                if isinstance(node, ast.If):
                    ifs[stmts] = node
                if isinstance(node, ast.If):
                    test = self._config_test(node.test, fids)
                    if test is not None:
                        tests.append((stmts, shorten(ast.unparse(test), TEXT_LIMIT)))
                body = {id(c) for c in node.body}
                sides: dict[bool, int] = {}
                for child in children:
                    in_body = id(child) in body
                    if in_body not in sides:
                        sides[in_body] = len(self.links)
                        self.links.append((stmts, False, in_body, link))
                    todo.append((child, fids, in_class, sides[in_body], prefix))
                stmts += 1
                continue
            todo.extend((c, fids, in_class, link, prefix) for c in children)
        return ModelFacts(
            exprs=tuple(self.exprs),
            functions=tuple(self.functions),
            defs=tuple((q, self.fid.get(id(node), -1)) for q, node in self.first.items()),
            calls=tuple(calls),
            assigns=tuple(assigns),
            self_parts=tuple(self_parts),
            returns=tuple(returns),
            links=tuple(self.links),
            relative_imports=tuple(relative),
            globals=tuple(name for name, _ in self.module_names),
            aliases=tuple((name, alias) for name, alias in self.module_names if alias is not None),
            decorated=_decorated(self.first),
            options=tuple(options),
            config=tuple(config),
            tests=tuple(tests),
            branch_imports=tuple(branch_imports),
            unpacked=tuple(unpacked),
        )

    def _branch_imports(
        self, node: ast.ImportFrom, link: int, ifs: Mapping[int, ast.If]
    ) -> list[BranchImport]:
        """The names ``node`` binds with the ``if`` tests around it up to its def; none
        when no ``if`` is around it (a ``try``'s fallback import is no pick)."""
        tests: list[tuple[ValueExpr, bool]] = []
        while link >= 0:
            stmt, is_def, in_body, link = self.links[link]
            if is_def:
                break
            if stmt in ifs:
                tests.append((self.table.expr(ifs[stmt].test), in_body))
        if not tests:
            return []
        return [
            BranchImport(
                a.asname or a.name, node.level, node.module or "", a.name, node.lineno, tuple(tests)
            )
            for a in node.names
            if a.name != "*"
        ]

    def _setattr(self, call: ast.Call) -> tuple[str, list[ast.expr]] | None:
        """``setattr(self, name, value)`` or ``self.__setattr__(name, value)`` (CenterTrack's
        heads, one per key of a dict): (the attribute, its values). A name given as a string
        is the attribute; any other is its text, with the loop that binds it (``head in
        self.heads``): one part per key of what the loop walks. A value given as a local name
        is each value the def assigns that name before the call (``fc = nn.Sequential(...)``
        in one branch, ``fc = nn.Conv2d(...)`` in the other): the torch layers a plain
        assignment's record drops are what such a part is made of."""
        func, args = call.func, call.args
        if isinstance(func, ast.Name) and func.id == "setattr" and len(args) == 3:
            owner, name, value = args
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "__setattr__"
            and len(args) == 2
            and not call.keywords
        ):
            owner, (name, value) = func.value, args
        else:
            return None
        if not (isinstance(owner, ast.Name) and owner.id == "self"):
            return None
        values = [value]
        if isinstance(value, ast.Name):
            values = [
                n.value
                for fn in self._nodes(_FuncDef)
                if fn.lineno <= call.lineno <= (fn.end_lineno or fn.lineno)
                for n in ast.walk(fn)
                if isinstance(n, ast.Assign)
                and n.lineno < call.lineno
                and [t.id for t in n.targets if isinstance(t, ast.Name)] == [value.id]
            ] or values
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            return name.value, values
        text = shorten(ast.unparse(name), TEXT_LIMIT)
        if isinstance(name, ast.Name):
            loops = [
                loop
                for loop in self._nodes(ast.For)
                if isinstance(loop.target, ast.Name)
                and loop.target.id == name.id
                and loop.lineno <= call.lineno <= (loop.end_lineno or loop.lineno)
            ]
            if loops:  # the innermost loop binding the name
                text = f"{text} in {shorten(ast.unparse(loops[-1].iter), TEXT_LIMIT)}"
        return text if not text.isidentifier() else f"[{text}]", values

    def _nodes(self, kind: type | tuple[type, ...]) -> list:  # type: ignore[type-arg]
        """The file's nodes of ``kind`` (loops, defs), outermost first: read once, when a
        ``setattr`` on ``self`` needs them (most files have none)."""
        if self.loops is None:
            self.loops = sorted(
                (n for n in ast.walk(self.tree) if isinstance(n, ast.For | _FuncDef)),
                key=lambda n: (n.lineno, -(n.end_lineno or n.lineno)),
            )
        return [n for n in self.loops if isinstance(n, kind)]

    def _value(self, value: ast.expr, link: int, returned: bool = False) -> int:
        """A value the follower may read (a construction, a name, a chain, a literal, a
        tuple, a dict), encoded; -1 for any other. A method returns ``cls(...)`` (fairseq's
        ``build_model`` classmethod: its parts are that call's arguments)."""
        if (
            isinstance(value, ast.Call)
            and not self.may_build(value)
            and not (returned and _makes_cls(value))
            and not _calls_local(value)
            and not self._chained(value)
        ):
            return -1
        if isinstance(value, ast.Constant) and not isinstance(value.value, str):
            return -1
        if isinstance(
            value,
            # a subscript: ``meta_arch = _META_ARCHITECTURES[cfg.MODEL.META_ARCHITECTURE]``,
            # then ``return meta_arch(cfg)`` (maskrcnn-benchmark's table of models)
            ast.Call
            | ast.Name
            | ast.Attribute
            | ast.Tuple
            | ast.Constant
            | ast.Dict
            | ast.Subscript,
        ):
            return self.encode(value, link)
        return -1


def _config_aliases(fn: ast.AST) -> dict[str, ast.expr]:
    """The locals a def binds exactly once, by a plain assignment, to a read of an
    upper-case config key (``model_type = config.MODEL.TYPE``), none of them a parameter;
    nested defs and classes are their own."""
    stores: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    args = getattr(fn, "args", None)
    params = {a.arg for a in ast.walk(args) if isinstance(a, ast.arg)} if args else set()
    todo: list[ast.AST] = list(getattr(fn, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, _FuncDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Attribute)
            and _reads_config(node.value)
        ):
            values[node.targets[0].id] = node.value
        todo.extend(ast.iter_child_nodes(node))
    return {n: v for n, v in values.items() if stores.get(n) == 1 and n not in params}


class _Substitute(ast.NodeTransformer):
    """Put each aliased local read back as the config read it was bound to."""

    def __init__(self, aliases: Mapping[str, ast.expr]) -> None:
        self.aliases = aliases

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.aliases.get(node.id)
        return (
            copy.deepcopy(value) if value is not None and isinstance(node.ctx, ast.Load) else node
        )


def _reads_config(test: ast.expr) -> bool:
    """Whether an ``if`` test reads an upper-case config key (``cfg.MODEL.FCOS_ON``), or
    compares an entry of a parsed config section with strings (a Darknet builder's
    ``mdef['type'] == 'dwt'``: the review reads the section file the training names)."""
    return _section_compare(test) or any(
        isinstance(n, ast.Attribute) and n.attr.isupper() and len(n.attr) > 1
        for n in ast.walk(test)
    )


def _section_compare(test: ast.expr) -> bool:
    """``x['key'] == 'value'`` or ``x['key'] in ('a', 'b')`` (either side of ``==``)."""
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1:
        return False

    def strings(node: ast.expr) -> bool:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return bool(items) and all(
            isinstance(i, ast.Constant) and isinstance(i.value, str) for i in items
        )

    def entry(node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        )

    left, right = test.left, test.comparators[0]
    if isinstance(test.ops[0], (ast.Eq, ast.NotEq)) and entry(right):
        left, right = right, left
    return isinstance(test.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) and (
        entry(left) and strings(right)
    )


def _getattr(call: ast.Call) -> bool:
    """``getattr(resnet, backbone)``: a module's function picked by name (then called)."""
    return isinstance(call.func, ast.Name) and call.func.id == "getattr" and len(call.args) >= 2


def _calls_local(call: ast.Call) -> bool:
    """``meta_arch(cfg)``, ``model_class(...)``: a call of a plain local name, which may be
    bound to an entry of a table of models (``meta_arch = _META_ARCHITECTURES[name]``)."""
    return isinstance(call.func, ast.Name) and call.func.id not in _BUILTINS


def _makes_cls(call: ast.Call) -> bool:
    """``cls(...)``: a classmethod building its own class."""
    return isinstance(call.func, ast.Name) and call.func.id == "cls"


def _module_names(tree: ast.Module) -> Iterator[tuple[str, str | None]]:
    """(name, the name assigned to it, "" for another value, None with several targets) of
    every plain name the module's own assignments bind, in source order."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            single = len(node.targets) == 1
            for target in node.targets:
                if isinstance(target, ast.Name):
                    alias = node.value.id if isinstance(node.value, ast.Name) else ""
                    yield target.id, alias if single else None


def _decorated(
    first: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef],
) -> tuple[Decorated, ...]:
    """The decorators of the module's top-level defs and classes that register them."""
    found = []
    for qual, node in first.items():
        if "." in qual or not node.decorator_list:
            continue
        decorators = []
        for dec in node.decorator_list:
            registered = _register_key(dec, node.name)
            chain = name_chain(registered[0]) if registered is not None else None
            architecture = _architecture_of(dec) or ""
            key = registered[1] if registered is not None else ""
            if architecture and not key:
                # ``@register_model_architecture("transformer", "transformer_iwslt_de_en")``:
                # the name a command line gives (``--arch transformer_iwslt_de_en``)
                key = _architecture_name(dec)
            decorators.append((architecture, tuple(chain or ()), key))
        found.append((qual, node.name, tuple(decorators)))
    return tuple(found)


def _register_key(dec: ast.expr, default: str) -> tuple[ast.expr, str] | None:
    """(the registry expression, the registered name) of a registering decorator."""
    func = dec.func if isinstance(dec, ast.Call) else dec
    tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if tail not in REGISTER:
        return None
    key = default
    if isinstance(dec, ast.Call):
        named = [k.value for k in dec.keywords if k.arg in ("name", "module_name")]
        for arg in [*dec.args[:1], *named]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                key = arg.value
    # ``@REG.register()`` registers in REG; a bare ``@register_model`` in its own table.
    registry = func.value if isinstance(func, ast.Attribute) and tail != "register_model" else func
    return registry, key


def _architecture_name(dec: ast.expr) -> str:
    """The name an architecture decorator registers (its second argument, or ``arch_name``),
    "" when not a literal."""
    if not isinstance(dec, ast.Call):
        return ""
    named = [k.value for k in dec.keywords if k.arg == "arch_name"]
    for arg in [*dec.args[1:2], *named]:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return ""


def _architecture_of(dec: ast.expr) -> str | None:
    """The model name an architecture decorator registers a variant of:
    ``@register_model_architecture("transformer", "transformer_iwslt_de_en")``."""
    if not isinstance(dec, ast.Call) or not dec.args:
        return None
    func = dec.func
    tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    first = dec.args[0]
    if not tail.endswith("_architecture") or not isinstance(first, ast.Constant):
        return None
    return first.value if isinstance(first.value, str) else None
