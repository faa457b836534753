"""Calls and arguments: api-use records, call edges and call results.

A call evaluates its callee and its arguments (positional, keyword, starred) in source order,
then goes one of three ways: a dotted name (a torch function or class, a repository function,
``functools.partial``, a third-party name), a member of a receiver (:mod:`.members`), or a
value (a function or class of this file, an instance's ``forward``, a builtin, a partial or an
``nn.Sequential`` whose children are known). This part owns the :class:`Emit` records of API
uses, the call graph's edges (``call_facts``: calls, references, data-pipeline roles such as
``collate_fn=``) and the call sites whose arguments the whole-program solver reads
(``sites``).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from apiscan.extract.facts import fresh
from apiscan.extract.interp.base import (
    ATTR,
    BOOL_METHODS,
    CALL,
    CODE_FACTORIES,
    INDEX_OPS,
    LAYER,
    LITERAL_MAKERS,
    Emit,
    Ref,
    _Args,
    _bool_dtype,
    _carries_data,
    _named_tuple,
    _variable,
    is_text,
    merge_dicts,
)
from apiscan.extract.records import DATA_ROLES, REF, RETURNS
from apiscan.extract.shapes import (
    BATCH_MAX,
    BOOL_TENSOR,
    DYN_TENSOR,
    ELEM_SIZE,
    FROM_HOST,
    HOST_DATA,
    RAND,
    SAMPLE_SIZE,
    host_dyn,
    is_dyn_number,
    is_dyn_tensor,
    is_variable,
    names_read,
    sized_by_tensor,
)
from apiscan.program import values as pv
from apiscan.resolve.owners import VARIABLE_CLASSES
from apiscan.resolve.values import (
    ARG_TENSOR,
    ARRAY,
    ARRAY_PACKAGES,
    NON_TORCH_BUILTINS,
    NON_TORCH_PACKAGES,
    NONTORCH,
    PASS_THROUGH,
    PTENSOR,
    SEQ_BUILTINS,
    TENSOR,
    UNKNOWN,
    Val,
    inst,
    is_non_torch_class,
    seq,
)

#: torch functions joining a sequence of tensors: a join of boolean masks is a mask.
JOINS = frozenset({"stack", "cat", "concat", "concatenate", "hstack", "vstack", "dstack"})

BOOL_FUNCTIONS = BOOL_METHODS - {"bool"}

#: The callee value of ``functools.partial`` (however imported).
PARTIAL: Val = ("qual", "functools.partial")
#: Its first positional argument is the dataset (a data-pipeline edge like ``dataset=``).
DATALOADER = "torch.utils.data.DataLoader"
#: ``nn.Sequential`` as the code may spell it (canonical or through its module path).
SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})


class CallsMixin:
    """Call evaluation, argument records and API-use emission; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

    def _site(self, callee: str, node: cst.CSTNode, args: _Args | None, bound: bool) -> None:
        if not self.silent and callee and args is not None:
            self.sites.append((self._function(), self._shared(callee), node, args, bound))

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
            inner = self.api.called_module(canon) if usage == "call" else None
            if inner is None:
                return None
            # ``from torchvision.ops import roi_align`` then ``roi_align(...)``: the package's
            # function over its submodule of the same name
            self.emit(q, usage, "certain", (start, "s"), (end, "e"), args, canonical=inner)
            return inner
        if canon is None and ("." not in q or _through_dunder(q)):
            return None
        name = canon or q
        written = self.api.as_written(q) or q
        self.emit(written, usage, "certain", (start, "s"), (end, "e"), args, canonical=canon or "")
        return name

    def _call_role(self, keyword: str, v: Val, value: cst.BaseExpression) -> None:
        """Functions and objects passed as collate_fn/transform/dataset/...: edges of the data
        pipeline (the role says what of an object runs; see ``DATA_ROLES``)."""
        if keyword in DATA_ROLES:
            if type(value) is cst.IfExp and id(value) in self.branches:
                # ``collate_fn=A.collate4 if quad else A.collate``: an edge to each branch
                body, orelse = self.branches[id(value)]
                self._call_role(keyword, body, value.body)
                self._call_role(keyword, orelse, value.orelse)
                return
            callee = self._callee_name(self._bound_function(v))
            if callee:
                self._call_fact(callee, value, keyword)

    def _batches(self, collate: Val) -> Val | None:
        """``DataLoader(ds, collate_fn=collate)``: a sequence of what the repository's
        ``collate`` returns, when that holds something of a data-dependent shape (a targets
        tensor joined from samples of their own lengths, indices from ``nonzero``): the
        training step iterating the loader gets it (None: the loader as usual)."""
        batch = self._collated_batch(collate)
        if batch is None:
            return None
        return seq(batch) if _variable(batch) or self._holds_samples(batch) else None

    def _collated_batch(self, collate: Val) -> Val | None:
        """One batch of what the repository's ``collate`` returns (None: not the
        repository's function)."""
        collate = self._bound_function(collate)
        q = self._callee_name(collate)
        if not q:
            return None
        if collate[0] == "func":
            local = self.func_returns.get(collate[1])
        else:
            local = collate if self.bound_methods.get(id(collate), (None,))[0] is collate else None
        return self._collated(self._returned(q, local))

    def _loader_class(self, v: Val, depth: int = 0) -> bool:
        """Whether calling ``v`` builds a data loader: torch's ``DataLoader``, or a class of
        this file deriving from it (``class RepeatLoader(DataLoader)``, however far down),
        walked already or defined below the function asking (its bases read as written)."""
        if v[0] == "qual":
            return self._is_torch(v[1]) and (self.api.canonical(v[1]) or v[1]) == DATALOADER
        if v[0] != "class" or depth > 8:
            return False
        info = self.classes.get(v[1])
        if info is not None:
            return any(b[0] == "qual" and self._loader_class(b) for b in self._class_bases(info))
        self.silent += 1
        try:
            bases = [self.value(a.value) for a in self.late_bases.get(v[1], ()) if not a.keyword]
        finally:
            self.silent -= 1
        return any(self._loader_class(b, depth + 1) for b in bases)

    def _loader_choice(self, body: Val, orelse: Val) -> Val | None:
        """``loader = DataLoader if weighted else RepeatLoader``: the repository's class of the
        two, when the other is torch's ``DataLoader`` (a subclass of it here, or a class of
        another file offered in its place): either way the call builds a loader, and the
        repository's class is the one with code of its own to call (None: no such choice)."""
        for one, other in ((body, orelse), (orelse, body)):
            if other[0] != "qual" or not self._is_torch(other[1]):
                continue
            if not self._loader_class(other):
                return None
            if self._loader_class(one):
                return one
            named = one[1].rpartition(".")[2] if one[0] == "qual" else ""
            if named[:1].isupper() and self._is_local(one[1]):
                chosen = fresh(one[0], one[1])
                self.loader_choices[id(chosen)] = chosen
                return chosen
        return None

    def _wrapped_loader(self, q: str, local: Val | None, args: _Args | None) -> Val | None:
        """``make_data_loader(dataset=ds, collate_fn=collate)``: a repository function handed
        a collate function by keyword, which builds the loader with it, yields that
        collate's batches as a ``DataLoader(ds, collate_fn=collate)`` written here would
        (:meth:`_batches`). Only where the function returns a loader, or nothing is known
        of what it returns yet (the first walk, before the solver read the function)."""
        if args is None or "collate_fn" not in args.kwvals:
            return None
        loader = inst(DATALOADER)
        if local is not None and local[0] != "unknown" and local != loader:
            return None
        known = self.env.get("r:" + q)
        if known is not None and known != pv.Instance(DATALOADER):
            return None
        return self._batches(args.kwvals["collate_fn"])

    def _compares_tensors(self, name: str, node: cst.Call, args: _Args) -> None:
        """``max(num_pos.sum().float(), 1)``: Python's ``max``/``min`` pick an argument by
        comparing them with ``>``/``<``, so a tensor among them is turned into a Python truth
        on the host (``bool(t > 1)``): a branch on its value (DS116). A tensor known as
        such is needed (a forward argument may be a number), one not decided by the code
        alone (constants, a model's buffers), and no ``key=`` (which compares what it
        returns); ``max(xs)`` of one argument compares its elements instead."""
        if args.keywords or args.star:
            return
        if len(args.vals) == 1:
            first = args.vals[0]
            compared = [self._element(first)] if first[0] in ("tensor", "seq") else []
        else:
            compared = list(args.vals)
        exprs = [a.value for a in node.args]
        for i, v in enumerate(compared):
            if v[0] != "tensor" or v[1] in ("arg", False) or self._is_code_valued(v):
                continue
            expr = exprs[i] if i < len(exprs) else None
            if expr is not None and (self._reads_state(expr, v) or self._reads_random(expr)):
                continue
            self.shapes.on_builtin_compare(name, node, v)
            return

    def _bound_function(self, v: Val) -> Val:
        """The function a ``functools.partial`` binds (``collate_fn=partial(collate,
        mask_ratio=0.5)`` runs ``collate`` on every batch), else ``v`` itself."""
        entry = self.partials.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else v

    def _callee_name(self, v: Val) -> str:
        bound = self.bound_methods.get(id(v))
        if bound is not None and bound[0] is v:
            return bound[1]
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

    def _predicate(self, q: str) -> bool:
        """Whether repository function ``q`` is one of this file's predicates
        (:attr:`predicates`): handed one element's sizes (``is_batch_tensor(t, batch)``) it
        answers a question about them, and builds no tensor of them (see ``of_sizes``)."""
        head, _, rest = q.partition(self.module_name + ".")
        return not head and rest in self.predicates

    def _call_fact(self, callee: str, node: cst.CSTNode, role: str = "call") -> None:
        if not self.silent and callee:
            self.call_facts.append((self._function(), self._shared(callee), node, role))

    def _read_as_index(self, v: Val) -> bool:
        """A ``range`` bound read from tensor data: a number read from it, or a tensor itself
        (``range(target.min(), target.max())`` reads each value through ``__index__``); a
        forward's argument and a value only guessed a tensor are left alone."""
        return self.shapes.read_from_data(v) or (v[0] == "tensor" and v[1] not in ("arg", False))

    def _args(self, node: cst.Call, callee: Val | None = None) -> _Args:
        if callee is not None and callee == PARTIAL and node.args and not node.args[0].keyword:
            # the function a partial binds: what reading it names (see ``_partial_call``)
            self.partial_head, self.partial_read = node.args[0].value, ""
        vals: list[Val] = []
        positional = 0
        keywords: list[str] = []
        star = False
        kwvals: dict[str, Val] = {}
        starred: list[Val] = []
        spread: list[Val] | None = []
        double_star = False
        double_starred: list[Val] = []
        for arg in node.args:
            v = self.value(arg.value)
            keyword = arg.keyword
            if keyword is not None:
                name = keyword.value
                keywords.append(name)
                kwvals[name] = v
                if name in DATA_ROLES:
                    self._call_role(name, v, arg.value)
            elif arg.star:
                star = True
                if arg.star == "*":
                    starred.append(v)
                    if spread is not None and v[0] == "tuple":
                        spread.extend(v[1])
                    else:
                        spread = None
                else:
                    double_star = True
                    double_starred.append(v)
            else:
                positional += 1
                vals.append(v)
                if spread is not None:
                    spread.append(v)
        func = node.func
        if type(func) is cst.Attribute and func.attr.value == "format" and is_text(func.value):
            # ``"{:.4f}".format(loss)``: each tensor formatted is read on the host
            self._formats(node, [*vals, *kwvals.values(), *starred])
        return _Args(
            vals,
            positional,
            tuple(keywords),
            star,
            kwvals,
            starred,
            spread if starred and spread is not None else None,
            double_star,
            double_starred,
        )

    def _call(self, node: cst.Call, usage: str = "call") -> Val:
        self._count(node, CALL)
        func = node.func
        if type(func) is cst.Attribute:
            self._count(func, ATTR)
            recv = self.expr(func.value)
            if (
                type(func.value) is cst.Subscript
                and func.attr.value in SCALAR_REDUCTIONS
                and not node.args
            ):
                self.shapes.reduced(func.value)  # ``mask[t : t + h].sum()``: one number
            if recv[0] == "qual":
                fv = self._extend(recv[1], func.attr.value)
                args = self._args(node, fv)
                return self._call_qual(fv[1], func, node, args, usage)
            args = self._args(node)
            return self._member_ref(recv, func, True, args, node, usage)[0]
        fv = self.expr(func)
        args = self._args(node, fv)
        if type(func) is cst.Subscript and id(func) in self.dispatched:
            # ``loss_map[loss](outputs, targets, indices)``: each method of the dispatch
            # table may run with these arguments (the solver hands them on)
            for method in self.dispatched[id(func)]:
                self._site(method, node, args, True)
        if fv[0] == "qual":
            made = self._call_qual(fv[1], func, node, args, usage)
            if made == ("inst", fv[1]) and self.loader_choices.get(id(fv)) is fv:
                # a loader all the same, whose batches a later walk may know (``pv.join``
                # lets a loader give way to them)
                return inst(DATALOADER)
            return made
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

    def _call_qual(
        self, q: str, func: cst.BaseExpression, node: cst.Call, args: _Args, usage: str
    ) -> Val:
        name = self._emit_qual(q, func, node, usage, args)
        if name is not None and (not name.startswith("torch.") or name.startswith("torch.ops.")):
            # torchvision.ops.nms & co., and compiled operators registered under torch.ops
            # (``torch.ops.torchvision.nms``): the dynamic-shape rules written for them
            foreign = self.shapes.on_foreign_call(
                q, node, args.vals, args.keywords, tuple(args.kwvals.values())
            )
            if foreign is not None:
                return foreign
        if name in RUNS_ITS_MODULE and args.vals and args.vals[0][0] == "inst":
            # ``model = torch.compile(model)``: the compiled module runs the model's forward
            return args.vals[0]
        if name is not None:
            kind = self.api.kind(name)
            own = self._own_package_call(q, node, args, kind == "class" or _class_like(q))
            if own is not None:
                return own
            if kind not in ("class", "function") and _class_like(q):
                own = self._own_package_class(q)
                if own is not None:
                    return own
            if name == DATALOADER and args.vals:
                first = next(a.value for a in node.args if a.keyword is None and not a.star)
                self._call_role("dataset", args.vals[0], first)
            if kind == "class":
                if name in VARIABLE_CLASSES and args.vals and args.vals[0][0] == "tensor":
                    # ``Variable(conf_t)``: the tensor itself, its mask or data-dependent
                    # shape kept
                    return args.vals[0]
                made = self.owners.instance_of(name)
                if name == DATALOADER and "collate_fn" in args.kwvals:
                    batches = self._batches(args.kwvals["collate_fn"])
                    if batches is not None:
                        return batches
                if name in SEQUENTIAL and args.vals and not args.star and not args.keywords:
                    made = fresh(made[0], made[1])
                    self.sequentials[id(made)] = (made, tuple(args.vals))
                if name.rpartition(".")[2] in FROM_HOST:
                    # ``torch.LongTensor(values)``: the legacy constructors take host data too
                    made = self.shapes.on_torch_call(name, node, None, args.vals, args.kwvals, made)
                if name.rpartition(".")[2] in LITERAL_MAKERS and _written_numbers(node, args.vals):
                    made = self._code_valued(made)  # ``torch.IntTensor([self.hidden])``
                return made
            if kind == "function":
                result = self.owners.function_result(name)
                short = name.rpartition(".")[2]
                if short in BOOL_FUNCTIONS or (short in JOINS and self._joined_mask(args.vals)):
                    result = BOOL_TENSOR  # torch.stack([m1, m2]) of masks is a mask
                elif result[0] == "tensor" and (
                    _bool_dtype(args, positional=False)
                    or (short in FROM_HOST and args.vals and self._truths(args.vals[0]))
                    or (
                        short in CONST_LIKE
                        and "dtype" not in args.kwvals
                        and self._joins_masks(args.vals[:1])
                    )
                ):
                    # torch.as_tensor([...], dtype=torch.bool), torch.as_tensor(keep) of a
                    # list of comparisons read from data, torch.ones_like(mask) (a mask's dtype;
                    # a constant one, below)
                    result = BOOL_TENSOR
                result = self.shapes.on_torch_call(name, node, None, args.vals, args.kwvals, result)
                if result == BOOL_TENSOR and short in CONST_FACTORIES:
                    result = self._const_mask()
                if short in INDEX_OPS:
                    result = self._index_tensor(result)
                sized_by = [*args.vals[short.endswith("_like") :], *args.kwvals.values()]
                if short in CODE_FACTORIES and not any(map(is_variable, sized_by)):
                    result = self._code_valued(result)  # ``torch.arange(n)`` of a static n
                elif short in LITERAL_MAKERS and _written_numbers(node, args.vals):
                    result = self._code_valued(result)  # ``torch.IntTensor([self.hidden])``
                return self._mark_indices(_named_tuple(name.rpartition(".")[2], args, 1, result))
            return UNKNOWN
        if self._is_torch(q):
            own = self._own_package_call(q, node, args, _class_like(q))
            if own is None and _class_like(q):
                own = self._own_package_class(q)  # RoIHeads(...) in torchvision itself
            return own or UNKNOWN
        foreign = self.shapes.on_foreign_call(
            q, node, args.vals, args.keywords, tuple(args.kwvals.values())
        )
        if foreign is not None:
            if self._is_local(q):
                # the repository's own ``nms`` is a call into its code all the same: what it
                # runs (a compiled kernel, its host code) is in the caller's graph
                self._call_fact(q, node)
            return foreign
        if self._is_local(q):
            self._call_fact(q, node)
            self._site(q, node, args, False)
            loader = self._wrapped_loader(q, None, args)
            if loader is not None:
                return loader
            if "r:" + q in self.env:
                got = _on_host(self._returned(q, None, args), args.vals)
                return got if self._predicate(q) else self.shapes.of_sizes(got, args.vals)
            known = self.reexports.get(q + RETURNS)
            if known is not None:
                return TENSOR if known == "tensor" else inst(known.partition(":")[2])
            last = q.rpartition(".")[2]
            # What a repo function in another file returns is known only after the first
            # round; ("ret", q) acts as unknown, and asks for a second round only if the code
            # calls a method on it (where the answer matters).
            if last[:1].isupper():
                return inst(q)
            got = _on_host(("ret", q), args.vals)
            return got if self._predicate(q) else self.shapes.of_sizes(got, args.vals)
        if q == "functools.partial" and args.vals:
            self._partial_call(node, args.vals[0])
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
        if q in ITERATES_ITS_ARGUMENT and args.vals and args.vals[0][0] not in ("unknown", "qual"):
            # ``tqdm(loader)`` yields the loader's batches, ``tqdm(np.unique(c))`` its items
            return seq(self._element(args.vals[0]))
        root = q.partition(".")[0]
        if root in ARRAY_PACKAGES:
            return ARRAY
        if root in NON_TORCH_PACKAGES:
            return NONTORCH
        if is_non_torch_class(q):
            return inst(q)
        return UNKNOWN

    def _partial_call(self, node: cst.Call, func: Val) -> None:
        """``functools.partial(f, ...)``: an edge to ``f`` on the partial's own line, where
        the code hands ``f`` its bound arguments (a training step binding the model:
        ``partial(self.diffusion.training_losses, self.ddp_model, x, t)``); the partial's
        later calls are edges too where the walk follows its value (``_apply_special``), but
        it may be passed to a helper that calls it where no walk sees it."""
        head, read = self.partial_head, self.partial_read
        self.partial_head, self.partial_read = None, ""
        kind = func[0]
        if node.args and node.args[0].value is head and read:
            self._call_fact(read, node)  # a method read off its object
        elif kind in ("func", "class"):
            self._call_fact(f"{self.module_name}.{func[1]}", node)
        elif kind == "qual" and self._is_local(func[1]) and not self._is_torch(func[1]):
            self._call_fact(str(func[1]), node)
        elif kind == "inst" and not self._is_torch(func[1]):
            self._call_fact(f"{func[1]}.forward", node)  # a criterion object

    def _joined_mask(self, vals: Sequence[Val]) -> bool:
        """Whether the first argument of a join (``torch.stack``, ``torch.cat``) holds masks of
        data: a tuple literal by its elements (:meth:`_joins_masks`), anything else by what
        iterating it yields (a list literal joins its elements so)."""
        if not vals:
            return False
        first = vals[0]
        if first[0] == "tuple":
            return self._joins_masks(first[1])
        return self._element(first) == BOOL_TENSOR

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
            elif kind == "inst":
                own = self._own_package_call(f"{fv[1]}.forward", node, args, True)
                if own is not None:
                    return own
        if kind == "class":
            if args is not None and "collate_fn" in args.kwvals and self._loader_class(fv):
                # a subclass of DataLoader given a collate: its batches, as DataLoader's
                collate = args.kwvals["collate_fn"]
                batches = self._batches(collate)
                if batches is not None:
                    return batches
                batch = self._collated_batch(collate)
                if batch is None or batch[0] == "unknown":
                    # what the collate returns not known (yet: a first walk knows nothing of
                    # a static method read off a class): a loader as torch's, which gives
                    # way to its batches once a later walk knows them (``pv.join``)
                    return inst(DATALOADER)
            return inst(f"{self.module_name}.{fv[1]}")
        if kind == "inst":
            cls = fv[1]
            if self._is_torch(cls):
                if cls == MODULE_BASE:
                    # ``blk(x, thw)`` with ``blk`` from an ``nn.ModuleList``: a tensor, or a
                    # tuple led by one (``x, thw = blk(x, thw)``, see :meth:`bind_target`)
                    out = fresh(TENSOR[0], TENSOR[1])
                    self.module_outputs[id(out)] = out
                    return out
                return TENSOR if self.owners.role(cls) == "module" else UNKNOWN
            info = self._own_class(cls)
            if info is not None and self._module_kind(info):
                # a forward whose result is not known may return a dict or a tuple: a tensor
                # only probably (`loss_dict = criterion(out, tgt)`; `loss_dict.values()`)
                fwd = self._returned(f"{cls}.forward", info.returns.get("forward"), args, True)
                return fwd if fwd[0] != "unknown" else PTENSOR
            if f"r:{cls}.forward" in self.env:
                return self._returned(f"{cls}.forward", None, args, True)
            return PTENSOR
        if kind == "func":
            through = self._passed_through(fv[1], args)
            if through is not None:
                return through
            q = f"{self.module_name}.{fv[1]}"
            loader = self._wrapped_loader(q, self.func_returns.get(fv[1]), args)
            if loader is not None:
                return loader
            got = self._returned(q, self.func_returns.get(fv[1]), args)
            got = _on_host(got, args.vals if args else ())
            if fv[1] in self.predicates:
                return got  # ``is_batch_tensor(t, batch)``: a truth about sizes, not a tensor
            return self.shapes.of_sizes(got, args.vals if args else ())
        if kind == "builtin":
            name = fv[1]
            first = args.vals[0] if args and args.vals else UNKNOWN
            self.shapes.on_builtin(name, node, args.vals if args else ())
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
                if call is not None and call.args and self._reads_state(call.args[0].value, first):
                    return NONTORCH  # ``int(model.stride.max())``: a model's constant
                if call is not None and call.args and _converts_quotient(call.args[0].value, first):
                    return NONTORCH
                for ref in names_read(node):
                    # ``int(patch_h * 14)`` of a forward parameter: the walk is done again if
                    # every caller turns out to pass a plain number (a size from shapes)
                    self._sensitive(self.lookup(ref))
                return self.shapes.on_sync(node, first)
            if name == "int" and type(node) is cst.Call and first[0] == "unknown":
                for ref in names_read(node):  # int(box[2] - box[0]): is ``box`` a tensor?
                    self._sensitive(self.lookup(ref))
                root = _method_receiver(node)
                if root is not None:
                    # ``int(data.max())``: is ``data`` a tensor's data taken to the host?
                    self._sensitive(self.lookup(root))
            if (
                name == "len"
                and node is not None
                and (is_dyn_tensor(first) or sized_by_tensor(first))
            ):
                return self.shapes.size_read(node, first)
            if (
                name in ("int", "float")
                and type(node) is cst.Call
                and (first == HOST_DATA or sized_by_tensor(first))
            ):
                # ``int(a.max())`` of tensor data on the host: a number read from that data
                if first == HOST_DATA:
                    return self.shapes.on_host_read(node)
                return self.shapes.on_sync(node, TENSOR)
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
            if name in ("max", "min") and type(node) is cst.Call and args:
                self._compares_tensors(name, node, args)
            if name == "max" and args and _accumulates(node, args.vals):
                return BATCH_MAX  # ``h = max(h, img.shape[1])`` over the batch's images
            if name in ("int", "float", "round", "abs", "min", "max") and args:
                for v in args.vals:
                    if is_dyn_number(v) or v == RAND:
                        return v
                if name in ("max", "min") and len(args.vals) == 1:
                    inner = self._element(args.vals[0])
                    if is_dyn_number(inner):
                        # ``max([o.item() for o in counts])``: the largest of numbers read
                        # from data is one of them
                        return inner
            if (
                name in ("int", "round")
                and args
                and len(args.vals) == 1
                and args.vals[0] in (SAMPLE_SIZE, ELEM_SIZE, BATCH_MAX)
            ):
                return args.vals[0]  # ``int(im.shape[0])``: still that size
            if name == "range" and args and any(map(self._read_as_index, args.vals)):
                # ``range(n)`` of a number read from data: as many values as data says (a
                # loop over it is DS116; ``torch.LongTensor(range(n))`` brings them back).
                # ``range(masks.shape[0])`` only follows a tensor's length: a list built over
                # it is as long as that tensor, not host data sized on the host
                return host_dyn(node, tensor=True)
            if name == "dict" and args:
                # ``dict(data, **pred)``, ``dict(data, extra=1)``: the merged dicts' values
                parts: list[tuple[str | None, Val]] = [(None, v) for v in args.vals[:1]]
                parts += [(None, v) for v in args.double_starred]
                parts += list(args.kwvals.items())
                merged = merge_dicts(parts)
                if merged is not None:
                    return merged
            if name in NON_TORCH_BUILTINS:
                return NONTORCH
            if name in SEQ_BUILTINS:
                out = seq(self._element(first))
                if name in ("tuple", "list") and is_dyn_tensor(first):
                    self.unpacked[id(out)] = (out, first)
                return out
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


#: torch functions handing back a module that runs the module they are given.
RUNS_ITS_MODULE = frozenset({"torch.compile"})


#: Factories whose boolean tensor holds constants (all True, all False), not data.
CONST_FACTORIES = frozenset(
    {"ones", "zeros", "full", "empty", "ones_like", "zeros_like", "full_like", "empty_like"}
)


#: Those of them that take the dtype of the tensor they are given.
CONST_LIKE = frozenset(f for f in CONST_FACTORIES if f.endswith("_like"))


#: Non-torch wrappers whose iteration yields what iterating their first argument yields
#: (progress bars).
ITERATES_ITS_ARGUMENT = frozenset(
    {"tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm", "tqdm.rich.tqdm"}
)


#: The class of a module whose own class is not known (an element of an ``nn.ModuleList``).
MODULE_BASE = "torch.nn.Module"
#: Methods that reduce an array or a tensor to one number when given no argument.
SCALAR_REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "prod", "any", "all", "item", "numel", "std", "var", "norm"}
)


def _converts_quotient(expr: cst.BaseExpression, v: Val) -> bool:
    """``int(windows.shape[0] / (H * W / ws / ws))`` with ``H``, ``W`` forward arguments:
    a true division gives a float even of plain numbers, so the ``int()`` is needed without
    any tensor and says nothing of one (unlike ``int(size)``, converted because it is a
    tensor). Arithmetic on forward arguments is a tensor only by convention (``v`` is
    :data:`ARG_TENSOR`); a tensor known as such is still read on the host."""
    if v != ARG_TENSOR or type(expr) is not cst.BinaryOperation:
        return False
    return (
        type(expr.operator) is cst.Divide
        or _converts_quotient(expr.left, v)
        or _converts_quotient(expr.right, v)
    )


def _method_receiver(node: cst.Call) -> str | None:
    """``data`` in ``int(data.max())``: the plain name a method is called on as the call's
    one argument, else None."""
    if len(node.args) != 1:
        return None
    inner = node.args[0].value
    if type(inner) is cst.Call and type(inner.func) is cst.Attribute:
        receiver = inner.func.value
        return receiver.value if type(receiver) is cst.Name else None
    return None


def _on_host(result: Val, args: Sequence[Val]) -> Val:
    """What a repository function returns when called with host arrays: its result is only
    probably a tensor (guessed from the methods it calls, ``(x[:, :4] * w).sum(1)``, or joined
    over its callers), or not known at all, and this call hands it numpy arrays (and no
    tensor), so the same methods run on numpy here (``fitness(np.array(results))``): an
    array, whose comparisons read no tensor data."""
    if not any(a in (ARRAY, HOST_DATA) for a in args):
        return result
    if result == PTENSOR:
        return result if any(a[0] == "tensor" for a in args) else ARRAY
    if result[0] in ("ret", "unknown") and all(a[0] == "nontorch" for a in args):
        return ARRAY  # ``xywh2xyxy(labels[:, 1:5])`` of an array: nothing says otherwise
    return result


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


def _through_dunder(q: str) -> bool:
    """`torch.__version__`, `torch.__version__.split`: module metadata, not an API."""
    return any(_is_dunder(part) for part in q.split(".")[1:])


def _is_dunder(part: str) -> bool:
    return len(part) > 4 and part.startswith("__") and part.endswith("__")


def _class_like(q: str) -> bool:
    """A dotted name whose last part is capitalised, as classes are named."""
    return q.rpartition(".")[2][:1].isupper()


def _accumulates(node: cst.CSTNode | None, vals: Sequence[Val]) -> bool:
    """``max(h, img.shape[1])``: a running maximum (a name beside a size of one element of
    an iterated sequence, or beside a batch maximum) that ends as the batch's largest."""
    if type(node) is not cst.Call or len(vals) < 2:
        return False
    sizes = [v for v in vals if v in (SAMPLE_SIZE, ELEM_SIZE, BATCH_MAX)]
    named = any(type(a.value) is cst.Name for a in node.args)
    return bool(sizes) and named and len(sizes) < len(vals) + (BATCH_MAX in sizes)


def _written_numbers(node: cst.Call, vals: Sequence[Val]) -> bool:
    """``torch.IntTensor([self.hidden])``, ``torch.tensor([0.5, 2.0])``: the one data
    argument is a list or tuple written out of numbers and names, none read from data (no
    element a tensor, a number read from one, or a sample's size)."""
    if len(node.args) != 1 or node.args[0].keyword is not None or not vals:
        return False
    written = node.args[0].value
    if type(written) not in (cst.List, cst.Tuple) or not written.elements:  # type: ignore[attr-defined]
        return False
    plain = (cst.Integer, cst.Float, cst.Name, cst.Attribute, cst.UnaryOperation)
    if any(type(el.value) not in plain for el in written.elements):  # type: ignore[attr-defined]
        return False
    v = vals[0]
    inner = [v[1]] if v[0] == "seq" else list(v[1]) if v[0] == "tuple" else [v]
    return all(e[0] != "tensor" and not is_variable(e) for e in inner)
