"""What the review's model tree needs from a file's syntax, recorded by the worker.

The model tree follows constructions across files: ``create(cfg)`` returning
``Net(trunk, head)`` where ``trunk = make_trunk(cfg)`` returns a ``Trunk``; a registry look-up
(``REGISTRY.get(cfg.MODEL.NAME)(cfg)``, ``models.__dict__[args.arch]()``) resolved to the
name it takes by default; the parts a constructor builds. The review answers that from these
records instead of parsing every file again (:mod:`apiscan.review.structure`).

The record is a small expression table (:class:`Expr`, referred to by index): every call of
the file, the values of assignments to plain names, ``return`` values and return
annotations, each expression with what the follower asks of it (a name and where it is read,
an attribute chain, a string literal, a tuple's first element, a dict's keys and values, a
call's callee, arguments and keyword names, and its source text cut at :data:`TEXT_LIMIT`).
Anything else is kept only as the calls inside it. Built only when the scan is asked for a
review (``FileTask.syntax``); plain tuples and frozen dataclasses, cached with the rest of the
file's facts.

Orders are Python's own walk (``ast.walk``, breadth first): where the follower takes the
first or the last of several candidates, it takes the one it did when it walked the tree.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from apiscan.extract.syntax import def_names, name_chain, node_text

#: Longest source text kept for one expression (a part shown as ``Backbone (build(cfg))``).
TEXT_LIMIT = 60
#: Nested expressions encoded at most (deeper ones are kept as the calls inside them).
_DEPTH = 150

_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
#: Compound statements whose branches decide which assignment a later use reads.
_BRANCHING = (ast.If, ast.Try, ast.For, ast.While)


@dataclass(frozen=True, slots=True)
class Expr:
    """One expression. ``kind`` is ``name``, ``attr``, ``const``, ``tuple``, ``dict``,
    ``sub`` (subscript), ``call`` or ``other``; ``refs`` are indexes of
    :attr:`ModelFacts.exprs`:

    - name: ``value`` is the name, ``link`` the innermost branch around it (:class:`Link`);
    - attr: ``value`` the attribute, ``refs`` (the object,);
    - const: ``value`` the string, None for any other constant;
    - tuple: ``refs`` (the first element,), ``inner`` the calls in the others;
    - dict: ``keys`` and ``refs`` its keys (-1 for ``**x``) and values;
    - sub: ``refs`` (the object, the index);
    - call: ``refs`` (the callee, positional arguments..., keyword values...), ``keywords``
      the names of the last ``len(keywords)`` refs (None for ``**x``);
    - other: ``inner`` the outermost calls inside it.
    """

    kind: str
    line: int
    text: str = ""  # source on one line, cut at TEXT_LIMIT ("" for a name: the name itself)
    value: str | None = None
    refs: tuple[int, ...] = ()
    keywords: tuple[str | None, ...] = ()
    keys: tuple[int, ...] = ()
    inner: tuple[int, ...] = ()
    link: int = -1


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


#: (top-level def or class, its name, (architecture, registry chain, key) per decorator)
Decorated = tuple[str, str, tuple[tuple[str, tuple[str, ...], str], ...]]


@dataclass(frozen=True, slots=True)
class ModelFacts:
    """The model tree's facts of one file (module docstring)."""

    exprs: tuple[Expr, ...] = ()
    functions: tuple[Function, ...] = ()
    #: (qualified name, index of its def in ``functions`` or -1 for a class) of the first def
    #: or class of each name
    defs: tuple[tuple[str, int], ...] = ()
    #: every call: (its index in ``exprs``, the innermost def around it or -1), walk order
    calls: tuple[tuple[int, int], ...] = ()
    assigns: tuple[Assign, ...] = ()
    #: (attribute, index of the value in ``exprs``, the defs around it) of every assignment
    #: whose first target is ``self.<attribute>``, walk order: the parts a constructor builds
    self_parts: tuple[tuple[str, int, tuple[int, ...]], ...] = ()
    #: every ``return`` with a value: (its index in ``exprs``, the defs around it), walk order
    returns: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: (compound statement, is a def, the use is in its body, the link around it) per link:
    #: the branches an expression or assignment is in, innermost first through ``parent``
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


#: Decorator names that register the def they decorate (``@register_model``,
#: ``@REGISTRY.register()``, ``@MODELS.register_module()``).
REGISTER = ("register", "register_module", "register_model")


def model_facts(tree: ast.Module, text: str) -> ModelFacts:
    """The model tree's facts of a file from Python's tree of ``text``."""
    return _Recorder(tree, text).facts()


class _Recorder:
    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.lines = text.split("\n")
        self.exprs: list[Expr] = []
        self.memo: dict[int, int] = {}
        self.functions: list[Function] = []
        self.fid: dict[int, int] = {}  # id(def) -> index in functions
        self.links: list[tuple[int, bool, bool, int]] = []
        self.link_of: dict[tuple[int, bool], int] = {}
        #: id(node) -> (defs around it, a class around it, innermost link)
        self.context: dict[int, tuple[tuple[int, ...], bool, int]] = {}
        self.methods: set[int] = set()  # ids of defs directly in a class body
        self._contexts()

    # ---------------------------------------------------------------- where things are
    def _contexts(self) -> None:
        """The defs, class and branch around every node, depth first."""
        stmt_ids: dict[int, int] = {}
        stack: list[tuple[ast.AST, tuple[int, ...], bool, int, str]] = [
            (self.tree, (), False, -1, "")
        ]
        while stack:
            node, fids, in_class, link, prefix = stack.pop()
            self.context[id(node)] = (fids, in_class, link)
            child_fids, child_class, child_prefix = fids, in_class, prefix
            if isinstance(node, _FuncDef):
                fid = len(self.functions)
                self.fid[id(node)] = fid
                qual = f"{prefix}.{node.name}" if prefix else node.name
                names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)][1:]
                self.functions.append(
                    Function(
                        qual,
                        node.name,
                        node.lineno,
                        id(node) in self.methods,
                        -1,
                        None if node.args.vararg is not None else tuple(names),
                    )
                )
                child_fids = (*fids, fid)
                child_prefix = qual
                key = (id(node), True)
                if key not in self.link_of:
                    self.link_of[key] = len(self.links)
                    self.links.append((len(stmt_ids), True, True, link))
                    stmt_ids[id(node)] = len(stmt_ids)
                def_link = self.link_of[key]
            elif isinstance(node, ast.ClassDef):
                child_class = True
                child_prefix = f"{prefix}.{node.name}" if prefix else node.name
            # pushed in reverse: popped in source order, so defs are numbered as written
            for child in reversed(list(ast.iter_child_nodes(node))):
                child_link = link
                if isinstance(node, _FuncDef):
                    child_link = def_link
                elif isinstance(node, _BRANCHING):
                    in_body = child in node.body
                    key = (id(node), in_body)
                    if key not in self.link_of:
                        stmt = stmt_ids.setdefault(id(node), len(stmt_ids))
                        self.link_of[key] = len(self.links)
                        self.links.append((stmt, False, in_body, link))
                    child_link = self.link_of[key]
                if isinstance(child, _FuncDef) and isinstance(node, ast.ClassDef):
                    self.methods.add(id(child))
                stack.append((child, child_fids, child_class, child_link, child_prefix))

    # ------------------------------------------------------------------- expressions
    def text(self, node: ast.AST) -> str:
        return node_text(self.lines, node, TEXT_LIMIT)

    def encode(self, node: ast.AST, depth: int = 0) -> int:
        """The index of ``node`` in the expression table, recording it (and what the
        follower reads below it) on first use."""
        found = self.memo.get(id(node))
        if found is not None:
            return found
        line = getattr(node, "lineno", 0)
        if depth > _DEPTH:
            expr = Expr("other", line, self.text(node), inner=())
        elif isinstance(node, ast.Name):
            expr = Expr("name", line, value=node.id, link=self.context[id(node)][2])
        elif isinstance(node, ast.Attribute):
            expr = Expr(
                "attr", line, self.text(node), node.attr, (self.encode(node.value, depth + 1),)
            )
        elif isinstance(node, ast.Constant):
            value = node.value if isinstance(node.value, str) else None
            expr = Expr("const", line, self.text(node), value)
        elif isinstance(node, ast.Tuple) and node.elts:
            expr = Expr(
                "tuple",
                line,
                self.text(node),
                refs=(self.encode(node.elts[0], depth + 1),),
                inner=tuple(self._calls_in(list(node.elts[1:]), depth)),
            )
        elif isinstance(node, ast.Dict):
            expr = Expr(
                "dict",
                line,
                self.text(node),
                refs=tuple(self.encode(v, depth + 1) for v in node.values),
                keys=tuple(-1 if k is None else self.encode(k, depth + 1) for k in node.keys),
            )
        elif isinstance(node, ast.Subscript):
            expr = Expr(
                "sub",
                line,
                self.text(node),
                refs=(self.encode(node.value, depth + 1), self.encode(node.slice, depth + 1)),
            )
        elif isinstance(node, ast.Call):
            expr = Expr(
                "call",
                line,
                self.text(node),
                refs=tuple(
                    self.encode(n, depth + 1)
                    for n in (node.func, *node.args, *(k.value for k in node.keywords))
                ),
                keywords=tuple(k.arg for k in node.keywords),
            )
        else:
            inner = tuple(self._calls_in(list(ast.iter_child_nodes(node)), depth))
            expr = Expr("other", line, self.text(node), inner=inner)
        self.memo[id(node)] = len(self.exprs)
        self.exprs.append(expr)
        return len(self.exprs) - 1

    def _calls_in(self, nodes: list[ast.AST], depth: int) -> Iterator[int]:
        """The outermost calls among ``nodes`` and below them, encoded."""
        todo: deque[ast.AST] = deque(nodes)
        while todo:
            node = todo.popleft()
            if isinstance(node, ast.Call):
                yield self.encode(node, depth + 1)
            else:
                todo.extend(ast.iter_child_nodes(node))

    # ------------------------------------------------------------------------- facts
    def facts(self) -> ModelFacts:
        calls: list[tuple[int, int]] = []
        assigns: list[Assign] = []
        returns: list[tuple[int, tuple[int, ...]]] = []
        self_parts: list[tuple[str, int, tuple[int, ...]]] = []
        relative: list[tuple[int, str, tuple[tuple[str, str], ...]]] = []
        options: list[tuple[str, str | None, int]] = []
        config: list[tuple[str, str | None, int]] = []
        for node in ast.walk(self.tree):
            fids, in_class, link = self.context[id(node)]
            if isinstance(node, ast.Call):
                calls.append((self.encode(node), fids[-1] if fids else -1))
                option = _option(node)
                if option is not None:
                    options.append(option)
            elif isinstance(node, ast.Assign):
                names = tuple(t.id for t in node.targets if isinstance(t, ast.Name))
                if names:
                    value = node.value
                    kept = isinstance(
                        value, ast.Call | ast.Name | ast.Attribute | ast.Tuple | ast.Constant
                    )
                    assigns.append(
                        Assign(
                            names,
                            len(node.targets) == 1 and isinstance(node.targets[0], ast.Name),
                            node.lineno,
                            node.end_lineno or node.lineno,
                            self.encode(value) if kept else -1,
                            link,
                            fids,
                            not fids and not in_class,
                        )
                    )
                first = node.targets[0]
                if (
                    isinstance(first, ast.Attribute)
                    and isinstance(first.value, ast.Name)
                    and first.value.id == "self"
                ):
                    self_parts.append((first.attr, self.encode(node.value), fids))
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
            elif isinstance(node, _FuncDef) and node.returns is not None:
                fid = self.fid[id(node)]
                f = self.functions[fid]
                annotation = self.encode(node.returns)
                self.functions[fid] = Function(
                    f.qualname, f.name, f.line, f.method, annotation, f.params
                )
            elif isinstance(node, ast.Return) and node.value is not None:
                returns.append((self.encode(node.value), fids))
            elif isinstance(node, ast.ImportFrom) and node.level:
                relative.append(
                    (
                        node.level,
                        node.module or "",
                        tuple((a.name, a.asname or "") for a in node.names),
                    )
                )
        first = def_names(self.tree)[1]
        return ModelFacts(
            exprs=tuple(self.exprs),
            functions=tuple(self.functions),
            defs=tuple((q, self.fid.get(id(node), -1)) for q, node in first.items()),
            calls=tuple(calls),
            assigns=tuple(assigns),
            self_parts=tuple(self_parts),
            returns=tuple(returns),
            links=tuple(self.links),
            relative_imports=tuple(relative),
            globals=tuple(
                t.id
                for node in self.tree.body
                if isinstance(node, ast.Assign)
                for t in node.targets
                if isinstance(t, ast.Name)
            ),
            aliases=tuple(
                (
                    node.targets[0].id,
                    node.value.id if isinstance(node.value, ast.Name) else "",
                )
                for node in self.tree.body
                if isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ),
            decorated=_decorated(first),
            options=tuple(options),
            config=tuple(config),
        )


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
            decorators.append(
                (
                    _architecture_of(dec) or "",
                    tuple(chain or ()),
                    registered[1] if registered is not None else "",
                )
            )
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


def _option(call: ast.Call) -> tuple[str, str | None, int] | None:
    """``parser.add_argument("--model", default="resnet50")`` → ("model", "resnet50", line)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"):
        return None
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    default = next((k.value for k in call.keywords if k.arg == "default"), None)
    if not names or default is None:
        return None
    dest = next(
        (
            k.value.value
            for k in call.keywords
            if k.arg == "dest" and isinstance(k.value, ast.Constant)
        ),
        None,
    )
    longs = [n for n in names if n.startswith("--")]
    value = default.value if isinstance(default, ast.Constant) else None
    return (
        str(dest or (longs or names)[0].lstrip("-").replace("-", "_")),
        value if isinstance(value, str) else None,
        default.lineno,
    )
