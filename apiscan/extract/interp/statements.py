"""Statements and assignment targets: the order in which a body runs.

One handler per statement kind (dispatched through ``Extractor._stmt``): assignments bind the
targets to the value's kind (an alias is not a use, ``self.x = None`` erases nothing),
``if``/``while`` hand their tests to the shape tracker and record what a data-dependent branch
makes differ, ``try`` keeps a torch import its ``except`` replaces, ``with`` binds what a
context manager yields, ``match`` binds its capture patterns. Assignment targets are visited
(and counted for the position mapping) before the value is bound to them, unpacking tuples
element by element.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import libcst as cst

from apiscan.extract.interp.base import ATTR, NAME, REFERENCES, _carries_data, _root_name
from apiscan.extract.shapes import MAYBE_RAND, RAND, is_dyn_number, takes_tensor_only
from apiscan.extract.tree import children_of, descendants
from apiscan.resolve.values import NONTORCH, UNKNOWN, Val, element, seq, wrapped_model

#: Builtin types an ``isinstance`` test may narrow a name to (never a tensor).
_BUILTIN_TYPES = frozenset({"dict", "list", "tuple", "str", "int", "float", "bool", "set"})
#: Those of them that are sequences (a list of images stays one inside the ``if``).
_SEQUENCE_TYPES = frozenset({"list", "tuple"})


class StatementsMixin:
    """Statement handlers and assignment targets; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

    def stmt(self, node: cst.CSTNode) -> None:
        h = self._stmt.get(type(node))
        if h is not None:
            h(node)
        else:
            self._generic(node)

    def _block(self, node: cst.BaseSuite) -> None:
        handlers = self._stmt
        for s in node.body:
            h = handlers.get(type(s))  # :meth:`stmt`, inlined
            if h is not None:
                h(s)
            else:
                self._generic(s)

    _simple_line = _block  # a line's small statements, as a block's statements

    def _expr_stmt(self, node: cst.Expr) -> None:
        self.value(node.value)

    def _assign(self, node: cst.Assign) -> None:
        self.shapes.defer_stores = True  # ``x[mask] = v``: the rule needs v (settle_stores)
        binders = [self.target(t.target) for t in node.targets]
        self.shapes.defer_stores = False
        value = node.value
        if (
            type(value) in REFERENCES
            and self.scopes[-1].kind != "class"
            and all(b[0] == "name" for b in binders)
        ):
            v = self.expr(value)  # an alias (Conv = nn.Conv2d): its later uses are reported
        else:
            v = self.value(value)
        if type(value) in (cst.Subscript, cst.Call):
            named = [t.target.value for t in node.targets if type(t.target) is cst.Name]
            if type(value) is cst.Subscript:
                # ``cropped = image[y : y + h, x : x + w]``: ``cropped`` holds the cut sample
                self.shapes.bind_cut(value, named)
            else:
                # ``out = F.interpolate(out, size=(h0, w0))``: ``out`` is back to one size
                self.shapes.restored(value, named)
        same = any(_same_mask_store(t.target, value) for t in node.targets)
        # ``w[mask] = cfg.WEIGHTS[0]``: one item read by a literal position of a value not
        # known to be a tensor is one value (or one row), never one row per selected position
        computed = type(value) in (cst.Subscript, cst.Call) and not _literal_item(value)
        self.shapes.settle_stores(v, computed, same)
        if v[0] == "tensor" and len(node.targets) == 1 and _concat_args(value) is not None:
            self._growth(node, node.targets[0].target, value)  # type: ignore[arg-type]
        if v[0] == "tensor":  # ``mask[:] = scores > t``: a constant mask now holds data
            for t in node.targets:
                if type(t.target) is cst.Subscript:
                    root = _root_name(t.target)
                    if root is not None and self._is_const_mask(self.lookup(root)):
                        self._mask_holds_data(t.target)
        # ``self.x = None`` says "nothing yet", not "not a tensor": another method (or a
        # later line) gives x its value, and the last write seen must not erase what it is
        none = type(value) is cst.Name and value.value == "None"
        for b in binders:
            self.bind_target(b, UNKNOWN if none and b[0] == "attr" else v)
        for t in node.targets:
            if type(t.target) is cst.Subscript and type(t.target.value) is cst.Name:
                holder = t.target.value
                self._collect_item(holder, self.lookup(holder.value), v)  # ``out[i] = x[keep]``
        if v == RAND:
            for t in node.targets:
                root = _root_name(t.target) if type(t.target) is cst.Subscript else None
                if root is not None:
                    self.random_filled.add((self._function(), root))

    def _growth(self, node: cst.Assign, target: cst.BaseExpression, value: cst.Call) -> None:
        """``out = torch.cat((out, sample[:, None]), dim=-1)`` in a decoding loop, ``k =
        torch.cat([k_top, k], dim=-2)`` of ``k_top`` read from a cache the function writes
        ``k`` back to: a tensor joined with its own previous value grows by a step each
        iteration or each call, so no two steps see one shape (DS122). A loop over the
        steps (``range``, ``while``) counts, not one over layers or items (a dense block's
        channels, fixed once the graph is unrolled); a name bound afresh in each iteration
        before the join, or a store under the loop's own index, starts again each time."""
        if not self.walked_defs or self.silent:
            return
        func = self.walked_defs[-1]
        parts = _concat_args(value) or []
        written = _code(target)
        loop = self.walked_loops[-1] if self.walked_loops else None
        if (
            type(target) is cst.Name
            and loop is not None
            and loop[0] == len(self.walked_defs)
            and _steps_loop(loop[1])
            and any(_code(p) == written for p in parts)
            and not _bound_before(loop[1].body, target.value, node)
        ):
            detail = f"`{written}` grows by a concatenation on every step of the loop"
            self.shapes.hit("DS122", value, api="torch.cat", detail=detail)
            return
        if func.name.value == "__init__":
            return  # built once with the object, not grown call after call
        kept = _kept_between_calls(func)
        reads = self._kept_reads(func, kept) if any(type(p) is cst.Name for p in parts) else {}
        for p in parts:
            place = _code(p) if _is_kept(p, kept) else reads.get(_code(p))
            if place is None:
                continue
            stored_back = place == written or _stores_back(func, place, written)
            if stored_back and _converted_once(func, node, place):
                return  # joined only while the old shape holds: it grows once, not per call
            if stored_back:
                detail = (
                    f"`{place}` keeps the previous calls' tensor and grows by this "
                    "concatenation on each call (a cache of past steps)"
                )
                self.shapes.hit("DS122", value, api="torch.cat", detail=detail)
                return

    def _kept_reads(self, func: cst.FunctionDef, kept: frozenset[str]) -> dict[str, str]:
        """:func:`_reads_of_kept` of ``func``, read once per walk of it: a function of many
        joins (a detector's head) would otherwise be visited again for each."""
        cache = self.kept_reads
        hit = cache.get(id(func))
        if hit is None or hit[0] is not func:
            hit = (func, _reads_of_kept(func, kept))
            cache[id(func)] = hit
        return hit[1]

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
            elif old == NONTORCH and new[0] == "unknown":
                # ``loss = 0`` then ``loss += v["loss"]``: the sum is what was added (a
                # tensor, once a loss is), no longer the number it started from
                self.bind(t.value, new)
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
        test = self.value(node.test)
        # ``if x.shape[-1] != T: raise ValueError(...)`` is an ``assert`` written out: the
        # graph does not branch (what follows runs on the one path that does not raise), and
        # an ``assert`` is no DS116 either
        guard = node.orelse is None and _only_raises(node.body)
        dynamic = not guard and self.shapes.on_condition(node.test, test, "if")
        names = self.scopes[-1].names
        returns: list[Val] = self.returns[-1] if self.returns else []
        before, start = dict(names), len(returns)
        narrowed, listed = _narrowed_to_builtin(node.test)
        if (
            narrowed is not None
            and narrowed in names
            and (listed and names[narrowed][0] != "tensor")
        ):
            # `if isinstance(images, (tuple, list)):` — a list it may already be known as (a
            # batch's images, whose sizes padding reads): it stays what it is
            narrowed = None
        if narrowed is not None and narrowed in names:
            # `if isinstance(out, dict):` — inside, `out` is a dict, not the tensor it was
            # guessed to be (a model returning a dict of losses).
            names[narrowed] = NONTORCH
        self.shapes.enter_if(dynamic, node.body)
        given = _none_guard(node.test)
        guarded = self.lookup(given[0]) if given is not None else None
        never = guarded is not None and self.nones.get(id(guarded)) is guarded
        hits = self.shapes.hit_count()
        self._walk_branch(node.body, never and given is not None and given[1])
        if narrowed is not None and names.get(narrowed) is NONTORCH and narrowed in before:
            names[narrowed] = before[narrowed]
        if never and given is not None and given[1]:
            # ``if mask is not None:`` with ``mask`` left to ``None`` by every call: the body
            # never runs, nothing it binds or returns survives (its findings are not reported)
            names.clear()
            names.update(before)
            del returns[start:]
        elif (
            guarded is not None
            and given is not None
            and given[1]
            and self.shapes.hit_count() > hits
        ):
            # a finding behind a test of a parameter against ``None``: walk again should the
            # solver find no caller passes it
            self._sensitive(guarded)
        if self._never_a_tensor(node.test):
            # ``if isinstance(n, torch.Tensor): k = torch.clamp(n, max=t)`` with ``n`` a
            # shape's length (an int in eager mode, a tensor only under tracing): the body
            # never runs, so nothing it binds survives (its calls are still reported)
            names.clear()
            names.update(before)
        after_body, middle = dict(names), len(returns)
        orelse = node.orelse
        # the ``else`` (or ``elif``) runs instead of the body: it reads what the names held
        # before the ``if`` (``elif anchors.dim() == 3: anchors = anchors[:, :, :4]`` reads
        # the argument, not the body's reshaped copy); a name only the body rebinds is the
        # body's after the ``if``, as the last walk left it before
        rebound = [k for k, v in before.items() if names.get(k) is not v]
        if orelse is not None:
            for name in rebound:
                names[name] = before[name]
        dead_else = never and given is not None and not given[1]
        hits = self.shapes.hit_count()
        if dead_else:
            self.dead += 1
        try:
            if type(orelse) is cst.If:
                self._if(orelse)
            elif orelse is not None:
                self._block(orelse.body)
        finally:
            if dead_else:
                self.dead -= 1
        if dead_else and orelse is not None:
            # ``if mask is None: ... else:`` with ``mask`` always ``None``: the ``else``
            # never runs
            names.clear()
            names.update(after_body)
            del returns[middle:]
        elif orelse is not None and type(orelse) is not cst.If:
            if guarded is not None and given is not None and self.shapes.hit_count() > hits:
                self._sensitive(guarded)  # ``if x is None: ... else: <finding>``, as above
            for name in _set_to_none(orelse.body):
                if name in after_body and after_body[name][0] not in ("nontorch", "unknown"):
                    names[name] = after_body[name]  # ``else: x = None``: x is the other's
        if orelse is not None:
            for name in rebound:
                if names.get(name) is before[name] and name in after_body:
                    names[name] = after_body[name]
        if orelse is None:
            self._keep_variable(before, names)
        # what each path left, for the pairs a data-dependent condition compares
        walked_last = dict(names)
        if orelse is not None:
            # ``if nt: t = t[j]`` / ``else: t = targets[0]``: after the ``if`` the name holds
            # either branch's value; one whose shape depends on data is kept
            self._keep_variable(after_body, names, rebound=before)
        self.shapes.keep_collections(names, [after_body] if orelse else [before, after_body])
        self.shapes.leave_if(dynamic)
        if not dynamic:
            return
        body_returns = returns[start:middle]
        if orelse is None and body_returns and self.pending_branches:
            # `if cond: return a` then `return b` later: the rest of the function is the else
            # (compared when the function ends: not from a branch that never runs)
            if not self.dead:
                self.pending_branches[-1].append((node.test, body_returns, len(returns)))
            return
        pairs = [(a, b) for a in body_returns for b in returns[middle:]]
        for name, v in after_body.items():
            other = walked_last.get(name)
            if before.get(name) is not v and other is not None and v is not other:
                pairs.append((v, other))
        self.shapes.on_branches(node.test, pairs)

    def _walk_branch(self, body: cst.BaseSuite, never: bool) -> None:
        """Walk ``body``; one that ``never`` runs with its dynamic-shape findings unreported
        (its API uses stay: the code is there to port all the same)."""
        if never:
            self.dead += 1
        try:
            self._block(body)
        finally:
            if never:
                self.dead -= 1

    def _never_a_tensor(self, test: cst.BaseExpression) -> bool:
        """``test`` asks whether a name is a tensor (``isinstance(n, torch.Tensor)``,
        ``torch.is_tensor(n)``) and the name is known to hold a host value (a length read
        from a shape, a number, an array): the test is false whenever the code runs eagerly."""
        return self._tensor_test(test) is False

    def _tensor_test(self, test: cst.BaseExpression) -> bool | None:
        """What ``test`` gives when it asks whether a name is a tensor (``isinstance(n,
        torch.Tensor)``, ``torch.is_tensor(n)``): False when the name is known to hold a host
        value, True when it is known to hold a tensor (one its callers pass: ``y = x.clone()
        if isinstance(x, torch.Tensor) else np.copy(x)`` is the clone), None when unknown or
        when ``test`` asks something else."""
        name = self._tensor_tested(test)
        if name is None:
            return None
        held = self.lookup(name)
        if held[0] == "nontorch":
            return False
        if held[0] == "tensor" and held[1] not in (False, "arg"):
            return True  # neither guessed from a method name nor a forward argument (an int?)
        return None

    def _tensor_tested(self, test: cst.BaseExpression) -> str | None:
        """The name ``test`` asks to be a tensor (``isinstance(n, torch.Tensor)``,
        ``torch.is_tensor(n)``), else None."""
        name = _tensor_test_subject(test)
        if name is None:
            return None
        func = test.func  # type: ignore[attr-defined]
        if type(func) is cst.Name and func.value == "isinstance":
            kind = test.args[1].value  # type: ignore[attr-defined]
            dotted = (
                type(kind) is cst.Attribute
                and kind.attr.value == "Tensor"
                and type(kind.value) is cst.Name
                and self.lookup(kind.value.value) == ("qual", "torch")
            )
            bare = type(kind) is cst.Name and self.lookup(kind.value) == ("qual", "torch.Tensor")
            if not (dotted or bare):
                return None
        elif not (
            type(func) is cst.Attribute
            and type(func.value) is cst.Name
            and self.lookup(func.value.value) == ("qual", "torch")
        ):
            return None
        return name

    def _keep_variable(
        self, before: dict[str, Val], names: dict[str, Val], rebound: dict[str, Val] | None = None
    ) -> None:
        """After an ``if`` without ``else``, a name the body rebound to a host value or to
        something unknown may still hold what it held before: a tensor or a number read from
        data is kept, as the solver's joins keep "may depend on data" (``n = counts.max()``
        then ``if mps: n = 1 << ...``: ``n`` sizes a tensor either way). With ``rebound``
        (the names before an ``if`` with an ``else``), ``before`` is what the body left and
        only a name the body itself rebound is kept over what the ``else`` gave it. An
        instance of a known class rebound to something unknown is kept too, as the solver's
        join keeps it: ``optimizer = get_optimizer(...)`` then ``if opt.load_model: model,
        optimizer, epoch = load_model(model, path, optimizer)`` (a helper of another file
        handing the optimizer back) still passes a torch optimizer to ``Trainer(model,
        optimizer)``."""
        for name, old in before.items():
            new = names.get(name)
            if rebound is not None and rebound.get(name) is old:
                continue
            if new is None or new is old:
                continue
            if (
                (new[0] == "unknown" or new == NONTORCH)
                and ((old[0] == "tensor" and old[1] != "arg") or is_dyn_number(old))
            ) or (new[0] == "tensor" and takes_tensor_only(old) and not takes_tensor_only(new)):
                # (a tensor of a data-dependent shape, or a mask, over a plain tensor the
                # other path gives: the join keeps "may depend on data")
                names[name] = old
            elif new[0] == "unknown" and old[0] == "inst":
                names[name] = old
            elif wrapped_model(new, old) is not None:
                # ``if ddp: model = DDP(model)``: the wrapper runs the model, which the name
                # holds on either path (a call through it is the model's ``forward``)
                names[name] = old
            elif old[0] == "unknown" and new[0] in ("tuple", "seq") and _wraps(new, old):
                # ``if isinstance(tensors, torch.Tensor): tensors = [tensors]``: one item made
                # a list on one path; on the other it may be a list already (a batch's
                # images, padded to the largest of them), which the join keeps
                names[name] = old
            elif old in (RAND, MAYBE_RAND) and new[0] in ("nontorch", "unknown") and new != old:
                # a number drawn at random on one path only (``seq_len = np.random.
                # randint(...)`` under ``if self.random_seq_len:``): it may be drawn
                names[name] = MAYBE_RAND

    def _for(self, node: cst.For) -> None:
        binder = self.target(node.target)
        it = self.value(node.iter)
        tagged = _tagged_with_counter(node)
        if tagged is not None:
            self.shapes.tag_samples(tagged)
        self.shapes.on_loop(node.iter, it)
        self._bind_loop(binder, it, node.iter)
        self.shapes.enter_loop()
        self.walked_loops.append((len(self.walked_defs), node))
        try:
            self._block(node.body)
        finally:
            self.walked_loops.pop()
        self.shapes.leave_loop()
        if node.orelse is not None:
            self._block(node.orelse.body)

    def _while(self, node: cst.While) -> None:
        dynamic = self.shapes.on_condition(node.test, self.value(node.test), "while")
        self.walked_loops.append((len(self.walked_defs), node))
        try:
            self._block(node.body)
        finally:
            self.walked_loops.pop()
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
                # (Optimizer.step). A torch class's too (`with torch.profiler.profile() as
                # prof: prof.step()`), unless its __enter__ is declared to return None.
                own = v[0] == "inst" and (not self._is_torch(v[1]) or self._enters_self(v[1]))
                self.bind_target(binder, v if v[0] == "tensor" or own else UNKNOWN)
        self._block(node.body)

    def _enters_self(self, cls: str) -> bool:
        """A torch context manager whose ``__enter__`` gives the instance back: one the index
        knows, not annotated ``-> None`` (``saved_tensors_hooks``)."""
        enter = self.api.member(cls, "__enter__")
        return enter is not None and self.api.return_text(enter) != "None"

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

    def target(self, node: cst.BaseExpression) -> tuple[Any, ...]:
        """Visit an assignment target (counting its nodes) and say how to bind a value to it."""
        t = type(node)
        if t is cst.Name:
            self._count(node, NAME)
            return ("name", node.value)
        if t is cst.Attribute:
            self._count(node, ATTR)
            recv = self.expr(node.value)
            self.stored_attrs.add(node.attr.value)
            return ("attr", recv, node.attr.value, node)
        if t is cst.Subscript:
            self._subscript(node, store=True)
            if type(node.value) is cst.Name and len(node.slice) == 1:
                return ("item", node.value.value, node.slice[0].slice)
            return ("none",)
        if t in (cst.Tuple, cst.List):
            parts = []
            for el in node.elements:
                if type(el) is cst.StarredElement:
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
            elif self.module_outputs.get(id(v)) is v:
                # ``x, thw = blk(x, thw)`` of a module of no known class: a tuple led by its
                # output tensor; what follows (a shape list, a cache) is not known to be one
                items = [v, *[UNKNOWN] * (len(parts) - 1)]
            else:
                items = [self.shapes.relay([v], element(v))] * len(parts)
            if not any(part[0] == "star" for part in parts):
                # ``N, C = probas.shape`` of rows selected by data: only one entry varies
                items = [self.shapes.shape_entry(v, i) or item for i, item in enumerate(items)]
            for part, item in zip(parts, items, strict=True):
                if part[0] == "star":
                    self.bind_target(part[1], seq(item))
                else:
                    self.bind_target(part, item)
        elif kind == "star":
            self.bind_target(binder[1], seq(element(v)))
        elif kind == "item":
            self._store_item(binder[1], v, binder[2])


#: The joins that make a tensor longer along one dimension.
_CONCATS = frozenset({"cat", "concat", "concatenate"})
_EMPTY_MODULE = cst.Module(body=[])


def _code(node: cst.CSTNode) -> str:
    return _EMPTY_MODULE.code_for_node(node)


def _concat_args(value: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The tensors ``torch.cat((a, b), dim)`` (``concat``, ``concatenate``) joins, written
    as a list or tuple; None for any other expression."""
    if type(value) is not cst.Call or not value.args or value.args[0].keyword is not None:
        return None
    func = value.func
    if type(func) is not cst.Attribute or func.attr.value not in _CONCATS:
        return None
    first = value.args[0].value
    if type(first) not in (cst.List, cst.Tuple):
        return None
    return [el.value for el in first.elements]  # type: ignore[attr-defined]


def _steps_loop(loop: cst.For | cst.While) -> bool:
    """A loop over steps (``while``, ``for i in range(...)``), not over layers or items."""
    if type(loop) is cst.While:
        return True
    it = loop.iter
    return type(it) is cst.Call and type(it.func) is cst.Name and it.func.value == "range"


def _bound_before(body: cst.BaseSuite, name: str, stop: cst.CSTNode) -> bool:
    """Is ``name`` bound in ``body`` by a statement before ``stop`` (in the order the code
    is written, nested blocks included, nested functions not)?"""
    for node in descendants(body, lambda n: type(n) is not cst.FunctionDef):
        if type(node) is cst.Assign:
            if node is stop:
                return False
            if any(name in _names_bound(t.target) for t in node.targets):
                return True
    return False


def _names_bound(target: cst.BaseExpression) -> set[str]:
    if type(target) is cst.Name:
        return {target.value}
    if type(target) in (cst.Tuple, cst.List):
        out: set[str] = set()
        for el in target.elements:  # type: ignore[attr-defined]
            out |= _names_bound(el.value)
        return out
    return set()


def _kept_between_calls(func: cst.FunctionDef) -> frozenset[str]:
    """The names whose attributes and items outlive a call of ``func``: ``self`` and the
    parameters (a cache dict the caller hands in on every step)."""
    params = func.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return frozenset(p.name.value for p in every)


def _is_kept(node: cst.BaseExpression, kept: frozenset[str]) -> bool:
    """``self.cache``, ``cache[key]``, ``self.cache[key]`` with a kept root name. An item
    under a constant key (``target["boxes"]``) is a field of a record handed in, which a
    transform rewrites once per sample, not a cache of steps keyed by its layer."""
    if type(node) not in (cst.Attribute, cst.Subscript):
        return False
    if type(node) is cst.Subscript and any(
        type(el.slice) is cst.Index and type(el.slice.value) in (cst.SimpleString, cst.Integer)
        for el in node.slice
    ):
        return False
    root = node
    while type(root) in (cst.Attribute, cst.Subscript):
        root = root.value  # type: ignore[attr-defined]
    return type(root) is cst.Name and root.value in kept


#: The nodes an assignment statement can be found under: blocks, statement lines and the
#: compound statements with their clauses. Anything else (an expression, a small statement,
#: whitespace, a ``with`` item, a parameter) holds no statement.
_HOLDS_STATEMENTS = (
    cst.BaseSuite,
    cst.SimpleStatementLine,
    cst.BaseCompoundStatement,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
)


def _simple_assigns(func: cst.FunctionDef) -> list[cst.Assign]:
    """Every plain assignment of ``func``'s own body (nested functions left out), in the
    order the code is written. Read by statements: an assignment is only ever a small
    statement of a statement line or block, so nothing else is entered (a visitor entering
    every name and call of a long function cost more than its walk)."""
    out: list[cst.Assign] = []

    def statements(node: cst.CSTNode) -> None:
        for child in children_of(node):
            if type(child) is cst.Assign:
                out.append(child)
            elif isinstance(child, _HOLDS_STATEMENTS) and type(child) is not cst.FunctionDef:
                statements(child)

    statements(func.body)
    return out


def _reads_of_kept(func: cst.FunctionDef, kept: frozenset[str]) -> dict[str, str]:
    """Names bound from a kept place (``k_top, v_top = cache[cache_key]``), each with the
    place's code."""
    out: dict[str, str] = {}
    for a in _simple_assigns(func):
        if _is_kept(a.value, kept):
            for t in a.targets:
                for name in _names_bound(t.target):
                    out[name] = _code(a.value)
    return out


def _stores_back(func: cst.FunctionDef, place: str, name: str) -> bool:
    """Does ``func`` write ``name`` (alone or in a tuple) back to ``place``?"""
    for a in _simple_assigns(func):
        if any(_code(t.target) == place for t in a.targets):
            value = a.value
            held = [value] if type(value) is not cst.Tuple else [e.value for e in value.elements]
            if any(_code(v) == name for v in held):
                return True
    return False


def _converted_once(func: cst.FunctionDef, stop: cst.CSTNode, place: str) -> bool:
    """Is ``stop`` (a join written back to ``place``) under an ``if`` that asks ``place``'s
    shape to equal something (``if sd[k].shape[1] == 4: sd[k] = torch.cat([sd[k], pads],
    1)``, a checkpoint's weight widened on load)? The join changes that shape, so the test
    fails for the grown tensor: the place grows at most once, a conversion rather than a
    cache of past steps."""
    shape_reads = (f"{place}.shape", f"{place}.size(")

    def guard(test: cst.BaseExpression) -> bool:
        return (
            type(test) is cst.Comparison
            and any(type(c.operator) is cst.Equal for c in test.comparisons)
            and any(r in _code(test) for r in shape_reads)
        )

    # (node, whether an ``if`` body on the way to it asks for the shape), in the order a
    # visitor meets them; only an ``if``'s body is guarded: an ``else`` runs when the shape
    # is not the one asked for. Nested functions are not entered.
    stack: list[tuple[cst.CSTNode, bool]] = [(func, False)]
    while stack:
        node, guarded = stack.pop()
        t = type(node)
        if t is cst.Assign and node is stop:
            return guarded
        if t is cst.FunctionDef and node is not func:
            continue
        kids = children_of(node)
        if t is cst.If:
            body = node.body  # type: ignore[attr-defined]
            inner = guarded or guard(node.test)  # type: ignore[attr-defined]
            stack.extend((k, inner if k is body else guarded) for k in reversed(kids))
        else:
            stack.extend((k, guarded) for k in reversed(kids))
    return False


def _tagged_with_counter(node: cst.For) -> str | None:
    """``for i, boxes in enumerate(targets): boxes[:, 0] = i``: the name of the sequence
    whose elements get their own position written into them (each sample's rows tagged with
    the sample they belong to, to be joined into one tensor), else None."""
    it, target = node.iter, node.target
    if not (
        type(it) is cst.Call
        and type(it.func) is cst.Name
        and it.func.value == "enumerate"
        and it.args
        and type(it.args[0].value) is cst.Name
        and type(target) is cst.Tuple
        and len(target.elements) == 2
        and all(type(el.value) is cst.Name for el in target.elements)
    ):
        return None
    counter, item = (el.value.value for el in target.elements)  # type: ignore[attr-defined]
    for small in _own_assigns(node.body):
        if (
            type(small.value) is cst.Name
            and small.value.value == counter
            and any(
                type(t.target) is cst.Subscript
                and type(t.target.value) is cst.Name
                and t.target.value.value == item
                for t in small.targets
            )
        ):
            return it.args[0].value.value  # type: ignore[attr-defined]
    return None


def _own_assigns(body: cst.BaseSuite) -> Iterator[cst.Assign]:
    """The plain assignments among a block's own simple statements (not in nested blocks)."""
    lines = body.body if type(body) is cst.IndentedBlock else [body]
    for line in lines:
        if type(line) is cst.SimpleStatementLine or type(line) is cst.SimpleStatementSuite:
            yield from (small for small in line.body if type(small) is cst.Assign)


def _set_to_none(body: cst.BaseSuite) -> list[str]:
    """The names a block sets to ``None`` among its own statements (``else: pos = None``):
    after the ``if``, such a name holds what the other branch gave it, or nothing."""
    out = []
    for small in _own_assigns(body):
        if type(small.value) is cst.Name and small.value.value == "None":
            out += [t.target.value for t in small.targets if type(t.target) is cst.Name]
    return out


def _tensor_test_subject(test: cst.BaseExpression) -> str | None:
    """The name ``isinstance(name, T)`` or ``X.is_tensor(name)`` tests, else None (the type
    and the module are checked by the caller, which can look names up)."""
    if type(test) is not cst.Call or not test.args or type(test.args[0].value) is not cst.Name:
        return None
    func = test.func
    if type(func) is cst.Name and func.value == "isinstance" and len(test.args) == 2:
        return test.args[0].value.value  # type: ignore[attr-defined,no-any-return]
    if type(func) is cst.Attribute and func.attr.value == "is_tensor" and len(test.args) == 1:
        return test.args[0].value.value  # type: ignore[attr-defined,no-any-return]
    return None


def _wraps(new: Val, old: Val) -> bool:
    """``new`` is a list or tuple holding ``old`` alone (``[x]``, ``(x,)``)."""
    if new[0] == "tuple":
        return len(new[1]) == 1 and new[1][0] is old
    return new[1] is old


def _narrowed_to_builtin(test: cst.BaseExpression) -> tuple[str | None, bool]:
    """The name ``test`` (``isinstance(name, dict)``, ``isinstance(name, (list, tuple))``)
    proves to be a builtin container or scalar inside the ``if`` body, else None; and
    whether every type it names is a list or a tuple (a sequence, whose elements a value
    known before may describe)."""
    if not (
        type(test) is cst.Call
        and type(test.func) is cst.Name
        and test.func.value == "isinstance"
        and len(test.args) == 2
        and type(test.args[0].value) is cst.Name
    ):
        return None, False
    kinds = test.args[1].value
    elements = [el.value for el in kinds.elements] if type(kinds) is cst.Tuple else [kinds]
    if all(type(el) is cst.Name and el.value in _BUILTIN_TYPES for el in elements):
        listed = all(el.value in _SEQUENCE_TYPES for el in elements)  # type: ignore[attr-defined]
        return test.args[0].value.value, listed  # type: ignore[attr-defined]
    return None, False


def _same_mask_store(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """``x[m] = y[m]`` (or an elementwise expression of such reads, ``y[m] * 2``): the
    value is read through the one index the store writes through, so it has one row per
    written position and the result keeps ``x``'s shape."""
    if type(target) is not cst.Subscript or len(target.slice) != 1:
        return False
    index = target.slice[0].slice
    if type(index) is not cst.Index:
        return False
    reads = 0
    stack: list[cst.BaseExpression] = [value]
    while stack:
        e = stack.pop()
        if type(e) is cst.BinaryOperation:
            stack += [e.left, e.right]
        elif type(e) is cst.UnaryOperation:
            stack.append(e.expression)
        elif type(e) is cst.Subscript:
            if len(e.slice) != 1 or not e.slice[0].slice.deep_equals(index):
                return False
            reads += 1
        elif type(e) not in (cst.Integer, cst.Float, cst.Name, cst.Attribute):
            return False
    return reads > 0


def _only_raises(body: cst.BaseSuite) -> bool:
    """Whether a block does nothing but raise (an error path: ``if bad: raise ...``)."""
    lines = [body] if type(body) is cst.SimpleStatementSuite else list(body.body)
    if not lines or any(
        type(ln) not in (cst.SimpleStatementLine, cst.SimpleStatementSuite) for ln in lines
    ):
        return False
    return all(type(st) is cst.Raise for ln in lines for st in ln.body)  # type: ignore[attr-defined]


def _literal_item(value: cst.BaseExpression) -> bool:
    """``cfg.TRAIN.WEIGHTS[0]``, ``pair[-1]``: an item read at literal positions only."""
    if type(value) is not cst.Subscript:
        return False
    for el in value.slice:
        s = el.slice
        v = s.value if type(s) is cst.Index else None
        if type(v) is cst.UnaryOperation and type(v.operator) is cst.Minus:
            v = v.expression
        if type(v) is not cst.Integer:
            return False
    return True


def _none_guard(test: cst.BaseExpression) -> tuple[str, bool] | None:
    """(name, whether the body runs only when it is given) for a test of a name against
    ``None``: ``x is not None`` (also as the first operand of an ``and``) gives True, ``x is
    None`` False; None for any other test."""
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        got = _none_guard(test.left)
        return got if got is not None and got[1] else None
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    if (
        type(test.left) is not cst.Name
        or type(target.comparator) is not cst.Name
        or target.comparator.value != "None"
    ):
        return None
    if type(target.operator) is cst.IsNot:
        return test.left.value, True
    if type(target.operator) is cst.Is:
        return test.left.value, False
    return None
