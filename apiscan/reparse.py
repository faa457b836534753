"""Re-parse an edited buffer with LibCST by parsing only the top-level statements around the
edit, and reusing the unchanged ones from the last parse.

Building LibCST's tree is most of what a buffer check costs (about 60 ms for 1,000 lines),
and an editor's edit touches one statement. The tree of the whole text is the old tree with
the statements around the edit replaced by those of a parse of just their text, because:

- the text before and after that stretch is unchanged and the stretch starts and ends at
  top-level statement boundaries, where Python's tokenizer has no open bracket, string or
  indentation, so the stretch tokenizes alone as it does inside the file;
- one unchanged statement is kept on each side of the edit inside the stretch, so comment and
  blank lines next to the edit are attributed (to a statement's leading lines, a block's
  footer) by the same neighbours as in a whole parse;
- the module-wide settings LibCST detects (newline, indentation, encoding, trailing newline)
  are read from parts of the file that the edit did not touch, or from the stretch itself
  when it holds the file's first indented block, and the stretch's own must agree with them.

An edit inside one top-level statement's indented body (a method of a 600-line class) is
re-parsed the same way one level down: the body's statements around it, with a neighbour on
each side, parsed inside a stand-in ``class _:`` header and spliced into the old body.

When any of that does not hold (an edit in the first two lines or the last one, a stretch
that does not parse alone or detects other settings) the caller parses the whole text.
Statement boundaries come from Python's parse of the new text, which also checks the splice's.
The tests compare the result with a whole parse, node for node, over random edits.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from apiscan.parsing import libcst_parse


@dataclass(frozen=True)
class Parsed:
    """A text's LibCST module and where its top-level statements start."""

    text: str
    module: cst.Module
    #: Line index (0-based) where each top-level statement's code starts (its leading comment
    #: and blank lines included), then where the module's footer starts.
    starts: tuple[int, ...]
    #: Index of the first top-level statement with an indented block (where LibCST reads the
    #: default indentation from); ``len(body)`` if none has one.
    indent_from: int
    #: Python's node for each top-level statement (the first of ``a; b``).
    nodes: tuple[ast.stmt, ...]
    #: How it was made: "whole", "top" (top-level statements re-parsed) or "inner" (statements
    #: of one top-level statement's body).
    how: str = "whole"


def _lines(text: str) -> list[str]:
    """Lines as Python's tokenizer counts them (``\\n`` and ``\\r\\n`` only), with their ends."""
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def _starts(
    stmts: Sequence[cst.BaseStatement], nodes: Sequence[ast.stmt], offset: int = 0
) -> tuple[list[int], list[ast.stmt]] | None:
    """Where each of ``stmts`` starts (0-based line, leading lines included), from Python's
    nodes for the same statements (``offset``: lines of the parsed text before the file's),
    and the first node of each; None when they do not pair up.

    Python's parser gives each statement's first line (the first decorator's for a decorated
    definition; ``a; b`` share one, as they share one LibCST statement); a statement's code
    starts its leading lines earlier. (Generating the code to count its lines would cost as
    much as the parse this module saves.)"""
    firsts: list[int] = []
    heads: list[ast.stmt] = []
    for node in nodes:
        decorators = getattr(node, "decorator_list", ())
        line = min([d.lineno for d in decorators] + [node.lineno]) - 1 - offset
        if not firsts or firsts[-1] != line:
            firsts.append(line)
            heads.append(node)
    if len(firsts) != len(stmts):
        return None
    starts = [line - len(stmt.leading_lines) for line, stmt in zip(firsts, stmts, strict=True)]
    if any(b <= a for a, b in itertools.pairwise(starts)):
        return None
    return starts, heads


def _parse_ast(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _indents(stmt: cst.BaseStatement) -> bool:
    """Whether ``stmt`` holds an indented block (an INDENT token)."""
    if not isinstance(stmt, cst.BaseCompoundStatement):
        return False
    if isinstance(stmt.body, cst.IndentedBlock):
        return True
    found = False  # ``if x: y`` then an indented ``else:``, and such

    class Finder(cst.CSTVisitor):
        def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
            nonlocal found
            found = True
            return False

    stmt.visit(Finder())
    return found


def _usable(text: str) -> bool:
    # Lone carriage returns end lines for the tokenizer but not for _lines.
    return "\r" not in text or text.count("\r") == text.count("\r\n")


def _located(
    text: str, module: cst.Module, tree: ast.Module | None, indent_from: int | None, how: str
) -> Parsed | None:
    """``module`` (of ``text``) with its statements located by ``tree`` (Python's parse of
    ``text``); None when they cannot be."""
    tree = tree if tree is not None else _parse_ast(text)
    if tree is None:
        return None
    found = _starts(module.body, tree.body)
    if found is None:
        return None
    starts, nodes = found
    if starts and starts[0] != len(module.header):
        return None
    starts.append(len(_lines(text)) - len(module.footer))
    if len(starts) > 1 and starts[-1] <= starts[-2]:
        return None
    body = module.body
    if indent_from is None:
        indent_from = next((i for i, s in enumerate(body) if _indents(s)), len(body))
    return Parsed(text, module, tuple(starts), indent_from, tuple(nodes), how)


def whole(text: str, module: cst.Module, tree: ast.Module | None = None) -> Parsed | None:
    """The :class:`Parsed` of a whole parse (None when its statements cannot be located).
    ``tree``: Python's parse of ``text``, if at hand."""
    if not _usable(text) or module.default_newline == "\r":
        return None
    return _located(text, module, tree, None, "whole")


def _containing(starts: Sequence[int], line: int) -> int:
    """Index of the last statement starting at or before ``line`` (-1: none)."""
    lo, hi = 0, len(starts) - 1
    if not starts or line < starts[0]:
        return -1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= line:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _same_settings(part: cst.Module, module: cst.Module) -> bool:
    return (
        part.default_indent == module.default_indent
        and part.default_newline == module.default_newline
        and part.encoding == module.encoding
    )


def reparse(prev: Parsed, text: str, tree: ast.Module | None = None) -> Parsed | None:
    """``text``'s parse from ``prev``'s, re-parsing only around the edit; None when that is
    not known to equal a whole parse (then parse the whole text). ``tree``: Python's parse of
    ``text``, if at hand."""
    if text == prev.text:
        return prev
    if not _usable(text):
        return None
    old, new = _lines(prev.text), _lines(text)
    limit = min(len(old), len(new))
    p = 0
    while p < limit and old[p] == new[p]:
        p += 1
    s = 0
    while s < limit - p and old[-1 - s] == new[-1 - s]:
        s += 1
    # Lines 0-1 hold the encoding cookie and the file's first newline; the last line says
    # whether the file ends with a newline: all must be unchanged.
    if p < 2 or s < 1:
        return None
    tree = tree if tree is not None else _parse_ast(text)
    if tree is None:
        return None
    # the statements holding the last unchanged line before the edit and the first after it
    a = _containing(prev.starts[:-1], p - 1)
    b = _containing(prev.starts[:-1], len(old) - s)
    if a == b and a >= 0 and prev.starts[a + 1] > len(old) - s:
        inside = _reparse_body(prev, a, old, new, p, s, tree)
        if inside is not None:
            return inside
    return _reparse_top(prev, a, b, old, new, tree)


def _reparse_top(
    prev: Parsed, a: int, b: int, old: list[str], new: list[str], tree: ast.Module
) -> Parsed | None:
    """Re-parse top-level statements ``a - 1`` to ``b + 1`` (or to the end of the file)."""
    body = prev.module.body
    n = len(body)
    first = a - 1  # one unchanged statement before the edit
    if first < 0:
        return None
    last = b + 1  # and one after it, or up to the end of the file
    at_eof = last >= n - 1
    start = prev.starts[first]
    old_end = len(old) if at_eof else prev.starts[last + 1]
    new_end = old_end + len(new) - len(old)
    if (new_end - start) * 10 > len(new) * 7:
        return None  # most of the file: a whole parse is as cheap
    try:
        chunk = libcst_parse("".join(new[start:new_end]))
    except (cst.ParserSyntaxError, RecursionError):
        return None
    module = prev.module
    if (
        not chunk.body
        or not _same_settings(chunk, module)
        or (not at_eof and (chunk.footer or not chunk.has_trailing_newline))
    ):
        return None
    stmts = list(chunk.body)
    indent_from = prev.indent_from
    if first <= indent_from:
        # The file's indentation is read from the stretch's first indented block (nothing
        # before the stretch indents): the stretch must still have one.
        found = next((i for i, stmt in enumerate(stmts) if _indents(stmt)), None)
        if found is None:
            return None
        indent_from = first + found
    if chunk.header:
        stmts[0] = stmts[0].with_changes(leading_lines=(*chunk.header, *stmts[0].leading_lines))
    rest = () if at_eof else body[last + 1 :]
    spliced = module.with_changes(
        body=(*body[:first], *stmts, *rest),
        footer=chunk.footer if at_eof else module.footer,
        has_trailing_newline=chunk.has_trailing_newline if at_eof else module.has_trailing_newline,
    )
    done = _located("".join(new), spliced, tree, indent_from, "top")
    if done is None or done.starts[first] != start:
        return None
    if not at_eof and done.starts[first + len(stmts)] != new_end:
        return None
    return done


#: Statements of an indented body parsed alone need a compound statement around them.
_STAND_IN = "class _:"


def _reparse_body(
    prev: Parsed, k: int, old: list[str], new: list[str], p: int, s: int, tree: ast.Module
) -> Parsed | None:
    """Re-parse, inside top-level statement ``k``'s indented body, the statements around the
    edit with one unchanged neighbour on each side (or up to the end of a def or class
    body)."""
    module = prev.module
    stmt = module.body[k]
    block = getattr(stmt, "body", None)
    if not isinstance(block, cst.IndentedBlock):
        return None
    found = _starts(block.body, getattr(prev.nodes[k], "body", ()))
    if found is None:
        return None
    inner = found[0]
    a = _containing(inner, p - 1)
    b = _containing(inner, len(old) - s)
    if a < 0:  # the edit reaches into the statement's header
        return None
    # From the neighbour before the edit, or the body's first statement (the lines before it
    # follow the unchanged header line, as they follow the stand-in's).
    first, last = max(a - 1, 0), b + 1
    # Up to the start of the statement after the neighbour; or, in a def or class body (which
    # has no else or except parts after it), to the end of the body, its footer included.
    to_end = last + 1 >= len(inner)
    if to_end and not isinstance(stmt, cst.FunctionDef | cst.ClassDef):
        return None
    last = min(last, len(inner) - 1)
    start = inner[first]
    old_end = prev.starts[k + 1] if to_end else inner[last + 1]
    new_end = old_end + len(new) - len(old)
    nl = module.default_newline
    try:
        part = libcst_parse(_STAND_IN + nl + "".join(new[start:new_end]))
    except (cst.ParserSyntaxError, RecursionError):
        return None
    holder = part.body[0] if len(part.body) == 1 else None
    if (
        not isinstance(holder, cst.ClassDef)
        or not isinstance(holder.body, cst.IndentedBlock)
        or (holder.body.footer and not to_end)
        or part.footer
        or holder.body.indent != block.indent
        or not _same_settings(part, module)
    ):
        return None
    stmts = holder.body.body
    new_block = block.with_changes(
        body=(*block.body[:first], *stmts, *block.body[last + 1 :]),
        footer=holder.body.footer if to_end else block.footer,
    )
    spliced = module.with_changes(
        body=(*module.body[:k], stmt.with_changes(body=new_block), *module.body[k + 1 :])
    )
    done = _located("".join(new), spliced, tree, prev.indent_from, "inner")
    if done is None:
        return None
    # the body's statements where Python's parse of the whole new text has them
    node = done.nodes[k]
    again = _starts(new_block.body, getattr(node, "body", ()))
    if again is None or again[0][first] != start:
        return None
    after = done.starts[k + 1] if to_end else again[0][first + len(stmts)]
    if after != new_end:
        return None
    return done
