"""What a parameter's declared type says of its value: containers of tensors and type comments.

An annotation names one class (``x: Tensor``, read in :mod:`.scopes`); this part reads the
containers around it, ``list[Tensor]``, ``Optional[list[Tensor]]``, ``dict[str, Tensor]``, and
the declarations TorchScript code writes as a comment under the ``def`` line
(``# type: (list[dict[str, Tensor]], list[Tensor]) -> Tensor``), which give the parameters of
torchvision's detection code their types. A per-image list of tensors is what a detector's
matcher hands its loss: its elements, compared with a number, are boolean masks, and the
rows they select have a data-dependent count. Annotations are evaluated silently here (the
walk of the annotation itself, its counts and uses, happens where it is written).
"""

from __future__ import annotations

import re

import libcst as cst

from apiscan.resolve.values import TENSOR, Val, seq, split_top

#: Generic containers whose elements are all of the (first) type argument.
_SEQUENCES = frozenset(
    {"list", "List", "Sequence", "Iterable", "Iterator", "MutableSequence", "Collection"}
)
_MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict"})
#: ``# type: (a, b) -> r`` on the line after a ``def`` (or after its colon)
_TYPE_COMMENT = re.compile(r"#\s*type:\s*\((.*)\)\s*->")
#: ``# type: list[Tensor]`` after one parameter
_PARAM_COMMENT = re.compile(r"#\s*type:\s*(.+?)\s*$")


class AnnotationHintsMixin:
    """Container annotations and type comments as parameter hints; mixed into ``Extractor``."""

    __slots__ = ()  # the walk's attributes are Extractor's slots

    def _container_hint(self, node: cst.BaseExpression) -> Val | None:
        """The value a container annotation declares (``list[Tensor]`` → a sequence of
        tensors), or None when it is no container of something known."""
        if type(node) is cst.SimpleString:
            try:
                node = cst.parse_expression(node.evaluated_value)  # "list[Tensor]"
            except (cst.ParserSyntaxError, TypeError):
                return None
        if type(node) is not cst.Subscript:
            return None
        base = node.value
        name = base.attr.value if type(base) is cst.Attribute else getattr(base, "value", "")
        args = [el.slice.value for el in node.slice if type(el.slice) is cst.Index]
        if name == "Optional" and len(args) == 1:
            return self._declared(args[0])
        if name in _SEQUENCES and args:
            inner = self._declared(args[0])
            return seq(inner) if inner is not None else None
        if name in ("tuple", "Tuple") and len(args) == 2 and type(args[1]) is cst.Ellipsis:
            inner = self._declared(args[0])
            return seq(inner) if inner is not None else None
        if name in _MAPPINGS and len(args) == 2:
            inner = self._declared(args[1])
            return ("dict", ((None, inner),)) if inner is not None else None
        return None

    def _declared(self, node: cst.BaseExpression) -> Val | None:
        """The value a type expression declares, evaluated without counting or reporting."""
        self.silent += 1
        try:
            found = self._container_hint(node) or self._annotation(node)
        finally:
            self.silent -= 1
        if found is None and type(node) is cst.Name and node.value == "Tensor":
            return TENSOR  # TorchScript's comments name torch.Tensor without importing it
        return found

    def _type_comment_hints(
        self, node: cst.FunctionDef, hints: dict[str, Val | None], skip_first: bool
    ) -> None:
        """Fill ``hints`` of parameters left without one from the function's type comment
        (``skip_first``: a method's ``self``, which the comment leaves out)."""
        params = [*node.params.posonly_params, *node.params.params]
        pairs = [(p.name.value, c) for p in params if (c := _param_comment(p)) is not None]
        text = _type_comment(node)
        if text is not None and text.strip() != "...":
            parts = split_top(text)
            names = [p.name.value for p in params][1 if skip_first else 0 :]
            if len(parts) == len(names):
                pairs += zip(names, parts, strict=True)
        for name, part in pairs:
            if hints.get(name) is not None or not part.strip():
                continue
            try:
                expr = cst.parse_expression(part.strip())
            except cst.ParserSyntaxError:
                continue
            hints[name] = self._declared(expr)


def _type_comment(node: cst.FunctionDef) -> str | None:
    """The argument list of a ``# type: (...) -> ...`` comment of ``node``, if it has one."""
    comments: list[str] = []
    body = node.body
    if type(body) is cst.IndentedBlock:
        if body.header.comment is not None:
            comments.append(body.header.comment.value)
        if body.body:
            comments += [ln.comment.value for ln in body.body[0].leading_lines if ln.comment]
    for c in comments:
        m = _TYPE_COMMENT.match(c)
        if m:
            return m.group(1)
    return None


def _param_comment(param: cst.Param) -> str | None:
    """The type of ``proposals,  # type: list[Tensor]`` (a parameter per line)."""
    comma = param.comma
    if type(comma) is not cst.Comma:
        return None
    after = comma.whitespace_after
    comment = after.first_line.comment if type(after) is cst.ParenthesizedWhitespace else None
    if comment is None:
        return None
    m = _PARAM_COMMENT.match(comment.value)
    return m.group(1) if m else None
