"""What an input goes through around the network, read from one file's syntax.

An inference-only repository has no augmentation pipeline, but its inference path still
prepares every input and reads every output in ways a port must reproduce exactly: the image
is scaled so its longer side has a fixed length, standardised with the training set's mean
and standard deviation, padded up to the network's square input, and the masks are upscaled
back to the original size and cut at a logit threshold. These steps are often written as
plain arithmetic in a model method (``(x - self.pixel_mean) / self.pixel_std``,
``F.pad(x, (0, side - w, 0, side - h))``, ``long_side / max(h, w)``), not as a ``Compose``
the recipe could show, so the worker records them here as :class:`InputStep` records, with
the literals a step may refer to (:class:`NamedLiteral`: parameter defaults, class-level
values, constructor keywords, buffers bound from parameters). The review joins them across
files (:mod:`apiscan.review.inference`); nothing here follows values beyond one file.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

#: A name read as a mean or a standard deviation (``pixel_mean``, ``self.std``, ``MEAN``).
_MEAN = re.compile(r"mean", re.IGNORECASE)
_STD = re.compile(r"std|sigma", re.IGNORECASE)
#: An interpolation target named after the input's original size (``original_size``).
_ORIGINAL = re.compile(r"orig", re.IGNORECASE)
#: An image's height or width (``h``, ``oldw``, ``height``, ``img.shape[1]``, ``self.w``).
_SIDE = re.compile(
    r"(?:[\w.]*\.)?(?:old|new|in|src|img|image)?_?(?:h|w|height|width)|[\w.]+\.shape\[-?\d\]",
    re.IGNORECASE,
)

_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
#: A node → its source on one line.
_Text = Callable[[ast.AST], str]


@dataclass(frozen=True, slots=True)
class InputStep:
    """One step of the inference path written as code, not as a transform class.

    ``kind``: ``normalise`` (refs: the mean's and the std's text), ``pad`` (refs: the size
    padded up to), ``resize`` (refs: the fixed size an input is interpolated to),
    ``long_side`` (refs: the length the longer side is scaled to),
    ``threshold`` (refs: the class attribute compared with), ``upscale`` (refs: the size
    interpolated to)."""

    kind: str
    function: str  # qualified name of the def it is in ("Cls.method")
    line: int
    text: str  # the expression's source, on one line
    refs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NamedLiteral:
    """A literal a step may name, and who holds it.

    ``kind``: ``default`` (``owner``'s ``__init__`` parameter ``name`` defaults to it, or a
    class-level ``name = literal``; owner "" for a module-level constant), ``keyword`` (a
    construction ``owner(..., name=literal)``; owner is the callee's last name; a name bound
    to a literal in the calling function or module counts), ``binding`` (``owner``'s
    ``__init__`` stores parameter ``text`` as attribute or buffer ``name``)."""

    kind: str
    owner: str
    name: str
    text: str
    line: int


def read_input_steps(
    tree: ast.Module,
    qualname: Mapping[ast.AST, str],
    text_of: _Text,
) -> tuple[tuple[InputStep, ...], tuple[NamedLiteral, ...]]:
    """The steps and literals of one file (module docstring); ``qualname`` names every def
    and class, ``text_of`` gives a node's source on one line."""
    steps: list[InputStep] = []
    literals: list[NamedLiteral] = list(_module_literals(tree, text_of))
    numbers: dict[str, frozenset[str]] = {}
    for node, name in qualname.items():
        if isinstance(node, ast.ClassDef):
            found = list(_class_literals(node, name, text_of))
            literals += found
            numbers[name] = frozenset(
                lit.name for lit in found if lit.kind == "default" and lit.line < _first_def(node)
            )
    for node, name in qualname.items():
        if isinstance(node, _FuncDef):
            steps += _function_steps(
                node, name, text_of, numbers.get(name.rpartition(".")[0], frozenset())
            )
            literals += _keywords(node, tree, text_of)
    literals += _keywords(None, tree, text_of)
    steps.sort(key=lambda s: (s.line, s.kind, s.text))
    literals.sort(key=lambda lit: (lit.line, lit.kind, lit.owner, lit.name))
    return tuple(steps), tuple(dict.fromkeys(literals))


def _first_def(cls: ast.ClassDef) -> int:
    """The line of the class's first method (its class-level values come before)."""
    return min((s.lineno for s in cls.body if isinstance(s, _FuncDef)), default=1 << 30)


def _body_nodes(fn: _FuncDef) -> Iterator[ast.AST]:
    """The function's own nodes, not those of the defs or classes nested in it."""
    todo: list[ast.AST] = [*fn.args.defaults, *fn.body]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _FuncDef | ast.ClassDef | ast.Lambda):
                todo.append(child)


def _function_steps(
    fn: _FuncDef, name: str, text_of: _Text, class_values: frozenset[str] = frozenset()
) -> Iterator[InputStep]:
    """The steps in ``fn``; ``class_values``: the names its class binds to a number in its
    body (``mask_threshold: float = 0.0``), the only attributes a comparison is a
    threshold with (a count compared with ``self.beam_size`` is not)."""
    assigned: dict[str, ast.expr] = {}
    for node in _body_nodes(fn):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            assigned[node.targets[0].id] = node.value
    # names the function computes (``std, mean = torch.std_mean(w)``): a statistic of the
    # data itself, not the constants an input is prepared with
    computed = {
        n.id
        for node in _body_nodes(fn)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For)
        for n in ast.walk(node.targets[0] if isinstance(node, ast.Assign) else node.target)
        if isinstance(n, ast.Name)
        and not isinstance(assigned.get(n.id), ast.Attribute | ast.Constant | ast.List | ast.Tuple)
    }
    yield from dict.fromkeys(_round_trip(fn, name, text_of))
    for node in _body_nodes(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            steps = _division(node, name, _local_text(text_of, assigned))
            yield from (s for s in steps if not computed.intersection(s.refs))
        elif isinstance(node, ast.Call):
            yield from _call_step(node, name, _local_text(text_of, assigned), assigned)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            ref = node.comparators[0]
            if (
                isinstance(node.ops[0], ast.Gt | ast.GtE)
                and isinstance(ref, ast.Attribute)
                and _self_attr(ref)
                and ref.attr in class_values
            ):
                yield InputStep("threshold", name, node.lineno, text_of(node), (ref.attr,))


def _local_text(text_of: _Text, assigned: Mapping[str, ast.expr]) -> _Text:
    """A name the function bound once to an attribute chain reads as that chain (``side =
    self.image_tower.side``): the literal behind it is found through the chain."""

    def text(node: ast.AST) -> str:
        if isinstance(node, ast.Name) and isinstance(assigned.get(node.id), ast.Attribute):
            return text_of(assigned[node.id])
        return text_of(node)

    return text


def _division(node: ast.BinOp, name: str, text_of: _Text) -> Iterator[InputStep]:
    left, right = node.left, node.right
    # (x - mean) / std
    if (
        isinstance(left, ast.BinOp)
        and isinstance(left.op, ast.Sub)
        and _MEAN.search(text_of(left.right))
        and _STD.search(text_of(right))
    ):
        refs = (text_of(left.right), text_of(right))
        yield InputStep("normalise", name, node.lineno, text_of(node), refs)
    # length / max(h, w), length * 1.0 / max(h, w)
    elif (
        isinstance(right, ast.Call)
        and isinstance(right.func, ast.Name)
        and right.func.id == "max"
        and len(right.args) == 2
        and not right.keywords
    ):
        length = left.left if isinstance(left, ast.BinOp) and _is_one(left.right) else left
        if isinstance(length, ast.Name | ast.Attribute) and all(
            _SIDE.fullmatch(text_of(arg)) for arg in right.args
        ):
            yield InputStep("long_side", name, node.lineno, text_of(node), (text_of(length),))


def _call_step(
    node: ast.Call, name: str, text_of: _Text, assigned: Mapping[str, ast.expr]
) -> Iterator[InputStep]:
    callee = node.func
    last = _last_name(callee)
    if last in ("sub", "sub_") and isinstance(callee, ast.Attribute) and node.args:
        # x.sub(mean).div(std): the chain's outer call is the division
        return
    if last in ("div", "div_") and isinstance(callee, ast.Attribute) and node.args:
        inner = callee.value
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr in ("sub", "sub_")
            and inner.args
            and _MEAN.search(text_of(inner.args[0]))
            and _STD.search(text_of(node.args[0]))
        ):
            refs = (text_of(inner.args[0]), text_of(node.args[0]))
            yield InputStep("normalise", name, node.lineno, text_of(node), refs)
        return
    if last == "pad" and len(node.args) >= 2 and isinstance(node.args[1], ast.Tuple | ast.List):
        sizes = []
        for element in node.args[1].elts:
            value = assigned.get(element.id, element) if isinstance(element, ast.Name) else element
            if (
                isinstance(value, ast.BinOp)
                and isinstance(value.op, ast.Sub)
                and not isinstance(value.left, ast.Constant)
            ):
                sizes.append(text_of(value.left))
        if sizes:
            refs = tuple(dict.fromkeys(sizes))
            yield InputStep("pad", name, node.lineno, text_of(node), refs)
    elif last == "interpolate" and _ORIGINAL.search(text_of(_target(node))):
        yield InputStep("upscale", name, node.lineno, text_of(node), (text_of(_target(node)),))


def _target(call: ast.Call) -> ast.AST:
    """The size an ``interpolate``/``resize`` call is given (second argument or ``size=``)."""
    if len(call.args) >= 2:
        return call.args[1]
    return next((kw.value for kw in call.keywords if kw.arg == "size"), ast.Constant(None))


def _round_trip(fn: _FuncDef, name: str, text_of: _Text) -> Iterator[InputStep]:
    """An input resized to the network's fixed size and the output resized back to the
    input's own size in one function (``x = interpolate(x, size=(self.img_size,
    self.img_size))`` ... ``interpolate(depth, size=(H, W))`` with ``H, W`` from ``x.shape``):
    preprocessing and postprocessing around the network, not a layer of it."""
    if fn.name == "forward":
        return
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    shape_of: dict[str, str] = {}  # a name bound from a parameter's shape → the parameter
    calls: list[ast.Call] = []
    for node in _body_nodes(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            base = node.value.value if isinstance(node.value, ast.Subscript) else node.value
            if (
                isinstance(base, ast.Attribute)
                and base.attr == "shape"
                and isinstance(base.value, ast.Name)
                and base.value.id in params
            ):
                for n in ast.walk(node.targets[0]):
                    if isinstance(n, ast.Name):
                        shape_of[n.id] = base.value.id
        elif isinstance(node, ast.Call) and _last_name(node.func) == "interpolate" and node.args:
            calls.append(node)
    fixed, back = [], []
    for call in calls:
        size = _target(call)
        parts = size.elts if isinstance(size, ast.Tuple | ast.List) else []
        source = call.args[0]
        if (
            parts
            and isinstance(source, ast.Name)
            and source.id in params
            and all(_self_attr(p) or isinstance(p, ast.Constant) for p in parts)
            and not all(isinstance(p, ast.Constant) for p in parts)
        ):
            fixed.append((call, source.id, parts))
        elif parts and all(isinstance(p, ast.Name) and p.id in shape_of for p in parts):
            back.append((call, {shape_of[p.id] for p in parts if isinstance(p, ast.Name)}))
    for call, source, parts in fixed:
        refs = tuple(dict.fromkeys(text_of(p) for p in parts))
        yield InputStep("resize", name, call.lineno, text_of(call), refs)
        for later, sources in back:
            if sources == {source} and later.lineno > call.lineno:
                refs = (text_of(_target(later)),)
                yield InputStep("upscale", name, later.lineno, text_of(later), refs)


def _last_name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _is_one(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in (1, 1.0)


def _self_attr(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _literal(node: ast.AST | None) -> bool:
    """A number, or a list or tuple of numbers (a mean, a size, a threshold)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.Tuple | ast.List):
        return bool(node.elts) and all(_literal(e) for e in node.elts)
    return False


def _module_literals(tree: ast.Module, text_of: _Text) -> Iterator[NamedLiteral]:
    for stmt in tree.body:
        target, value = _single(stmt)
        if isinstance(target, ast.Name) and _literal(value):
            assert value is not None
            yield NamedLiteral("default", "", target.id, text_of(value), stmt.lineno)


def _single(stmt: ast.AST) -> tuple[ast.expr | None, ast.expr | None]:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return stmt.targets[0], stmt.value
    if isinstance(stmt, ast.AnnAssign):
        return stmt.target, stmt.value
    return None, None


def _class_literals(cls: ast.ClassDef, owner: str, text_of: _Text) -> Iterator[NamedLiteral]:
    for stmt in cls.body:
        target, value = _single(stmt)
        if isinstance(target, ast.Name) and _literal(value):
            assert value is not None
            yield NamedLiteral("default", owner, target.id, text_of(value), stmt.lineno)
        if not (isinstance(stmt, _FuncDef) and stmt.name == "__init__"):
            continue
        args = stmt.args
        positional = [*args.posonlyargs, *args.args]
        pairs = list(
            zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
        )
        pairs += [
            (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
        ]
        params = {a.arg for a in [*positional, *args.kwonlyargs]} - {"self"}
        for arg, default in pairs:
            if _literal(default):
                yield NamedLiteral("default", owner, arg.arg, text_of(default), default.lineno)
        yield from _bindings(stmt, owner, params)


def _bindings(init: _FuncDef, owner: str, params: set[str]) -> Iterator[NamedLiteral]:
    """``self.register_buffer("pixel_mean", torch.Tensor(pixel_mean)...)`` and
    ``self.mean = mean``: the attribute a parameter is stored as."""
    for node in _body_nodes(init):
        stored: str | None = None
        value: ast.AST | None = None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "register_buffer"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            stored, value = node.args[0].value, node.args[1]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            target, value = _single(node)
            stored = target.attr if target is not None and _self_attr(target) else None
        if stored is None or value is None:
            continue
        used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in params}
        if len(used) == 1:
            yield NamedLiteral("binding", owner, stored, used.pop(), node.lineno)


def _keywords(fn: _FuncDef | None, tree: ast.Module, text_of: _Text) -> Iterator[NamedLiteral]:
    """Constructions ``Cls(..., name=literal)`` in ``fn`` (module code when None), a name
    bound to a literal in the same scope counting as that literal."""
    scope: Sequence[ast.AST] = list(_body_nodes(fn)) if fn is not None else _module_code(tree)
    bound: dict[str, ast.expr] = {}
    for node in [*(tree.body if fn is not None else ()), *scope]:
        target, value = _single(node)
        if isinstance(target, ast.Name) and _literal(value):
            assert value is not None
            bound[target.id] = value
    for node in scope:
        if not isinstance(node, ast.Call):
            continue
        callee = node.func
        last = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
        if not last[:1].isupper():
            continue
        for kw in node.keywords:
            value = kw.value
            if isinstance(value, ast.Name) and value.id in bound:
                value = bound[value.id]
            if kw.arg and _literal(value):
                yield NamedLiteral("keyword", last, kw.arg, text_of(value), node.lineno)


def _module_code(tree: ast.Module) -> list[ast.AST]:
    """Module-level nodes outside defs and classes."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, _FuncDef | ast.ClassDef | ast.Lambda):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out
