"""A LibCST node's children read from its fields, without LibCST's visitor machinery.

``node.children`` and ``node.visit(visitor)`` go through ``_visit_and_replace_children``,
which builds a new copy of the node (and, for a visit, of every node under it) only to find
what it holds. The walk asks for children in a few generic searches (an expression without
a handler of its own, a function's plain assignments, the loops over a name, the names an
expression reads): read from the fields, the same children come back in the same order at a
fraction of the cost.

The order is the one ``_visit_and_replace_children`` visits a class's fields in (the order
the code is written): its code hands each field's name to LibCST's ``visit_*`` helpers
(``visit_required(self, "func", self.func, visitor)``), so the fields among its string
constants, in the order they first appear (``co_consts``), are the children's fields in that
order (then any field it reads without naming it, ``co_names``). A field it never reads holds
no child (``Name.value``, a string). ``tests/test_tree_children.py`` checks the result
against ``node.children`` on every node of the fixtures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

_NODE = cst.CSTNode
#: Each node class's child fields, in the order its code is written (filled on first use).
_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(cls: type) -> tuple[str, ...]:
    """The fields of LibCST node class ``cls`` that can hold children, in source order."""
    fields = _FIELDS.get(cls)
    if fields is None:
        declared = getattr(cls, "__dataclass_fields__", {})
        code = cls._visit_and_replace_children.__code__  # type: ignore[attr-defined]
        named = [c for c in code.co_consts if type(c) is str]
        fields = tuple(n for n in dict.fromkeys([*named, *code.co_names]) if n in declared)
        _FIELDS[cls] = fields
    return fields


def children_of(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node.children`` (the same nodes, the same order), read from its fields."""
    out: list[cst.CSTNode] = []
    for name in _FIELDS.get(type(node)) or child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, _NODE):
            out.append(value)
        elif type(value) in (tuple, list):
            out.extend(v for v in value if isinstance(v, _NODE))
    return out


def descendants(
    node: cst.CSTNode, enter: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """``node`` and every node under it, in the order a LibCST visitor meets them
    (pre-order, source order). With ``enter``, the children of a node for which it is false
    are left out (the node itself is still yielded), as a visitor whose ``visit_`` returns
    False."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if enter is None or enter(n):
            stack.extend(reversed(children_of(n)))
