"""Owners and types: member lookup on a receiver, and how sure the walk is of it.

``recv.attr`` is a torch API only when the receiver's kind says so: a tensor (certain or
probable), an instance of a torch class, an instance of a class of this file (its own methods
and attributes win over inherited torch ones; its bases are flattened in MRO-ish order), of a
class in another file (left pending for the cross-file join), or a value of unknown kind
(guessed by the method's name, only in a file that handles torch objects and never for a
method numpy arrays share). This part also says what iterating over a value yields, whether a
class is an ``nn.Module``, which torch classes a layer-building value stands for, and what
``super().m(...)`` calls.
"""

from __future__ import annotations

import libcst as cst

from apiscan.extract.facts import fresh
from apiscan.extract.interp.base import (
    LAYER,
    SAME_SHAPE,
    ClassInfo,
    _Args,
    _join_all,
    _root_name,
    _sized_by_data,
    _variable,
    merge_dicts,
)
from apiscan.extract.records import ANY_RECEIVER, REF, RETURNS
from apiscan.extract.shapes import (
    HOST_DATA,
    element_sizes,
    host_dyn,
    host_elem,
    is_dyn_tensor,
    is_host_dyn,
    record_of_dynamic,
    sized_by_tensor,
    sizes_maximum,
)
from apiscan.extract.tree import descendants
from apiscan.resolve.owners import MODULE_TENSOR_ATTRS, SELF_RETURNING
from apiscan.resolve.values import (
    ARRAY,
    NON_TORCH_PACKAGES,
    NONTORCH,
    PTENSOR,
    SIZE,
    TENSOR,
    UNKNOWN,
    Val,
    element,
    inst,
    seq,
)

#: Attributes only torch tensors have (numpy arrays share shape/dtype/ndim, so those are not
#: reported on receivers of unknown type).
TENSOR_ONLY_ATTRS = frozenset({"requires_grad", "grad", "is_cuda", "grad_fn", "is_leaf"})

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

#: Methods of Python's own containers and strings: ``cfg.get(...)``, ``parts.append(...)``
#: on an unknown receiver are these far more often than a repo class's method.
BUILTIN_METHODS = frozenset(
    name
    for t in (dict, list, str, set, bytes, tuple, int, float)
    for name in dir(t)
    if not name.startswith("_")
)


#: Methods of numpy arrays that no torch class has: the receiver is an array.
#: Attributes of a numpy array that describe its layout, not its values.
HOST_SHAPE_ATTRS = frozenset({"shape", "size", "ndim", "dtype"})
NUMPY_ONLY_METHODS = frozenset({"astype", "tobytes", "tofile", "ptp", "argpartition", "itemset"})


class MembersMixin:
    """Member lookup, class hierarchy and owner confidence; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

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
        if not call and node is self.partial_head:
            self.partial_read = self._method_read(recv, attr)
        if kind == "qual":
            return self._extend(recv[1], attr), False
        if kind == "seq" and call and args is not None and attr == "max" and element_sizes(recv):
            # ``np.array(widths).max()`` of the sizes of a batch's images: the largest
            return sizes_maximum(recv, bool(args.vals) or "axis" in args.keywords), True
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
                if call and recv[1] is False and attr in NDARRAY_METHODS:
                    # ``output.reshape(output.size).copy()``: a method numpy arrays have and
                    # tensors lack, on a value only guessed a tensor (from a method both
                    # share): it was an array all along, and so was what it came from
                    self._arrays_after_all(node.value)
                    return ARRAY, True
                return UNKNOWN, True
            if call and args is not None and self.owners.rejects(api, args.keywords):
                return UNKNOWN, True  # `masks.repeat(2, axis=0)`: not a tensor after all
            conf = "certain" if recv[1] and not self.shapes.guessed(recv) else "probable"
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
        if kind == "class" and call and attr == "apply":
            # ``Recompute.apply(fn, x)`` of a class of this file (an autograd Function): an
            # edge the call graph follows to its forward and backward, as it does for a class
            # imported from another file (a qualified name's call)
            self._call_fact(f"{self.module_name}.{recv[1]}.{attr}", end)
            return UNKNOWN, True
        if kind == "class" and call:
            info = self.classes.get(recv[1])
            if info is None or attr in info.methods:
                # ``GPT.from_pretrained(args.model)``: a classmethod (or static method) of a
                # class of this file called through its class: an edge of the call graph,
                # as a call through an object is (what loads weights runs)
                self._call_fact(f"{self.module_name}.{recv[1]}.{attr}", end)
        if kind == "class" and not call:
            info = self.classes.get(recv[1])
            if info is None or attr in info.methods:
                # ``collate_fn=Dataset.collate_fn``: a static method read off its own class
                # (or off one defined further down, not walked yet), named by identity for
                # what reads it as a callable (as off an object)
                read = fresh(UNKNOWN[0], UNKNOWN[1])
                self.bound_methods[id(read)] = (read, f"{self.module_name}.{recv[1]}.{attr}")
                return read, True
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
            if attr in NUMPY_ONLY_METHODS:
                # ``l[1].astype(int)``: no torch class has the method, numpy's arrays do; what
                # it returns (and so what ``.clip()`` on it returns) is an array
                if type(node.value) is cst.Name and self.lookup(node.value.value) is recv:
                    self.bind(node.value.value, ARRAY)
                return ARRAY, True
            if type(node.value) is cst.Name and self.unimported_module(node.value.value):
                return UNKNOWN, True  # ``math.sqrt(len(x))`` with ``math`` never imported
            guess = self.owners.guess(attr, _hint(node.value))
            if guess is None or (args is not None and self.owners.rejects(guess[0], args.keywords)):
                return UNKNOWN, True
            api, result = guess
            if attr == "numpy":
                result = ARRAY  # whatever the receiver, ``.numpy()`` hands back a numpy array
            source = self._param_source(recv)
            self.emit(api, usage, "probable", (node, "a"), (end, "e"), args, param=source)
            if call_node is not None and self.says_torch:
                # ``field.nonzero()`` in a file that handles torch: data on a probable tensor
                guessed = self.shapes.on_guessed_call(api, call_node, result)
                if guessed is not None:
                    return guessed, True
                if (
                    attr == "item"
                    and api == "torch.Tensor.item"
                    and self.walked_defs
                    and _batch_field(self.walked_defs[-1], node.value)
                ):
                    # ``[o.item() for o in data["num_objects"]]`` on a field of a batch the
                    # function is handed: a number read from the values of what is a tensor
                    # or an array alike, data either way, so a slice bound or a size taken
                    # from it varies with the data as one read off a known tensor does (a
                    # branch on it is left alone)
                    self.shapes.unbranched(call_node)
                    result = self.shapes.on_sync(call_node, PTENSOR)
            if source is not None and api.startswith("torch.Tensor."):
                result = self._derive(result, source)
                if args is not None and any(_variable(v) for v in args.vals):
                    self._sensitive(recv)  # x.new_zeros((n, 4)) with n from data
            elif (
                call_node is not None
                and args is not None
                and api.startswith("torch.Tensor.")
                and any(map(_sized_by_data, [*args.vals, *args.starred, *args.kwvals.values()]))
            ):
                # ``images[0].new_zeros(batch_shape)``, ``images[0].new(*batch_shape)`` with
                # a size from data or a batch maximum: the size rules hold whatever the
                # receiver turns out to be
                result = self.shapes.on_torch_call(
                    api, call_node, PTENSOR, args.sized(api), args.kwvals, result
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
            held = self.shapes.sample_kind(recv)
            if held is not None and call and attr in SAME_SHAPE and result[0] == "tensor":
                # ``[t.cuda() for t in targets]``: each sample moved or cast is still that
                # sample, of its own length
                return self.shapes.sample(result, held), True
            if (
                attr == "size"
                and call_node is not None
                and self.shapes.sample_kind(recv) is not None
            ):
                # ``x[1].size(1) for x in batch`` (a collate's items): one sample's own size,
                # as ``x[1].shape[1]`` is
                first = call_node.args[0].value if call_node.args else None
                if first is None:
                    return self.shapes.shape_of(node, recv), True
                dim = int(first.value, 0) if type(first) is cst.Integer else None
                return self.shapes.sample_size(recv, dim) or result, True
            return result, True
        if kind == "nontorch":
            if recv[1] == "array":
                return ARRAY, True
            if attr in HOST_SHAPE_ATTRS and not call:
                # ``a.shape``, ``a.size`` of tensor data on the host: the tensor's own, static;
                # of host data sized by a tensor's data: its length, data. Of host data sized
                # by host data (``np.unique(sizes, axis=0).shape[0]`` of a dataset's arrays):
                # a plain number, as ``len()`` of it is; a branch on it is host work no graph
                # compiles
                if sized_by_tensor(recv):
                    return self.shapes.size_read(node, recv), True
                if recv == HOST_DATA or is_host_dyn(recv):
                    return NONTORCH, True
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
            if call and attr == "update" and args is not None:
                self._merge_into(node.value, recv, args)
                return NONTORCH, True
            if attr in ("get", "pop", "setdefault"):
                return UNKNOWN, True
            if attr == "values":
                return seq(_join_all([v for _, v in recv[1]]) if recv[1] else UNKNOWN), True
            if attr == "items":
                vals = _join_all([v for _, v in recv[1]]) if recv[1] else UNKNOWN
                return seq(("tuple", (NONTORCH, vals))), True
            return NONTORCH, True
        return UNKNOWN, True

    def _arrays_after_all(self, node: cst.BaseExpression) -> None:
        """Bind as an array each name ``node`` reads through methods numpy arrays have
        (``output`` of ``output.reshape(output.size)``), when the walk held it for a value of
        unknown type or a guessed tensor: a numpy-only method called on what they return
        shows they were arrays (:meth:`_member_ref`), so what is computed from them later
        (``output[np.where(output == target)[0]]``) is host work, no tensor's shape."""
        while True:
            if type(node) is cst.Call and type(node.func) is cst.Attribute:
                if node.func.attr.value not in NDARRAY_METHODS:
                    return
                node = node.func.value
            elif type(node) is cst.Name:
                held = self.lookup(node.value)
                if held[0] == "unknown" or (held[0] == "tensor" and held[1] is False):
                    self.bind(node.value, ARRAY)
                return
            else:
                return

    def _collect_item(self, holder: cst.BaseExpression, recv: Val, added: Val) -> bool:
        """``added`` put into the list ``recv`` that the name ``holder`` holds, by
        ``holder.append(added)`` or ``holder[i] = added`` (``output = [torch.zeros((0, 6))] *
        n`` then ``output[i] = x[keep]``): a data-dependent element makes it a list of those.
        Whether it did."""
        if recv[0] != "seq" or type(holder) is not cst.Name:
            return False
        held = self.shapes.collect(recv[1], added)  # a data-dependent element
        if held is None or self.lookup(holder.value) is not recv:
            return False
        self.bind(holder.value, seq(held))
        return True

    def _merge_into(self, holder: cst.BaseExpression, recv: Val, args: _Args) -> None:
        """``merged.update(pred)``, ``merged.update(extra=1)`` on a name holding a dict: the
        name holds the merged dict from here on (see :func:`merge_dicts`)."""
        if type(holder) is not cst.Name or self.lookup(holder.value) is not recv:
            return
        parts: list[tuple[str | None, Val]] = [(None, recv)]
        parts += [(None, v) for v in (*args.vals[:1], *args.double_starred)]
        parts += list(args.kwvals.items())
        merged = merge_dicts(parts)
        if merged is not None and merged != recv:
            self.bind(holder.value, merged)

    def _collect(self, recv: Val, node: cst.Attribute, args: _Args | None) -> None:
        """``outputs.append(t)`` on a name holding an empty list (``outputs = []``) and a tensor
        ``t``: the list collects tensors, so ``for x in outputs: x.shape`` reads a Tensor's
        attribute. Data-dependence is not carried over (a list of masks stays a list of
        tensors): the shape rules follow lists on their own. Two exceptions: a matcher's
        ``(rows, cols)`` pairs of data-dependent length, and host values appended under a
        data-dependent branch (the list is as long as the data says: a round trip if it
        comes back to torch)."""
        if (
            args is not None
            and len(args.vals) == 1
            and self._collect_item(node.value, recv, args.vals[0])
        ):
            return
        if args is not None and len(args.vals) == 1 and _item_of_name(node.value):
            # ``per_level[i].append(boxes[keep])`` on ``per_level = [[] for _ in levels]``: a
            # list of lists, one of which collects data-dependent tensors (what
            # ``per_level[i] = torch.cat(per_level[i])`` joins, and the caller is handed)
            outer = node.value.value.value  # type: ignore[attr-defined]
            held_outer = self.lookup(outer)
            held = self.shapes.collect(recv[1], args.vals[0])
            if held is not None and held_outer[0] == "seq" and held_outer[1][0] == "seq":
                self.bind(outer, self.shapes.relay([args.vals[0]], seq(seq(held))))
            return
        if (
            recv[1] != UNKNOWN
            or args is None
            or len(args.vals) != 1
            or args.keywords
            or args.star
            or type(node.value) is not cst.Name
            or self.lookup(node.value.value) is not recv
        ):
            return
        if args.vals[0][0] not in ("tensor", "tuple"):
            if args.vals[0][0] == "nontorch" and self.shapes.conditional():
                # `keep.append(k)` under `if area > 0:`: a host list as long as data says
                self.bind(node.value.value, host_dyn(node, tensor=True))
            return
        if args.vals[0][0] == "tuple":
            if record_of_dynamic(args.vals[0]):
                self.bind(node.value.value, seq(args.vals[0]))  # per-image (rows, cols) pairs
            return
        certain = args.vals[0][1] is not False
        self.bind(node.value.value, seq(TENSOR if certain else PTENSOR))

    def _method_read(self, recv: Val, attr: str) -> str:
        """The callee ``recv.attr`` names when read to be called later (bound by a partial):
        a method of a repository class (``pkg.Diffusion.training_losses``), or ``?.attr``
        on an object of unknown class, as a call of it would be recorded; "" for anything
        torch's, a builtin container's or private."""
        kind = recv[0]
        if kind == "inst" and not self._is_torch(recv[1]) and self._is_local(recv[1]):
            cls = recv[1]
            own = cls.startswith(self.module_name + ".")
            info = self.classes.get(cls[len(self.module_name) + 1 :]) if own else None
            if info is not None and attr not in info.methods:
                return ""  # an attribute (a criterion object): its value says what runs
            return f"{cls}.{attr}"  # a method, or one of a class the join resolves
        if (
            kind in ("unknown", "ret")
            and not attr.startswith("_")
            and attr not in BUILTIN_METHODS
            and self.api.member("torch.Tensor", attr) is None
            and self.api.member("torch.nn.Module", attr) is None
        ):
            return f"{ANY_RECEIVER}.{attr}"
        return ""

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
        info = (
            self.classes.get(cls[len(self.module_name) + 1 :])
            if cls.startswith(self.module_name + ".")
            else None
        )
        if self._is_torch(cls) and info is None:
            own = self._own_package_call(f"{cls}.{attr}", end, args, True) if call else None
            made = self._torch_member(cls, recv, node, attr, call, args, end, usage)
            return own if own is not None else made
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
                return self._returned(f"{cls}.{attr}", None, args, True)
            if attr == "forward":
                return PTENSOR
            if not call:
                # a method (or attribute) read off the object: named by identity, for what
                # reads it as a callable (``collate_fn=dataset.collate_fn``)
                read = fresh(UNKNOWN[0], UNKNOWN[1])
                self.bound_methods[id(read)] = (read, f"{cls}.{attr}")
                return read
            return recv if attr in SELF_RETURNING else UNKNOWN
        if attr in info.attrs:
            v = self._attr_fact(cls, attr, self._walked_return(info.attrs[attr])) or UNKNOWN
            return self._call_value(v, args, end) if call else v
        if attr in info.methods:
            if call:
                self._call_fact(f"{cls}.{attr}", end)
                self._site(f"{cls}.{attr}", end, args, True)
                got = self._returned(f"{cls}.{attr}", info.returns.get(attr), args, True)
                if got[0] == "unknown" and attr not in info.returns:
                    # the method is defined below this call: what it returns is known once
                    # it is walked (see :meth:`_walked_return`)
                    got = fresh(got[0], got[1])
                    self.later_returns[id(got)] = (got, info, attr)
                return got
            # A property (or a bound method) read without a call: what the property returns
            # if known; on a class that is no nn.Module, nothing torch (`self.run.log(...)` in
            # a logger is not Tensor.log). Either may run where it is read or later through a
            # dict (`{"labels": self.loss_labels}`): an edge of the call graph.
            self._call_fact(f"{cls}.{attr}", end, REF)
            known = info.returns.get(attr, UNKNOWN)
            if known[0] == "unknown" and self._module_kind(info) is False:
                known = NONTORCH
            read = fresh(known[0], known[1])  # named by identity: what it reads (a collate)
            self.bound_methods[id(read)] = (read, f"{cls}.{attr}")
            return read
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
                    return self._returned(callee, base.returns.get(attr), args, True)
                stack.extend(reversed(base.bases))
                continue
            if b[0] == "qual" and self._is_local(b[1]) and not self._is_torch(b[1]):
                callee = f"{b[1]}.{attr}"
                self._call_fact(callee, node)
                self._site(callee, node, args, True)
                return self._returned(callee, None, args, True)
            return UNKNOWN
        return UNKNOWN

    def _element(self, v: Val) -> Val:
        """What iterating over ``v`` yields (containers of modules yield modules), noted as an
        element of the parameter ``v`` is, if it is one (see ``param_elements``)."""
        elem = self._element_kind(v)
        entry = self.param_ids.get(id(v))
        if entry is not None and entry[2] is v and not self.silent and elem is not NONTORCH:
            if any(elem is e for e in (UNKNOWN, TENSOR, PTENSOR)):
                elem = fresh(elem[0], elem[1])  # a shared constant: named by a copy
            self.param_elements[id(elem)] = (elem, entry[0], entry[1], "iter")
        return elem

    def _element_kind(self, v: Val) -> Val:
        if v[0] == "inst" and self._is_torch(v[1]):
            cls = v[1].rpartition(".")[2]
            if cls in ("ModuleList", "Sequential"):
                return inst("torch.nn.Module")
            if cls == "ParameterList":
                return TENSOR
            if cls == "DataLoader":
                return PTENSOR  # a batch: a tensor, or tuples/lists/dicts of tensors
        if v[0] == "inst" and not self._is_torch(v[1]):
            info = self._own_class(v[1])
            if info is not None and self._loader_class(("class", info.qualname)):
                return PTENSOR  # a subclass of DataLoader defined here: batches all the same
        if v[0] == "nontorch" and is_host_dyn(v):
            # an element of host data sized by data: an array of such a length where it
            # holds those (:func:`host_elem`), else a number (or a row of a static length)
            inner = host_elem(v)
            if inner is not None:
                return inner
            item = fresh(NONTORCH[0], NONTORCH[1])
            self.host_items[id(item)] = item
            return item
        if is_dyn_tensor(v):
            # one row of a data-dependent tensor (``for i in keep``: one index, ``for box in
            # boxes[mask]``: one box) has a static shape; only how many there are varies
            row = fresh(TENSOR[0], not self.shapes.guessed(v))  # ``for c in guessed.unique()``
            self.rows[id(row)] = row
            return row
        return self._element_of_param(v, self.shapes.relay([v], element(v)))

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

    def _layer_classes(self, v: Val) -> tuple[str, ...]:
        """The torch classes a value stands for when called (a class, or a LAYER value)."""
        if v[0] == LAYER:
            return tuple(v[1])
        if v[0] == "qual" and self._is_torch(v[1]):
            canon = self.api.canonical(v[1]) or v[1]
            if self.api.kind(canon) == "class":
                return (canon,)
        return ()

    def _walked_return(self, v: Val) -> Val:
        """``v``, unknown when a method of this class defined further down returned it
        (``self.tags = self.load_tags(f)`` in ``__init__``), as that method was found to return
        once walked: a numpy array built from a file is host data, never a guessed tensor
        that an index read from tensor data would gather from."""
        later = self.later_returns.get(id(v))
        if later is None or later[0] is not v:
            return v
        return later[1].returns.get(later[2], v)

    def _may_guess(self, attr: str) -> bool:
        """In a file that says nothing of torch, only a method numpy arrays lack may be a
        tensor's (and never in a file of another tensor framework)."""
        return not self.foreign_framework and attr not in NDARRAY_METHODS


def _batch_field(func: cst.FunctionDef, recv: cst.BaseExpression) -> bool:
    """Is ``recv`` an item read off a parameter of ``func`` by subscripts (``data["n"][0]``),
    or a loop's (or a comprehension's) name over such an item (``o`` in ``for o in
    data["info"]["num_objects"]``)? Such a field of a batch holds data; a name bound by a
    call (``loss = criterion(out, y)``) is left alone."""
    params = {p.name.value for p in (*func.params.posonly_params, *func.params.params)}
    params |= {p.name.value for p in func.params.kwonly_params}
    params.discard("self")

    def field(expr: cst.BaseExpression) -> bool:
        return type(expr) is cst.Subscript and _root_name(expr) in params

    if field(recv):
        return True
    if type(recv) is not cst.Name:
        return False
    name = recv.value
    return any(
        type(node) in (cst.CompFor, cst.For)
        and type(node.target) is cst.Name  # type: ignore[attr-defined]
        and node.target.value == name  # type: ignore[attr-defined]
        and field(node.iter)  # type: ignore[attr-defined]
        for node in descendants(func)
    )


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


def _item_of_name(node: cst.BaseExpression) -> bool:
    """``xs[i]``: one item of a name, indexed by a single plain index."""
    return (
        type(node) is cst.Subscript
        and type(node.value) is cst.Name
        and len(node.slice) == 1
        and type(node.slice[0].slice) is cst.Index
    )
