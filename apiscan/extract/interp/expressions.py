"""Expression checking: what kind of value each expression holds.

``value``/``expr`` dispatch on the node type (``Extractor._expr``); a name is looked up in
:mod:`.scopes`, an attribute goes to :mod:`.members`, a call to :mod:`.calls`, a subscript to
:mod:`.shape_facts`. The handlers here cover the rest: operators (``a @ b`` is
``Tensor.matmul``; ``&``/``|`` of masks is a mask; a comparison of tensors is a mask, of numbers
read from data a truth value read from data), literals and containers (whose elements keep
their kinds), f-strings (their nodes numbered apart for the position mapping), conditional
expressions (a data-dependent test is a shape fact), ``await``, ``yield`` and ``:=``.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from apiscan.extract.facts import fresh
from apiscan.extract.interp.base import (
    ATTR,
    BINOP,
    LAYER,
    NAME,
    REFERENCES,
    _carries_data,
    _const_str,
    _sized_by_data,
    is_text,
    merge_dicts,
)
from apiscan.extract.shapes import (
    BATCH_MAX,
    BATCH_MAX_TENSOR,
    BOOL_TENSOR,
    DYN_TENSOR,
    HOST_DATA,
    SAMPLE_SIZE,
    SIZES_TENSOR,
    host_dyn,
    is_dyn_number,
    is_host_dyn,
    merge_numbers,
)
from apiscan.extract.tree import children_of
from apiscan.resolve.values import (
    ARG_TENSOR,
    ARRAY,
    NONTORCH,
    PTENSOR,
    TENSOR,
    UNKNOWN,
    Val,
    join,
    seq,
)

_CONSTANT_NAMES = frozenset({"True", "False", "None"})  # ast.Constant, not ast.Name

#: The Tensor method an arithmetic operator calls (what a finding on the operator names).
_BINOP_API: dict[type[cst.BaseBinaryOp], str] = {
    cst.MatrixMultiply: "torch.Tensor.matmul",
    cst.Add: "torch.Tensor.add",
    cst.Subtract: "torch.Tensor.sub",
    cst.Multiply: "torch.Tensor.mul",
    cst.Divide: "torch.Tensor.div",
}


#: Operands of arithmetic that keeps a batch's largest size: the batch maximum (a host number or
#: held in a tensor) and the element sizes it is compared with (``max_size[-1] - h``).
_PADDED_SIZES = (BATCH_MAX, BATCH_MAX_TENSOR, SIZES_TENSOR)


class ExpressionsMixin:
    """Expression evaluation and operators; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

    def value(self, node: cst.BaseExpression, usage: str = "reference") -> Val:
        """Evaluate an expression whose value is used (so a bare torch name is a use)."""
        h = self._expr.get(type(node))  # :meth:`expr`, inlined: the walk's busiest call
        v = h(node) if h is not None else self._generic(node)
        if v[0] == "qual" and type(node) in REFERENCES:
            self._emit_qual(v[1], node, node, "annotation" if self.annotating else usage)
        return v

    def expr(self, node: cst.BaseExpression) -> Val:
        h = self._expr.get(type(node))
        if h is not None:
            return h(node)
        return self._generic(node)

    def _generic(self, node: cst.CSTNode) -> Val:
        """Visit children of node types without a dedicated handler, in source order."""
        for child in children_of(node):
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
        name = node.value
        if name in _CONSTANT_NAMES:
            return NONTORCH
        self._count(node, NAME)
        return self.lookup(name)

    def _attribute(self, node: cst.Attribute) -> Val:
        self._count(node, ATTR)
        recv = self.expr(node.value)
        return self._member_ref(recv, node, call=False)[0]

    def _binop(self, node: cst.BinaryOperation) -> Val:
        self._count(node, BINOP)
        left = self.value(node.left)
        right = self.value(node.right)
        op = type(node.operator)
        if op is cst.Modulo and is_text(node.left):
            self._formats(node, list(right[1]) if right[0] == "tuple" else [right])
        if op in (cst.BitAnd, cst.BitOr, cst.BitXor) and BOOL_TENSOR in (left, right):
            return BOOL_TENSOR
        if op in (cst.BitAnd, cst.BitOr, cst.BitXor) and self._is_arg_mask(left):
            return left  # ``(ann[:, 4] != -1) & (ann[:, 2] > 0)``: still the same question
        if op in (cst.BitAnd, cst.BitOr, cst.BitXor) and self._is_arg_mask(right):
            return right
        if DYN_TENSOR in (left, right):
            # ``iw * ih / ua`` of boxes varying along one dimension: still that one
            dim = self.shapes.shared_dim((left, right))
            return self.shapes.vary_new(dim) if dim is not None else DYN_TENSOR
        if (
            BATCH_MAX_TENSOR in (left, right)
            or (BATCH_MAX in (left, right) and SIZES_TENSOR in (left, right))
        ) and all(v in _PADDED_SIZES or v[0] in ("nontorch", "unknown") for v in (left, right)):
            # ``max_size[-1] - h``, with ``h`` one image's size held in a tensor or not: still
            # the batch's largest size (the padding up to it)
            return BATCH_MAX_TENSOR
        if (
            ARG_TENSOR in (left, right)
            and all(v == ARG_TENSOR or v[0] in ("nontorch", "unknown") for v in (left, right))
            and op is not cst.MatrixMultiply
        ):
            return ARG_TENSOR  # H % 2 with H a forward argument: maybe an int, maybe a tensor
        if left[0] == "tensor" or right[0] == "tensor":
            certain = (left[0] == "tensor" and left[1]) or (right[0] == "tensor" and right[1])
            self.shapes.on_sample_use(node, (left, right), _BINOP_API.get(op, ""))
            if type(node.operator) is cst.MatrixMultiply:
                self.emit(
                    "torch.Tensor.matmul",
                    "operator",
                    "certain" if certain else "probable",
                    (node, "s"),
                    (node, "e"),
                )
            if certain and all(
                self._decided(v) if v[0] == "tensor" else v == NONTORCH for v in (left, right)
            ):
                # ``torch.arange(n) % 2``, ``(idx > 0) & (idx < n)`` of values the code
                # decided, with numbers that are no data: still decided by the code (a
                # comparison of it is a constant mask, indexing with one a static shape)
                return self._decided_here()
            return TENSOR if certain else PTENSOR
        if op is cst.Multiply and any(
            is_dyn_number(a) and b[0] == "seq" for a, b in ((left, right), (right, left))
        ):
            return host_dyn(
                node, tensor=True
            )  # ``n * [c]``: a host list as long as a number read from data
        merged = merge_numbers(left, right)
        if merged is not None:
            return merged
        if op is cst.Multiply:
            for a, b in ((left, right), (right, left)):
                if a[0] == "seq" and b == NONTORCH:
                    return a  # ``[torch.zeros((0, 6))] * n``: a list of such elements
        if op is cst.Add and ("seq" in (left[0], right[0]) or "tuple" in (left[0], right[0])):
            # ``(n,) + max_size``: a shape joined from parts keeps the part read from data
            for v in (left, right):
                if v[0] in ("seq", "tuple") and _sized_by_data(v):
                    return v
        if _array_operands([left, right]):
            # ``s[:, 1] / s[:, 0]``, ``a & b`` of numpy arrays: an array (a tensor's data
            # still, when one operand is: what is decided from it follows the tensor)
            return HOST_DATA if HOST_DATA in (left, right) else ARRAY
        if left[0] == "nontorch" and right[0] == "nontorch":
            return NONTORCH
        return UNKNOWN

    def _formats(self, node: cst.CSTNode, values: Sequence[Val]) -> None:
        """A string formatting of ``values``: each tensor among them is converted to a
        Python number or text, its values read on the host (a device synchronisation);
        recorded once per node. Not a value only guessed a tensor from a method numpy
        arrays share (``y.max()`` of a NumPy curve), nor a forward's argument (maybe a
        number)."""
        if self.silent or not any(
            v[0] == "tensor" and v[1] is not False and v != ARG_TENSOR for v in values
        ):
            return
        if all(n is not node for _, n in self.formatted):
            self.formatted.append((self._function(), node))

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
            if type(part) is cst.FormattedStringExpression:
                self._formats(part.expression, [self.value(part.expression)])
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
        if self._joins_masks(vals):
            return seq(BOOL_TENSOR)  # ``[torch.ones_like(j), j]``: masks, one of data
        v = vals[0]
        for other in vals[1:]:
            v = join(v, other)
        if v[0] == "nontorch":
            # ``[0, extra]`` with ``extra`` read from data: the list holds data
            v = next((e for e in vals if _carries_data(e) or e in (SAMPLE_SIZE, BATCH_MAX)), v)
        elif BATCH_MAX_TENSOR in vals and all(
            e == BATCH_MAX_TENSOR or e[0] == "nontorch" for e in vals
        ):
            # ``[0, max_size[-1] - w, 0, max_size[-2] - h]``: padding amounts up to the batch's
            # largest sizes, as :meth:`_tuple`'s elements keep them
            v = BATCH_MAX_TENSOR
        return seq(v)

    def _set(self, node: cst.Set) -> Val:
        self._elements(node.elements)
        return NONTORCH

    def _dict(self, node: cst.Dict) -> Val:
        items: list[tuple[str, Val]] = []
        parts: list[tuple[str | None, Val]] = []
        literal, merged = True, False
        for el in node.elements:
            if type(el) is cst.DictElement:
                self.value(el.key)
                key = _const_str(el.key)
                v = self.value(el.value)
                if key is None:
                    literal = False
                    parts.append((None, ("dict", ((None, v),))))
                else:
                    items.append((key, v))
                    parts.append((key, v))
            else:
                parts.append((None, self.value(el.value)))  # ``{**data, **pred}``
                literal, merged = False, True
        if literal:
            return ("dict", tuple(items))
        return (merge_dicts(parts) if merged else None) or NONTORCH

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
            if self.shapes.read_from_data(v) or (v[0] == "tensor" and v[1] != "arg"):
                # ``len(seq) >= 1 and seq[-1] >= t`` with ``seq`` read from data; ``flag or
                # not torch.all(q == 0)``: the truth of the tensor is read whenever the other
                # operand lets the condition reach it
                return v
        for v in (left, right):
            if is_dyn_number(v):
                # ``fg_num > 0 and bg_num > 0`` with the counts the lengths of ``nonzero``'s
                # results: the test follows those lengths
                return v
        return join(left, right)

    def _compare(self, node: cst.Comparison) -> Val:
        vals = [self.value(node.left)]
        tensorish = True
        for target in node.comparisons:
            vals.append(self.value(target.comparator))
            if type(target.operator) in (cst.Is, cst.IsNot, cst.In, cst.NotIn):
                tensorish = False
        if not tensorish and all(type(t.operator) in (cst.In, cst.NotIn) for t in node.comparisons):
            # ``label.item() in thing_ids``: whether it is there is read from tensor data
            return self.shapes.on_membership(node, vals[0], vals[1:])
        if tensorish:
            exprs = [node.left, *(t.comparator for t in node.comparisons)]
            if self._compares_code_values(vals, exprs):
                return self._const_mask()  # ``torch.arange(n) != pos``: decided by the code
            for v in vals:
                if v[0] == "tensor" and v != ARG_TENSOR:
                    return BOOL_TENSOR
            for v, e in zip(vals, exprs, strict=True):
                if v[0] in ("unknown", "ret"):
                    # ``m >= 0`` of a parameter, or of what another file's function returns:
                    # a mask if it is a tensor
                    self._sensitive(v)
                if v[0] == "unknown" and type(e) is cst.Subscript and type(e.value) is cst.Name:
                    # ``targets[:, 0] == i``: a column of a parameter, a mask too
                    self._sensitive(self.lookup(e.value.value))
            if ARG_TENSOR in vals:
                return self._arg_mask()
            for v in vals:
                if is_dyn_number(v):
                    truth = fresh(v[0], v[1])  # a truth value read from data
                    self.truths[id(truth)] = truth
                    return truth
            if _array_operands(vals) or _host_data_operands(vals, self.host_items):
                # ``tokens.numpy() == eos``: a numpy mask (its nonzero is numpy's), of the
                # tensor's data when an operand is
                return HOST_DATA if HOST_DATA in vals else ARRAY
        if all(v[0] == "nontorch" for v in vals):
            return NONTORCH
        return NONTORCH if not tensorish else UNKNOWN

    def _compares_code_values(
        self, vals: Sequence[Val], exprs: Sequence[cst.BaseExpression]
    ) -> bool:
        """A comparison whose tensors all hold values the code decided (``torch.arange(n)``,
        a constant mask) against host numbers that are no data (a literal, a size of a
        static shape, an attribute of the module set at construction, ``self.pos``):
        which elements are True is decided without reading tensor data, so indexing with the
        mask keeps a static shape. An unresolved name (a parameter: ``lengths``) may be a
        tensor of data, and keeps the mask a data mask."""
        tensors = [v for v in vals if v[0] == "tensor"]
        if not tensors or not all(map(self._decided, tensors)):
            return False
        for v, e in zip(vals, exprs, strict=True):
            if v[0] == "tensor" or v == NONTORCH:
                continue
            if v[0] != "unknown" or type(e) is not cst.Attribute:
                return False
            self._sensitive(v)
        return True

    def _ifexp(self, node: cst.IfExp) -> Val:
        body = self.value(node.body)
        self.shapes.on_condition(node, self.value(node.test), "conditional expression")
        orelse = self.value(node.orelse)
        self.branches[id(node)] = (body, orelse)
        one, other = self._layer_classes(body), self._layer_classes(orelse)
        if one and other and body != orelse:
            return (LAYER, tuple(sorted({*one, *other})))  # partial(nn.Conv2d) if c else nn.Linear
        loader = self._loader_choice(body, orelse)
        if loader is not None:
            return loader  # ``DataLoader if weighted else RepeatLoader``: a loader either way
        taken = self._tensor_test(node.test)
        if taken is not None:
            return body if taken else orelse  # ``x.clone() if isinstance(x, Tensor) else ...``
        # ``raw_model = model.module if ddp else model``: the model a data-parallel wrapper
        # holds, or the model itself: either way the model
        for inner, outer, whole in (
            (node.body, node.orelse, orelse),
            (node.orelse, node.body, body),
        ):
            if (
                type(inner) is cst.Attribute
                and inner.attr.value == "module"
                and whole[0] == "inst"
                and inner.value.deep_equals(outer)
            ):
                return whole
        return join(body, orelse)

    def _await(self, node: cst.Await) -> Val:
        return self.value(node.expression)

    def _yield(self, node: cst.Yield) -> Val:
        v = node.value
        if type(v) is cst.From:
            got = self._element(self.value(v.item))  # ``yield from it``: its elements
        else:
            got = self.value(v) if v is not None else NONTORCH
        if self.yields:
            self.yields[-1].append(got)
        return UNKNOWN

    def _namedexpr(self, node: cst.NamedExpr) -> Val:
        binder = self.target(node.target)
        v = self.value(node.value)
        self.bind_target(binder, v)
        return v


def _host_data_operands(vals: Sequence[Val], host_items: dict[int, Val]) -> bool:
    """A comparison of host data of a data-dependent length (``np.unique(labels)``, a list
    filtered on values), or of one of its elements (``c`` in ``for c in np.unique(labels)``,
    kept in ``host_items``), with operands of unknown kind and no tensor: the host computes
    it (``pred_cls == c`` over numpy arrays is a numpy mask, and its ``.sum()`` a numpy
    number, not a tensor read on the host)."""
    return any(is_host_dyn(v) or host_items.get(id(v)) is v for v in vals) and all(
        v[0] in ("nontorch", "unknown", "seq") for v in vals
    )


def _array_operands(vals: Sequence[Val]) -> bool:
    """Operands of which one is a numpy-like array (or a tensor's data on the host) and none
    is known to be anything but a plain value: numpy computes the result, an array too."""
    return any(v in (ARRAY, HOST_DATA) for v in vals) and all(
        v[0] in ("nontorch", "unknown") for v in vals
    )
