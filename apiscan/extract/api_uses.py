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

The interpreter is split by concern into mixins under :mod:`apiscan.extract.interp`, the way
mypy keeps semantic analysis, expression checking and member lookup apart: bindings and scopes
(:mod:`~apiscan.extract.interp.scopes`), statements (:mod:`~apiscan.extract.interp.statements`),
expressions (:mod:`~apiscan.extract.interp.expressions`), owners and types
(:mod:`~apiscan.extract.interp.members`), calls and arguments
(:mod:`~apiscan.extract.interp.calls`), dynamic-shape facts
(:mod:`~apiscan.extract.interp.shape_facts`) and the whole-program solver's facts
(:mod:`~apiscan.extract.interp.solver_facts`). :class:`Extractor` combines them and owns the
walker's state (``__init__``), the dispatch tables and the results read after the walk.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import libcst as cst

from apiscan.extract.interp.annotations import AnnotationHintsMixin
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
)
from apiscan.extract.interp.calls import BOOL_FUNCTIONS, DATALOADER, JOINS, SEQUENTIAL, CallsMixin
from apiscan.extract.interp.expressions import ExpressionsMixin
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
from apiscan.extract.shapes import NullShapeTracker, ShapeTracker, Why
from apiscan.program import values as pv
from apiscan.resolve.owners import Owners
from apiscan.resolve.torch_api import TorchApi, is_torch_name
from apiscan.resolve.values import ARRAY_PACKAGES, NONTORCH, Val

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


class Extractor(
    ScopesMixin,
    StatementsMixin,
    ExpressionsMixin,
    MembersMixin,
    CallsMixin,
    ShapeFactsMixin,
    SolverFactsMixin,
    AnnotationHintsMixin,
):
    """Walks one module. Create one per file; call :meth:`run`."""

    #: Every attribute of a walk, as a slot (the mixins declare none). The walk reads
    #: ``self.<attribute>`` hundreds of thousands of times per file; with more than 30
    #: attributes an instance dictionary is no longer a shared-key table, every read of one
    #: is a hashed lookup and every construction rebuilds the table (~70 µs a file). A slot is
    #: read at a fixed offset. An attribute added to the walk must be named here (assigning
    #: one that is not raises AttributeError).
    __slots__ = tuple(
        """
        _comp_tensor _expr _names _stmt annotating api arg_masks attr_writes blind_star
        bound_methods branches call_facts carriers classes code_local code_values
        const_masks counts dead derived dispatched elements_of emits env explained
        foreign_framework formatted fstring fstring_nodes func_returns func_stack
        function_facts host_items
        index_loops index_tensors kept_reads late late_bases later_returns loader_choices
        local_refs local_roots module_name module_outputs nones ords own_torch_roots
        owners package param_elements param_ids partial_head partial_read partials
        passthrough pending_branches predicates random_filled reexports returns rows
        says_torch scopes sensitive sequentials shapes silent sites stored_attrs summaries
        supplied truths unpacked walked_defs walked_loops yields
        """.split()  # noqa: SIM905 (a list to read and extend, not 75 quoted names)
    )

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
        #: torchvision... when it is the repository scanned (its calls reach its own code)
        self.own_torch_roots = local_roots & {"torchvision", "torchaudio", "torchtext"}
        #: functions of this file returning their parameter at this position (see
        #: ``SolverFactsMixin._note_passthrough``)
        self.passthrough: dict[str, int] = {}
        #: id -> (element of a parameter's sequence, (function, parameter))
        self.elements_of: dict[int, tuple[Val, tuple[str, str]]] = {}
        self.reexports = reexports
        #: facts from the whole-program solver: "p:<function>:<param>", "r:<callee>",
        #: "a:<class>:<attr>" (see apiscan.program.solver)
        self.env: Mapping[str, pv.Fact] = env or {}
        #: id(value) -> (function qualname, parameter name, value): parameters as bound, so
        #: that a call passing one on is recorded symbolically (identity, not equality)
        self.param_ids: dict[int, tuple[str, str, Val]] = {}
        #: id(value) -> value: parameters the solver found no call site passes, left to their
        #: default ``None`` (identity: rebinding the name forgets it)
        self.nones: dict[int, Val] = {}
        #: > 0 while the walk is in a branch that never runs (``if mask is not None:`` with
        #: ``mask`` such a parameter): its dynamic-shape findings are not reported
        self.dead = 0
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
        #: id(value) -> (value, qualified name): a method of a repository class read off an
        #: object without a call (``collate_fn=dataset.collate_fn``); the value is what the
        #: method returns
        self.bound_methods: dict[int, tuple[Val, str]] = {}
        #: id(subscript node) -> the repository methods of the dict it reads
        #: (``loss_map = {"labels": self.loss_labels}`` then ``loss_map[name](...)``)
        self.dispatched: dict[int, tuple[str, ...]] = {}
        #: id(value) -> (value, class, method): what a call of a method of the class being
        #: walked returned before that method was walked (``self.tags = self.load(f)`` in
        #: ``__init__``, ``load`` defined below it): read again later, it is what the method
        #: was found to return (a numpy array of strings, not a guessed tensor)
        self.later_returns: dict[int, tuple[Val, Any, str]] = {}
        #: id(value) -> (value, function, bound arguments): ``functools.partial(f, ...)``
        self.partials: dict[int, tuple[Val, Val, _Args]] = {}
        #: id(conditional expression node) -> the values of its two branches
        #: (``collate_fn=A.collate4 if quad else A.collate``: either function may run)
        self.branches: dict[int, tuple[Val, Val]] = {}
        #: id(index) -> (index, the sequence it walks): the variable of ``for i in
        #: range(len(targets))``, whose ``targets[i]`` is an element as ``for t in targets``
        #: gives one (see ``_bind_loop``)
        self.index_loops: dict[int, tuple[Val, str, Val]] = {}
        #: the function expression of the ``functools.partial(f, ...)`` being evaluated, and
        #: the method its reading names (``?.training_losses`` for an attribute of an object
        #: of unknown class): the call graph records building the partial as calling ``f``
        self.partial_head: cst.CSTNode | None = None
        self.partial_read = ""
        #: (function, name) of tensors a randomly drawn number was written into
        #: (``t[0] = random.randint(...)``: ``t[0].item()`` reads the random number back)
        self.random_filled: set[tuple[str, str]] = set()
        #: id(value) -> (value, children): ``nn.Sequential(a, b, ...)`` with its children
        self.sequentials: dict[int, tuple[Val, tuple[Val, ...]]] = {}
        #: id(value) -> (value, (function, parameter)): tensors computed from a parameter
        self.derived: dict[int, tuple[Val, tuple[str, str]]] = {}
        #: id(value) -> value: tensors computed by the code from values it decided, with no
        #: data in them (``torch.arange(n) % 2``, the positions a constant mask picks): a
        #: comparison of them is a constant mask; kept to this walk (no solver fact)
        self.code_local: dict[int, Val] = {}
        #: id(value) -> value: what calling a module of no known class returned (an element
        #: of an ``nn.ModuleList``): a tensor, or a tuple whose first item is one
        self.module_outputs: dict[int, Val] = {}
        #: id(value) -> value: host truth values compared from data (``b[2] > b[0]`` of
        #: ``boxes.tolist()``): a tensor made from a list of them is a mask
        self.truths: dict[int, Val] = {}
        #: id(value) -> value: comparisons of a ``forward`` argument (``ann[:, 4] != -1``):
        #: a host truth when the argument is a number, a mask of its data when it is a
        #: tensor; indexing a tensor with one says which (:meth:`_is_arg_mask`)
        self.arg_masks: dict[int, Val] = {}
        #: id(value) -> value: elements of data-dependent tensors met in loops (one index)
        self.rows: dict[int, Val] = {}
        #: id(value) -> value: a class of another file of the repository offered in place of
        #: torch's loader (``DataLoader if weighted else RepeatLoader``): calling it builds one
        self.loader_choices: dict[int, Val] = {}
        #: id(value) -> (value, tensor): ``tuple(t)`` / ``list(t)`` of a tensor of a
        #: data-dependent shape: indexing with it (``s[tuple(k.t())]``, one index tensor per
        #: row of ``k``) indexes with ``t``'s rows, as many positions as ``t`` holds
        self.unpacked: dict[int, tuple[Val, Val]] = {}
        #: id(value) -> value: elements of host data sized by data met in loops (``c`` of
        #: ``for c in np.unique(labels)``): a number, computed with on the host
        self.host_items: dict[int, Val] = {}
        #: id(value) -> value: boolean tensors a factory filled with constants
        #: (``torch.ones(n, dtype=torch.bool)``): no data mask until data is stored in them
        self.const_masks: dict[int, Val] = {}
        #: id(value) -> value: tensors of integer positions (``topk(k).indices``, ``arange``)
        self.index_tensors: dict[int, Val] = {}
        #: id(value) -> value: tensors whose values the code decides from shapes and
        #: constants (``torch.arange(n)``): comparing them with constants reads no data
        self.code_values: dict[int, Val] = {}
        #: "p:<function>:<param>" keys whose tensor-ness would change a dynamic-shape finding
        self.sensitive: set[str] = set()
        self.counts = [0] * (2 * FSTRING_OFFSET)
        self.ords: dict[int, int] = {}
        #: ids of the counted nodes inside f-strings (numbered apart: see FSTRING_OFFSET)
        self.fstring_nodes: set[int] = set()
        self.silent = 0
        self.fstring = 0
        self.annotating = 0
        tracker = ShapeTracker if dynamic_shape else NullShapeTracker
        self.shapes = tracker(
            self._function, lambda: self.silent > 0 or self.dead > 0, self._explain
        )
        self.call_facts: list[tuple[str, str, cst.CSTNode, str]] = []
        #: (function, node) of each string formatting that reads a tensor's values on the
        #: host (``'%10.4g' % (*mloss,)``, ``f"{loss:.3f}"``, ``"{:.4f}".format(loss)``): a
        #: device synchronisation
        self.formatted: list[tuple[str, cst.CSTNode]] = []
        self.function_facts: list[tuple[str, str, cst.FunctionDef, bool]] = []
        self.returns: list[list[Val]] = []
        #: per function: the values its ``yield``s give (a generator's callers iterate them)
        self.yields: list[list[Val]] = []
        #: id(value) -> (value, function, parameter, how): an element of a parameter as
        #: bound, by iteration (``"iter"``: ``obj`` in ``for obj in iterable``, what a
        #: generator passing its iterable's elements through yields, see
        #: :meth:`_passed_elements`) or by position (``"row"``: ``targets[idx]``, one image's
        #: targets handed to a helper)
        self.param_elements: dict[int, tuple[Val, str, str, str]] = {}
        #: per function: data-dependent `if`s without else whose body returned (test node,
        #: returned values, index of the returns that follow the `if`)
        self.pending_branches: list[list[tuple[cst.CSTNode, list[Val], int]]] = []
        #: the functions and loops being walked, innermost last: where a tensor joined with
        #: its own previous value is kept (see ``StatementsMixin._growth``)
        self.walked_defs: list[cst.FunctionDef] = []
        self.walked_loops: list[tuple[int, cst.For | cst.While]] = []
        #: id of a walked function -> (it, the names it binds from a kept cache), read once
        self.kept_reads: dict[int, tuple[cst.FunctionDef, dict[str, str]]] = {}
        self.func_returns: dict[str, Val] = {}
        #: functions of this file whose every ``return`` gives a truth (a comparison, ``not``,
        #: ``and``/``or`` of them, ``True``/``False``): ``is_batch_tensor(t, b)`` answers a
        #: question about its arguments and never builds a tensor of the sizes it is handed
        self.predicates: set[str] = set()
        self.emits: list[Emit] = []
        self.scopes: list[Scope] = [Scope("module", {})]
        self.late: dict[str, Val] = {}
        #: a ``from m import *`` of a module whose names are not known here (neither torch
        #: nor this repository's): any unbound name may come from it
        self.blind_star = False
        self.classes: dict[str, ClassInfo] = {}
        #: the bases of each module-level class as written, for a function that runs after the
        #: module body to ask about a class defined below it (see ``_loader_class``)
        self.late_bases: dict[str, Sequence[cst.Arg]] = {}
        self.func_stack: list[str] = []
        #: each function name :meth:`_function` made and each callee a call record names:
        #: every record of one name holds one string (see :meth:`_function`)
        self._names: dict[str, str] = {}
        self.local_refs: set[str] = set()
        #: every attribute name an assignment, ``del`` or augmented assignment stores on some
        #: object (``m.type = t``, ``m_.i, m_.type = i, t``): the join reads a torch method
        #: of that name read without a call as the repository's attribute (FileAnalysis)
        self.stored_attrs: set[str] = set()
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
            if v[0] == "qual" and (
                self._is_torch(v[1])
                or self._is_local(v[1])
                or v[1].partition(".")[0] in ARRAY_PACKAGES  # ``np``, for a star import
            ):
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
                self.fstring_nodes.add(id(node))
            counts = self.counts
            self.ords[id(node)] = counts[kind]
            counts[kind] += 1

    @staticmethod
    def _is_torch(q: str) -> bool:
        return is_torch_name(q)

    def _is_local(self, q: str) -> bool:
        return q.partition(".")[0] in self.local_roots

    def _function(self) -> str:
        """The enclosing function's name. One string object per name and file: the uses,
        calls, sites and hits of a function all name it, and a worker's pickle of the file's
        records then writes it once and refers to it after (with the callees of
        :meth:`_shared`, a fifth of the bytes of the 405k-line corpus's records, which the
        main process no longer decodes into as many strings)."""
        name = ".".join(self.func_stack)
        return self._names.setdefault(name, name)

    def _shared(self, name: str) -> str:
        """``name`` as the one string of that value this file's records hold (see
        :meth:`_function`)."""
        return self._names.setdefault(name, name)


def _nontorch(_node: cst.CSTNode) -> Val:
    return NONTORCH


def _noop(_node: cst.CSTNode) -> None:
    return None
