"""Bindings and scopes: names, imports, and the scopes functions, classes and
comprehensions open.

Python binds names in source order, per scope; this part keeps the walker's scope stack and
alias tables (``import torch.nn as nn``, ``from .layers import Conv``, ``Conv = nn.Conv2d``)
so that a later ``Conv(...)`` resolves to the torch API it stands for. It owns name lookup
(LEGB with class scopes skipped, module names as they stand after the module ran: the
pre-pass), import resolution (relative imports, star imports, re-exports of the repository),
whether the file handles PyTorch objects at all (``says_torch``), and the definitions:
decorators, parameter annotations and defaults, binding a function's parameters (``self``,
a ``forward``'s tensors, the solver's facts), function and class bodies with their summaries,
lambdas and comprehensions (whose loop variables are learnt silently before the element is
visited, as Python evaluates them).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import libcst as cst

from apiscan.extract.facts import fresh
from apiscan.extract.interp.base import (
    LAYER,
    ClassInfo,
    Scope,
    _carries_data,
    _const_str,
    _join_all,
    _returns,
)
from apiscan.extract.records import NO_GRAD_CONTEXTS, RETURNS
from apiscan.extract.shapes import (
    from_tensor,
    host_dyn,
    is_dyn_tensor,
    is_host_dyn,
    sized_by_tensor,
)
from apiscan.program import values as pv
from apiscan.resolve.owners import TENSOR_CLASSES
from apiscan.resolve.values import (
    ARG_TENSOR,
    BUILTIN_NAMES,
    NON_TORCH_BUILTINS,
    NONTORCH,
    PTENSOR,
    SEQ_BUILTINS,
    TENSOR,
    UNKNOWN,
    Val,
    inst,
    qual,
    seq,
)

_DEFER: Val = ("defer", None)  # module-level name assigned by an expression: look it up live

#: Other tensor frameworks: a file importing one (and no torch) holds no torch objects.
FOREIGN_FRAMEWORKS = frozenset({"megengine", "paddle", "tensorflow", "jax", "mindspore", "oneflow"})


class ScopesMixin:
    """Name lookup, imports and the scopes of definitions; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

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

    def unimported_module(self, name: str) -> bool:
        """Whether ``name`` is a standard-library module's name that nothing this walk can see
        binds: no scope, no module-level statement, no builtin, no star import of unknown
        names (``math.sqrt(n)`` in a file that never imports ``math``: no tensor a method
        could be read on). Only module names: a name bound later, by a statement the walk
        has not reached (a ``global`` in another function), may well hold a tensor."""
        return (
            name in sys.stdlib_module_names
            and not self.blind_star
            and name not in self.late
            and name not in BUILTIN_NAMES
            and all(name not in s.names for s in self.scopes)
        )

    def bind(self, name: str, v: Val) -> None:
        self.scopes[-1].names[name] = v

    def _current_class(self) -> ClassInfo | None:
        for s in reversed(self.scopes):
            if s.cls is not None:
                return s.cls
        return None

    def _own_class(self, cls: str) -> ClassInfo | None:
        prefix = self.module_name + "."
        if cls.startswith(prefix):
            return self.classes.get(cls[len(prefix) :])
        return None

    def _import(self, node: cst.Import) -> None:
        for name, v in self._import_bindings(node):
            self.bind(name, v)

    def _importfrom(self, node: cst.ImportFrom) -> None:
        for name, v in self._import_bindings(node):
            self.bind(name, v)

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
        if type(node) is cst.Import:
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
        if type(node.names) is cst.ImportStar:
            if self._is_torch(module):
                names = self.api.star_exports(self.api.canonical(module) or module) or ()
                out.extend((n, qual(f"{module}.{n}")) for n in sorted(names))
            elif self._is_local(module):
                prefix = module + "."
                for key, target in self.reexports.items():
                    rest = key[len(prefix) :] if key.startswith(prefix) else ""
                    # (a name the module imported from this one, ``from pkg.nat import
                    # Base`` star-imported back into ``pkg.nat``: the same object, so this
                    # module's earlier binding stands)
                    if (
                        rest
                        and "." not in rest
                        and not rest.endswith(RETURNS)
                        and target != f"{self.module_name}.{rest}"
                    ):
                        out.append((rest, qual(target)))
                self.local_refs.add(module + ".*")
            else:
                self.blind_star = True
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
                    if type(small) is cst.Import or type(small) is cst.ImportFrom:
                        self.silent += 1
                        try:
                            for name, v in self._import_bindings(small):
                                self.late[name] = v
                        finally:
                            self.silent -= 1
                    elif type(small) is cst.Assign:
                        for tgt in small.targets:
                            if type(tgt.target) is cst.Name:
                                self.late[tgt.target.value] = _DEFER
            elif t is cst.FunctionDef:
                self.late[s.name.value] = ("func", s.name.value)
            elif t is cst.ClassDef:
                self.late[s.name.value] = ("class", s.name.value)
                self.late_bases[s.name.value] = s.bases
            elif t is cst.Try:
                self._prepass_try(s)
            elif t in (cst.If, cst.With):
                inner: list[cst.BaseStatement] = list(s.body.body)
                if t is cst.If and s.orelse is not None and isinstance(s.orelse, cst.Else):
                    inner.extend(s.orelse.body.body)
                stack.extend(reversed(inner))

    def _prepass_try(self, node: cst.Try) -> None:
        """A module-level ``try:`` for :meth:`_prepass`: its body, then its handlers, whose
        fallback must not hide a torch name the body imports (``try: from torch.cuda.amp
        import GradScaler`` / ``except: class GradScaler: ...`` for old versions): with torch
        installed the import is what runs, as :meth:`_try` keeps it for the module's own
        statements. A name the body assigns (``autocast = torch.cuda.amp.autocast``) stays
        looked up live, where :meth:`_try` has kept the torch value."""
        before = dict(self.late)
        self._prepass(node.body.body)
        kept = {
            name: v
            for name, v in self.late.items()
            if before.get(name) != v and (v is _DEFER or (v[0] == "qual" and self._is_torch(v[1])))
        }
        for h in node.handlers:
            self._prepass(h.body.body)
        self.late.update(kept)

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
                if _plain_type(p.annotation.annotation):
                    hint = PLAIN  # ``use_cache: bool | None``: never a tensor (see PLAIN)
                hint = hint or self._container_hint(p.annotation.annotation)
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
    ) -> list[tuple[str, str, Val, bool, bool]]:
        """Bind the parameters; returns (name, kind, value declared here, has default, the
        default is ``None``) for the function's summary. ``qn`` (None for lambdas) is the
        function's qualname: the solver's facts for its parameters, when it has some,
        replace what is known here."""
        all_params = _all_params(params)
        positional = [*params.posonly_params, *params.params]
        first = positional[0] if positional and cls is not None and not is_static else None
        forward = cls is not None and fname in ("forward", "__call__")
        module_kind = self._module_kind(cls) if forward and cls is not None else None
        kinds = _param_kinds(params)
        out: list[tuple[str, str, Val, bool, bool]] = []
        for p in all_params:
            name = p.name.value
            hint = hints.get(name)
            if p is first and cls is not None:
                self.bind(name, inst(f"{self.module_name}.{cls.qualname}"))
                out.append((name, kinds[name], UNKNOWN, False, False))
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
            default_none = type(p.default) is cst.Name and p.default.value == "None"
            out.append((name, kinds[name], v, p.default is not None, default_none))
            if qn is not None:
                f = self.env.get(f"p:{self.module_name}.{qn}:{name}")
                if f == pv.NONE:
                    # no caller passes it: ``None``, which only the branches testing it read
                    # (what its uses say of its type, in code that never runs, stays)
                    v = fresh(v[0], v[1])
                    self.nones[id(v)] = v
                elif f is not None and not (v[0] == LAYER and not pv.is_informative(f)):
                    if forward and module_kind is not False and type(f) is pv.Tensor and f.code:
                        # a network's input is the data it is trained on, whatever a warm-up,
                        # summary or export call passes (``net(torch.zeros(1, 3, 8, 8))``):
                        # the code's own values do not travel into a ``forward``
                        f = replace(f, code=False)
                    v = self._supplied(f, f"`{name}`", qn, f'`{name}["{{1}}"]`')
                    if hint is PLAIN and v[0] == "tensor":
                        v = NONTORCH  # a join over callers that one of them got wrong
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
            self._type_comment_hints(node, hints, cls is not None and not is_static)
            if node.returns is not None:
                self._annotation(node.returns.annotation)
        finally:
            self.func_stack.pop()
        if cls is not None:
            cls.methods.add(fname)
        qn = ".".join([*self.func_stack, fname])
        self.bind(fname, ("func", qn))
        if not self.silent:
            no_grad = any(d[0] in ("inst", "qual") and d[1] in NO_GRAD_CONTEXTS for d in decos)
            self.function_facts.append((qn, cls.qualname if cls is not None else "", node, no_grad))
        self.scopes.append(Scope("function", {}))
        self.func_stack.append(fname)
        self.returns.append([])
        self.yields.append([])
        self.pending_branches.append([])
        bound = cls is not None and not is_static
        self.walked_defs.append(node)
        try:
            params = self._bind_params(node.params, hints, cls, fname, is_static, qn)
            self._block(node.body)
        finally:
            self.walked_defs.pop()
            found = self.returns.pop()
            passed = self._passed_elements(qn, self.yields.pop())
            if passed is not None:
                found = [seq(passed)]
            for test, body_returns, start in self.pending_branches.pop():
                self.shapes.on_branches(test, [(a, b) for a in body_returns for b in found[start:]])
            self.shapes.end_function(self._function())
            self.func_stack.pop()
            self.scopes.pop()
        result = _join_all(found) if found else NONTORCH
        self._note_passthrough(qn, node, cls is not None, params)
        if not self.silent:
            self.summaries.append(
                (qn, cls.qualname if cls is not None else "", params, bound, found or [NONTORCH])
            )
        if cls is not None:
            cls.returns[fname] = result
        else:
            self.func_returns[qn] = result
        if _returns_truths(node):
            self.predicates.add(qn)

    def _passed_elements(self, qn: str, yielded: list[Val]) -> Val | None:
        """What a generator that passes the elements of one of its parameters through
        (``for obj in iterable: ... yield obj``: a logger, a prefetcher wrapping a loader)
        yields: those elements (``param_elements``), which its callers' loops get; None
        for any other function (a generator computing what it yields says nothing here)."""
        if not yielded:
            return None
        sources = set()
        for y in yielded:
            entry = self.param_elements.get(id(y))
            if entry is None or entry[0] is not y or entry[1] != qn or entry[3] != "iter":
                return None
            sources.add(entry[2])
        return yielded[0] if len(sources) == 1 else None

    def _classdef(self, node: cst.ClassDef) -> None:
        self._decorators(node.decorators)
        bases: list[Val] = []
        # bases belong to the class (its scope: ``nn.Module`` of a network layer is network)
        self.func_stack.append(node.name.value)
        try:
            for arg in node.bases:
                v = self.value(arg.value, "base_class")
                if type(arg.value) is cst.Subscript and v[0] not in ("qual", "class"):
                    # ``Sampler[List[int]]``, ``Generic[T]``: a subscripted generic's base is
                    # its origin (walked again silently: its uses are counted once)
                    self.silent += 1
                    try:
                        v = self.value(arg.value.value)
                    finally:
                        self.silent -= 1
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

    def _comp_for(self, cf: cst.CompFor) -> bool:
        """Bind a comprehension's loop variables; True when an ``if`` of it reads tensor
        data, or it iterates host data as long as data says (the result's length is then
        decided by data)."""
        binder = self.target(cf.target)
        it = self.value(cf.iter)
        self.shapes.on_loop(cf.iter, it, "comprehension's for")
        self._bind_loop(binder, it, cf.iter)
        filtered = sized_by_tensor(it)
        for cif in cf.ifs:
            if self.shapes.on_condition(cif.test, self.value(cif.test), "comprehension's if"):
                filtered = True
                self._comp_tensor = True  # kept by a test on tensor data
        if filtered:
            self._comp_tensor = True
        if cf.inner_for_in is not None:
            filtered = self._comp_for(cf.inner_for_in) or filtered
        return filtered

    def _bind_loop(
        self, binder: tuple[Any, ...], it: Val, node: cst.BaseExpression | None = None
    ) -> None:
        """Bind a loop's target to the elements of ``it``. An element of a sequence that is
        not a tensor (or not known to be one: a parameter) is one sample of a batch kept as
        a list (``for t in targets``): it, and the fields read from it, have their own
        shapes (:meth:`ShapeTracker.sample`). ``node``, the loop's iterable: ``for i in
        range(len(targets))`` walks the same elements by position (see
        :meth:`_indexed_sample`)."""
        self.bind_target(binder, self._element(it))
        walked = _walked_by_position(node) if node is not None else None
        if walked is not None and binder[0] == "name" and self._element(it) in (NONTORCH, UNKNOWN):
            index = fresh("nontorch", None)  # named by identity: this loop's position
            self.index_loops[id(index)] = (index, walked, self.lookup(walked))
            self.scopes[-1].names[binder[1]] = index
        for name in _bound_names(binder):
            v = self.scopes[-1].names.get(name)
            if v is not None:
                self.scopes[-1].names[name] = self._as_sample(it, v)

    def _as_sample(self, it: Val, v: Val) -> Val:
        """``v``, an element of ``it``, as one sample of a batch when ``it`` may be a list of
        samples (not a tensor known as such, whose rows all have one shape), else ``v``."""
        kind = it[0]
        if kind not in ("unknown", "seq", "tuple", "tensor", "ret") or is_dyn_tensor(it):
            return v
        if kind == "builtin" or (kind == "tensor" and it[1] is True):
            return v
        if v[0] == "unknown" or (v[0] == "tensor" and v[1] not in ("dyn", "bool")):
            return self._keep_source(v, self.shapes.sample(v, False))
        return v

    def _indexed_sample(self, node: cst.Subscript, recv: Val, index: Val) -> Val | None:
        """``targets[i]`` inside ``for i in range(len(targets))``, ``targets`` unchanged
        since: the element the loop is at, a sample as ``for t in targets`` binds one
        (None when ``node`` is no such read)."""
        entry = self.index_loops.get(id(index))
        if entry is None or entry[0] is not index or len(node.slice) != 1:
            return None
        base = node.value
        if type(base) is not cst.Name or base.value != entry[1] or recv is not entry[2]:
            return None
        element = self._element(recv)
        sample = self._as_sample(recv, element)
        return sample if sample is not element else None

    def _comprehension(
        self, elts: Sequence[cst.BaseExpression], for_in: cst.CompFor, held: int = 0
    ) -> Val:
        """What a comprehension builds, as a sequence of what its ``held``-th expression
        gives (a dict comprehension's values are its second)."""
        self.scopes.append(Scope("comp", {}))
        try:
            self.silent += 1
            try:
                self._comp_for(for_in)  # learn the loop variables' types first
            finally:
                self.silent -= 1
            vals = [self.value(e) for e in elts]
            outer, self._comp_tensor = getattr(self, "_comp_tensor", False), False
            filtered = self._comp_for(for_in)
            tensor, self._comp_tensor = self._comp_tensor, outer
        finally:
            self.scopes.pop()
        if filtered and is_host_dyn(vals[held]) and vals[held][0] in ("nontorch", "seq"):
            # ``[np.unravel_index(row.data, shape) for row in rows]`` of rows as many as the
            # data says, each as long as it says: arrays of such lengths, as many as that
            return host_dyn(for_in, vals[held], tensor or from_tensor(vals[held]))
        if filtered and vals[held][0] in ("nontorch", "unknown"):
            # ``[i for i, s in enumerate(scores.tolist()) if s > t]``: host numbers, as many
            # as the data says
            return host_dyn(for_in, tensor=tensor)
        return seq(vals[held])

    def _listcomp(self, node: cst.ListComp | cst.SetComp | cst.GeneratorExp) -> Val:
        v = self._comprehension([node.elt], node.for_in)
        return NONTORCH if type(node) is cst.SetComp else v

    def _dictcomp(self, node: cst.DictComp) -> Val:
        """``{k + "0": v for k, v in pred.items()}``: a dict whose keys the code computes,
        each mapped to what the value expression gives. Kept when that value is a tensor or
        carries data (what a merge of it hands on, :func:`merge_dicts`); any other dict
        stays a plain host value."""
        built = self._comprehension([node.key, node.value], node.for_in, held=1)
        renamed = self._renamed_entries(node)
        if renamed is not None:
            return renamed
        value = self._element(built) if built[0] == "seq" else UNKNOWN
        if value[0] == "tensor" or _carries_data(value):
            return ("dict", ((None, value),))
        return NONTORCH

    def _renamed_entries(self, node: cst.DictComp) -> Val | None:
        """``{k + "0": v for k, v in pred.items()}`` (``prefix + k``, ``f"{k}_0"``, ``k``) over
        a dict whose keys are known: the same entries under the keys the expression makes of
        them, each with its own value (the keypoints stay apart from the descriptors); None
        for any other comprehension."""
        comp = node.for_in
        if comp.ifs or comp.inner_for_in is not None or type(comp.target) is not cst.Tuple:
            return None
        names = [el.value for el in comp.target.elements]
        it = comp.iter
        if (
            len(names) != 2
            or not all(type(n) is cst.Name for n in names)
            or type(node.value) is not cst.Name
            or node.value.value != names[1].value  # type: ignore[attr-defined]
            or type(it) is not cst.Call
            or it.args
            or type(it.func) is not cst.Attribute
            or it.func.attr.value != "items"
            or type(it.func.value) is not cst.Name
        ):
            return None
        source = self.lookup(it.func.value.value)
        if source[0] != "dict":
            return None
        rename = _key_rename(node.key, names[0].value)  # type: ignore[attr-defined]
        if rename is None:
            return None
        return ("dict", tuple((None if k is None else rename(k), e) for k, e in source[1]))


def _key_rename(key: cst.BaseExpression, name: str) -> Callable[[str], str] | None:
    """How the key expression of a dict comprehension renames the loop's key ``name``:
    ``k``, ``k + "0"``, ``"pre_" + k``, ``f"{k}0"``; None for any other expression."""
    if type(key) is cst.Name and key.value == name:
        return lambda k: k
    if type(key) is cst.BinaryOperation and type(key.operator) is cst.Add:
        left, right = key.left, key.right
        if type(left) is cst.Name and left.value == name:
            text = _const_str(right)
            return None if text is None else (lambda k: k + text)
        if type(right) is cst.Name and right.value == name:
            text = _const_str(left)
            return None if text is None else (lambda k: text + k)
        return None
    if type(key) is cst.FormattedString:
        parts: list[str | None] = []
        for p in key.parts:
            if type(p) is cst.FormattedStringText:
                parts.append(p.value)
            elif (
                type(p) is cst.FormattedStringExpression
                and type(p.expression) is cst.Name
                and p.expression.value == name
                and p.format_spec is None
                and p.conversion is None
            ):
                parts.append(None)
            else:
                return None
        return lambda k: "".join(k if p is None else p for p in parts)
    return None


#: The hint of a parameter annotated with plain Python types (``flag: bool``, ``n: int |
#: None``, ``Optional[float]``): a host value. The solver's join over the callers may still
#: say "tensor" (one caller's argument was guessed one, or a keyword of the same name passed
#: through ``**kwargs``); the annotation is the function's own word and wins over that guess,
#: not over a number read from data (a host number that ``n: int`` may well receive).
PLAIN: Val = fresh("nontorch", None)
_PLAIN_NAMES = frozenset({"bool", "int", "float", "str", "None", "bytes", "complex"})


def _plain_type(node: cst.BaseExpression) -> bool:
    """``bool``, ``int | None``, ``Optional[bool]``, ``Union[int, float]``: plain types only."""
    t = type(node)
    if t is cst.Name:
        return node.value in _PLAIN_NAMES  # type: ignore[attr-defined]
    if t is cst.BinaryOperation and type(node.operator) is cst.BitOr:  # type: ignore[attr-defined]
        return _plain_type(node.left) and _plain_type(node.right)  # type: ignore[attr-defined]
    if t is cst.Subscript and _dotted(node.value).rpartition(".")[2] in ("Optional", "Union"):  # type: ignore[attr-defined]
        return all(
            type(el.slice) is cst.Index and _plain_type(el.slice.value)
            for el in node.slice  # type: ignore[attr-defined]
        )
    return False


def _walked_by_position(node: cst.BaseExpression) -> str | None:
    """``X`` of ``range(len(X))`` (a plain name), else None."""
    if type(node) is not cst.Call or len(node.args) != 1:
        return None
    if type(node.func) is not cst.Name or node.func.value != "range":
        return None
    inner = node.args[0].value
    if type(inner) is not cst.Call or len(inner.args) != 1:
        return None
    if type(inner.func) is not cst.Name or inner.func.value != "len":
        return None
    seq = inner.args[0].value
    return seq.value if type(seq) is cst.Name else None


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
    if type(params.star_arg) is cst.Param:
        kinds[params.star_arg.name.value] = "star"
    kinds.update((p.name.value, "kwonly") for p in params.kwonly_params)
    if params.star_kwarg is not None:
        kinds[params.star_kwarg.name.value] = "starstar"
    return kinds


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    out: list[cst.Param] = [*params.posonly_params, *params.params]
    if type(params.star_arg) is cst.Param:
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


def _truth(expr: cst.BaseExpression | None) -> bool:
    """An expression whose value is a truth: a comparison, ``not``, ``and``/``or`` of truths,
    ``True``/``False`` (in parentheses or not)."""
    kind = type(expr)
    if kind is cst.Comparison:
        return True
    if kind is cst.Name:
        return expr.value in ("True", "False")
    if kind is cst.UnaryOperation:
        return type(expr.operator) is cst.Not
    if kind is cst.BooleanOperation:
        return _truth(expr.left) and _truth(expr.right)
    return False


def _returns_truths(node: cst.FunctionDef) -> bool:
    """Whether every ``return`` of a function gives a truth (:func:`_truth`), and it has one."""
    found = _returns(node.body)
    return bool(found) and all(_truth(r.value) for r in found)
