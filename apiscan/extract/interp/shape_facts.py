"""Dynamic-shape facts the walk records: tensor-method results, subscripts, random
draws.

The rules themselves live in :mod:`apiscan.extract.shapes` (the shape tracker) and
:mod:`apiscan.rules.dynamic_shape`; this part is where the walker hands them what it sees and
computes the values that carry data-dependence on: ``x.item()`` and ``x.tolist()`` read tensor
data on the host, ``x.size()``/``numel()`` of a data-dependent tensor, masks made by
comparisons and casts, ``(values, indices)`` of the reductions that return them, subscripts by
masks or by sizes read from data (and fixed windows, which are not), rows of a data-dependent
tensor met in a loop, and tensors a random number was written into.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from apiscan.extract.facts import fresh
from apiscan.extract.interp.base import (
    BOOL_METHODS,
    INDEX_OPS,
    SAME_SHAPE,
    SUB,
    _Args,
    _bool_dtype,
    _const_str,
    _named_tuple,
    _root_name,
    _sized_by_data,
    _variable,
)
from apiscan.extract.shapes import (
    BATCH_MAX_TENSOR,
    BOOL_TENSOR,
    DYN_TENSOR,
    ELEM_SIZE,
    HOST_DATA,
    MAYBE_RAND,
    RAND,
    SIZES_TENSOR,
    host_dyn,
    host_elem,
    is_dyn_number,
    is_dyn_tensor,
    is_host_dyn,
    is_host_mask,
    is_variable,
    record_of_dynamic,
    takes_tensor_only,
    tensor_derived,
)
from apiscan.extract.tree import children_of
from apiscan.resolve.owners import Owners
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
)

#: Names that code gives to boolean masks (a tensor parameter of unknown dtype named so).
MASK_NAME = re.compile(r"(^|_)(mask|masks|keep|valid|inside|is_[a-z]+)($|_)")

#: Tensor methods whose result is a host number or list read from tensor values.
SYNC_METHODS = frozenset({"item", "tolist"})

#: Tensor methods that change the dtype (a mask cast to numbers is no longer a mask).
_CASTS = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "type"}
)


class ShapeFactsMixin:
    """Dynamic-shape facts of calls and subscripts; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

    def _tensor_call(self, api: str, attr: str, recv: Val, node: cst.Call, args: _Args) -> Val:
        """Result of a Tensor method call, with the dynamic-shape facts it creates."""
        if attr in SYNC_METHODS:
            if type(node.func) is cst.Attribute and self._reads_random(node.func.value):
                return fresh(RAND[0], RAND[1])  # a random size broadcast through a tensor
            if type(node.func) is cst.Attribute and self._reads_state(node.func.value, recv):
                return NONTORCH
            if self._is_code_valued(recv):
                # ``torch.linspace(-1, T - 1, steps).int().tolist()``: numbers the code decided
                # from constants, read back to the host; no tensor data went into them, so a
                # branch or a loop on them is plain Python (the read itself is reported as a
                # host round trip where it matters)
                return NONTORCH
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
        if attr == "dim" and is_dyn_tensor(recv):
            return NONTORCH  # the number of dimensions: a data-dependent shape keeps its rank
        if attr == "size" and args.vals and _other_dim(node, self.shapes.varying_dim(recv)):
            return NONTORCH  # ``ps.size(1)`` of rows gathered by a data-dependent index
        if attr in ("size", "numel") and is_dyn_tensor(recv):
            return self.shapes.size_read(node, recv)
        result = self.owners.call_result(api, recv, attr)
        if attr == "type" and (args.vals or args.keywords):
            result = recv  # x.type(torch.float32) / x.type(y.type()): a tensor, not a str
        if recv == BOOL_TENSOR and result is recv and _casts(attr, args):
            result = TENSOR  # mask.float(), mask.to(torch.long): no longer a mask
        if attr in BOOL_METHODS or (attr in ("to", "type") and _bool_dtype(args)):
            result = BOOL_TENSOR
        result = self.shapes.on_torch_call(api, node, recv, args.sized(api), args.kwvals, result)
        held = self.shapes.sample_kind(recv)
        if held is not None and attr in SAME_SHAPE and result[0] == "tensor":
            # ``t["boxes"].float()``: one sample cast or moved is still that sample
            return self.shapes.sample(result, held)
        if attr in INDEX_OPS:
            result = self._index_tensor(result)
        return self._mark_indices(_named_tuple(attr, args, 0, result))

    def _methods_held(self, recv: Val) -> tuple[str, ...]:
        """The repository methods a dict holds as values, read off an object without a call
        (``{"labels": self.loss_labels, "boxes": self.loss_boxes}``): a dispatch table."""
        out = []
        for _key, v in recv[1]:
            bound = self.bound_methods.get(id(v))
            if bound is not None and bound[0] is v and bound[1] not in out:
                out.append(bound[1])
        return tuple(out)

    def _subscript(self, node: cst.Subscript, store: bool = False) -> Val:
        self._count(node, SUB)
        recv = self.value(node.value)
        if recv[0] == "ret":
            # ``boxes[:, 0]`` of what another file's function returns: indexed as a tensor
            # is, so ask what it is as a method call on it asks (a mask compared out of it,
            # or one indexing it, is a finding only once it is known to be a tensor)
            self._sensitive(recv)
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
                    and not self._is_index_tensor(index)
                    and not self._is_const_mask(index)
                    and not self._decided(index)
                ):
                    index = BOOL_TENSOR  # x[mask], x[keep], x[valid]: named as masks are
                    named_mask = True
                elif recv[0] == "tensor" and self._is_arg_mask(index):
                    index = BOOL_TENSOR  # ``ann[ann[:, 4] != -1]``: only a mask indexes so
                elif (got := self.unpacked.get(id(index))) is not None and got[0] is index:
                    index = got[1]  # ``s[tuple(k.t())]``: the positions ``k`` holds
                indexes.append(index)
                if type(s.value) is cst.Integer:
                    const_index = int(s.value.value, 0)
            else:
                for part in (s.lower, s.upper, s.step):
                    if part is not None:
                        bound = self.value(part)
                        # ``x[:, :n]`` with ``n`` read from a tensor the code filled
                        # (``torch.IntTensor([hidden])[0]``): a number the code decided
                        bounds.append(NONTORCH if self._is_code_valued(bound) else bound)
        if (
            recv[0] == "ret"
            and not self.silent
            and any(self._is_arg_mask(i) or takes_tensor_only(i) for i in indexes)
        ):
            # a mask indexing what another file's function returns (``id_head =
            # gather(out, ind)`` then ``id_head[batch["mask"] > 0]``): the re-export round
            # knows only returns their own file's walk proved tensors; one the solver finds
            # is a tensor (a helper handed tensors by its callers) asks for a walk too
            self.sensitive.add(f"r:{recv[1]}")
        if recv[0] == "dict" and not store and not self.silent:
            methods = self._methods_held(recv)
            if methods:
                self.dispatched[id(node)] = methods
        if not store and len(indexes) == 1 and not bounds:
            sample = self._indexed_sample(node, recv, indexes[0])
            if sample is not None:
                return sample  # ``targets[i]`` in ``for i in range(len(targets))``
        if store and self._is_const_mask(recv):
            self._store_into_mask(node, [*indexes, *bounds])
        elif store and self.code_values.get(id(recv)) is recv:
            self._values_written(node)
        if store:
            self._store_data_key(node, recv, indexes)
        if not store and self._fixed_window(node.slice, bounds):
            self.shapes.on_window()
        if not store and self._random_length(node.slice):
            self.shapes.random_length(node)
        first = node.slice[0].slice if node.slice else None
        if recv == BATCH_MAX_TENSOR and not store:
            return recv  # ``max_size[-1]``: one of the batch's largest sizes
        if recv == SIZES_TENSOR and not store and not bounds and const_index == 0:
            # ``lengths[0]`` of the batch's sizes sorted in descending order: the batch's
            # largest, so a tensor sized by it is padded to it (unsorted, the first sample's
            # size changes from batch to batch all the same)
            return BATCH_MAX_TENSOR
        if recv[0] == "tensor":
            scalar_first = type(first) is cst.Index and (
                type(first.value) is cst.Integer
                or self._is_row(indexes[0])
                # ``flat[idx]`` with ``idx`` an index tensor of static shape: the result has
                # idx's shape where the varying first dimension was
                or (indexes[0][0] == "tensor" and self.shapes.varying_dim(recv) == 0)
            )
            dyn = self.shapes.on_subscript(node, recv, indexes, bounds, store, scalar_first)
            if dyn is not None:
                return dyn
            if (
                self._is_code_valued(recv)
                and not store
                and not any(_variable(i) and not self._decided(i) for i in indexes)
            ):
                # ``sizes[0]`` of what the code filled; ``torch.arange(n)[arange(n) % 2 ==
                # 0]``: positions the code picked with a constant mask (still positions)
                if not any(map(_variable, indexes)):
                    return self._code_valued(TENSOR)
                return self._decided_here(self._is_index_tensor(recv))
        elif recv[0] == "unknown" and not named_mask and any(map(_tensor_index, indexes)):
            # ``value[keep]`` with ``keep`` a boolean tensor (or an index tensor of a
            # data-dependent length, or a tuple of index tensors one of which is: a matcher's
            # ``(batch_idx, src_idx)``): only a tensor (or an array, known as such) takes one,
            # whatever holds ``value`` (a container's dict of fields filtered by one mask, a
            # list of per-image tensors read by position: ``matched[img][pos]``)
            got = self.shapes.on_subscript(node, PTENSOR, indexes, bounds, store)
            if BOOL_TENSOR not in indexes:
                self._sensitive(recv)  # a parameter the solver may prove a tensor: walk again
            return got or DYN_TENSOR
        elif recv[0] == "unknown" and any(
            b[0] == "tensor" and b != ARG_TENSOR and not self._is_code_valued(b) for b in bounds
        ):
            # ``ws[:, cutoff:]`` with ``cutoff`` a 0-d tensor (drawn by ``random_``, picked by
            # ``torch.where``): a slice bound held in a tensor is read on the host, whatever
            # holds ``ws`` (a mapping network's output of a class the config names); as
            # many rows as its value says
            got = self.shapes.on_subscript(node, PTENSOR, indexes, bounds, store)
            return got or DYN_TENSOR
        elif (
            recv[0] == "inst"
            and not self._is_torch(str(recv[1]))
            and any(map(takes_tensor_only, indexes))
        ):
            # ``instances[keep]`` of a repository class that holds per-box tensors: it indexes
            # each of them, so the container keeps as many boxes as the index says
            self.shapes.on_subscript(node, PTENSOR, indexes, bounds, store)
            return recv
        elif any(_variable(i) or i == BOOL_TENSOR for i in indexes) or any(map(_variable, bounds)):
            self._sensitive(recv)
        if is_dyn_number(recv):  # an element of a list read from tensor data
            return recv
        masks = [i for i in indexes if i == BOOL_TENSOR or is_host_mask(i)]
        if masks and (recv in (ARRAY, HOST_DATA) or (recv[0] == "nontorch" and is_host_dyn(recv))):
            # ``pairs[np.logical_not(np.isin(keys, pos))]``, ``pairs[torch.from_numpy(m)]``
            # of a numpy array: as many rows as the mask holds, on the host
            return host_dyn(node, tensor=any(map(tensor_derived, [recv, *masks])))
        if recv[0] == "nontorch" and is_host_dyn(recv) and _one_element(node, indexes):
            # ``rows_of[k]``: one element of host data sized by data: an array of such a
            # length when it holds those (:func:`host_elem`), else a number (or a row of a
            # static length), whose use as an index gathers no variable length
            inner = host_elem(recv)
            return inner if inner is not None else NONTORCH
        if recv == HOST_DATA or (recv[0] == "nontorch" and is_host_dyn(recv)):
            return recv
        if recv[0] == "seq":
            size = self.shapes.shape_entry(recv, const_index)
            if size is not None:
                return size  # ``t["boxes"].shape[0]``, ``probas.shape[1]`` of masked rows
        if recv[0] in ("seq", "tuple", "dict", "nontorch", "unknown", "inst"):
            for i in indexes:
                if is_dyn_number(i):
                    return i  # ``table[label.item()]``: which element is read is data
        if not store and self.shapes.sample_tensor(recv) and _indexes_first_dim(node):
            # ``truths[best_truth_idx]``, ``t[0]``: rows picked from one sample's own tensor
            # are as many as the index says, not that sample's count of objects
            return fresh(recv[0], recv[1])
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
        if recv[0] == "seq" and all(type(el.slice) is cst.Slice for el in node.slice):
            return recv  # ``x[1:]`` of a list is a list, not one of its elements
        if not store and recv in (TENSOR, PTENSOR, ARG_TENSOR) and _one_position(node, indexes):
            source = self._param_source(recv)
            entry = self.param_ids.get(id(recv))
            if source is not None and entry is not None and entry[2] is recv:
                # ``targets[idx]`` of a parameter taken for a tensor (a ``forward``
                # argument) is one of its rows, not the parameter: handed to a helper, it
                # must not carry the parameter's fact there (a list of per-image targets
                # would reach the helper as the whole list, not as one image's boxes); it
                # crosses as an element of the parameter. A mask's row keeps the mask's
                # identity, and with it its explanation
                row = self._derive(recv, source)
                if not self.silent:
                    self.param_elements[id(row)] = (row, entry[0], entry[1], "row")
                return row
        return _index(recv, index, const_index, self.owners)

    def _store_data_key(self, node: cst.Subscript, recv: Val, indexes: Sequence[Val]) -> None:
        """``scores[seq] = p`` with ``seq`` read from tensor data (``tuple(t.tolist())``,
        ``label.item()``) into a dict built here: its keys are data, so iterating it (``for s
        in sorted(scores)``) yields data and its length is data. The name then holds that
        data (what reading, iterating or counting it gives)."""
        key = indexes[0] if len(indexes) == 1 else UNKNOWN
        while key[0] == "seq" or (key[0] == "tuple" and key[1]):
            # ``tuple(prefix + [token.item()])``: a sequence of numbers read from data
            key = (
                key[1]
                if key[0] == "seq"
                else next((e for e in key[1] if is_dyn_number(e)), key[1][0])
            )
        if (
            recv[0] == "dict"
            and is_dyn_number(key)
            and type(node.value) is cst.Name
            and self.lookup(node.value.value) is recv
        ):
            self.bind(node.value.value, key)

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

    def _random_length(self, slices: Sequence[cst.SubscriptElement]) -> bool:
        """``x[s : s + n]`` or ``x[:n]`` (a step allowed) with a name of ``n`` holding a
        number drawn at random: the slice's length changes from one call to the next. The
        length is read as the upper bound less the lower (``s + n`` less ``s``), so a random
        start with a fixed extent (``x[s : s + 64]``, a crop of one size) is no such slice,
        nor a random step that the extent is a multiple of (``x[s : s + 24 * r : r]``: 24
        items), nor ``x[a:b]`` whose bounds do not say their difference."""
        for el in slices:
            s = el.slice
            if type(s) is not cst.Slice or s.upper is None:
                continue
            upper = s.upper
            if s.lower is None:
                extent: cst.CSTNode = upper
            elif (
                type(upper) is cst.BinaryOperation
                and type(upper.operator) is cst.Add
                and upper.left.deep_equals(s.lower)
            ):
                extent = upper.right
            else:
                continue
            step = s.step
            if (
                step is not None
                and type(extent) is cst.BinaryOperation
                and type(extent.operator) is cst.Multiply
            ):
                # ``x[s : s + n * rate : rate]`` takes n items whatever the rate: a rate
                # drawn at random cancels out of the length
                if extent.right.deep_equals(step):
                    extent = extent.left
                elif extent.left.deep_equals(step):
                    extent = extent.right
            if any(self.lookup(n.value) in (RAND, MAYBE_RAND) for n in _names_in(extent)):
                return True
        return False

    def _reads_state(self, expr: cst.BaseExpression, v: Val) -> bool:
        """Is ``expr`` (whose value is ``v``) a tensor an object keeps, read through one of its
        attributes (``model.stride.max()``, ``self.anchors[i]``), rather than data computed
        here? A model's strides, anchors and buffers are set when it is built: reading one on
        the host (``int(model.stride.max())``) reads a constant, not data. Only a probable
        tensor counts (the attribute's type is not known: a buffer registered by name, a
        stride set from outside); not a tensor known as such (a learned ``nn.Parameter``
        changes at every step), nor an attribute of a per-sample record, a container or an
        object of a class known to be no ``nn.Module`` (a detection container's
        ``boxes.tensor`` holds data)."""
        if v != PTENSOR:
            # a tensor known as such (``self.span = nn.Parameter(...)``, learned: its value
            # changes from step to step) or one of data-dependent shape is read as data
            return False
        while True:
            t = type(expr)
            if t is cst.Call and type(expr.func) is cst.Attribute:  # type: ignore[attr-defined]
                expr = expr.func.value  # type: ignore[attr-defined]
            elif t is cst.Subscript:
                expr = expr.value  # type: ignore[attr-defined]
            else:
                break
        if type(expr) is not cst.Attribute:
            return False
        root = expr.value
        while type(root) is cst.Attribute:
            root = root.value  # type: ignore[attr-defined]
        if type(root) is not cst.Name:
            return False
        owner = self.lookup(root.value)
        if self.shapes.sample_kind(owner) is not None or owner[0] in ("dict", "seq", "tuple"):
            return False
        if owner[0] == "inst" and not self._is_torch(owner[1]):
            info = self._own_class(owner[1])
            return info is None or self._module_kind(info) is not False
        return owner[0] in ("inst", "unknown", "ret")

    def _const_mask(self) -> Val:
        """A boolean tensor a factory filled with constants (``torch.ones(n,
        dtype=torch.bool)``, then ``mask[list_of_ids] = False``): which elements are True is
        decided by the code, not by data, so indexing with it keeps a static shape. It
        behaves as a plain tensor until data is stored into it (:meth:`_store_into_mask`)."""
        v = fresh(TENSOR[0], TENSOR[1])
        self.const_masks[id(v)] = v
        return v

    def _is_const_mask(self, v: Val) -> bool:
        return self.const_masks.get(id(v)) is v

    def _joins_masks(self, vals: Sequence[Val]) -> bool:
        """Whether joining `vals` (``torch.stack``, ``torch.cat``, a list of them) gives a mask of
        data: all are boolean tensors and one at least is a mask of data. A constant mask among
        them (``torch.stack((torch.ones_like(j), j, k))``: the rows that always match, then
        those that match by data) is still boolean, and the data mask decides the count."""
        return (
            bool(vals)
            and any(v == BOOL_TENSOR for v in vals)
            and all(v == BOOL_TENSOR or self._is_const_mask(v) for v in vals)
        )

    def _arg_mask(self) -> Val:
        """A comparison of a ``forward`` argument (``ann[:, 4] != -1``, ``labels >= 0``).

        An argument of a Module's ``forward`` may be a number (``forward(self, x, H, W)``),
        so the comparison stays an argument's value: a branch on it (``if H > 0``) reads no
        tensor. Used as the index of a tensor it can only be a boolean tensor, and its True
        count is read from the values the caller passes, whatever they are: a mask of data
        (:meth:`_subscript`). A comparison of an argument with values the code decided
        (``torch.arange(n) < lengths``) is a tensor's and a mask already."""
        v = fresh(ARG_TENSOR[0], ARG_TENSOR[1])
        self.arg_masks[id(v)] = v
        return v

    def _is_arg_mask(self, v: Val) -> bool:
        return self.arg_masks.get(id(v)) is v

    def _index_tensor(self, v: Val) -> Val:
        """``v`` marked as holding integer positions (``topk(k).indices``, ``argsort``,
        ``arange``): a name that reads like a mask (``keep``) does not make it one. Only a
        plain tensor is marked: one of a data-dependent shape stays what it is."""
        if v != TENSOR:
            return v
        out = fresh(TENSOR[0], TENSOR[1])
        self.index_tensors[id(out)] = out
        return out

    def _is_index_tensor(self, v: Val) -> bool:
        return self.index_tensors.get(id(v)) is v

    def _mark_indices(self, v: Val) -> Val:
        """``(values, indices)`` of a reduction with its indices marked as positions."""
        if v[0] == "tuple" and len(v[1]) == 2 and v[1][1] == TENSOR:
            return ("tuple", (v[1][0], self._index_tensor(v[1][1])))
        return v

    def _code_valued(self, v: Val) -> Val:
        """``v`` (a factory's plain tensor) marked as holding values the code decides from
        shapes and constants (``torch.arange(n)``, ``torch.ones(n)``): no tensor data went
        into them, so a comparison of them with constants is a constant mask."""
        if v != TENSOR or self._is_const_mask(v):
            return v  # a constant mask already says so (and knows when data is stored in it)
        out = fresh(TENSOR[0], TENSOR[1])
        self.code_values[id(out)] = out
        if self._is_index_tensor(v):
            self.index_tensors[id(out)] = out
        return out

    def _decided_here(self, positions: bool = False) -> Val:
        """A tensor the code computed from values it decided, with no data in them
        (``torch.arange(n) % 2``; ``positions``: the positions a constant mask picks out of
        ``torch.arange(n)``). Kept to this walk: the solver's facts do not carry it."""
        out = fresh(TENSOR[0], TENSOR[1])
        self.code_local[id(out)] = out
        if positions:
            self.index_tensors[id(out)] = out
        return out

    def _decided(self, v: Val) -> bool:
        """:meth:`_is_code_valued`, or computed here from such values (:meth:`_decided_here`)."""
        return self._is_code_valued(v) or self.code_local.get(id(v)) is v

    def is_code_valued(self, v: Val) -> bool:
        """Public for the facts handed to the solver (``pv.Tensor.code``)."""
        return self._is_code_valued(v)

    def _is_code_valued(self, v: Val) -> bool:
        """A tensor whose values no tensor data decided (a code-valued factory's result, or
        a constant mask)."""
        return self.code_values.get(id(v)) is v or self._is_const_mask(v)

    def _store_into_mask(self, node: cst.Subscript, keys: Sequence[Val]) -> None:
        """``mask[index] = ...`` into a constant mask: an index read from tensor values
        (``keep_mask[kept] = True`` after NMS), or bounds that are one sample's size
        (``padding[i, :h, :w] = False`` of a batch's padding mask), make its True count data,
        a mask like any other from then on."""
        if any(k[0] == "tensor" or _sized_by_data(k) or k == ELEM_SIZE for k in keys):
            self._mask_holds_data(node)

    def _values_written(self, node: cst.Subscript) -> None:
        """``grid[i] = value``: a tensor whose values the code decided holds whatever was
        written into it now (data, maybe), a plain tensor from then on."""
        root = _root_name(node.value)
        if root is not None:
            self.bind(root, TENSOR)

    def _mask_holds_data(self, node: cst.Subscript) -> None:
        root = _root_name(node.value)
        if root is not None:
            self.bind(root, BOOL_TENSOR)

    def _truths(self, v: Val) -> bool:
        """A list of truth values compared from data (the elements of a future mask)."""
        return v[0] == "seq" and self.truths.get(id(v[1])) is v[1]

    def _is_row(self, v: Val) -> bool:
        """Is ``v`` one element of a data-dependent tensor (a loop variable over it)?"""
        return self.rows.get(id(v)) is v

    def _reads_random(self, expr: cst.BaseExpression) -> bool:
        """Is ``expr`` (``t[0]``, ``t``) a tensor a random number was written into here?"""
        root = _root_name(expr)
        return root is not None and (self._function(), root) in self.random_filled


def _other_dim(node: cst.Call, varying: int | None) -> bool:
    """``x.size(k)`` with ``k`` a literal dimension other than the one known to vary."""
    first = node.args[0].value if node.args else None
    if varying is None or type(first) is not cst.Integer:
        return False
    return int(first.value, 0) != varying


def _one_element(node: cst.Subscript, indexes: Sequence[Val]) -> bool:
    """``a[k]``, ``a[0]``: one index that is a plain number (no slice, no array, no mask)."""
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return False
    v = indexes[0] if indexes else NONTORCH
    return (
        v[0] in ("nontorch", "unknown")
        and not is_host_dyn(v)
        and not is_host_mask(v)
        and v not in (HOST_DATA, ARRAY)
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


def _indexes_first_dim(node: cst.Subscript) -> bool:
    """``x[idx]``, ``x[0, :]``: the first dimension is indexed (not sliced, skipped with
    ``...`` or extended with ``None``)."""
    first = node.slice[0].slice if node.slice else None
    if type(first) is not cst.Index:
        return False
    value = first.value
    return not (type(value) is cst.Ellipsis or (type(value) is cst.Name and value.value == "None"))


def _one_position(node: cst.Subscript, indexes: Sequence[Val]) -> bool:
    """``x[i]``: one index, a host number (a position, not a tensor or a mask)."""
    return (
        len(node.slice) == 1
        and type(node.slice[0].slice) is cst.Index
        and len(indexes) == 1
        and indexes[0][0] in ("nontorch", "unknown")
    )


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


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    """The plain names an expression reads (``seq_len`` and ``frame_rate`` of ``seq_len *
    frame_rate``), not attribute names nor what a call's keywords are called."""
    if type(node) is cst.Name:
        return [node]
    if type(node) is cst.Attribute:
        return _names_in(node.value)
    if type(node) is cst.Arg:
        return _names_in(node.value)
    return [n for child in children_of(node) for n in _names_in(child)]


def _tensor_index(v: Val) -> bool:
    """An index only a tensor takes (:func:`takes_tensor_only`), or a tuple of index tensors
    one of which has a data-dependent length (``x[batch_idx, src_idx]`` written through a
    name: ``idx = (batch_idx, src_idx)`` then ``x[idx]``)."""
    return takes_tensor_only(v) or record_of_dynamic(v)
