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
    _carries_data,
    _const_str,
    _sized_by_data,
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
from apiscan.extract.interp.shape_facts import MASK_NAME, SYNC_METHODS, ShapeFactsMixin
from apiscan.extract.interp.solver_facts import SolverFactsMixin
from apiscan.extract.interp.statements import StatementsMixin
from apiscan.extract.records import RETURNS, ClassFact
from apiscan.extract.shapes import (
    BATCH_MAX,
    BOOL_TENSOR,
    DYN_TENSOR,
    SAMPLE_SIZE,
    NullShapeTracker,
    ShapeTracker,
    Why,
    is_dyn_number,
    merge_numbers,
)
from apiscan.program import values as pv
from apiscan.resolve.owners import Owners
from apiscan.resolve.torch_api import TorchApi, is_torch_name
from apiscan.resolve.values import ARG_TENSOR, NONTORCH, PTENSOR, TENSOR, UNKNOWN, Val, join, seq

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


class Extractor(
    ScopesMixin, StatementsMixin, MembersMixin, CallsMixin, ShapeFactsMixin, SolverFactsMixin
):
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


def _nontorch(_node: cst.CSTNode) -> Val:
    return NONTORCH


def _noop(_node: cst.CSTNode) -> None:
    return None
