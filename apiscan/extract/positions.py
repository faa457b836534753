"""Exact positions for reported nodes without LibCST's ``PositionProvider``.

``PositionProvider`` re-generates the whole module's code while tracking every node: about three
times the cost of parsing. We need positions only for the handful of nodes we report, and Python's
own ``ast`` computes positions for free during a parse that costs a tenth of LibCST's.

The two trees agree on the *order* of the nodes we care about: names in expression context,
attribute accesses, calls, subscripts and binary operations appear in both as one node per
occurrence, and LibCST's pre-order walk meets them in the same order as sorting the ``ast`` nodes
by (start, -end). The extractor numbers each node of those kinds as it walks; here the ``k``-th
LibCST node of a kind is matched with the ``k``-th ``ast`` node of that kind. Nodes inside
f-strings are numbered in a separate sequence on both sides, and since ``ast`` positions inside
f-strings were unreliable before Python 3.12, each position used there is checked against the
source text.

The counts per kind must agree exactly; if they do not (a construct the walker numbers
differently) or a check fails, the file falls back to ``PositionProvider``: slower, never
wrong. Tests check both paths give the same spans.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from apiscan.extract.api_uses import (
    ATTR,
    BINOP,
    CALL,
    FSTRING_OFFSET,
    NAME,
    NODE_KINDS,
    SUB,
    Emit,
    Ref,
)
from apiscan.model import Span
from apiscan.parsing import repeated_keyword, repeated_parameter

#: The node types :func:`_walk` handles: the reported kinds (their
#: :data:`~apiscan.extract.api_uses.NODE_KINDS`), then those it handles apart: a call
#: (reported, and its keywords screened), f-strings, and what the screen of the compiler's
#: checks reads (see :func:`screened_nodes`).
_CALL, _JOINED, _STARRED, _ARGUMENTS, _COMPREHENSION, _REFUSED = range(5, 11)
_AST_KINDS: dict[type[ast.AST], int] = {
    ast.Name: NAME,
    ast.Attribute: ATTR,
    ast.Call: _CALL,
    ast.Subscript: SUB,
    ast.BinOp: BINOP,
    ast.JoinedStr: _JOINED,
    ast.Starred: _STARRED,
    ast.arguments: _ARGUMENTS,
    ast.comprehension: _COMPREHENSION,
    ast.Yield: _REFUSED,
    ast.YieldFrom: _REFUSED,
    ast.Await: _REFUSED,
    ast.NamedExpr: _REFUSED,
}


class PositionMismatch(Exception):
    """The two trees disagree; the caller falls back to PositionProvider."""


#: One reported-kind node of Python's tree, as its position alone: (line, byte column, end
#: line, end byte column, name) where the name is a Name's ``id`` or an Attribute's ``attr``
#: (None for the other kinds). Plain tuples, not the nodes: a worker keeps them for a file's
#: re-walks (:mod:`apiscan.workers`) without keeping Python's tree, which is larger than
#: LibCST's module.
AstNode = tuple[int, int, int, int, "str | None"]
#: The nodes of each kind (:data:`~apiscan.extract.api_uses.NODE_KINDS`, then the same kinds
#: inside f-strings), each list in LibCST's pre-order.
AstNodes = list[list[AstNode]]


def ast_nodes(tree: ast.Module) -> AstNodes:
    """The reported-kind nodes of ``tree`` (see :data:`AstNodes`), from one walk (the
    f-strings' subtrees after the rest, each as one piece: the same order per list)."""
    return screened_nodes(tree)[0]


def screened_nodes(tree: ast.Module) -> tuple[AstNodes, bool]:
    """:func:`ast_nodes`, and whether the same walk met a node the compiler may refuse (see
    :data:`apiscan.parsing.COMPILER_TOKENS`): ``yield``, ``await``, an assignment expression,
    an asynchronous comprehension, a starred assignment target, a keyword argument or a
    parameter name given twice."""
    lists: AstNodes = [[] for _ in range(2 * FSTRING_OFFSET)]
    fstrings: list[ast.AST] = []
    refused = _walk([tree], lists, 0, fstrings)
    if fstrings:
        for node in fstrings:
            refused |= _walk(_children(node), lists, FSTRING_OFFSET, None)
    # Outside f-strings two nodes of a kind that start at one place are nested, and the walk
    # met the outer one first: a stable sort by start alone keeps it first (the order of
    # _order_key, at a fraction of its cost). Inside f-strings Python 3.11's positions may
    # be wrong, and the full key decides.
    for i, lst in enumerate(lists):
        lst.sort(key=_by_start if i < FSTRING_OFFSET else _order_key)
    return lists, refused


def _walk(
    roots: list[ast.AST], lists: AstNodes, offset: int, fstrings: list[ast.AST] | None
) -> bool:
    """Append the reported-kind nodes under ``roots`` (depth first, as a stack pops them) to
    ``lists`` at ``offset``; with ``fstrings``, an f-string's subtree is left to the caller
    (its nodes are numbered in their own sequence). True when a node may be refused by the
    compiler (see :func:`screened_nodes`)."""
    kinds = _AST_KINDS
    named = _NAMED
    reported = _CALL
    store = ast.Store
    # Names and constants, the most common nodes, hold no node to descend into.
    name, constant = ast.Name, ast.Constant
    names = lists[NAME + offset].append
    child_specs = _CHILD_SPECS
    refused = False
    stack = roots
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        cls = type(node)
        if cls is name:
            names(
                (
                    node.lineno,
                    node.col_offset,
                    node.end_lineno or 0,
                    node.end_col_offset or 0,
                    node.id,
                )
            )  # type: ignore[attr-defined]
            continue
        if cls is constant:
            continue
        k = kinds.get(cls)
        if k is not None:
            if k < reported:
                lists[k + offset].append(
                    (
                        node.lineno,  # type: ignore[attr-defined]
                        node.col_offset,  # type: ignore[attr-defined]
                        node.end_lineno or 0,  # type: ignore[attr-defined]
                        node.end_col_offset or 0,  # type: ignore[attr-defined]
                        getattr(node, named[k]) if k in named else None,
                    )
                )
            elif k == _CALL:
                lists[CALL + offset].append(
                    (
                        node.lineno,  # type: ignore[attr-defined]
                        node.col_offset,  # type: ignore[attr-defined]
                        node.end_lineno or 0,  # type: ignore[attr-defined]
                        node.end_col_offset or 0,  # type: ignore[attr-defined]
                        None,
                    )
                )
                keywords = node.keywords  # type: ignore[attr-defined]
                if len(keywords) > 1 and repeated_keyword(keywords):
                    refused = True
            elif k == _JOINED:
                if fstrings is not None:
                    fstrings.append(node)
                    continue
            elif k == _STARRED:
                if type(node.ctx) is store:  # type: ignore[attr-defined]
                    refused = True
            elif k == _ARGUMENTS:
                if repeated_parameter(node):  # type: ignore[arg-type]
                    refused = True
            elif k == _COMPREHENSION:
                if node.is_async:  # type: ignore[attr-defined]
                    refused = True
            else:
                refused = True
        # ast.iter_child_nodes, inlined: the walk visits every node of the file. A list
        # field is pushed whole (its rare None items, a dict's ``**`` keys, are popped as
        # leaves), in the same order as one push per item.
        spec = child_specs.get(cls)
        if spec is None:
            spec = child_specs[cls] = _child_spec(node)
        for field, is_list in spec:
            child = getattr(node, field)
            if is_list:
                extend(child)
            elif child is not None:
                push(child)
    return refused


#: Node type -> (field, whether it holds a list) for the fields :func:`_walk` descends
#: into, in field order (filled as types are met); anything that is not a node (a None
#: from a list, a pattern's constant) has none.
_CHILD_SPECS: dict[type, tuple[tuple[str, bool], ...]] = {ast.Constant: (), type(None): ()}


def _child_spec(node: object) -> tuple[tuple[str, bool], ...]:
    """:data:`_CHILD_SPECS` of ``node``'s type. Python's grammar fixes whether a field is a
    sequence (always a list, maybe empty) or a single, optional node, so one node tells."""
    if not isinstance(node, ast.AST):
        return ()
    return tuple(
        (field, type(getattr(node, field, None)) is list)
        for field in _fields_with_children(type(node))
    )


def _children(node: ast.AST) -> list[ast.AST]:
    """The child nodes :func:`_walk` would push for ``node``, in the same order."""
    out: list[ast.AST] = []
    for field in _CHILD_FIELDS.get(type(node)) or _fields_with_children(type(node)):
        child = getattr(node, field, None)
        if type(child) is list:
            out.extend(item for item in child if isinstance(item, ast.AST))
        elif isinstance(child, ast.AST):
            out.append(child)
    return out


#: Fields that never hold a reported node: expression contexts and operators (``Load()``,
#: ``Add()``: leaf nodes on every name, attribute and operation, a third of all the nodes a
#: walk would otherwise visit), names and numbers (a string or an int in every node type
#: that has the field), and the aliases of imports (``names``: aliases, or strings).
_LEAF_FIELDS = frozenset(
    {
        "ctx",
        "op",
        "ops",
        "id",
        "attr",
        "arg",
        "name",
        "names",
        "asname",
        "module",
        "level",
        "type_comment",
        "type_ignores",
        "kind",
        "conversion",
        "is_async",
        "simple",
        "rest",
        "kwd_attrs",
    }
)
#: Node type -> the fields :func:`ast_nodes` descends into (filled as types are met).
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}


def _fields_with_children(cls: type) -> tuple[str, ...]:
    return tuple(f for f in cls._fields if f not in _LEAF_FIELDS)  # type: ignore[attr-defined]


#: The kinds whose nodes carry a name, and its field.
_NAMED = {NAME: "id", ATTR: "attr"}


#: An :data:`AstNode`'s start.
_by_start = itemgetter(0, 1)


def _order_key(n: AstNode) -> tuple[int, int, int, int]:
    """LibCST's pre-order: by start, the outer (longer) node first."""
    return (n[0], n[1], -n[2], -n[3])


class _Lines:
    """Converts ``ast``'s UTF-8 byte columns to character columns, only where needed (an
    ASCII text's byte columns are its character columns: its lines are never split)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            # ast numbers lines split on \n, \r\n and \r only (not str.splitlines' others).
            self._lines = self.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        return self._lines

    def col(self, line: int, byte_col: int) -> int:
        if self.ascii:
            return byte_col
        lines = self.lines
        s = lines[line - 1] if 0 < line <= len(lines) else ""
        if s.isascii():
            return byte_col
        return len(s.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))


class Located(NamedTuple):
    """A position to find and nothing else (a call graph edge, a shape hit, a host sync):
    what :func:`spans_from_ast` reads of an :class:`~apiscan.extract.api_uses.Emit`."""

    start: Ref
    end: Ref
    in_fstring: bool = False


def spans_from_ast(
    tree: ast.Module | AstNodes,
    text: str,
    emits: Sequence[Emit | Located],
    ords: dict[int, int],
    counts: Sequence[int],
) -> list[Span]:
    """Spans for ``emits`` via the ordinal mapping (``tree``: Python's tree of ``text``, or its
    :func:`ast_nodes`); raises PositionMismatch if unsafe."""
    lists = ast_nodes(tree) if isinstance(tree, ast.Module) else tree
    if [len(lst) for lst in lists] != list(counts):
        raise PositionMismatch(
            f"node counts differ: libcst {list(counts)} vs ast {[len(x) for x in lists]}"
        )
    lines = _Lines(text)
    col = lines.col
    kinds = NODE_KINDS
    name = cst.Name

    def point(a: AstNode, node: cst.CSTNode, mode: str) -> tuple[int, int]:
        """The position ``mode`` of ``node`` (its ast node ``a``): see :data:`Ref`."""
        if mode == "s":
            return a[0], col(a[0], a[1])
        end_line, end_col = a[2], a[3]
        if mode == "e":
            return end_line, col(end_line, end_col)
        # "a": start of the attribute name, which ends the Attribute node
        assert isinstance(node, cst.Attribute)
        if a[4] != node.attr.value:  # an Attribute's node (the ATTR kind): its attr
            raise PositionMismatch("attribute mismatch")
        return end_line, col(end_line, end_col - len(node.attr.value.encode("utf-8")))

    spans = []
    for e in emits:
        offset = FSTRING_OFFSET if e.in_fstring else 0
        node, mode = e.start
        a = lists[kinds[type(node)] + offset][ords[id(node)]]
        if type(node) is name and a[4] != node.value:  # a Name's node: its id
            raise PositionMismatch(f"name mismatch: {node.value} vs {a[4]}")
        end, end_mode = e.end
        b = a if end is node else lists[kinds[type(end)] + offset][ords[id(end)]]
        (l1, c1), (l2, c2) = point(a, node, mode), point(b, end, end_mode)
        if offset:
            _check_text(lines, e, l1, c1, l2, c2)
        spans.append(Span(l1, c1 + 1, l2, c2 + 1))
    return spans


def _check_text(lines: _Lines, e: Emit | Located, l1: int, c1: int, l2: int, c2: int) -> None:
    """Inside f-strings, trust a position only if the source text there is what we expect."""
    node, mode = e.start
    if isinstance(node, cst.Attribute) and mode == "a":
        expected = node.attr.value
    elif isinstance(node, cst.Name):
        expected = node.value
    else:
        return
    start_line = lines.lines[l1 - 1] if 0 < l1 <= len(lines.lines) else ""
    if start_line[c1 : c1 + len(expected)] != expected:
        raise PositionMismatch("f-string position does not match the source text")
    end_line = lines.lines[l2 - 1] if 0 < l2 <= len(lines.lines) else ""
    if not 0 < c2 <= len(end_line):
        raise PositionMismatch("f-string end position out of range")


def spans_from_libcst(module: cst.Module, emits: Sequence[Emit | Located], text: str) -> list[Span]:
    """The slow path: LibCST's own PositionProvider, corrected for form feeds (``text`` is the
    decoded source; LibCST drops form feeds that open a line, even from ``module.code``)."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    lines = _Lines(text).lines

    def shift(line: int) -> int:
        """LibCST does not count form feeds that open a line (old code's page breaks);
        columns here count every character, as the ast path does."""
        s = lines[line - 1] if 0 < line <= len(lines) else ""
        return len(s) - len(s.lstrip("\x0c"))

    def point(ref: Ref) -> tuple[int, int]:
        node, mode = ref
        if mode == "a":
            assert isinstance(node, cst.Attribute)
            p = positions[node.attr].start
        elif mode == "s":
            p = positions[node].start
        else:
            p = positions[node].end
        return p.line, p.column + shift(p.line)

    spans = []
    for e in emits:
        (l1, c1), (l2, c2) = point(e.start), point(e.end)
        spans.append(Span(l1, c1 + 1, l2, c2 + 1))
    return spans
