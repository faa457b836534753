"""Stages 3–4 in one LibCST traversal: resolve names and extract every PyTorch API use.

The walker is a small abstract interpreter over the concrete syntax tree. It visits every node
once, in source order, keeping per-scope bindings (imports, aliases, local variables and what
kind of value they hold) so that ``x.view(...)`` is reported as ``torch.Tensor.view`` only when
``x`` is (or may be) a tensor, and ``self.parameters()`` as ``torch.nn.Module.parameters`` only
inside an ``nn.Module`` subclass.

Why not LibCST's generic visitor plus ``QualifiedNameProvider``/``ScopeProvider``? On real code
each of those costs several times the parse itself (see ``scripts/bench.py``); one hand-written
traversal that builds the alias tables as it goes costs a fraction of the parse. Positions come
from :mod:`apiscan.extract.positions`, which maps the nodes we report to Python's own ``ast``
positions instead of running LibCST's ``PositionProvider`` over the whole tree.

Source order matters twice: Python binds names in that order, and the position mapping numbers
nodes of each kind in pre-order. Where evaluation order differs from source order (a
comprehension's element is written before its ``for``), the later part is first evaluated
*silently* (no counting, no reporting) to learn the types, then visited for real.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import libcst as cst

from apiscan.extract.facts import fresh
from apiscan.extract.interp.base import (
    ATTR,
    BINOP,
    BOOL_METHODS,
    CALL,
    FSTRING_OFFSET,
    LAYER,
    NAME,
    NAMED_TUPLE_ALWAYS,
    NAMED_TUPLE_WITH_DIM,
    NODE_KINDS,
    SUB,
    ClassInfo,
    Emit,
    Ref,
    Scope,
    _Args,
    _bool_dtype,
    _carries_data,
    _named_tuple,
    _root_name,
    _sized_by_data,
    _variable,
)
from apiscan.extract.interp.calls import BOOL_FUNCTIONS, DATALOADER, JOINS, SEQUENTIAL, CallsMixin
from apiscan.extract.interp.members import (
    BUILTIN_METHODS,
    NAMED_FIELDS,
    NDARRAY_ATTRS,
    NDARRAY_METHODS,
    TENSOR_ONLY_ATTRS,
    MembersMixin,
)
from apiscan.extract.interp.scopes import FOREIGN_FRAMEWORKS, ScopesMixin
from apiscan.extract.interp.solver_facts import SolverFactsMixin
from apiscan.extract.interp.statements import StatementsMixin
from apiscan.extract.records import RETURNS, ClassFact
from apiscan.extract.shapes import (
    BATCH_MAX,
    BOOL_TENSOR,
    DYN_TENSOR,
    HOST_DATA,
    RAND,
    SAMPLE_SIZE,
    NullShapeTracker,
    ShapeTracker,
    Why,
    is_dyn_number,
    is_dyn_tensor,
    is_host_dyn,
    is_variable,
    merge_numbers,
)
from apiscan.program import values as pv
from apiscan.resolve.owners import Owners
from apiscan.resolve.torch_api import TorchApi, is_torch_name
from apiscan.resolve.values import (
    ARG_TENSOR,
    ARRAY,
    NONTORCH,
    PTENSOR,
    TENSOR,
    UNKNOWN,
    Val,
    element,
    inst,
    join,
    seq,
)

__all__ = [
    "ATTR",
    "BINOP",
    "BOOL_FUNCTIONS",
    "BOOL_METHODS",
    "BUILTIN_METHODS",
    "CALL",
    "DATALOADER",
    "FOREIGN_FRAMEWORKS",
    "FSTRING_OFFSET",
    "JOINS",
    "LAYER",
    "MASK_NAME",
    "NAME",
    "NAMED_FIELDS",
    "NAMED_TUPLE_ALWAYS",
    "NAMED_TUPLE_WITH_DIM",
    "NDARRAY_ATTRS",
    "NDARRAY_METHODS",
    "NODE_KINDS",
    "SEQUENTIAL",
    "SUB",
    "SYNC_METHODS",
    "TENSOR_ONLY_ATTRS",
    "ClassInfo",
    "Emit",
    "Extractor",
    "Ref",
    "Scope",
]

_CONSTANT_NAMES = frozenset({"True", "False", "None"})  # ast.Constant, not ast.Name

#: Names that code gives to boolean masks (a tensor parameter of unknown dtype named so).
MASK_NAME = re.compile(r"(^|_)(mask|masks|keep|valid|inside|is_[a-z]+)($|_)")

#: Tensor methods whose result is a host number or list read from tensor values.
SYNC_METHODS = frozenset({"item", "tolist"})

#: Tensor methods that change the dtype (a mask cast to numbers is no longer a mask).
_CASTS = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "type"}
)


class Extractor(ScopesMixin, StatementsMixin, MembersMixin, CallsMixin, SolverFactsMixin):
    """Walks one module. Create one per file; call :meth:`run`."""

    def __init__(
        self,
        api: TorchApi,
        owners: Owners,
        module_name: str,
        is_package: bool,
        local_roots: frozenset[str],
        reexports: Mapping[str, str],
        dynamic_shape: bool = True,
        env: Mapping[str, pv.Fact] | None = None,
    ) -> None:
        self.api = api
        self.owners = owners
        self.module_name = module_name
        self.package = module_name if is_package else module_name.rpartition(".")[0]
        self.local_roots = local_roots - {"torch", "torchvision", "torchaudio", "torchtext"}
        self.reexports = reexports
        #: facts from the whole-program solver: "p:<function>:<param>", "r:<callee>",
        #: "a:<class>:<attr>" (see apiscan.program.solver)
        self.env: Mapping[str, pv.Fact] = env or {}
        #: id(value) -> (function qualname, parameter name, value): parameters as bound, so
        #: that a call passing one on is recorded symbolically (identity, not equality)
        self.param_ids: dict[int, tuple[str, str, Val]] = {}
        #: id(value) -> (value, (words, chain)): values the solver supplied, to name in
        #: findings (in words and as located steps)
        self.explained: dict[int, tuple[Val, Why]] = {}
        #: id(value) -> (value, fact): values made from a solver fact with a chain, so that
        #: passing one on keeps the chain (a mask returned by one helper, passed to another)
        self.supplied: dict[int, tuple[Val, pv.Fact]] = {}
        #: call sites of repo functions: (caller, callee, node, args, bound)
        self.sites: list[tuple[str, str, cst.CSTNode, _Args, bool]] = []
        #: per function: (qualname, class qualname, params, bound, returned values)
        self.summaries: list[
            tuple[str, str, list[tuple[str, str, Val, bool]], bool, list[Val]]
        ] = []
        #: function qualname -> [(attribute written on self, value)]
        self.attr_writes: dict[str, list[tuple[str, Val]]] = {}
        #: (function, "" for its return or an attribute name) -> the first ``return`` or
        #: ``self.attr = ...`` there that hands on a data-dependent value (a chain's step)
        self.carriers: dict[tuple[str, str], cst.CSTNode] = {}
        #: id(value) -> (value, function, bound arguments): ``functools.partial(f, ...)``
        self.partials: dict[int, tuple[Val, Val, _Args]] = {}
        #: (function, name) of tensors a randomly drawn number was written into
        #: (``t[0] = random.randint(...)``: ``t[0].item()`` reads the random number back)
        self.random_filled: set[tuple[str, str]] = set()
        #: id(value) -> (value, children): ``nn.Sequential(a, b, ...)`` with its children
        self.sequentials: dict[int, tuple[Val, tuple[Val, ...]]] = {}
        #: id(value) -> (value, (function, parameter)): tensors computed from a parameter
        self.derived: dict[int, tuple[Val, tuple[str, str]]] = {}
        #: id(value) -> value: host truth values compared from data (``b[2] > b[0]`` of
        #: ``boxes.tolist()``): a tensor made from a list of them is a mask
        self.truths: dict[int, Val] = {}
        #: id(value) -> value: elements of data-dependent tensors met in loops (one index)
        self.rows: dict[int, Val] = {}
        #: "p:<function>:<param>" keys whose tensor-ness would change a dynamic-shape finding
        self.sensitive: set[str] = set()
        self.counts = [0] * (2 * FSTRING_OFFSET)
        self.ords: dict[int, int] = {}
        self.silent = 0
        self.fstring = 0
        self.annotating = 0
        tracker = ShapeTracker if dynamic_shape else NullShapeTracker
        self.shapes = tracker(self._function, lambda: self.silent > 0, self._explain)
        self.call_facts: list[tuple[str, str, cst.CSTNode, str]] = []
        self.function_facts: list[tuple[str, str, cst.FunctionDef]] = []
        self.returns: list[list[Val]] = []
        #: per function: data-dependent `if`s without else whose body returned (test node,
        #: returned values, index of the returns that follow the `if`)
        self.pending_branches: list[list[tuple[cst.CSTNode, list[Val], int]]] = []
        self.func_returns: dict[str, Val] = {}
        self.emits: list[Emit] = []
        self.scopes: list[Scope] = [Scope("module", {})]
        self.late: dict[str, Val] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.func_stack: list[str] = []
        self.local_refs: set[str] = set()
        #: Whether anything in the file says it handles PyTorch objects: an import of torch
        #: (or torchvision...), or of a repository name that is a torch object or returns a
        #: tensor. Without it a receiver of unknown type is never guessed to be a tensor or
        #: a module (numpy code, plain Python helpers).
        self.says_torch = False
        #: Whether the file imports another tensor framework (MegEngine ports of a model).
        self.foreign_framework = False
        self._expr: dict[type[cst.CSTNode], Callable[[Any], Val]] = {
            cst.Name: self._name,
            cst.Attribute: self._attribute,
            cst.Call: self._call,
            cst.Subscript: self._subscript,
            cst.BinaryOperation: self._binop,
            cst.Integer: _nontorch,
            cst.Float: _nontorch,
            cst.Imaginary: _nontorch,
            cst.SimpleString: _nontorch,
            cst.Ellipsis: _nontorch,
            cst.ConcatenatedString: self._concat,
            cst.FormattedString: self._fstring,
            cst.Tuple: self._tuple,
            cst.List: self._list,
            cst.Set: self._set,
            cst.Dict: self._dict,
            cst.UnaryOperation: self._unary,
            cst.BooleanOperation: self._boolop,
            cst.Comparison: self._compare,
            cst.IfExp: self._ifexp,
            cst.Lambda: self._lambda,
            cst.Await: self._await,
            cst.Yield: self._yield,
            cst.NamedExpr: self._namedexpr,
            cst.ListComp: self._listcomp,
            cst.SetComp: self._listcomp,
            cst.GeneratorExp: self._listcomp,
            cst.DictComp: self._dictcomp,
        }
        self._stmt: dict[type[cst.CSTNode], Callable[[Any], None]] = {
            cst.SimpleStatementLine: self._simple_line,
            cst.SimpleStatementSuite: self._simple_line,
            cst.Expr: self._expr_stmt,
            cst.Assign: self._assign,
            cst.AnnAssign: self._annassign,
            cst.AugAssign: self._augassign,
            cst.Return: self._return,
            cst.Import: self._import,
            cst.ImportFrom: self._importfrom,
            cst.Pass: _noop,
            cst.Break: _noop,
            cst.Continue: _noop,
            cst.Global: _noop,
            cst.Nonlocal: _noop,
            cst.Raise: self._raise,
            cst.Assert: self._assert,
            cst.Del: self._del,
            cst.FunctionDef: self._funcdef,
            cst.ClassDef: self._classdef,
            cst.If: self._if,
            cst.For: self._for,
            cst.While: self._while,
            cst.Try: self._try,
            cst.TryStar: self._try,
            cst.With: self._with,
            cst.IndentedBlock: self._block,
            cst.Match: self._match,
        }

    def run(self, module: cst.Module) -> None:
        self._prepass(module.body)
        for stmt in module.body:
            self.stmt(stmt)

    def exports(self) -> tuple[tuple[str, str], ...]:
        out = []
        for name, v in self.scopes[0].names.items():
            if v[0] == "qual" and (self._is_torch(v[1]) or self._is_local(v[1])):
                out.append((name, v[1]))
            elif v[0] == "class":
                out.append((name, f"{self.module_name}.{v[1]}"))
        # What module-level functions return, when it is a torch object or a repo class
        # instance: `model = build_model(cfg)` in another file then knows what model is.
        for qn, v in self.func_returns.items():
            if "." in qn:
                continue
            if v[0] == "tensor" and v[1]:
                out.append((qn + RETURNS, "tensor"))
            elif v[0] == "inst":
                out.append((qn + RETURNS, "inst:" + str(v[1])))
        return tuple(sorted(out))

    def class_facts(self, lines: Mapping[str, int] | None = None) -> tuple[ClassFact, ...]:
        """One fact per class; ``lines``: the ``class`` statement's line by qualname."""
        facts = []
        for info in self.classes.values():
            bases = tuple(self._base_name(b) for b in info.bases)
            line = lines.get(info.qualname, 0) if lines else 0
            facts.append(ClassFact(info.qualname, bases, tuple(sorted(info.methods)), line))
        return tuple(sorted(facts, key=lambda f: f.qualname))

    def _base_name(self, b: Val) -> str:
        if b[0] == "qual":
            if self._is_torch(b[1]):
                return self.api.canonical(b[1]) or b[1]
            return str(b[1])
        if b[0] == "class":
            return f"{self.module_name}.{b[1]}"
        return ""

    def _count(self, node: cst.CSTNode, kind: int) -> None:
        if not self.silent:
            if self.fstring:
                kind += FSTRING_OFFSET
            self.ords[id(node)] = self.counts[kind]
            self.counts[kind] += 1

    @staticmethod
    def _is_torch(q: str) -> bool:
        return is_torch_name(q)

    def _is_local(self, q: str) -> bool:
        return q.partition(".")[0] in self.local_roots

    def _function(self) -> str:
        return ".".join(self.func_stack)

    def value(self, node: cst.BaseExpression, usage: str = "reference") -> Val:
        """Evaluate an expression whose value is used (so a bare torch name is a use)."""
        v = self.expr(node)
        if v[0] == "qual" and type(node) in (cst.Name, cst.Attribute):
            self._emit_qual(v[1], node, node, "annotation" if self.annotating else usage)
        return v

    def expr(self, node: cst.BaseExpression) -> Val:
        h = self._expr.get(type(node))
        if h is not None:
            return h(node)
        return self._generic(node)

    def _generic(self, node: cst.CSTNode) -> Val:
        """Visit children of node types without a dedicated handler, in source order."""
        for child in node.children:
            if isinstance(child, cst.BaseExpression):
                self.value(child)
            elif isinstance(child, cst.BaseStatement | cst.BaseSmallStatement):
                self.stmt(child)
            elif isinstance(child, cst.Name):
                self._name(child)
            else:
                self._generic(child)
        return UNKNOWN

    def _name(self, node: cst.Name) -> Val:
        if node.value in _CONSTANT_NAMES:
            return NONTORCH
        self._count(node, NAME)
        return self.lookup(node.value)

    def _attribute(self, node: cst.Attribute) -> Val:
        self._count(node, ATTR)
        recv = self.expr(node.value)
        return self._member_ref(recv, node, call=False)[0]

    def _tensor_call(self, api: str, attr: str, recv: Val, node: cst.Call, args: _Args) -> Val:
        """Result of a Tensor method call, with the dynamic-shape facts it creates."""
        if attr in SYNC_METHODS:
            if type(node.func) is cst.Attribute and self._reads_random(node.func.value):
                return fresh(RAND[0], RAND[1])  # a random size broadcast through a tensor
            return self.shapes.on_sync(node, recv)
        if attr == "size" and not args.vals:
            return self.shapes.shape_of(node, recv)
        if attr == "size":
            first = node.args[0].value if node.args else None
            dim = int(first.value, 0) if type(first) is cst.Integer else None
            size = self.shapes.sample_size(recv, dim)
            if size is not None:
                return size
        if attr == "numpy":
            return HOST_DATA  # the tensor's data, now on the host
        if attr in ("size", "numel", "dim") and is_dyn_tensor(recv):
            return self.shapes.size_read(node, recv)
        result = self.owners.call_result(api, recv, attr)
        if attr == "type" and (args.vals or args.keywords):
            result = recv  # x.type(torch.float32) / x.type(y.type()): a tensor, not a str
        if recv == BOOL_TENSOR and result is recv and _casts(attr, args):
            result = TENSOR  # mask.float(), mask.to(torch.long): no longer a mask
        if attr in BOOL_METHODS or (attr in ("to", "type") and _bool_dtype(args)):
            result = BOOL_TENSOR
        result = self.shapes.on_torch_call(api, node, recv, args.vals, args.kwvals, result)
        return _named_tuple(attr, args, 0, result)

    def _truths(self, v: Val) -> bool:
        """A list of truth values compared from data (the elements of a future mask)."""
        return v[0] == "seq" and self.truths.get(id(v[1])) is v[1]

    def _is_row(self, v: Val) -> bool:
        """Is ``v`` one element of a data-dependent tensor (a loop variable over it)?"""
        return self.rows.get(id(v)) is v

    def _subscript(self, node: cst.Subscript, store: bool = False) -> Val:
        self._count(node, SUB)
        recv = self.value(node.value)
        index: Val = UNKNOWN
        const_index: int | None = None
        indexes: list[Val] = []
        bounds: list[Val] = []
        named_mask = False
        for el in node.slice:
            s = el.slice
            if type(s) is cst.Index:
                index = self.value(s.value)
                if (
                    index in (TENSOR, PTENSOR, ARG_TENSOR)
                    and type(s.value) is cst.Name
                    and MASK_NAME.search(s.value.value)
                ):
                    index = BOOL_TENSOR  # x[mask], x[keep], x[valid]: named as masks are
                    named_mask = True
                indexes.append(index)
                if type(s.value) is cst.Integer:
                    const_index = int(s.value.value, 0)
            else:
                for part in (s.lower, s.upper, s.step):
                    if part is not None:
                        bounds.append(self.value(part))
        if not store and self._fixed_window(node.slice, bounds):
            self.shapes.on_window()
        first = node.slice[0].slice if node.slice else None
        if recv[0] == "tensor":
            scalar_first = type(first) is cst.Index and (
                type(first.value) is cst.Integer or self._is_row(indexes[0])
            )
            dyn = self.shapes.on_subscript(node, recv, indexes, bounds, store, scalar_first)
            if dyn is not None:
                return dyn
        elif recv[0] == "unknown" and not named_mask and BOOL_TENSOR in indexes:
            # ``value[keep]`` with ``keep`` a boolean tensor: only a tensor (or an array,
            # known as such) takes one, whatever holds ``value`` (a container's dict of
            # fields filtered by one mask)
            return self.shapes.on_subscript(node, PTENSOR, indexes, bounds, store) or DYN_TENSOR
        elif any(_variable(i) or i == BOOL_TENSOR for i in indexes) or any(map(_variable, bounds)):
            self._sensitive(recv)
        if is_dyn_number(recv):  # an element of a list read from tensor data
            return recv
        if recv == HOST_DATA or (recv[0] == "nontorch" and is_host_dyn(recv)):
            return recv
        if recv[0] == "seq":
            size = self.shapes.sample_dim(recv, const_index)
            if size is not None:
                return size  # ``t["boxes"].shape[0]``
        if recv[0] in ("seq", "tuple", "dict", "nontorch", "unknown", "inst"):
            for i in indexes:
                if is_dyn_number(i):
                    return i  # ``table[label.item()]``: which element is read is data
        kind = self.shapes.sample_kind(recv)
        if kind is not None and len(indexes) == 1 and not bounds and type(first) is cst.Index:
            key = first.value
            if type(key) in (cst.SimpleString, cst.Integer):
                # ``t["labels"]`` of a per-sample record (strong), ``item[0]`` of a batch item
                got = _index(recv, index, const_index, self.owners)
                return self.shapes.sample(got, kind or type(key) is cst.SimpleString)
        if recv[0] == "dict":
            key = _const_str(node.slice[0].slice) if len(node.slice) == 1 else None
            items = dict(recv[1])
            other = items.get(None, UNKNOWN)  # what any other key maps to (a state dict's)
            return items.get(key, other) if key is not None else other
        if recv[0] == "inst":
            info = self._own_class(recv[1])
            if info is not None:
                return info.returns.get("__getitem__", UNKNOWN)
        return _index(recv, index, const_index, self.owners)

    def _fixed_window(self, slices: Sequence[cst.SubscriptElement], bounds: Sequence[Val]) -> bool:
        """``a[y : y + h, x : x + w]`` or ``a[:h, :w]``: at least two dimensions cut to an
        extent neither drawn at random nor read from tensor data, the others untouched
        (``:``, ``::-1``) or indexed. ``bounds`` holds the values of the slices' parts."""
        it = iter(bounds)
        windows = 0
        for el in slices:
            s = el.slice
            if type(s) is not cst.Slice:
                continue
            parts = [next(it) for p in (s.lower, s.upper, s.step) if p is not None]
            upper = s.upper
            if upper is None:
                if s.lower is not None:
                    return False
                continue
            if s.lower is None:
                extent = parts[0]
            elif (
                type(upper) is cst.BinaryOperation
                and type(upper.operator) is cst.Add
                and upper.left.deep_equals(s.lower)
            ):
                right = upper.right
                if type(right) is cst.Integer:
                    extent = NONTORCH
                elif type(right) is cst.Name:
                    extent = self.lookup(right.value)
                else:
                    return False
            else:
                return False
            if extent == RAND or is_variable(extent):
                return False
            windows += 1
        return windows >= 2

    def _binop(self, node: cst.BinaryOperation) -> Val:
        self._count(node, BINOP)
        left = self.value(node.left)
        right = self.value(node.right)
        op = type(node.operator)
        if op in (cst.BitAnd, cst.BitOr, cst.BitXor) and BOOL_TENSOR in (left, right):
            return BOOL_TENSOR
        if DYN_TENSOR in (left, right):
            return DYN_TENSOR
        if (
            ARG_TENSOR in (left, right)
            and all(v == ARG_TENSOR or v[0] in ("nontorch", "unknown") for v in (left, right))
            and op is not cst.MatrixMultiply
        ):
            return ARG_TENSOR  # H % 2 with H a forward argument: maybe an int, maybe a tensor
        if left[0] == "tensor" or right[0] == "tensor":
            certain = (left[0] == "tensor" and left[1]) or (right[0] == "tensor" and right[1])
            if type(node.operator) is cst.MatrixMultiply:
                self.emit(
                    "torch.Tensor.matmul",
                    "operator",
                    "certain" if certain else "probable",
                    (node, "s"),
                    (node, "e"),
                )
            return TENSOR if certain else PTENSOR
        merged = merge_numbers(left, right)
        if merged is not None:
            return merged
        if op is cst.Add and ("seq" in (left[0], right[0]) or "tuple" in (left[0], right[0])):
            # ``(n,) + max_size``: a shape joined from parts keeps the part read from data
            for v in (left, right):
                if v[0] in ("seq", "tuple") and _sized_by_data(v):
                    return v
        if left[0] == "nontorch" and right[0] == "nontorch":
            return NONTORCH
        return UNKNOWN

    def _concat(self, node: cst.ConcatenatedString) -> Val:
        self.expr(node.left)
        self.expr(node.right)
        return NONTORCH

    def _fstring(self, node: cst.FormattedString) -> Val:
        self.fstring += 1
        try:
            self._fstring_parts(node.parts)
        finally:
            self.fstring -= 1
        return NONTORCH

    def _fstring_parts(self, parts: Sequence[cst.BaseFormattedStringContent]) -> None:
        for part in parts:
            if isinstance(part, cst.FormattedStringExpression):
                self.value(part.expression)
                if part.format_spec:
                    self._fstring_parts(part.format_spec)

    def _elements(self, elements: Sequence[cst.BaseElement]) -> list[Val]:
        return [self.value(e.value) for e in elements]

    def _tuple(self, node: cst.Tuple) -> Val:
        return ("tuple", tuple(self._elements(node.elements)))

    def _list(self, node: cst.List) -> Val:
        vals = self._elements(node.elements)
        if not vals:
            return seq(UNKNOWN)
        v = vals[0]
        for other in vals[1:]:
            v = join(v, other)
        if v[0] == "nontorch":
            # ``[0, extra]`` with ``extra`` read from data: the list holds data
            v = next((e for e in vals if _carries_data(e) or e in (SAMPLE_SIZE, BATCH_MAX)), v)
        return seq(v)

    def _set(self, node: cst.Set) -> Val:
        self._elements(node.elements)
        return NONTORCH

    def _dict(self, node: cst.Dict) -> Val:
        items: list[tuple[str, Val]] = []
        literal = True
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                self.value(el.key)
                key = _const_str(el.key)
                v = self.value(el.value)
                if key is None:
                    literal = False
                else:
                    items.append((key, v))
            else:
                self.value(el.value)
                literal = False
        return ("dict", tuple(items)) if literal else NONTORCH

    def _unary(self, node: cst.UnaryOperation) -> Val:
        v = self.value(node.expression)
        if type(node.operator) is cst.Not:
            return v if v[0] == "tensor" or is_dyn_number(v) else NONTORCH
        return v if v[0] in ("tensor", "nontorch") else UNKNOWN

    def _boolop(self, node: cst.BooleanOperation) -> Val:
        left, right = self.value(node.left), self.value(node.right)
        classes = self._layer_classes(right)
        if type(node.operator) is cst.Or and classes and left[0] in ("unknown", LAYER):
            # `norm_layer = norm_layer or nn.BatchNorm2d`: the class unless a caller passed one
            return (LAYER, tuple(sorted({*self._layer_classes(left), *classes})))
        for v in (left, right):
            if self.shapes.read_from_data(v):
                return v  # ``len(seq) >= 1 and seq[-1] >= t`` with ``seq`` read from data
        return join(left, right)

    def _compare(self, node: cst.Comparison) -> Val:
        vals = [self.value(node.left)]
        tensorish = True
        for target in node.comparisons:
            vals.append(self.value(target.comparator))
            if type(target.operator) in (cst.Is, cst.IsNot, cst.In, cst.NotIn):
                tensorish = False
        if tensorish:
            for v in vals:
                if v[0] == "tensor" and v != ARG_TENSOR:
                    return BOOL_TENSOR
            if ARG_TENSOR in vals:
                return ARG_TENSOR
            for v in vals:
                if is_dyn_number(v):
                    truth = fresh(v[0], v[1])  # a truth value read from data
                    self.truths[id(truth)] = truth
                    return truth
        if all(v[0] == "nontorch" for v in vals):
            return NONTORCH
        return NONTORCH if not tensorish else UNKNOWN

    def _ifexp(self, node: cst.IfExp) -> Val:
        body = self.value(node.body)
        self.shapes.on_condition(node, self.value(node.test), "conditional expression")
        orelse = self.value(node.orelse)
        one, other = self._layer_classes(body), self._layer_classes(orelse)
        if one and other and body != orelse:
            return (LAYER, tuple(sorted({*one, *other})))  # partial(nn.Conv2d) if c else nn.Linear
        return join(body, orelse)

    def _await(self, node: cst.Await) -> Val:
        return self.value(node.expression)

    def _yield(self, node: cst.Yield) -> Val:
        v = node.value
        if isinstance(v, cst.From):
            self.value(v.item)
        elif v is not None:
            self.value(v)
        return UNKNOWN

    def _namedexpr(self, node: cst.NamedExpr) -> Val:
        binder = self.target(node.target)
        v = self.value(node.value)
        self.bind_target(binder, v)
        return v

    def _reads_random(self, expr: cst.BaseExpression) -> bool:
        """Is ``expr`` (``t[0]``, ``t``) a tensor a random number was written into here?"""
        root = _root_name(expr)
        return root is not None and (self._function(), root) in self.random_filled


def _casts(attr: str, args: _Args) -> bool:
    if attr in _CASTS:
        return True
    if attr == "to":  # .to(torch.float32) casts; .to(device) does not
        return any(
            v[0] == "qual" and str(v[1]).startswith("torch.") and v[1] != "torch.device"
            for v in [*args.vals, *args.kwvals.values()]
        )
    return False


def _const_str(node: cst.CSTNode) -> str | None:
    if type(node) is cst.Index:
        node = node.value  # type: ignore[attr-defined]
    if type(node) is cst.SimpleString:
        raw: str = node.value  # type: ignore[attr-defined]
        prefix = node.prefix.lower()  # type: ignore[attr-defined]
        if prefix in ("", "u", "r") and "\r" not in raw and (prefix == "r" or "\\" not in raw):
            # Nothing to unescape: the text between the quotes is the value (evaluating it
            # compiles the literal, ~0.1 ms each, and a file can hold thousands).
            quote = len(node.quote)  # type: ignore[attr-defined]
            return raw[len(prefix) + quote : -quote]
        value = node.evaluated_value  # type: ignore[attr-defined]
        return value if isinstance(value, str) else None
    return None


def _index(recv: Val, index: Val, const_index: int | None, owners: Owners) -> Val:
    kind = recv[0]
    if kind == "tensor":
        return recv
    if kind == "tuple" and const_index is not None:
        elems = recv[1]
        if -len(elems) <= const_index < len(elems):
            return elems[const_index]  # type: ignore[no-any-return]
        return UNKNOWN
    if kind in ("seq", "tuple"):
        return element(recv)
    if recv == ARRAY:
        return ARRAY
    if kind == "inst" and str(recv[1]).startswith("torch.") and owners.role(recv[1]) == "module":
        return inst("torch.nn.Module")
    return UNKNOWN


def _nontorch(_node: cst.CSTNode) -> Val:
    return NONTORCH


def _noop(_node: cst.CSTNode) -> None:
    return None
