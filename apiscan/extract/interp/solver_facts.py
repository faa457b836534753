"""Whole-program facts: what the solver supplied, and what the walk tells it back.

The walk of one file is re-run with the facts the whole-program solver
(:mod:`apiscan.program.solver`) found across files: what a parameter receives
(``p:<function>:<param>``), what a function returns (``r:<callee>``), what a class's
attribute holds (``a:<class>:<attr>``) and, for a function that hands back one of its own
parameters, that return with the parameters left symbolic (``s:<callee>``), which each call
binds to its own arguments. This part turns those facts into walker values and
remembers, by identity, where each came from, so that a finding can explain its chain and a
value passed on keeps it. In the other direction it notes which parameters a value came from
and which parameters would change a dynamic-shape finding if the solver proved them tensors
(the file is then walked again). Nothing here reports a use or binds a name.
"""

from __future__ import annotations

import libcst as cst

from apiscan.extract.facts import fresh, to_val
from apiscan.extract.interp.base import SAME_SHAPE, _Args, _const_str, _returns, merge_dicts
from apiscan.extract.records import RETURNS
from apiscan.extract.shapes import COLLATED, Why, is_dyn_tensor
from apiscan.program import values as pv
from apiscan.resolve.values import UNKNOWN, Val, inst, seq


class SolverFactsMixin:
    """Solver facts in (``env``) and parameter sources out; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

    def _explain(self, v: Val) -> Why:
        """Where a value the solver supplied came from, in words and as located steps
        (("", ()) for values found here)."""
        entry = self.explained.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else ("", ())

    def _supplied(self, f: pv.Fact, subject: str, here: str = "", key: str = "{}") -> Val:
        """The walker value for solver fact ``f``, remembered with its explanation
        ("``subject`` is ...", ``here`` the function the explanation is read in) and the
        explanations of its tuple elements, which unpacking binds to names, and of its dict
        fields, which a read by key gives (their subject: ``key`` formatted with
        ``subject`` and the field's key)."""

        def words(x: pv.Fact, who: str = subject) -> str:
            d = pv.describe(x, here)
            return f"{who} {d}" if d else ""

        v = self._mark_samples(f, to_val(f))
        text = words(f)
        if text:
            self.explained[id(v)] = (v, (text, pv.steps(f)))
            self.supplied[id(v)] = (v, f)
        parts: list[tuple[Val, pv.Fact, str]] = []
        if v[0] == "tuple" and isinstance(f, pv.Tup):
            parts = [(ev, ef, subject) for ev, ef in zip(v[1], f.elems, strict=True)]
        elif v[0] == "dict" and isinstance(f, pv.Dict):
            # ``batch["mask_indices"]``: each field keeps its explanation, under its key
            parts = [
                (ev, ef, key.format(subject, k))
                for (k, ev), (_, ef) in zip(v[1], f.fields, strict=True)
            ]
        for ev, ef, who in parts:
            if ev[0] == "seq" and isinstance(ef, pv.Seq):
                # ``pred["keypoints"]`` a list of one tensor per image: each element read
                # (``torch.stack``, ``for k in ...``) keeps where it came from
                parts.append((ev[1], ef.elem, f"an element of {who}"))
            t = words(ef, who)
            if t:
                self.explained[id(ev)] = (ev, (t, pv.steps(ef)))
                self.supplied[id(ev)] = (ev, ef)
        return v

    def _mark_samples(self, f: pv.Fact, v: Val) -> Val:
        """``v``, made from ``f`` by ``to_val``, with the elements of its lists of samples
        (``pv.Seq.samples``) marked as samples of a batch (strong): what is read from one,
        by iteration or at any position, has that sample's own length; and its dynamic
        tensors whose varying dimension is known (``pv.Tensor.varying``) marked with it."""
        if isinstance(f, pv.Seq) and v[0] == "seq":
            inner = self._mark_samples(f.elem, v[1])
            if f.samples:
                inner = self.shapes.sample(inner, COLLATED)
            return fresh("seq", inner) if inner is not v[1] else v
        if isinstance(f, pv.Tup) and v[0] == "tuple" and len(f.elems) == len(v[1]):
            elems = tuple(self._mark_samples(ef, ev) for ef, ev in zip(f.elems, v[1], strict=True))
            changed = any(a is not b for a, b in zip(elems, v[1], strict=True))
            return fresh("tuple", elems) if changed else v
        if isinstance(f, pv.Tensor) and f.sample and v[0] == "tensor":
            return self.shapes.sample(v, COLLATED)  # one image's targets, handed on
        if isinstance(f, pv.Tensor) and f.code and v[0] == "tensor":
            # ``torch.IntTensor([self.hidden])`` handed on: a bound read from it is static
            return self._code_valued(v)
        if isinstance(f, pv.Tensor) and f.varying is not None and is_dyn_tensor(v):
            # rows selected by data in the function that made it: its other dimensions are
            # static here too (``probas.size(1)`` of ``probas[valid.nonzero()]``)
            self.shapes.vary(v, f.varying)
        if isinstance(f, pv.Dict) and v[0] == "dict" and len(f.fields) == len(v[1]):
            items = tuple(
                (k, self._mark_samples(ef, ev))
                for (k, ev), (_, ef) in zip(v[1], f.fields, strict=True)
            )
            changed = any(a[1] is not b[1] for a, b in zip(items, v[1], strict=True))
            return fresh("dict", items) if changed else v
        return v

    def _collated(self, v: Val) -> Val:
        """What a collate function of this file returns (``v``) as the batches its loader
        yields: a list of tensors left unstacked is a list of samples, each with its own
        shape (the walker's side of ``pv.collated``)."""
        if v[0] == "tuple":
            elems = tuple(self._collated(e) for e in v[1])
            changed = any(a is not b for a, b in zip(elems, v[1], strict=True))
            return fresh("tuple", elems) if changed else v
        e = v[1] if v[0] == "seq" else None
        if (
            e is not None
            and e[0] == "tensor"
            and e[1] not in ("dyn", "bool")
            and not self.shapes.batch_sample(e)
        ):
            return fresh("seq", self.shapes.sample(e, COLLATED))
        return v

    def _holds_samples(self, v: Val) -> bool:
        """A list of samples of a batch (:meth:`_collated`), or a tuple holding one."""
        if v[0] == "tuple":
            return any(map(self._holds_samples, v[1]))
        return v[0] == "seq" and self.shapes.batch_sample(v[1])

    def supplied_fact(self, v: Val) -> pv.Fact | None:
        """The solver fact ``v`` was made from, when it carries a chain (identity)."""
        entry = self.supplied.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else None

    def _returned(
        self, key: str, local: Val | None, args: _Args | None = None, bound: bool = False
    ) -> Val:
        """What a call of repo function ``key`` returns: what this walk found (a function of
        this file walked before the call, with the same facts), else the solver's fact. A
        function handing back one of its own parameters returns, at this call, what this
        call passes (:meth:`_bind_returned`), not what some other caller passed."""
        f = self.env.get("r:" + key)
        name = key.rpartition(".")[2]
        subject = f"the value returned by `{name}`"
        passed_on = self.env.get("s:" + key)
        if args is not None:
            args = args.binding()
        if type(passed_on) is pv.PassedOn and args is not None and not args.star:
            got = self._bind_returned(passed_on, args, bound, f, subject)
            if got is not None:
                return got
        if f is None or (local is not None and local[0] != "unknown"):
            return local if local is not None else UNKNOWN
        return self._supplied(f, subject, key=f'the field "{{1}}" of {subject}')

    def _bind_returned(
        self,
        passed_on: pv.PassedOn,
        args: _Args,
        bound: bool,
        solved: pv.Fact | None,
        subject: str,
    ) -> Val | None:
        """The return of a pass-through function at one call: each parameter it hands back
        bound to this call's argument (``default(n, 1)`` gives back ``n``, whatever another
        call passes), the rest what the solver found (``solved``, the same shape as
        ``passed_on.returns`` with the parameters resolved). A parameter this call leaves to
        its default keeps the solver's fact. None when nothing here binds a parameter."""
        offset = 1 if bound and passed_on.bound else 0
        given: dict[str, Val] = {}
        for i, v in enumerate(args.vals[: args.positional]):
            if i + offset < len(passed_on.positional):
                given[passed_on.positional[i + offset]] = v
        for kw, v in args.kwvals.items():
            if kw in passed_on.keywords:
                given[kw] = v
        if not given:
            return None
        declared = dict(passed_on.declared)

        def bind(sym: pv.Fact, got: pv.Fact | None) -> Val:
            if type(sym) is pv.Param and not sym.element:
                # an element of the parameter (``for x in xs: return x``) is no pass-through
                v = given.get(sym.name)
                if v is not None:
                    return _declared_stands(v, declared.get(sym.name))
                return self._supplied(got, subject) if got is not None else UNKNOWN
            if type(sym) is pv.Tup:
                same = type(got) is pv.Tup and len(got.elems) == len(sym.elems)
                return fresh(
                    "tuple",
                    tuple(
                        bind(e, got.elems[i] if same else None)  # type: ignore[union-attr]
                        for i, e in enumerate(sym.elems)
                    ),
                )
            if type(sym) is pv.Seq and pv.holds_param(sym):
                inner = bind(sym.elem, got.elem if type(got) is pv.Seq else None)  # type: ignore[union-attr]
                return fresh("seq", inner)
            return self._supplied(got if got is not None else sym, subject)

        return bind(passed_on.returns, solved)

    def _attr_fact(self, cls: str, attr: str, local: Val | None) -> Val | None:
        """``self.attr`` as written by any method of the class (the solver's join)."""
        f = self.env.get(f"a:{cls}:{attr}")
        if f is None or (local is not None and local[0] != "unknown" and not pv.is_dynamic(f)):
            return local

        return self._supplied(f, f"`self.{attr}`", key=f'`self.{attr}["{{1}}"]`')

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
        is walked again if the solver finds that the parameter is a tensor. What a function of
        another file returns (``("ret", q)``: ``boxes = decode(loc, priors)`` then
        ``boxes[mask]``) is asked of the re-export round the same way a method call on it
        asks (``q()``: a tensor, or an instance of a repository class)."""
        if v[0] == "ret" and not self.silent:
            self.local_refs.add(str(v[1]) + RETURNS)
            return
        source = self._param_source(v) or self._element_source(v)
        if source is not None and not self.silent:
            self.sensitive.add(f"p:{self.module_name}.{source[0]}:{source[1]}")

    def _element_of_param(self, seq_val: Val, elem: Val) -> Val:
        """``elem``, an element of ``seq_val``, marked as coming from the parameter
        ``seq_val`` came from (``for m in matched_idxs``, ``zip(targets, matched_idxs)``):
        compared into a mask, it is a place where the solver proving the parameter a list
        of tensors changes a finding (see :meth:`_sensitive`)."""
        source = self._param_source(seq_val) or self._element_source(seq_val)
        if source is None or elem[0] != "unknown":
            return elem
        elem = fresh(elem[0], elem[1])
        self.elements_of[id(elem)] = (elem, source)
        return elem

    def _element_source(self, v: Val) -> tuple[str, str] | None:
        """The parameter whose elements ``v`` is one of (see :meth:`_element_of_param`); kept
        apart from :attr:`derived`, which proves owners: an element is no tensor computed
        from the parameter itself."""
        entry = self.elements_of.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else None

    def _keep_source(self, old: Val, new: Val) -> Val:
        """``new`` (a copy of ``old`` made to carry another fact by identity) still marked as
        computed from ``old``'s parameter."""
        source = self._element_source(old)
        if source is not None and new is not old:
            self.elements_of[id(new)] = (new, source)
        entry = self.param_elements.get(id(old))
        if entry is not None and entry[0] is old and new is not old:
            self.param_elements[id(new)] = (new, entry[1], entry[2], entry[3])
        return new

    def _store_item(self, name: str, v: Val, index: cst.BaseSlice | None = None) -> None:
        """``proposals[i] = proposals[i][keep]``: an element of a list replaced, one image at a
        time, by a tensor of a data-dependent shape. The list then holds such tensors (what
        its callers are handed, and what ``torch.cat(proposals)`` joins). ``index``: what
        the subscript reads, for a dict (:meth:`_store_entry`)."""
        held = self.lookup(name)
        if held[0] == "seq" and is_dyn_tensor(v) and not is_dyn_tensor(held[1]):
            self.bind(name, self.shapes.relay([v], seq(v)))
        elif held[0] == "dict" and type(index) is cst.Index:
            self.bind(name, self._store_entry(held, v, _const_str(index.value)))

    def _store_entry(self, held: Val, v: Val, key: str | None) -> Val:
        """The dict ``held`` after ``d[key] = v``: a constant key holds ``v`` from then on
        (``output["loss"] = loss.mean()``). A key the code computes (``for k in data:
        data[k] = torch.stack(data[k])``) may be any entry: each list of data-dependent
        tensors that a tensor may replace is then a tensor of data-dependent shape (the
        stacked keypoints of one image each), each other list of tensors a tensor like
        ``v``, and any other key may hold ``v``."""
        if key is not None:
            return merge_dicts([(None, held), (key, v)]) or held
        if v[0] != "tensor":
            return held
        items = []
        for k, e in held[1]:
            inner = self._element(e) if e[0] in ("seq", "tuple") else e
            if inner is not e and inner[0] == "tensor":
                # the stacked tensors' own value: where they came from stays named
                e = inner if is_dyn_tensor(inner) else v
            items.append((k, e))
        other = dict(held[1]).get(None)
        if other is None:
            items.append((None, v))
        return ("dict", tuple(items))

    def _own_package_call(
        self, callee: str, node: cst.CSTNode, args: _Args | None, bound: bool
    ) -> Val | None:
        """A call of a torchvision (torchaudio...) name while the repository scanned is that
        package itself: the name stays torch's API for the report, but the call reaches the
        package's own code, so the solver sees its arguments (``self.box_roi_pool(features,
        proposals)`` hands the pooler per-image boxes). What the call returns stays what the
        API tables say: the solver's return fact joins every caller's arguments (a box coder
        decoding static anchors for one caller and sampled proposals for another), which
        would make the static caller's shapes data-dependent. Always None for now."""
        if callee.partition(".")[0] in self.own_torch_roots:
            self._call_fact(callee, node)
            self._site(callee, node, args, bound)
        return None

    def _own_package_class(self, q: str) -> Val | None:
        """An instance of class ``q`` of the scanned torchvision (torchaudio...) itself, which
        the API tables do not list: its methods are the package's own code."""
        return inst(q) if q.partition(".")[0] in self.own_torch_roots else None

    def _note_passthrough(
        self,
        qn: str,
        node: cst.FunctionDef,
        method: bool,
        params: list[tuple[str, str, Val, bool, bool]],
    ) -> None:
        """Remember a plain function of this file whose every ``return`` gives back one of its
        parameters, as is or cast (``def maybe_cast(t): return t.float() if c else t``): at
        each call it returns what that call passes, not the join of every caller's argument
        (``input = maybe_cast(input)`` stays the static feature map although another call
        passes the data-dependent boxes)."""
        if method:
            return
        names = {_returned_name(r.value) for r in _returns(node.body)}
        positional = [name for name, kind, _v, _d, _n in params if kind in ("posonly", "pos")]
        if len(names) == 1 and (name := next(iter(names))) in positional:
            self.passthrough[qn] = positional.index(name)

    def _passed_through(self, qn: str, args: _Args | None) -> Val | None:
        """What a call of a pass-through function of this file returns: its argument."""
        at = self.passthrough.get(qn)
        if args is not None:
            args = args.binding()
        if at is None or args is None or args.star or at >= args.positional:
            return None
        got = args.vals[at]
        return got if got[0] == "tensor" else None


def _declared_stands(v: Val, declared: pv.Fact | None) -> Val:
    """The argument ``v`` handed back by a function declaring the parameter a tensor
    (``x: torch.Tensor``, a ``forward`` argument): where the call's argument says less (unknown,
    or a tensor only guessed), the declaration stands, as for the parameter itself
    (:func:`pv.refine`); an argument that says as much or more is itself."""
    if type(declared) is not pv.Tensor:
        return v
    if v[0] == "unknown":
        return to_val(declared)
    if v[0] == "tensor" and v[1] is False and declared.certain and not declared.arg:
        return fresh("tensor", True)
    return v


def _returned_name(value: cst.BaseExpression | None) -> str | None:
    """``t`` for ``return t`` or ``return t.float()``, else None."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute:
        if value.func.attr.value not in SAME_SHAPE:
            return None
        value = value.func.value
    return value.value if type(value) is cst.Name else None
