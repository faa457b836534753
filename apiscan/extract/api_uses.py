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
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from apiscan.extract.facts import fresh, to_val
from apiscan.extract.records import ANY_RECEIVER, DATA_ROLES, REF, RETURNS, ClassFact
from apiscan.extract.shapes import (
    BATCH_MAX,
    BOOL_TENSOR,
    DYN_TENSOR,
    ELEM_SIZE,
    FROM_HOST,
    HOST_DATA,
    RAND,
    SAMPLE_SIZE,
    NullShapeTracker,
    ShapeTracker,
    Why,
    host_dyn,
    is_dyn_number,
    is_dyn_tensor,
    is_host_dyn,
    is_variable,
    merge_numbers,
)
from apiscan.program import values as pv
from apiscan.resolve.owners import MODULE_TENSOR_ATTRS, SELF_RETURNING, TENSOR_CLASSES, Owners
from apiscan.resolve.torch_api import TorchApi, is_torch_name
from apiscan.resolve.values import (
    ARG_TENSOR,
    ARRAY,
    ARRAY_PACKAGES,
    BUILTIN_NAMES,
    NON_TORCH_BUILTINS,
    NON_TORCH_PACKAGES,
    NONTORCH,
    PASS_THROUGH,
    PTENSOR,
    SEQ_BUILTINS,
    SIZE,
    TENSOR,
    UNKNOWN,
    Val,
    element,
    inst,
    is_non_torch_class,
    join,
    qual,
    seq,
)

# Node kinds numbered for the position mapping (see apiscan.extract.positions).
NAME, ATTR, CALL, SUB, BINOP = range(5)
NODE_KINDS: dict[type[cst.CSTNode], int] = {
    cst.Name: NAME,
    cst.Attribute: ATTR,
    cst.Call: CALL,
    cst.Subscript: SUB,
    cst.BinaryOperation: BINOP,
}
#: Nodes inside f-strings are numbered separately (kind + FSTRING_OFFSET): their ast positions
#: are checked against the source text before use.
FSTRING_OFFSET = 5
_CONSTANT_NAMES = frozenset({"True", "False", "None"})  # ast.Constant, not ast.Name
_DEFER: Val = ("defer", None)  # module-level name assigned by an expression: look it up live

#: Attributes only torch tensors have (numpy arrays share shape/dtype/ndim, so those are not
#: reported on receivers of unknown type).
TENSOR_ONLY_ATTRS = frozenset({"requires_grad", "grad", "is_cuda", "grad_fn", "is_leaf"})

#: Names that code gives to boolean masks (a tensor parameter of unknown dtype named so).
MASK_NAME = re.compile(r"(^|_)(mask|masks|keep|valid|inside|is_[a-z]+)($|_)")
#: The kind of a value that builds one of some torch classes when called, but is not known to
#: be one of them: a parameter whose default is a torch class (``norm_layer: LayerType =
#: nn.BatchNorm2d`` → ``(LAYER, ("torch.nn.BatchNorm2d",))``), ``partial(nn.Conv2d, ...)``,
#: ``A if c else B`` of such. Calling it reports each class as probable; anywhere else it is
#: an unknown value.
LAYER = "layer"
#: torch functions joining a sequence of tensors: a join of boolean masks is a mask.
JOINS = frozenset({"stack", "cat", "concat", "concatenate", "hstack", "vstack", "dstack"})
#: Tensor methods whose result is a host number or list read from tensor values.
SYNC_METHODS = frozenset({"item", "tolist"})
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
BOOL_FUNCTIONS = BOOL_METHODS - {"bool"}
#: Torch reductions whose result is a ``(values, indices)`` named tuple: always, or only when
#: given a dimension (``x.max()`` is a tensor, ``x.max(dim=1)`` a named tuple, ``x.max(y)`` the
#: elementwise maximum). ``.values``/``.indices`` of those are fields, not the sparse-tensor
#: methods ``Tensor.values``/``Tensor.indices``.
NAMED_TUPLE_ALWAYS = frozenset({"sort", "topk", "kthvalue", "mode", "cummax", "cummin"})
NAMED_TUPLE_WITH_DIM = frozenset({"max", "min", "median", "nanmedian"})
NAMED_FIELDS = ("values", "indices")
#: Public attributes of ``numpy.ndarray`` (numpy 1.26): in a file that imports no torch, a
#: receiver of unknown type using one of them is as likely an array, so it is not guessed to be
#: a tensor; a name numpy lacks (``numel``, ``topk``, ``cpu``) still says "tensor" there (the
#: file's functions receive tensors from the repository's other files).
NDARRAY_ATTRS = frozenset(
    [
        "T",
        "all",
        "any",
        "argmax",
        "argmin",
        "argpartition",
        "argsort",
        "astype",
        "base",
        "byteswap",
        "choose",
        "clip",
        "compress",
        "conj",
        "conjugate",
        "copy",
        "ctypes",
        "cumprod",
        "cumsum",
        "data",
        "diagonal",
        "dot",
        "dtype",
        "dump",
        "dumps",
        "fill",
        "flags",
        "flat",
        "flatten",
        "getfield",
        "imag",
        "item",
        "itemset",
        "itemsize",
        "max",
        "mean",
        "min",
        "nbytes",
        "ndim",
        "newbyteorder",
        "nonzero",
        "partition",
        "prod",
        "ptp",
        "put",
        "ravel",
        "real",
        "repeat",
        "reshape",
        "resize",
        "round",
        "searchsorted",
        "setfield",
        "setflags",
        "shape",
        "size",
        "sort",
        "squeeze",
        "std",
        "strides",
        "sum",
        "swapaxes",
        "take",
        "tobytes",
        "tofile",
        "tolist",
        "tostring",
        "trace",
        "transpose",
        "var",
        "view",
    ]
)
#: Those numpy exposes as data, not methods: `x.size()` is no array's call.
NDARRAY_METHODS = NDARRAY_ATTRS - frozenset(
    {"T", "base", "ctypes", "data", "dtype", "flags", "flat", "imag", "itemsize", "nbytes"}
    | {"ndim", "real", "shape", "size", "strides"}
)
#: Other tensor frameworks: a file importing one (and no torch) holds no torch objects.
FOREIGN_FRAMEWORKS = frozenset({"megengine", "paddle", "tensorflow", "jax", "mindspore", "oneflow"})
#: Methods of Python's own containers and strings: ``cfg.get(...)``, ``parts.append(...)``
#: on an unknown receiver are these far more often than a repo class's method.
BUILTIN_METHODS = frozenset(
    name
    for t in (dict, list, str, set, bytes, tuple, int, float)
    for name in dir(t)
    if not name.startswith("_")
)
#: Its first positional argument is the dataset (a data-pipeline edge like ``dataset=``).
DATALOADER = "torch.utils.data.DataLoader"
#: ``nn.Sequential`` as the code may spell it (canonical or through its module path).
SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})

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


class Extractor:
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

    # ------------------------------------------------------------------ entry point
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

    # ------------------------------------------------------------------ helpers
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

    # ------------------------------------------------------------------ whole-program facts
    def _explain(self, v: Val) -> Why:
        """Where a value the solver supplied came from, in words and as located steps
        (("", ()) for values found here)."""
        entry = self.explained.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else ("", ())

    def _supplied(self, f: pv.Fact, words: Callable[[pv.Fact], str]) -> Val:
        """The walker value for solver fact ``f``, remembered with its explanation (and the
        explanations of its tuple elements, which unpacking binds to names)."""
        v = to_val(f)
        text = words(f)
        if text:
            self.explained[id(v)] = (v, (text, pv.steps(f)))
            self.supplied[id(v)] = (v, f)
        if v[0] == "tuple" and isinstance(f, pv.Tup):
            for ev, ef in zip(v[1], f.elems, strict=True):
                t = words(ef)
                if t:
                    self.explained[id(ev)] = (ev, (t, pv.steps(ef)))
                    self.supplied[id(ev)] = (ev, ef)
        return v

    def supplied_fact(self, v: Val) -> pv.Fact | None:
        """The solver fact ``v`` was made from, when it carries a chain (identity)."""
        entry = self.supplied.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else None

    def _returned(self, key: str, local: Val | None) -> Val:
        """What a call of repo function ``key`` returns: what this walk found (a function of
        this file walked before the call, with the same facts), else the solver's fact."""
        f = self.env.get("r:" + key)
        if f is None or (local is not None and local[0] != "unknown"):
            return local if local is not None else UNKNOWN
        name = key.rpartition(".")[2]

        def words(x: pv.Fact) -> str:
            d = pv.describe(x)
            return f"the value returned by `{name}` {d}" if d else ""

        return self._supplied(f, words)

    def _attr_fact(self, cls: str, attr: str, local: Val | None) -> Val | None:
        """``self.attr`` as written by any method of the class (the solver's join)."""
        f = self.env.get(f"a:{cls}:{attr}")
        if f is None or (local is not None and local[0] != "unknown" and not pv.is_dynamic(f)):
            return local

        def words(x: pv.Fact) -> str:
            d = pv.describe(x)
            return f"`self.{attr}` {d}" if d else ""

        return self._supplied(f, words)

    def _param_source(self, v: Val) -> tuple[str, str] | None:
        """(function, parameter) when ``v`` is a parameter as bound, or a probable tensor
        computed from one by tensor methods (``x.view(...).permute(...)`` on a parameter
        ``x``): the solver may prove the parameter a tensor, and with it these owners."""
        entry = self.param_ids.get(id(v))
        if entry is not None and entry[2] is v:
            return entry[0], entry[1]
        derived = self.derived.get(id(v))
        if derived is not None and derived[0] is v:
            return derived[1]
        return None

    def _derive(self, result: Val, source: tuple[str, str] | None) -> Val:
        """``result`` marked as computed from parameter ``source`` (when it is a tensor)."""
        if source is None or result[0] != "tensor" or result[1] == "dyn":
            return result
        result = fresh(result[0], result[1])
        self.derived[id(result)] = (result, source)
        return result

    def _sensitive(self, v: Val) -> None:
        """A parameter in a place where being a tensor would make a dynamic-shape finding
        (``x[:n]`` with ``n`` read from data and ``x`` a parameter of unknown type): the file
        is walked again if the solver finds that the parameter is a tensor."""
        source = self._param_source(v)
        if source is not None and not self.silent:
            self.sensitive.add(f"p:{self.module_name}.{source[0]}:{source[1]}")

    def _site(self, callee: str, node: cst.CSTNode, args: _Args | None, bound: bool) -> None:
        if not self.silent and callee and args is not None:
            self.sites.append((self._function(), callee, node, args, bound))

    def emit(
        self,
        api: str,
        usage: str,
        confidence: str,
        start: Ref,
        end: Ref,
        args: _Args | None = None,
        pending: tuple[str, str] = ("", ""),
        param: tuple[str, str] | None = None,
        canonical: str | None = None,
    ) -> None:
        if self.silent:
            return
        e = Emit(
            api,
            usage,
            confidence,
            start,
            end,
            self._function(),
            in_fstring=self.fstring > 0,
            pending_cls=pending[0],
            pending_attr=pending[1],
            param=param,
            canonical=canonical,
        )
        if args is not None:
            e.positional, e.keywords, e.star_args = args.positional, args.keywords, args.star
            if type(end[0]) is cst.Call:
                e.call = end[0]
        self.emits.append(e)

    def _local_qual(self, q: str) -> Val:
        """A dotted name inside the scanned repo: follow known re-exports to torch."""
        r = self.reexports.get(q)
        if r is not None:
            return qual(r)
        self.local_refs.add(q)
        return qual(q)

    def _extend(self, q: str, attr: str) -> Val:
        full = f"{q}.{attr}"
        if self._is_torch(full):
            return qual(full)
        if self._is_local(full):
            return self._local_qual(full)
        return qual(full)

    def lookup(self, name: str) -> Val:
        scopes = self.scopes
        in_func = False
        last = len(scopes) - 1
        for i in range(last, 0, -1):
            s = scopes[i]
            if s.kind == "class" and i != last:
                continue
            v = s.names.get(name)
            if v is not None:
                return v
            if s.kind == "function":
                in_func = True
        if in_func:
            v = self.late.get(name)
            if v is not None and v is not _DEFER:
                return v
        v = scopes[0].names.get(name)
        if v is not None:
            return v
        v = self.late.get(name)
        if v is not None and v is not _DEFER:
            return v
        if name in BUILTIN_NAMES:
            return ("builtin", name)
        return UNKNOWN

    def bind(self, name: str, v: Val) -> None:
        self.scopes[-1].names[name] = v

    def _current_class(self) -> ClassInfo | None:
        for s in reversed(self.scopes):
            if s.cls is not None:
                return s.cls
        return None

    # ------------------------------------------------------------------ emission of names
    def _emit_qual(
        self, q: str, start: cst.CSTNode, end: cst.CSTNode, usage: str, args: _Args | None = None
    ) -> str | None:
        """Report a use of dotted name ``q`` if it is a torch API; return its canonical name.

        The finding names ``q`` as written when it is a public spelling (see
        ``TorchApi.as_written``). Module attributes that are not APIs (``torch.__version__``
        and whatever is read from it) are no findings."""
        if not self._is_torch(q):
            return None
        canon = self.api.canonical(q)
        if canon is not None and self.api.is_module(canon):
            return None
        if canon is None and ("." not in q or _through_dunder(q)):
            return None
        name = canon or q
        written = self.api.as_written(q) or q
        self.emit(written, usage, "certain", (start, "s"), (end, "e"), args, canonical=canon or "")
        return name

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

    # ------------------------------------------------------------------ expressions
    def _name(self, node: cst.Name) -> Val:
        if node.value in _CONSTANT_NAMES:
            return NONTORCH
        self._count(node, NAME)
        return self.lookup(node.value)

    def _attribute(self, node: cst.Attribute) -> Val:
        self._count(node, ATTR)
        recv = self.expr(node.value)
        return self._member_ref(recv, node, call=False)[0]

    def _member_ref(
        self,
        recv: Val,
        node: cst.Attribute,
        call: bool,
        args: _Args | None = None,
        call_node: cst.Call | None = None,
        usage: str = "call",
    ) -> tuple[Val, bool]:
        """Resolve ``recv.attr``; report it if it is a torch member. Returns (value, handled).

        With ``call`` the access is the callee of ``call_node`` and the value returned is the
        call's result.
        """
        attr = node.attr.value
        kind = recv[0]
        end: cst.CSTNode = call_node if call_node is not None else node
        if kind == "qual":
            return self._extend(recv[1], attr), False
        if kind == "tensor":
            if attr in NAMED_FIELDS and not call:
                # `.values` read, not called: the field of a (values, indices) named tuple the
                # receiver really is (the sparse Tensor.values/indices are methods).
                return (recv if attr == "values" else TENSOR), True
            if (
                attr == "values"
                and call
                and recv[1] in (False, "arg")
                and args
                and not (args.vals or args.keywords)
            ):
                # `out.values()` on a value only probably a tensor, or on a parameter (a
                # criterion's `outputs`), is the dict idiom (a model's dict of losses), not
                # the sparse-tensor method.
                return seq(UNKNOWN), True
            api = self.api.member("torch.Tensor", attr)
            if api is None:
                return UNKNOWN, True
            if call and args is not None and self.owners.rejects(api, args.keywords):
                return UNKNOWN, True  # `masks.repeat(2, axis=0)`: not a tensor after all
            conf = "certain" if recv[1] else "probable"
            source = self._param_source(recv) if conf == "probable" else None
            self.emit(
                api,
                usage if call else "reference",
                conf,
                (node, "a"),
                (end, "e"),
                args,
                param=source,
            )
            if call:
                assert call_node is not None and args is not None
                result = self._tensor_call(api, attr, recv, call_node, args)
                return self._derive(result, source), True
            if attr == "shape":
                return self.shapes.shape_of(node, recv), True
            return self.owners.attribute_result(api, recv, attr), True
        if kind == "inst":
            return self._inst_member(recv[1], recv, node, attr, call, args, end, usage), True
        if kind == "super":
            if call and args is not None:
                return self._super_call(attr, args, end), True
            return UNKNOWN, True
        if kind == "ret":
            self.local_refs.add(recv[1] + RETURNS)
            kind = "unknown"
        if kind == "unknown":
            if (
                call
                and not attr.startswith("_")
                and attr not in BUILTIN_METHODS
                and self.api.member("torch.Tensor", attr) is None
                and self.api.member("torch.nn.Module", attr) is None
            ):
                # a method no torch class has, on a receiver of unknown class: the call graph
                # links it when one repo class alone defines such a method
                self._call_fact(f"{ANY_RECEIVER}.{attr}", end)
            if attr == "shape" and not call and self.shapes.sample_kind(recv) is not None:
                return self.shapes.shape_of(node, recv), True
            if not self.says_torch and (not call or not self._may_guess(attr)):
                return (SIZE if attr == "shape" and not call else UNKNOWN), True
            if not call:
                if attr in TENSOR_ONLY_ATTRS:
                    api = self.api.member("torch.Tensor", attr)
                    if api is not None:
                        self.emit(api, "reference", "probable", (node, "a"), (end, "e"))
                    return (NONTORCH if attr != "grad" else PTENSOR), True
                return (SIZE if attr == "shape" else UNKNOWN), True
            guess = self.owners.guess(attr, _hint(node.value))
            if guess is None or (args is not None and self.owners.rejects(guess[0], args.keywords)):
                return UNKNOWN, True
            api, result = guess
            source = self._param_source(recv)
            self.emit(api, usage, "probable", (node, "a"), (end, "e"), args, param=source)
            if source is not None and api.startswith("torch.Tensor."):
                result = self._derive(result, source)
                if args is not None and any(_variable(v) for v in args.vals):
                    self._sensitive(recv)  # x.new_zeros((n, 4)) with n from data
            elif (
                call_node is not None
                and args is not None
                and api.startswith("torch.Tensor.")
                and any(map(_sized_by_data, [*args.vals, *args.kwvals.values()]))
            ):
                # ``images[0].new_zeros(batch_shape)`` with a size from data or a batch
                # maximum: the size rules hold whatever the receiver turns out to be
                result = self.shapes.on_torch_call(
                    api, call_node, PTENSOR, args.vals, args.kwvals, result
                )
            if (
                args is not None
                and "dim" in args.keywords
                and api.startswith("torch.Tensor.")
                and type(node.value) is cst.Name
                and self.lookup(node.value.value) is recv
            ):
                # ``labels.sum(dim=2)``: ``dim=`` is torch's spelling (numpy and pandas say
                # ``axis=``), so the name holds a tensor from here on (probably)
                self.bind(node.value.value, fresh("tensor", False))
            return result, True
        if kind == "nontorch":
            if recv[1] == "array":
                return ARRAY, True
            if recv == HOST_DATA or is_host_dyn(recv):
                return recv, True  # slices and methods of host data keep what it is
            if attr in ("get", "pop", "setdefault"):
                return UNKNOWN, True
            if attr in ("values", "items", "keys"):
                return seq(UNKNOWN), True
            return NONTORCH, True
        if kind == "seq" and call and attr == "append":
            self._collect(recv, node, args)
            return NONTORCH, True
        if kind == "tuple" and attr in NAMED_FIELDS and len(recv[1]) == 2:
            # (values, indices) of x.max(dim=1) and friends
            return recv[1][NAMED_FIELDS.index(attr)], True
        if kind == "dict":
            if attr in ("get", "pop", "setdefault"):
                return UNKNOWN, True
            if attr == "values":
                return seq(_join_all([v for _, v in recv[1]]) if recv[1] else UNKNOWN), True
            if attr == "items":
                vals = _join_all([v for _, v in recv[1]]) if recv[1] else UNKNOWN
                return seq(("tuple", (NONTORCH, vals))), True
            return NONTORCH, True
        return UNKNOWN, True

    def _collect(self, recv: Val, node: cst.Attribute, args: _Args | None) -> None:
        """``outputs.append(t)`` on a name holding an empty list (``outputs = []``) and a tensor
        ``t``: the list collects tensors, so ``for x in outputs: x.shape`` reads a Tensor's
        attribute. Data-dependence is not carried over (a list of masks stays a list of
        tensors): the shape rules follow lists on their own."""
        if args is not None and len(args.vals) == 1 and type(node.value) is cst.Name:
            held = self.shapes.collect(recv[1], args.vals[0])  # a data-dependent element
            if held is not None and self.lookup(node.value.value) is recv:
                self.bind(node.value.value, seq(held))
                return
        if (
            recv[1] != UNKNOWN
            or args is None
            or len(args.vals) != 1
            or args.keywords
            or args.star
            or args.vals[0][0] != "tensor"
            or type(node.value) is not cst.Name
            or self.lookup(node.value.value) is not recv
        ):
            return
        certain = args.vals[0][1] is not False
        self.bind(node.value.value, seq(TENSOR if certain else PTENSOR))

    def _inst_member(
        self,
        cls: str,
        recv: Val,
        node: cst.Attribute,
        attr: str,
        call: bool,
        args: _Args | None,
        end: cst.CSTNode,
        usage: str,
    ) -> Val:
        if self._is_torch(cls):
            return self._torch_member(cls, recv, node, attr, call, args, end, usage)
        info = (
            self.classes.get(cls[len(self.module_name) + 1 :])
            if cls.startswith(self.module_name + ".")
            else None
        )
        if info is None:
            if not self._is_local(cls):
                # a third-party class known not to be torch's (detectron2's Boxes): its
                # methods are its own (`boxes.scale(sx, sy)` is no GradScaler.scale)
                return UNKNOWN
            # A class from another file: only the join can tell what it inherits.
            if attr.startswith("__"):
                return UNKNOWN
            if call:
                self._call_fact(f"{cls}.{attr}", end)
                self._site(f"{cls}.{attr}", end, args, True)
            guess = (
                self.owners.guess(attr, _hint(node.value))
                if call and (self.says_torch or self._may_guess(attr))
                else None
            )
            # api holds the name-based fallback, used if the join cannot resolve the class
            self.emit(
                guess[0] if guess else "",
                usage if call else "reference",
                "probable",
                (node, "a"),
                (end, "e"),
                args,
                pending=(cls, attr),
            )
            if call and f"r:{cls}.{attr}" in self.env:
                return self._returned(f"{cls}.{attr}", None)
            if attr == "forward":
                return PTENSOR
            return recv if call and attr in SELF_RETURNING else UNKNOWN
        if attr in info.attrs:
            v = self._attr_fact(cls, attr, info.attrs[attr]) or UNKNOWN
            return self._call_value(v, args, end) if call else v
        if attr in info.methods:
            if call:
                self._call_fact(f"{cls}.{attr}", end)
                self._site(f"{cls}.{attr}", end, args, True)
                return self._returned(f"{cls}.{attr}", info.returns.get(attr))
            # A property (or a bound method) read without a call: what the property returns
            # if known; on a class that is no nn.Module, nothing torch (`self.run.log(...)` in
            # a logger is not Tensor.log). Either may run where it is read or later through a
            # dict (`{"labels": self.loss_labels}`): an edge of the call graph.
            self._call_fact(f"{cls}.{attr}", end, REF)
            known = info.returns.get(attr, UNKNOWN)
            if known[0] == "unknown" and self._module_kind(info) is False:
                return NONTORCH
            return known
        supplied = self._attr_fact(cls, attr, None)
        if supplied is not None:
            return self._call_value(supplied, args, end) if call else supplied
        if call and not attr.startswith("__"):
            # inherited, or defined only in subclasses (a template method): the call graph
            # resolves it through the hierarchy after the join
            self._call_fact(f"{cls}.{attr}", end)
            self._site(f"{cls}.{attr}", end, args, True)
        for base in self._class_bases(info):
            if base[0] == "qual" and self._is_torch(base[1]):
                bcls = self.api.canonical(base[1]) or base[1]
                return self._torch_member(bcls, recv, node, attr, call, args, end, usage)
            if base[0] == "qual":  # base defined in another file
                self.emit(
                    "",
                    usage if call else "reference",
                    "certain",
                    (node, "a"),
                    (end, "e"),
                    args,
                    pending=(cls, attr),
                )
                return UNKNOWN
        return UNKNOWN

    def _class_bases(self, info: ClassInfo) -> list[Val]:
        """Bases in MRO-ish order, flattening bases defined in this file."""
        out: list[Val] = []
        seen: set[str] = set()
        stack = list(reversed(info.bases))
        while stack:
            b = stack.pop()
            if b[0] == "class":
                if b[1] in seen:
                    continue
                seen.add(b[1])
                sub = self.classes.get(b[1])
                if sub is not None:
                    stack.extend(reversed(sub.bases))
                continue
            out.append(b)
        return out

    def _torch_member(
        self,
        cls: str,
        recv: Val,
        node: cst.Attribute,
        attr: str,
        call: bool,
        args: _Args | None,
        end: cst.CSTNode,
        usage: str,
    ) -> Val:
        api = self.api.member(cls, attr)
        if api is None:
            if self.owners.role(cls) == "module" and attr in MODULE_TENSOR_ATTRS:
                return TENSOR
            return UNKNOWN
        if attr.startswith("__") and attr.endswith("__"):
            return UNKNOWN
        if not call and self.api.kind(api) != "method":
            # Data attributes of modules, optimizers, devices (conv.weight, opt.param_groups,
            # device.type) follow from the object itself; the object's API is what migrates.
            return self.owners.attribute_result(api, recv, attr)
        self.emit(api, usage if call else "reference", "certain", (node, "a"), (end, "e"), args)
        if call:
            return self.owners.call_result(api, recv, attr)
        return self.owners.attribute_result(api, recv, attr)

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

    def _call_role(self, keyword: str, v: Val, value: cst.BaseExpression) -> None:
        """Functions and objects passed as collate_fn/transform/dataset/...: edges of the data
        pipeline (the role says what of an object runs; see ``DATA_ROLES``)."""
        if keyword in DATA_ROLES:
            callee = self._callee_name(v)
            if callee:
                self._call_fact(callee, value, keyword)

    def _callee_name(self, v: Val) -> str:
        kind = v[0]
        if kind in ("func", "class"):
            return f"{self.module_name}.{v[1]}"
        if kind == "qual" and self._is_local(v[1]):
            return str(v[1])
        if kind == "inst" and not self._is_torch(v[1]):
            return str(v[1])
        return ""

    def _getattr_methods(self, node: cst.Call) -> None:
        """``getattr(self, "loss_" + name)``: an edge to every method of the class whose name
        starts with the constant prefix (a dispatch by name; no prefix says too little)."""
        info = self._current_class()
        if info is None or len(node.args) < 2:
            return
        target, name = node.args[0].value, node.args[1].value
        if not (type(target) is cst.Name and target.value == "self"):
            return
        prefix = _name_prefix(name)
        if prefix:
            for method in sorted(info.methods):
                if method.startswith(prefix):
                    self._call_fact(f"{self.module_name}.{info.qualname}.{method}", node, REF)

    def _call_fact(self, callee: str, node: cst.CSTNode, role: str = "call") -> None:
        if not self.silent and callee:
            self.call_facts.append((self._function(), callee, node, role))

    def _args(self, node: cst.Call) -> _Args:
        vals: list[Val] = []
        positional = 0
        keywords: list[str] = []
        star = False
        kwvals: dict[str, Val] = {}
        starred: list[Val] = []
        for arg in node.args:
            v = self.value(arg.value)
            if arg.keyword is not None:
                keywords.append(arg.keyword.value)
                kwvals[arg.keyword.value] = v
                self._call_role(arg.keyword.value, v, arg.value)
            elif arg.star:
                star = True
                if arg.star == "*":
                    starred.append(v)
            else:
                positional += 1
                vals.append(v)
        return _Args(vals, positional, tuple(keywords), star, kwvals, starred)

    def _call(self, node: cst.Call, usage: str = "call") -> Val:
        self._count(node, CALL)
        func = node.func
        if type(func) is cst.Attribute:
            self._count(func, ATTR)
            recv = self.expr(func.value)
            if recv[0] == "qual":
                fv = self._extend(recv[1], func.attr.value)
                args = self._args(node)
                return self._call_qual(fv[1], func, node, args, usage)
            args = self._args(node)
            return self._member_ref(recv, func, True, args, node, usage)[0]
        fv = self.expr(func)
        args = self._args(node)
        if fv[0] == "qual":
            return self._call_qual(fv[1], func, node, args, usage)
        if fv[0] == LAYER:
            # `norm_layer(planes)` with `norm_layer=nn.BatchNorm2d` as the default: probably
            # builds one (a caller may pass another class); `linear_layer(...)` after
            # `linear_layer = partial(nn.Conv2d, kernel_size=1) if use_conv else nn.Linear`:
            # one of the two
            # a name or attribute starts where it is written; another callee (`(A if c else
            # B)(x)`) has no position of its own: the call's start stands for it
            start = (func, "s") if type(func) in (cst.Name, cst.Attribute) else (node, "s")
            for canon in fv[1]:
                written = self.api.as_written(canon) or canon
                self.emit(written, usage, "probable", start, (node, "e"), args, canonical=canon)
            if len(fv[1]) == 1:
                return self.owners.instance_of(fv[1][0])
            modules = all(self.owners.role(c) == "module" for c in fv[1])
            return inst("torch.nn.Module") if modules else UNKNOWN
        return self._call_value(fv, args, node)

    def _layer_classes(self, v: Val) -> tuple[str, ...]:
        """The torch classes a value stands for when called (a class, or a LAYER value)."""
        if v[0] == LAYER:
            return tuple(v[1])
        if v[0] == "qual" and self._is_torch(v[1]):
            canon = self.api.canonical(v[1]) or v[1]
            if self.api.kind(canon) == "class":
                return (canon,)
        return ()

    def _call_qual(
        self, q: str, func: cst.BaseExpression, node: cst.Call, args: _Args, usage: str
    ) -> Val:
        name = self._emit_qual(q, func, node, usage, args)
        if name is not None and (not name.startswith("torch.") or name.startswith("torch.ops.")):
            # torchvision.ops.nms & co., and compiled operators registered under torch.ops
            # (``torch.ops.torchvision.nms``): the dynamic-shape rules written for them
            foreign = self.shapes.on_foreign_call(q, node, args.vals, args.keywords)
            if foreign is not None:
                return foreign
        if name is not None:
            kind = self.api.kind(name)
            if name == DATALOADER and args.vals:
                first = next(a.value for a in node.args if a.keyword is None and not a.star)
                self._call_role("dataset", args.vals[0], first)
            if kind == "class":
                made = self.owners.instance_of(name)
                if name in SEQUENTIAL and args.vals and not args.star and not args.keywords:
                    made = fresh(made[0], made[1])
                    self.sequentials[id(made)] = (made, tuple(args.vals))
                return made
            if kind == "function":
                result = self.owners.function_result(name)
                short = name.rpartition(".")[2]
                if short in BOOL_FUNCTIONS or (
                    short in JOINS and args.vals and self._element(args.vals[0]) == BOOL_TENSOR
                ):
                    result = BOOL_TENSOR  # torch.stack([m1, m2]) of masks is a mask
                elif result[0] == "tensor" and (
                    _bool_dtype(args, positional=False)
                    or (short in FROM_HOST and args.vals and self._truths(args.vals[0]))
                ):
                    # torch.as_tensor([...], dtype=torch.bool), torch.as_tensor(keep) of a
                    # list of comparisons read from data
                    result = BOOL_TENSOR
                result = self.shapes.on_torch_call(name, node, None, args.vals, args.kwvals, result)
                return _named_tuple(name.rpartition(".")[2], args, 1, result)
            return UNKNOWN
        if self._is_torch(q):
            return UNKNOWN
        foreign = self.shapes.on_foreign_call(q, node, args.vals, args.keywords)
        if foreign is not None:
            return foreign
        if self._is_local(q):
            self._call_fact(q, node)
            self._site(q, node, args, False)
            if "r:" + q in self.env:
                return self._returned(q, None)
            known = self.reexports.get(q + RETURNS)
            if known is not None:
                return TENSOR if known == "tensor" else inst(known.partition(":")[2])
            last = q.rpartition(".")[2]
            # What a repo function in another file returns is known only after the first
            # round; ("ret", q) acts as unknown, and asks for a second round only if the code
            # calls a method on it (where the answer matters).
            return inst(q) if last[:1].isupper() else ("ret", q)
        if q == "functools.partial" and args.vals and self._layer_classes(args.vals[0]):
            # partial(nn.Conv2d, ...): calling it builds that torch class (no repository
            # function whose parameters the bound arguments would reach)
            return (LAYER, self._layer_classes(args.vals[0]))
        if q == "functools.partial" and args.vals and not args.star:
            made = fresh("unknown", None)
            bound = _Args(
                args.vals[1:], args.positional - 1, args.keywords, False, dict(args.kwvals)
            )
            self.partials[id(made)] = (made, args.vals[0], bound)
            return made
        if q in PASS_THROUGH:
            if q in ("copy.copy", "copy.deepcopy") and args.vals:
                return args.vals[0]  # a copy of a module is a module
            return UNKNOWN
        root = q.partition(".")[0]
        if root in ARRAY_PACKAGES:
            return ARRAY
        if root in NON_TORCH_PACKAGES:
            return NONTORCH
        if is_non_torch_class(q):
            return inst(q)
        return UNKNOWN

    def _call_value(self, fv: Val, args: _Args | None, node: cst.CSTNode | None = None) -> Val:
        kind = fv[0]
        if node is not None and (kind == "unknown" or kind == "inst"):
            applied = self._apply_special(fv, args, node)
            if applied is not None:
                return applied
        if node is not None:
            if kind in ("func", "class"):
                self._call_fact(f"{self.module_name}.{fv[1]}", node)
                self._site(f"{self.module_name}.{fv[1]}", node, args, kind == "class")
            elif kind == "inst" and not self._is_torch(fv[1]):
                self._call_fact(f"{fv[1]}.forward", node)
                self._site(f"{fv[1]}.forward", node, args, True)
        if kind == "class":
            return inst(f"{self.module_name}.{fv[1]}")
        if kind == "inst":
            cls = fv[1]
            if self._is_torch(cls):
                return TENSOR if self.owners.role(cls) == "module" else UNKNOWN
            info = self._own_class(cls)
            if info is not None and self._module_kind(info):
                # a forward whose result is not known may return a dict or a tuple: a tensor
                # only probably (`loss_dict = criterion(out, tgt)`; `loss_dict.values()`)
                fwd = self._returned(f"{cls}.forward", info.returns.get("forward"))
                return fwd if fwd[0] != "unknown" else PTENSOR
            if f"r:{cls}.forward" in self.env:
                return self._returned(f"{cls}.forward", None)
            return PTENSOR
        if kind == "func":
            return self._returned(f"{self.module_name}.{fv[1]}", self.func_returns.get(fv[1]))
        if kind == "builtin":
            name = fv[1]
            first = args.vals[0] if args and args.vals else UNKNOWN
            if (
                name in ("int", "float", "bool")
                and node is not None
                and first[0] == "tensor"
                and (first != ARG_TENSOR or name != "bool")
            ):
                # ``int(p)`` of a forward parameter: converted because it is a tensor (a
                # plain number needs no int()), so its value is read on the host
                call = node if type(node) is cst.Call else None
                if call is not None and call.args and self._reads_random(call.args[0].value):
                    return fresh(RAND[0], RAND[1])
                return self.shapes.on_sync(node, first)
            if name == "len" and node is not None and is_dyn_tensor(first):
                return self.shapes.size_read(node, first)
            size = self.shapes.sample_size(first) if name == "len" else None
            if size is not None:
                return size
            if name in ("max", "min") and args and len(args.vals) == 1:
                inner = self._element(first)
                if inner in (SAMPLE_SIZE, ELEM_SIZE, BATCH_MAX) or (
                    inner[0] in ("unknown", "nontorch")
                    and self.shapes.sample_kind(inner) is not None
                ):
                    # ``max(s[0] for s in sizes)``: the largest of what each element holds
                    return BATCH_MAX  # the largest sample of the batch
            if name in ("int", "float", "round", "abs", "min", "max") and args:
                for v in args.vals:
                    if is_dyn_number(v) or v == RAND:
                        return v
            if name in NON_TORCH_BUILTINS:
                return NONTORCH
            if name in SEQ_BUILTINS:
                return seq(self._element(first))
            if name == "next":
                return self._element(first)
            if name == "enumerate":
                return seq(("tuple", (NONTORCH, self._element(first))))
            if name == "zip" and args and not args.vals and len(args.starred) == 1:
                # ``zip(*rows)``: the columns of the rows, each a sequence of their elements
                return seq(seq(self._element(self._element(args.starred[0]))))
            if name == "zip" and args:
                return seq(("tuple", tuple(self._element(v) for v in args.vals)))
            if name == "super":
                info = self._current_class()
                return ("super", info.qualname if info else "")
            if name == "getattr" and type(node) is cst.Call:
                self._getattr_methods(node)
            return UNKNOWN
        return UNKNOWN

    def _apply_special(self, fv: Val, args: _Args | None, node: cst.CSTNode) -> Val | None:
        """Calling a ``functools.partial`` (its function with the bound arguments first, then
        the call's) or an ``nn.Sequential`` whose children are known (each child's forward in
        turn with the previous output), so that the solver sees those calls' arguments."""
        entry = self.partials.get(id(fv))
        if entry is not None and entry[0] is fv:
            _, func, bound = entry
            more = args or _Args([], 0, (), False)
            combined = _Args(
                [*bound.vals, *more.vals],
                bound.positional + more.positional,
                (*bound.keywords, *more.keywords),
                bound.star or more.star,
                {**bound.kwvals, **more.kwvals},
            )
            if func[0] == "qual":
                q = func[1]
                if not self._is_local(q) or self._is_torch(q):
                    return UNKNOWN
                self._call_fact(q, node)
                self._site(q, node, combined, False)
                return self._returned(q, None) if "r:" + q in self.env else UNKNOWN
            return self._call_value(func, combined, node)
        seq_entry = self.sequentials.get(id(fv))
        if seq_entry is not None and seq_entry[0] is fv:
            out = args.vals[0] if args is not None and args.vals else UNKNOWN
            for child in seq_entry[1]:
                prev = out
                out = self._call_value(child, _Args([prev], 1, (), False), node)
                torch_layer = child[0] == "inst" and self._is_torch(child[1])
                if torch_layer and is_dyn_tensor(prev) and out[0] == "tensor":
                    out = DYN_TENSOR  # a torch layer keeps the rows it is given
            # what calling a torch module gives, unless the children say more (data)
            return out if _carries_data(out) else None
        return None

    def _super_call(self, attr: str, args: _Args, node: cst.CSTNode) -> Val:
        """``super().attr(...)``: a call of the method the class's bases define (the first
        in a depth-first walk of the bases, Python's MRO for single inheritance), so that its
        parameters see the arguments; a torch or unknown base first ends the search."""
        info = self._current_class()
        if info is None:
            return UNKNOWN
        seen: set[str] = set()
        stack = list(reversed(info.bases))
        while stack:
            b = stack.pop()
            if b[0] == "class":
                base = self.classes.get(b[1])
                if b[1] in seen or base is None:
                    continue
                seen.add(b[1])
                if attr in base.methods:
                    callee = f"{self.module_name}.{b[1]}.{attr}"
                    self._call_fact(callee, node)
                    self._site(callee, node, args, True)
                    return self._returned(callee, base.returns.get(attr))
                stack.extend(reversed(base.bases))
                continue
            if b[0] == "qual" and self._is_local(b[1]) and not self._is_torch(b[1]):
                callee = f"{b[1]}.{attr}"
                self._call_fact(callee, node)
                self._site(callee, node, args, True)
                return self._returned(callee, None)
            return UNKNOWN
        return UNKNOWN

    def _element(self, v: Val) -> Val:
        """What iterating over ``v`` yields (containers of modules yield modules)."""
        if v[0] == "inst" and self._is_torch(v[1]):
            cls = v[1].rpartition(".")[2]
            if cls in ("ModuleList", "Sequential"):
                return inst("torch.nn.Module")
            if cls == "ParameterList":
                return TENSOR
            if cls == "DataLoader":
                return PTENSOR  # a batch: a tensor, or tuples/lists/dicts of tensors
        if is_dyn_tensor(v):
            # one row of a data-dependent tensor (``for i in keep``: one index, ``for box in
            # boxes[mask]``: one box) has a static shape; only how many there are varies
            row = fresh(TENSOR[0], TENSOR[1])
            self.rows[id(row)] = row
            return row
        return self.shapes.relay([v], element(v))

    def _truths(self, v: Val) -> bool:
        """A list of truth values compared from data (the elements of a future mask)."""
        return v[0] == "seq" and self.truths.get(id(v[1])) is v[1]

    def _is_row(self, v: Val) -> bool:
        """Is ``v`` one element of a data-dependent tensor (a loop variable over it)?"""
        return self.rows.get(id(v)) is v

    def _module_kind(self, info: ClassInfo) -> bool | None:
        if info.module_kind is not None:
            return info.module_kind
        result: bool | None = False
        for b in self._class_bases(info):
            if b[0] == "qual" and self._is_torch(b[1]):
                if self.owners.role(self.api.canonical(b[1]) or b[1]) == "module":
                    result = True
                    break
            elif b[0] == "qual" and b[1].partition(".")[0] not in NON_TORCH_PACKAGES:
                # an unresolved base may be a Module; one from argparse, logging... is not
                result = None
        info.module_kind = result
        return result

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
        elif recv[0] == "unknown" and not named_mask and any(map(self.shapes.selects, indexes)):
            # ``value[keep]`` with ``keep`` a boolean tensor, or an index tensor of
            # data-dependent length (``matched[img][pos]``): only a tensor (or an array, known
            # as such) takes one, whatever holds ``value`` (a container's dict of fields
            # filtered by one mask, a list of per-image tensors read by position)
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

    def _lambda(self, node: cst.Lambda) -> Val:
        hints = self._params(node.params)
        self.scopes.append(Scope("function", {}))
        self._bind_params(node.params, hints, None, "<lambda>")
        self.func_stack.append("<lambda>")
        try:
            self.value(node.body)
        finally:
            self.func_stack.pop()
            self.scopes.pop()
        return ("func", "<lambda>")

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

    def _comp_for(self, cf: cst.CompFor) -> bool:
        """Bind a comprehension's loop variables; True when an ``if`` of it reads tensor
        data (the result's length is then decided by data)."""
        binder = self.target(cf.target)
        it = self.value(cf.iter)
        self._bind_loop(binder, it)
        filtered = False
        for cif in cf.ifs:
            if self.shapes.on_condition(cif.test, self.value(cif.test), "comprehension's if"):
                filtered = True
        if cf.inner_for_in is not None:
            filtered = self._comp_for(cf.inner_for_in) or filtered
        return filtered

    def _bind_loop(self, binder: tuple[Any, ...], it: Val) -> None:
        """Bind a loop's target to the elements of ``it``. An element of a sequence that is
        not a tensor (or not known to be one: a parameter) is one sample of a batch kept as
        a list (``for t in targets``): it, and the fields read from it, have their own
        shapes (:meth:`ShapeTracker.sample`)."""
        self.bind_target(binder, self._element(it))
        kind = it[0]
        if kind not in ("unknown", "seq", "tuple", "tensor", "ret") or is_dyn_tensor(it):
            return
        if kind == "builtin" or (kind == "tensor" and it[1] is True):
            return
        for name in _bound_names(binder):
            v = self.scopes[-1].names.get(name)
            if v is not None and (
                v[0] == "unknown" or (v[0] == "tensor" and v[1] not in ("dyn", "bool"))
            ):
                self.scopes[-1].names[name] = self.shapes.sample(v, False)

    def _comprehension(self, elts: Sequence[cst.BaseExpression], for_in: cst.CompFor) -> Val:
        self.scopes.append(Scope("comp", {}))
        try:
            self.silent += 1
            try:
                self._comp_for(for_in)  # learn the loop variables' types first
            finally:
                self.silent -= 1
            vals = [self.value(e) for e in elts]
            filtered = self._comp_for(for_in)
        finally:
            self.scopes.pop()
        if filtered and vals[0][0] in ("nontorch", "unknown"):
            # ``[i for i, s in enumerate(scores.tolist()) if s > t]``: host numbers, as many
            # as the data says
            return host_dyn(for_in)
        return seq(vals[0])

    def _listcomp(self, node: cst.ListComp | cst.SetComp | cst.GeneratorExp) -> Val:
        v = self._comprehension([node.elt], node.for_in)
        return NONTORCH if type(node) is cst.SetComp else v

    def _dictcomp(self, node: cst.DictComp) -> Val:
        self._comprehension([node.key, node.value], node.for_in)
        return NONTORCH

    # ------------------------------------------------------------------ assignment targets
    def target(self, node: cst.BaseExpression) -> tuple[Any, ...]:
        """Visit an assignment target (counting its nodes) and say how to bind a value to it."""
        t = type(node)
        if t is cst.Name:
            self._count(node, NAME)
            return ("name", node.value)
        if t is cst.Attribute:
            self._count(node, ATTR)
            recv = self.expr(node.value)
            return ("attr", recv, node.attr.value, node)
        if t is cst.Subscript:
            self._subscript(node, store=True)
            return ("none",)
        if t in (cst.Tuple, cst.List):
            parts = []
            for el in node.elements:
                if isinstance(el, cst.StarredElement):
                    parts.append(("star", self.target(el.value)))
                else:
                    parts.append(self.target(el.value))
            return ("unpack", parts)
        if t is cst.StarredElement:
            return ("star", self.target(node.value))
        self.value(node)
        return ("none",)

    def bind_target(self, binder: tuple[Any, ...], v: Val) -> None:
        kind = binder[0]
        if kind == "name":
            self.bind(binder[1], v)
        elif kind == "attr":
            recv = binder[1]
            if recv[0] == "inst":
                info = self._own_class(recv[1])
                if info is not None:
                    info.attrs[binder[2]] = v
                    if not self.silent and self.func_stack:
                        self.attr_writes.setdefault(self._function(), []).append((binder[2], v))
                        if _carries_data(v):
                            self.carriers.setdefault((self._function(), binder[2]), binder[3])
        elif kind == "unpack":
            parts = binder[1]
            if v[0] == "tuple" and len(v[1]) == len(parts):
                items = [self.shapes.relay([v], e) for e in v[1]]
            else:
                items = [self.shapes.relay([v], element(v))] * len(parts)
            for part, item in zip(parts, items, strict=True):
                if part[0] == "star":
                    self.bind_target(part[1], seq(item))
                else:
                    self.bind_target(part, item)
        elif kind == "star":
            self.bind_target(binder[1], seq(element(v)))

    def _own_class(self, cls: str) -> ClassInfo | None:
        prefix = self.module_name + "."
        if cls.startswith(prefix):
            return self.classes.get(cls[len(prefix) :])
        return None

    # ------------------------------------------------------------------ statements
    def stmt(self, node: cst.CSTNode) -> None:
        h = self._stmt.get(type(node))
        if h is not None:
            h(node)
        else:
            self._generic(node)

    def _block(self, node: cst.BaseSuite) -> None:
        for s in node.body:
            self.stmt(s)

    def _simple_line(self, node: cst.SimpleStatementLine | cst.SimpleStatementSuite) -> None:
        for s in node.body:
            self.stmt(s)

    def _expr_stmt(self, node: cst.Expr) -> None:
        self.value(node.value)

    def _assign(self, node: cst.Assign) -> None:
        self.shapes.defer_stores = True  # ``x[mask] = v``: the rule needs v (settle_stores)
        binders = [self.target(t.target) for t in node.targets]
        self.shapes.defer_stores = False
        value = node.value
        if (
            all(b[0] == "name" for b in binders)
            and type(value) in (cst.Name, cst.Attribute)
            and self.scopes[-1].kind != "class"
        ):
            v = self.expr(value)  # an alias (Conv = nn.Conv2d): its later uses are reported
        else:
            v = self.value(value)
        self.shapes.settle_stores(v, type(value) in (cst.Subscript, cst.Call))
        # ``self.x = None`` says "nothing yet", not "not a tensor": another method (or a
        # later line) gives x its value, and the last write seen must not erase what it is
        none = type(value) is cst.Name and value.value == "None"
        for b in binders:
            self.bind_target(b, UNKNOWN if none and b[0] == "attr" else v)
        if v == RAND:
            for t in node.targets:
                root = _root_name(t.target) if type(t.target) is cst.Subscript else None
                if root is not None:
                    self.random_filled.add((self._function(), root))

    def _reads_random(self, expr: cst.BaseExpression) -> bool:
        """Is ``expr`` (``t[0]``, ``t``) a tensor a random number was written into here?"""
        root = _root_name(expr)
        return root is not None and (self._function(), root) in self.random_filled

    def _annassign(self, node: cst.AnnAssign) -> None:
        binder = self.target(node.target)
        hint = self._annotation(node.annotation.annotation)
        v = self.value(node.value) if node.value is not None else UNKNOWN
        self.bind_target(binder, hint if v[0] == "unknown" and hint is not None else v)

    def _augassign(self, node: cst.AugAssign) -> None:
        t = node.target
        if type(t) is cst.Name:
            self._count(t, NAME)
            old = self.lookup(t.value)
            new = self.value(node.value)
            if old[0] == "tensor" or new[0] == "tensor":
                self.bind(t.value, old if old[0] == "tensor" else new)
        else:
            self.target(t)
            self.value(node.value)

    def _return(self, node: cst.Return) -> None:
        v = self.value(node.value) if node.value is not None else NONTORCH
        if self.returns:
            self.returns[-1].append(v)
            if not self.silent and node.value is not None and _carries_data(v):
                self.carriers.setdefault((self._function(), ""), node.value)

    def _raise(self, node: cst.Raise) -> None:
        if node.exc is not None:
            self.value(node.exc)
        if node.cause is not None:
            self.value(node.cause.item)

    def _assert(self, node: cst.Assert) -> None:
        self.value(node.test)
        if node.msg is not None:
            self.value(node.msg)

    def _del(self, node: cst.Del) -> None:
        self.target(node.target)

    def _if(self, node: cst.If) -> None:
        dynamic = self.shapes.on_condition(node.test, self.value(node.test), "if")
        names = self.scopes[-1].names
        returns: list[Val] = self.returns[-1] if self.returns else []
        before, start = dict(names), len(returns)
        narrowed = _narrowed_to_builtin(node.test)
        if narrowed is not None and narrowed in names:
            # `if isinstance(out, dict):` — inside, `out` is a dict, not the tensor it was
            # guessed to be (a model returning a dict of losses).
            names[narrowed] = NONTORCH
        self._block(node.body)
        if narrowed is not None and names.get(narrowed) is NONTORCH and narrowed in before:
            names[narrowed] = before[narrowed]
        after_body, middle = dict(names), len(returns)
        orelse = node.orelse
        if isinstance(orelse, cst.If):
            self._if(orelse)
        elif orelse is not None:
            self._block(orelse.body)
        self.shapes.keep_collections(names, [after_body] if orelse else [before, after_body])
        if not dynamic:
            return
        body_returns = returns[start:middle]
        if orelse is None and body_returns and self.pending_branches:
            # `if cond: return a` then `return b` later: the rest of the function is the else
            self.pending_branches[-1].append((node.test, body_returns, len(returns)))
            return
        pairs = [(a, b) for a in body_returns for b in returns[middle:]]
        for name, v in after_body.items():
            if before.get(name) is not v and name in names and after_body[name] is not names[name]:
                pairs.append((v, names[name]))
        self.shapes.on_branches(node.test, pairs)

    def _for(self, node: cst.For) -> None:
        binder = self.target(node.target)
        it = self.value(node.iter)
        self._bind_loop(binder, it)
        self._block(node.body)
        if node.orelse is not None:
            self._block(node.orelse.body)

    def _while(self, node: cst.While) -> None:
        dynamic = self.shapes.on_condition(node.test, self.value(node.test), "while")
        self._block(node.body)
        if not dynamic:
            # the test runs again after the body: ``while scores.numel() > 0:`` with
            # ``scores = scores[keep]`` inside reads a data-dependent length from then on
            self.silent += 1
            try:
                again = self.value(node.test)
            finally:
                self.silent -= 1
            self.shapes.on_condition(node.test, again, "while")
        if node.orelse is not None:
            self._block(node.orelse.body)

    def _try(self, node: cst.Try | cst.TryStar) -> None:
        self._block(node.body)
        names = self.scopes[-1].names
        after_body = dict(names)
        for h in node.handlers:
            if h.type is not None:
                self.value(h.type)
            if h.name is not None and isinstance(h.name.name, cst.Name):
                self.bind(h.name.name.value, NONTORCH)
            self._block(h.body)
        # `try: from torch.cuda.amp import GradScaler / except ImportError: GradScaler = None`:
        # the fallback must not hide the torch name the code uses whenever torch is there.
        for name, v in after_body.items():
            if v[0] == "qual" and self._is_torch(v[1]) and names.get(name) != v:
                names[name] = v
        if node.orelse is not None:
            self._block(node.orelse.body)
        if node.finalbody is not None:
            self._block(node.finalbody.body)

    def _with(self, node: cst.With) -> None:
        for item in node.items:
            expr = item.item
            if type(expr) is cst.Call:
                v = self._call(expr, "context_manager")
            else:
                v = self.value(expr, "context_manager")
            if item.asname is not None:
                binder = self.target(item.asname.name)
                # `with Storage() as s`: a repository class's __enter__ conventionally
                # returns self, so `s.step()` is the class's own method, not a guess by name
                # (Optimizer.step). What a torch context manager yields stays unknown.
                own = v[0] == "inst" and not self._is_torch(v[1])
                self.bind_target(binder, v if v[0] == "tensor" or own else UNKNOWN)
        self._block(node.body)

    def _match(self, node: cst.Match) -> None:
        self.value(node.subject)
        for case in node.cases:
            self._pattern(case.pattern)
            if case.guard is not None:
                self.value(case.guard)
            self._block(case.body)

    def _pattern(self, node: cst.CSTNode) -> None:
        """Match patterns: capture names (``case x``, ``as y``, ``*rest``) are not expressions."""
        t = type(node)
        if t is cst.MatchAs:
            if node.pattern is not None:
                self._pattern(node.pattern)
            if node.name is not None:
                self.bind(node.name.value, UNKNOWN)
        elif t is cst.MatchStar:
            if node.name is not None:
                self.bind(node.name.value, seq(UNKNOWN))
        elif t is cst.MatchValue:
            self.value(node.value)
        elif t is cst.MatchClass:
            self.value(node.cls)
            for el in node.patterns:
                self._pattern(el.value)
            for kw in node.kwds:
                self._pattern(kw.pattern)
        elif t is cst.MatchMapping:
            for el in node.elements:
                self.value(el.key)
                self._pattern(el.pattern)
        elif t in (cst.MatchList, cst.MatchTuple):
            for el in node.patterns:
                self._pattern(el.value if isinstance(el, cst.MatchSequenceElement) else el)
        elif t is cst.MatchOr:
            for el in node.patterns:
                self._pattern(el.pattern)

    # ------------------------------------------------------------------ imports
    def _import(self, node: cst.Import) -> None:
        for name, v in self._import_bindings(node):
            self.bind(name, v)

    def _importfrom(self, node: cst.ImportFrom) -> None:
        for name, v in self._import_bindings(node):
            self.bind(name, v)

    def _may_guess(self, attr: str) -> bool:
        """In a file that says nothing of torch, only a method numpy arrays lack may be a
        tensor's (and never in a file of another tensor framework)."""
        return not self.foreign_framework and attr not in NDARRAY_METHODS

    def _note_import(self, bindings: list[tuple[str, Val]]) -> None:
        """Set ``says_torch`` when an import binds a torch object, or a repository name known
        to be one or to return a tensor (its file imports torch for us)."""
        if self.says_torch:
            return
        for _, v in bindings:
            if v[0] != "qual":
                continue
            q = str(v[1])
            if q.partition(".")[0] in FOREIGN_FRAMEWORKS:
                self.foreign_framework = True
            returns = self.reexports.get(q + RETURNS, "")
            if (
                self._is_torch(q)
                or self._is_torch(self.reexports.get(q, ""))
                or returns == "tensor"
                or self._is_torch(returns.partition(":")[2])
            ):
                self.says_torch = True
                return

    def _resolve_module(self, q: str) -> Val:
        if self._is_torch(q):
            return qual(q)
        if self._is_local(q):
            return self._local_qual(q)
        return qual(q)

    def _import_bindings(self, node: cst.Import | cst.ImportFrom) -> list[tuple[str, Val]]:
        out = self._import_bindings_of(node)
        self._note_import(out)
        return out

    def _import_bindings_of(self, node: cst.Import | cst.ImportFrom) -> list[tuple[str, Val]]:
        out: list[tuple[str, Val]] = []
        if isinstance(node, cst.Import):
            for alias in node.names:
                dotted = _dotted(alias.name)
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    out.append((alias.asname.name.value, self._resolve_module(dotted)))
                else:
                    top = dotted.partition(".")[0]
                    if self._is_local(dotted):
                        self._local_qual(dotted)
                    out.append((top, self._resolve_module(top)))
            return out
        module = _dotted(node.module) if node.module is not None else ""
        dots = len(node.relative)
        if dots:
            parts = self.package.split(".") if self.package else []
            if dots > 1:
                parts = parts[: len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
            base = ".".join(parts)
            module = f"{base}.{module}" if base and module else (base or module)
        if isinstance(node.names, cst.ImportStar):
            if self._is_torch(module):
                names = self.api.star_exports(self.api.canonical(module) or module) or ()
                out.extend((n, qual(f"{module}.{n}")) for n in sorted(names))
            elif self._is_local(module):
                prefix = module + "."
                for key, target in self.reexports.items():
                    rest = key[len(prefix) :] if key.startswith(prefix) else ""
                    if rest and "." not in rest and not rest.endswith(RETURNS):
                        out.append((rest, qual(target)))
                self.local_refs.add(module + ".*")
            return out
        for alias in node.names:
            name = _dotted(alias.name)
            bound = (
                alias.asname.name.value
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name)
                else name
            )
            full = f"{module}.{name}" if module else name
            out.append((bound, self._resolve_module(full)))
        return out

    # ------------------------------------------------------------------ definitions
    def _prepass(self, body: Sequence[cst.BaseStatement]) -> None:
        """Module-level names as they stand when functions run (after the whole module ran).

        Function bodies execute later than the module body, so a function defined above an
        import still sees the import. Only cheap facts are collected: imports, defs, classes;
        names assigned by other statements are looked up live.
        """
        stack = list(reversed(body))
        while stack:
            s = stack.pop()
            t = type(s)
            if t is cst.SimpleStatementLine:
                for small in s.body:
                    if isinstance(small, cst.Import | cst.ImportFrom):
                        self.silent += 1
                        try:
                            for name, v in self._import_bindings(small):
                                self.late[name] = v
                        finally:
                            self.silent -= 1
                    elif isinstance(small, cst.Assign):
                        for tgt in small.targets:
                            if isinstance(tgt.target, cst.Name):
                                self.late[tgt.target.value] = _DEFER
            elif t is cst.FunctionDef:
                self.late[s.name.value] = ("func", s.name.value)
            elif t is cst.ClassDef:
                self.late[s.name.value] = ("class", s.name.value)
            elif t in (cst.If, cst.Try, cst.With):
                inner: list[cst.BaseStatement] = list(s.body.body)
                if t is cst.Try:
                    for h in s.handlers:
                        inner.extend(h.body.body)
                elif t is cst.If and s.orelse is not None and isinstance(s.orelse, cst.Else):
                    inner.extend(s.orelse.body.body)
                stack.extend(reversed(inner))

    def _decorators(self, decorators: Sequence[cst.Decorator]) -> list[Val]:
        out = []
        for d in decorators:
            e = d.decorator
            out.append(
                self._call(e, "decorator") if type(e) is cst.Call else self.value(e, "decorator")
            )
        return out

    def _annotation(self, node: cst.BaseExpression) -> Val | None:
        self.annotating += 1
        try:
            v = self.value(node, "annotation")
        finally:
            self.annotating -= 1
        if v[0] == "class":
            return inst(f"{self.module_name}.{v[1]}")
        if (
            v[0] == "qual"
            and self._is_torch(v[1])
            and (self.api.canonical(v[1]) or v[1]) in TENSOR_CLASSES
        ):
            return TENSOR
        if v[0] == "qual" and self._is_torch(v[1]) and self.api.kind(v[1]) == "class":
            canon = self.api.canonical(v[1]) or v[1]
            if self.owners.role(canon) != "other":
                return self.owners.instance_of(canon)  # model: nn.Module, opt: Optimizer
        if v[0] == "builtin" and v[1] in NON_TORCH_BUILTINS | SEQ_BUILTINS:
            return NONTORCH
        if (
            v[0] == "qual"
            and self._is_local(v[1])
            and not self._is_torch(v[1])
            and v[1].rpartition(".")[2][:1].isupper()
        ):
            # a class of the repository imported from another file (``exp: Exp``): its
            # methods are the repository's, and calls on it reach them (``self.exp.m(...)``)
            return inst(v[1])
        return None

    def _params(self, params: cst.Parameters) -> dict[str, Val | None]:
        """Evaluate defaults and annotations (in the enclosing scope), in source order.

        Returns what each parameter is known to hold from its annotation or default.
        """
        hints: dict[str, Val | None] = {}
        for p in _all_params(params):
            hint = None
            if p.annotation is not None:
                hint = self._annotation(p.annotation.annotation)
            if p.default is not None:
                d = self.value(p.default)
                if hint is None and type(p.default) is not cst.Name:
                    hint = NONTORCH if d[0] == "nontorch" else None
                elif (
                    hint is None
                    and isinstance(p.default, cst.Name)
                    and p.default.value in ("True", "False")
                ):
                    hint = NONTORCH
                if hint is None and self._layer_classes(d):
                    hint = (LAYER, self._layer_classes(d))  # norm_layer=nn.BatchNorm2d
            hints[p.name.value] = hint
        return hints

    def _bind_params(
        self,
        params: cst.Parameters,
        hints: dict[str, Val | None],
        cls: ClassInfo | None,
        fname: str,
        is_static: bool = False,
        qn: str | None = None,
    ) -> list[tuple[str, str, Val, bool]]:
        """Bind the parameters; returns (name, kind, value declared here, has default) for
        the function's summary. ``qn`` (None for lambdas) is the function's qualname: the
        solver's facts for its parameters, when it has some, replace what is known here."""
        all_params = _all_params(params)
        positional = [*params.posonly_params, *params.params]
        first = positional[0] if positional and cls is not None and not is_static else None
        forward = cls is not None and fname in ("forward", "__call__")
        module_kind = self._module_kind(cls) if forward and cls is not None else None
        kinds = _param_kinds(params)
        out: list[tuple[str, str, Val, bool]] = []
        for p in all_params:
            name = p.name.value
            hint = hints.get(name)
            if p is first and cls is not None:
                self.bind(name, inst(f"{self.module_name}.{cls.qualname}"))
                out.append((name, kinds[name], UNKNOWN, False))
                continue
            if hint is not None:
                v = hint
            elif forward and module_kind is not False:
                if p is params.star_kwarg:
                    v = NONTORCH
                elif p is params.star_arg:
                    v = seq(ARG_TENSOR if module_kind else PTENSOR)
                else:
                    v = ARG_TENSOR if module_kind else PTENSOR
            else:
                v = UNKNOWN
            out.append((name, kinds[name], v, p.default is not None))
            if qn is not None:
                f = self.env.get(f"p:{self.module_name}.{qn}:{name}")
                if f is not None and not (v[0] == LAYER and not pv.is_informative(f)):
                    v = self._supplied(f, _param_words(name, qn))
                else:
                    v = fresh(v[0], v[1])
                self.param_ids[id(v)] = (qn, name, v)
            self.bind(name, v)
        return out

    def _funcdef(self, node: cst.FunctionDef) -> None:
        scope = self.scopes[-1]
        cls = scope.cls if scope.kind == "class" else None
        fname = node.name.value
        # decorators, defaults and annotations are the function's own (its scope:
        # ``act_layer=nn.GELU`` of a builder the network calls is network, ``@torch.no_grad()``
        # of a host-only method is host), though evaluated where it is defined
        self.func_stack.append(fname)
        try:
            decos = self._decorators(node.decorators)
            is_static = any(d == ("builtin", "staticmethod") for d in decos)
            hints = self._params(node.params)
            if node.returns is not None:
                self._annotation(node.returns.annotation)
        finally:
            self.func_stack.pop()
        if cls is not None:
            cls.methods.add(fname)
        qn = ".".join([*self.func_stack, fname])
        self.bind(fname, ("func", qn))
        if not self.silent:
            self.function_facts.append((qn, cls.qualname if cls is not None else "", node))
        self.scopes.append(Scope("function", {}))
        self.func_stack.append(fname)
        self.returns.append([])
        self.pending_branches.append([])
        bound = cls is not None and not is_static
        try:
            params = self._bind_params(node.params, hints, cls, fname, is_static, qn)
            self._block(node.body)
        finally:
            found = self.returns.pop()
            for test, body_returns, start in self.pending_branches.pop():
                self.shapes.on_branches(test, [(a, b) for a in body_returns for b in found[start:]])
            self.shapes.end_function(self._function())
            self.func_stack.pop()
            self.scopes.pop()
        result = _join_all(found) if found else NONTORCH
        if not self.silent:
            self.summaries.append(
                (qn, cls.qualname if cls is not None else "", params, bound, found or [NONTORCH])
            )
        if cls is not None:
            cls.returns[fname] = result
        else:
            self.func_returns[qn] = result

    def _classdef(self, node: cst.ClassDef) -> None:
        self._decorators(node.decorators)
        bases: list[Val] = []
        # bases belong to the class (its scope: ``nn.Module`` of a network layer is network)
        self.func_stack.append(node.name.value)
        try:
            for arg in node.bases:
                v = self.value(arg.value, "base_class")
                bases.append(v)
            for arg in node.keywords:
                self.value(arg.value)
        finally:
            self.func_stack.pop()
        qn = ".".join([*self.func_stack, node.name.value])
        # All method names up front: forward() often calls helpers defined below it, and a
        # user method named like a torch one (def train(self)) must win over nn.Module's.
        methods = {s.name.value for s in node.body.body if type(s) is cst.FunctionDef}
        info = ClassInfo(qn, bases, methods)
        self.classes[qn] = info
        self.bind(node.name.value, ("class", qn))
        # Learn self.* attributes from __init__ first (silently), so that methods written
        # above __init__ still know what self.conv is.
        for s in node.body.body:
            if type(s) is cst.FunctionDef and s.name.value == "__init__":
                info.methods.add("__init__")
                self.silent += 1
                self.scopes.append(Scope("class", {}, info))
                try:
                    self._funcdef(s)
                finally:
                    self.scopes.pop()
                    self.silent -= 1
        self.scopes.append(Scope("class", {}, info))
        self.func_stack.append(node.name.value)
        try:
            self._block(node.body)
        finally:
            self.func_stack.pop()
            scope = self.scopes.pop()
        for name, v in scope.names.items():
            if name not in info.methods:
                info.attrs.setdefault(name, v)


#: Tensor methods that change the dtype (a mask cast to numbers is no longer a mask).
_CASTS = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "type"}
)


def _casts(attr: str, args: _Args) -> bool:
    if attr in _CASTS:
        return True
    if attr == "to":  # .to(torch.float32) casts; .to(device) does not
        return any(
            v[0] == "qual" and str(v[1]).startswith("torch.") and v[1] != "torch.device"
            for v in [*args.vals, *args.kwvals.values()]
        )
    return False


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


def _carries_data(v: Val) -> bool:
    """A value whose shape or number comes from tensor data (a mask included) or is drawn
    at random: worth a step in a chain where it is returned or stored."""
    if is_dyn_number(v) or v in (DYN_TENSOR, BOOL_TENSOR, RAND):
        return True
    if v[0] == "seq":
        return _carries_data(v[1])
    if v[0] == "tuple":
        return any(_carries_data(e) for e in v[1])
    return False


def _variable(v: Val) -> bool:
    """A value that makes a shape vary when it is a size or an index: read from data."""
    if is_dyn_number(v) or v == DYN_TENSOR:
        return True
    if v[0] == "seq":
        return _variable(v[1])
    if v[0] == "tuple":
        return any(_variable(e) for e in v[1])
    return False


def _sized_by_data(v: Val) -> bool:
    """A sequence holding a number read from data, drawn at random or a batch maximum."""
    if v[0] == "seq":
        return _sized_by_data(v[1])
    if v[0] == "tuple":
        return any(_sized_by_data(e) for e in v[1])
    return _carries_data(v) or v in (BATCH_MAX, SAMPLE_SIZE)


def _bound_names(binder: tuple[Any, ...]) -> list[str]:
    """The plain names an assignment target binds (``t``, ``(i, (src, _))``)."""
    kind = binder[0]
    if kind == "name":
        return [binder[1]]
    if kind == "unpack":
        return [n for part in binder[1] for n in _bound_names(part)]
    if kind == "star":
        return _bound_names(binder[1])
    return []


def _param_kinds(params: cst.Parameters) -> dict[str, str]:
    kinds = {p.name.value: "posonly" for p in params.posonly_params}
    kinds.update((p.name.value, "pos") for p in params.params)
    if isinstance(params.star_arg, cst.Param):
        kinds[params.star_arg.name.value] = "star"
    kinds.update((p.name.value, "kwonly") for p in params.kwonly_params)
    if params.star_kwarg is not None:
        kinds[params.star_kwarg.name.value] = "starstar"
    return kinds


def _param_words(name: str, qn: str) -> Callable[[pv.Fact], str]:
    def words(f: pv.Fact) -> str:
        d = pv.describe(f, qn)
        return f"`{name}` {d}" if d else ""

    return words


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


def _join_all(vals: Sequence[Val]) -> Val:
    v = vals[0]
    for other in vals[1:]:
        v = join(v, other)
    return v


#: Builtin types an ``isinstance`` test may narrow a name to (never a tensor).
def _name_prefix(expr: cst.BaseExpression) -> str:
    """The constant start of a string expression: ``"loss_" + k``, ``f"loss_{k}"``, a constant."""
    if type(expr) is cst.SimpleString:
        v = expr.evaluated_value
        return v if isinstance(v, str) else ""
    if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.Add:
        return _name_prefix(expr.left)
    if type(expr) is cst.FormattedString and expr.parts:
        first = expr.parts[0]
        return first.value if type(first) is cst.FormattedStringText else ""
    return ""


_BUILTIN_TYPES = frozenset({"dict", "list", "tuple", "str", "int", "float", "bool", "set"})


def _narrowed_to_builtin(test: cst.BaseExpression) -> str | None:
    """The name ``test`` (``isinstance(name, dict)``, ``isinstance(name, (list, tuple))``)
    proves to be a builtin container or scalar inside the ``if`` body, else None."""
    if not (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Name)
        and test.func.value == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0].value, cst.Name)
    ):
        return None
    kinds = test.args[1].value
    elements = [el.value for el in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
    if all(isinstance(el, cst.Name) and el.value in _BUILTIN_TYPES for el in elements):
        return test.args[0].value.value
    return None


def _hint(node: cst.BaseExpression) -> str:
    """The name a receiver is known by (``model`` in ``model.eval()``, ``build_model`` in
    ``build_model(cfg).to(d)``), used only to choose between owners of an ambiguous method."""
    t = type(node)
    if t is cst.Name:
        return node.value  # type: ignore[attr-defined, no-any-return]
    if t is cst.Attribute:
        return node.attr.value  # type: ignore[attr-defined, no-any-return]
    if t is cst.Call:
        func = _hint(node.func)  # type: ignore[attr-defined]
        args = node.args  # type: ignore[attr-defined]
        if func in ("copy", "deepcopy") and args:
            return _hint(args[0].value)  # deepcopy(model).eval(): the copy is what it copies
        return func
    if t is cst.IfExp:
        return _hint(node.body)  # type: ignore[attr-defined]
    return ""


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


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    out: list[cst.Param] = [*params.posonly_params, *params.params]
    if isinstance(params.star_arg, cst.Param):
        out.append(params.star_arg)
    out.extend(params.kwonly_params)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out


def _dotted(node: cst.BaseExpression) -> str:
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute:
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


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
    if result[0] == "seq":
        result = element(result)
    values = result if result[0] == "tensor" else TENSOR
    # indices have the values' shape: data-dependent too after topk(k read from data)
    return ("tuple", (values, DYN_TENSOR if values == DYN_TENSOR else TENSOR))


def _through_dunder(q: str) -> bool:
    """`torch.__version__`, `torch.__version__.split`: module metadata, not an API."""
    return any(_is_dunder(part) for part in q.split(".")[1:])


def _is_dunder(part: str) -> bool:
    return len(part) > 4 and part.startswith("__") and part.endswith("__")


def _nontorch(_node: cst.CSTNode) -> Val:
    return NONTORCH


def _noop(_node: cst.CSTNode) -> None:
    return None
