"""Records, constants and small value helpers shared by the extractor's parts.

Everything here is plain data or a pure function of walker values (``Val``) that two or more
parts need: the use record (:class:`Emit`), what the walk knows of a class of the file
(:class:`ClassInfo`) and of a scope (:class:`Scope`), a call's evaluated arguments
(:class:`_Args`), the numbering of node kinds that :mod:`apiscan.extract.positions` maps back
to ``ast`` positions, the tables of mask-making and named-tuple-returning torch operations, and
the tests of whether a value carries data-dependence. A table or helper one part alone uses
lives in that part. This module imports no part, so that every part (:mod:`apiscan.extract.interp`)
can import it without importing the :class:`~apiscan.extract.api_uses.Extractor` that combines
them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import libcst as cst

from apiscan.extract.shapes import (
    BATCH_MAX,
    BATCH_MAX_TENSOR,
    BOOL_TENSOR,
    DYN_TENSOR,
    RAND,
    SAMPLE_SIZE,
    is_dyn_number,
)
from apiscan.resolve.values import TENSOR, Val, element, join

# Node kinds numbered for the position mapping (see apiscan.extract.positions).
NAME, ATTR, CALL, SUB, BINOP = range(5)
NODE_KINDS: dict[type[cst.CSTNode], int] = {
    cst.Name: NAME,
    cst.Attribute: ATTR,
    cst.Call: CALL,
    cst.Subscript: SUB,
    cst.BinaryOperation: BINOP,
}
#: The expressions that name something (``x``, ``nn.Conv2d``): a bare torch name among them
#: is a use, and one assigned alone makes an alias.
REFERENCES: frozenset[type[cst.CSTNode]] = frozenset({cst.Name, cst.Attribute})
#: Nodes inside f-strings are numbered separately (kind + FSTRING_OFFSET): their ast positions
#: are checked against the source text before use.
FSTRING_OFFSET = 5

#: The kind of a value that builds one of some torch classes when called, but is not known to
#: be one of them: a parameter whose default is a torch class (``norm_layer: LayerType =
#: nn.BatchNorm2d`` → ``(LAYER, ("torch.nn.BatchNorm2d",))``), ``partial(nn.Conv2d, ...)``,
#: ``A if c else B`` of such. Calling it reports each class as probable; anywhere else it is
#: an unknown value.
LAYER = "layer"

#: Tensor methods and torch functions that return boolean masks.
BOOL_METHODS = frozenset(
    {
        "bool",
        "eq",
        "ne",
        "gt",
        "ge",
        "lt",
        "le",
        "isnan",
        "isinf",
        "isfinite",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "greater",
        "less",
        "isclose",
        "isin",
        "greater_equal",
        "less_equal",
        "not_equal",
    }
)

#: Torch reductions whose result is a ``(values, indices)`` named tuple: always, or only when
#: given a dimension (``x.max()`` is a tensor, ``x.max(dim=1)`` a named tuple, ``x.max(y)`` the
#: elementwise maximum). ``.values``/``.indices`` of those are fields, not the sparse-tensor
#: methods ``Tensor.values``/``Tensor.indices``.
#: Ops whose result holds integer positions (``topk(k).indices``, ``argsort``, ``arange``):
#: an index tensor, never a boolean mask, whatever the name it is given (``keep_idx``).
INDEX_OPS = frozenset(
    {"argsort", "argmax", "argmin", "arange", "randperm", "multinomial", "searchsorted"}
)

#: Factories whose values the code decides from shapes and constants alone (``arange(n)``,
#: ``ones(n)``): comparing them with constants gives a mask that holds no data.
CODE_FACTORIES = frozenset(
    {"arange", "eye", "linspace", "logspace", "ones", "zeros", "full", "ones_like", "zeros_like"}
)

#: Tensors made of the data they are given: given a list written out of numbers the code
#: knows (``torch.IntTensor([self.hidden])``, ``torch.tensor([0.5, 2.0])``), their values
#: are the code's too.
LITERAL_MAKERS = frozenset(
    {"tensor", "as_tensor", "Tensor", "IntTensor", "LongTensor", "FloatTensor", "DoubleTensor"}
)

NAMED_TUPLE_ALWAYS = frozenset({"sort", "topk", "kthvalue", "mode", "cummax", "cummin"})
NAMED_TUPLE_WITH_DIM = frozenset({"max", "min", "median", "nanmedian"})

Ref = tuple[cst.CSTNode, str]  # (node, "s" start | "e" end | "a" start of the attribute name)


@dataclass(slots=True)
class Emit:
    """A use found during the walk; positions are resolved after the walk."""

    api: str
    usage: str
    confidence: str
    start: Ref
    end: Ref
    function: str
    positional: int = 0
    keywords: tuple[str, ...] = ()
    star_args: bool = False
    in_fstring: bool = False
    pending_cls: str = ""  # set for members of classes defined in other files
    pending_attr: str = ""
    #: (function, parameter) the receiver came from, for a probable owner the solver may prove
    param: tuple[str, str] | None = None
    canonical: str | None = None  # None: `api` is canonical; "": `api` is no public API
    call: cst.Call | None = None  # the call node, read for its argument texts after the walk


@dataclass(slots=True)
class ClassInfo:
    qualname: str  # module-relative
    bases: list[Val]
    methods: set[str] = field(default_factory=set)
    attrs: dict[str, Val] = field(default_factory=dict)
    module_kind: bool | None = None  # True: an nn.Module subclass; None: cannot tell here
    returns: dict[str, Val] = field(default_factory=dict)  # method -> what it returns


@dataclass(slots=True)
class Scope:
    kind: str  # module | class | function | comp
    names: dict[str, Val]
    cls: ClassInfo | None = None


@dataclass(slots=True)
class _Args:
    vals: list[Val]
    positional: int
    keywords: tuple[str, ...]
    star: bool
    kwvals: dict[str, Val] = field(default_factory=dict)
    #: the values of ``*args`` arguments (``zip(*pairs)``)
    starred: list[Val] = field(default_factory=list)
    #: every position filled, where each ``*`` argument is a tuple of known length
    #: (``f(*flatten(x))``, as ``a, b = flatten(x); f(a, b)``); None where one is not. Calls of
    #: the repository's functions bind their parameters from it; the API uses keep the
    #: arguments as written (their parameter checks read the call's text).
    spread: list[Val] | None = None
    #: a ``**kwargs`` argument was passed (the positions stay known)
    double_star: bool = False
    #: the values of the ``**`` arguments (``dict(data, **pred)``)
    double_starred: list[Val] = field(default_factory=list)

    def sized(self, api: str) -> list[Val]:
        """The positional values as the size rules read them for ``api``. ``Tensor.new``
        takes its sizes only as separate arguments, so a shape is handed to it unpacked
        (``img.new(*batch_shape)``): each ``*`` argument's tuple spread (:attr:`spread`),
        else the unpacked values after those written. Other ops keep the arguments as
        written (a shape they take whole, ``x.view(shape)``)."""
        if not api.endswith(".new") or not self.starred:
            return self.vals
        if self.spread is not None:
            return self.spread
        return [*self.vals, *self.starred]

    def binding(self) -> _Args:
        """The arguments as a repository function's parameters receive them: each tuple of
        known length spread into its positions (:attr:`spread`), else as written."""
        if self.spread is None:
            return self
        return _Args(self.spread, len(self.spread), self.keywords, self.double_star, self.kwvals)


def _bool_dtype(args: _Args, positional: bool = True) -> bool:
    """``dtype=torch.bool`` (or, for ``.to``/``.type``, ``torch.bool`` as an argument)."""
    vals = [*args.vals] if positional else []
    dtype = args.kwvals.get("dtype")
    if dtype is not None:
        vals.append(dtype)
    return any(v == ("qual", "torch.bool") for v in vals)


def _root_name(expr: cst.BaseExpression) -> str | None:
    """``t`` for ``t``, ``t[0]``, ``t[0][1]`` (subscripts of a plain name), else None."""
    while type(expr) is cst.Subscript:
        expr = expr.value  # type: ignore[attr-defined]
    return expr.value if type(expr) is cst.Name else None  # type: ignore[attr-defined]


def _nested_any(v: Val, leaf: Callable[[Val], bool]) -> bool:
    """``leaf`` holds for ``v`` or for a value anywhere inside its sequences, tuples and
    dicts of constant keys (a collate's batch)."""
    if v[0] == "seq":
        return _nested_any(v[1], leaf)
    if v[0] == "tuple":
        return any(_nested_any(e, leaf) for e in v[1])
    if v[0] == "dict":
        return any(_nested_any(e, leaf) for _, e in v[1])
    return leaf(v)


def _data_leaf(v: Val) -> bool:
    return is_dyn_number(v) or v in (DYN_TENSOR, BOOL_TENSOR, RAND)


def _carries_data(v: Val) -> bool:
    """A value whose shape or number comes from tensor data (a mask included) or is drawn
    at random: worth a step in a chain where it is returned or stored."""
    return _nested_any(v, _data_leaf)


def _variable(v: Val) -> bool:
    """A value that makes a shape vary when it is a size or an index: read from data."""
    return _nested_any(v, lambda e: is_dyn_number(e) or e == DYN_TENSOR)


def _sized_by_data(v: Val) -> bool:
    """A sequence holding a number read from data, drawn at random or a batch maximum."""
    return _nested_any(
        v, lambda e: _data_leaf(e) or e in (BATCH_MAX, BATCH_MAX_TENSOR, SAMPLE_SIZE)
    )


def _const_str(node: cst.CSTNode) -> str | None:
    if type(node) is cst.Index:
        node = node.value  # type: ignore[attr-defined]
    if type(node) is cst.SimpleString:
        raw: str = node.value  # type: ignore[attr-defined]
        first = raw[0]
        # Most strings have no prefix: read so, not through LibCST's ``prefix`` and
        # ``quote``, which build them a character at a time.
        unprefixed = first == '"' or first == "'"
        prefix = "" if unprefixed else node.prefix.lower()  # type: ignore[attr-defined]
        if prefix in ("", "u", "r") and "\r" not in raw and (prefix == "r" or "\\" not in raw):
            # Nothing to unescape: the text between the quotes is the value (evaluating it
            # compiles the literal, ~0.1 ms each, and a file can hold thousands).
            quote = (
                (3 if raw.startswith(first * 3) else 1) if unprefixed else len(node.quote)  # type: ignore[attr-defined]
            )
            return raw[len(prefix) + quote : -quote]
        value = node.evaluated_value  # type: ignore[attr-defined]
        return value if isinstance(value, str) else None
    return None


def _join_all(vals: Sequence[Val]) -> Val:
    v = vals[0]
    for other in vals[1:]:
        v = join(v, other)
    return v


def merge_dicts(parts: Sequence[tuple[str | None, Val]]) -> Val | None:
    """The dict ``{**data, **pred, "k": v}``, ``dict(data, **pred)`` or ``data.update(pred)``
    builds, from its parts in order: ``(None, d)`` for a whole dict merged in, ``(key, v)``
    for one entry (``None`` where the key is not a constant). Merging keeps what each part's
    values are (a detector's keypoints of data-dependent count stay so in the dict a matcher
    reads); a later constant key replaces an earlier one. A part whose keys are not known
    (an unknown value, ``**kwargs``) adds nothing: its keys read as unknown, as any key a
    dict does not name. None when no part is a dict whose values are known, so that a merge
    of unknown values stays what it was (a plain host dict)."""
    items: dict[str | None, Val] = {}
    known = False
    for key, v in parts:
        if key is not None:
            items[key] = v
            continue
        if v[0] != "dict":
            continue
        known = True
        for k, e in v[1]:
            if k is None and None in items:
                e = join_keeping_data([items[None], e])
            items[k] = e
    if not known:
        return None
    named = tuple((k, e) for k, e in items.items() if k is not None)
    return ("dict", named if None not in items else (*named, (None, items[None])))


def join_keeping_data(vals: Sequence[Val]) -> Val:
    """What one of ``vals`` is, when any of them may be (the keys a merge computes, from
    several dicts): the first carrying data when one does (the precision policy keeps "may
    depend on data"), else what they all agree on. Not for ``d.values()`` of a dict whose
    keys are known: a loop over them reads each value, tensors and host numbers alike."""
    return next((v for v in vals if _carries_data(v)), None) or _join_all(vals)


def _named_tuple(name: str, args: _Args, first_dim: int, result: Val) -> Val:
    """``(values, indices)`` for the reductions that return a named tuple (see
    NAMED_TUPLE_ALWAYS); ``first_dim`` is the index of the ``dim`` argument (1 for the
    function form, whose first argument is the input)."""
    if name in NAMED_TUPLE_ALWAYS:
        pass
    elif name in NAMED_TUPLE_WITH_DIM:
        if "dim" not in args.keywords:
            if args.positional <= first_dim or args.star:
                return result
            if args.vals[first_dim][0] in ("tensor", "unknown"):
                return result  # x.max(y): the elementwise maximum (or cannot tell)
    else:
        return result
    if result[0] == "tuple" and len(result[1]) == 2:
        return result  # the pair the shape tracker made (``sort`` of a data-dependent tensor)
    if result[0] == "seq":
        result = element(result)
    values = result if result[0] == "tensor" else TENSOR
    # indices have the values' shape: data-dependent too after topk(k read from data)
    return ("tuple", (values, DYN_TENSOR if values == DYN_TENSOR else TENSOR))


def _returns(node: cst.CSTNode) -> list[cst.Return]:
    """The ``return`` statements of a function body (not of the functions nested in it).

    A ``return`` is a small statement, so only statement lists can hold one: walking them
    alone (not every expression and whitespace node, as ``children`` would) finds them all."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is cst.SimpleStatementLine or kind is cst.SimpleStatementSuite:
            out += [s for s in n.body if type(s) is cst.Return]
        elif kind is not cst.FunctionDef and kind is not cst.ClassDef:
            for name in _BLOCK_FIELDS:
                part = getattr(n, name, None)
                if part is None:
                    continue
                if type(part) is tuple or type(part) is list:  # a statement list
                    stack.extend(part)
                else:  # a block, an ``else``...
                    stack.append(part)
    return out


#: The fields of blocks and compound statements that hold statements or blocks.
_BLOCK_FIELDS = ("body", "orelse", "handlers", "finalbody", "cases")

#: Tensor methods that give back the same tensor, cast or moved (its shape unchanged): a
#: pass-through helper's return, and a sample moved to the device is still that sample.
SAME_SHAPE = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "to", "type", "contiguous"}
    | {"detach", "clone", "cpu", "cuda"}
)


def is_text(node: cst.BaseExpression) -> bool:
    """A string written out (``'%10.4g'``, ``'%10s' * 2 + '%10.4g' * 6``): the left side of a
    ``%`` that formats rather than takes a remainder, the receiver of a ``.format()``."""
    if type(node) in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
        return True
    if type(node) is cst.BinaryOperation and type(node.operator) in (cst.Add, cst.Multiply):
        return is_text(node.left) or is_text(node.right)
    return False
