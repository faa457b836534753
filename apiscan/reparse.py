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

When any of that does not hold (an edit in the first two lines or the last one, a stretch
that does not parse alone or detects other settings) the caller parses the whole text. The
unit is a top-level statement: an edit inside a 600-line class re-parses the whole class. The
tests compare the result with a whole parse, node for node, over random edits.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst


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


def _lines(text: str) -> list[str]:
    """Lines as Python's tokenizer counts them (``\\n`` and ``\\r\\n`` only), with their ends."""
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def _first_lines(stmts: Sequence[cst.BaseStatement], text: str) -> list[int] | None:
    """Where each statement of ``text``'s module (``stmts``) starts, leading lines included.

    Python's parser gives each statement's first line (the first decorator's for a decorated
    definition; ``a; b`` share one, as they share one LibCST statement); a statement's code
    starts its leading lines earlier. (Generating the code to count its lines would cost as
    much as the parse this module saves.)"""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    firsts: list[int] = []
    for node in tree.body:
        decorators = getattr(node, "decorator_list", ())
        line = min([d.lineno for d in decorators] + [node.lineno]) - 1
        if not firsts or firsts[-1] != line:
            firsts.append(line)
    if len(firsts) != len(stmts):
        return None
    starts = [line - len(stmt.leading_lines) for line, stmt in zip(firsts, stmts, strict=True)]
    if any(b <= a for a, b in itertools.pairwise(starts)):
        return None
    return starts


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


def whole(text: str, module: cst.Module) -> Parsed | None:
    """The :class:`Parsed` of a whole parse (None when its statements cannot be located)."""
    if not _usable(text) or module.default_newline == "\r":
        return None
    starts = _first_lines(module.body, text)
    if starts is None or (starts and starts[0] != len(module.header)):
        return None
    starts.append(len(_lines(text)) - len(module.footer))
    if len(starts) > 1 and starts[-1] <= starts[-2]:
        return None
    body = module.body
    indent_from = next((i for i, s in enumerate(body) if _indents(s)), len(body))
    return Parsed(text, module, tuple(starts), indent_from)


def _containing(starts: tuple[int, ...], line: int) -> int:
    """Index of the statement whose lines hold ``line`` (-1: header, len(body): footer)."""
    lo, hi = 0, len(starts) - 1
    if line < starts[0]:
        return -1
    if line >= starts[-1]:
        return hi
    while lo < hi:  # the last start <= line
        mid = (lo + hi + 1) // 2
        if starts[mid] <= line:
            lo = mid
        else:
            hi = mid - 1
    return lo


def reparse(prev: Parsed, text: str) -> Parsed | None:
    """``text``'s parse from ``prev``'s, re-parsing only around the edit; None when that is
    not known to equal a whole parse (then parse the whole text)."""
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
    body = prev.module.body
    n = len(body)
    a = _containing(prev.starts, p - 1)  # holds the last unchanged line before the edit
    b = _containing(prev.starts, len(old) - s)  # holds the first unchanged line after it
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
    chunk_text = "".join(new[start:new_end])
    try:
        chunk = cst.parse_module(chunk_text)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    module = prev.module
    if (
        not chunk.body
        or chunk.default_indent != module.default_indent
        or chunk.default_newline != module.default_newline
        or chunk.encoding != module.encoding
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
    inner = _first_lines(stmts, chunk_text)
    if inner is None or inner[0] != 0:
        return None
    footer = chunk.footer if at_eof else module.footer
    end = new_end - (len(footer) if at_eof else 0)
    if inner[-1] >= end - start:
        return None
    starts = [*prev.starts[:first], *(start + x for x in inner), end]
    if not at_eof:
        shift = len(new) - len(old)
        starts.extend(x + shift for x in prev.starts[last + 2 :])
    rest = () if at_eof else body[last + 1 :]
    spliced = module.with_changes(
        body=(*body[:first], *stmts, *rest),
        footer=footer,
        has_trailing_newline=chunk.has_trailing_newline if at_eof else module.has_trailing_newline,
    )
    return Parsed(text, spliced, tuple(starts), indent_from)
