"""Stage 2: decoded source → LibCST module, or a precise error.

LibCST's own syntax-error positions are sometimes off (it reports 1:1 for inconsistent tabs);
Python's compiler is the reference users know, so when LibCST rejects a file we ask
``compile`` where the error is and what it is, and fall back to LibCST's message only when
Python accepts the file (a construct LibCST's grammar does not support yet).
"""

from __future__ import annotations

import re

import libcst as cst

from apiscan.model import FileError, Span

_PY2_HINTS = (
    re.compile(r"^\s*print\s+[^\s(=]"),
    re.compile(r"^\s*exec\s+[\"']"),
    re.compile(r"except\s+\w+(\.\w+)*\s*,\s*\w+\s*:"),
    re.compile(r"^\s*raise\s+\w+\s*,"),
    re.compile(r"\b0[0-7]+[lL]?\b|\b\d+[lL]\b|\bur[\"']"),
)


def parse_module(text: str, relpath: str) -> cst.Module | FileError:
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        return _syntax_error(text, relpath, f"{exc.message}", exc.raw_line, exc.raw_column)
    except RecursionError:
        return FileError("E008", "too deeply nested for the parser (recursion limit reached)")


def _syntax_error(text: str, relpath: str, cst_message: str, line: int, col: int) -> FileError:
    try:
        compile(text, relpath, "exec", dont_inherit=True, flags=0x400)  # PyCF_ONLY_AST
    except SyntaxError as exc:
        line = exc.lineno or line
        col = (exc.offset or 1) - 1
        message = exc.msg
    except (RecursionError, MemoryError):
        return FileError("E008", "too deeply nested for the parser (recursion limit reached)")
    else:
        message = f"LibCST cannot parse this file although Python can: {cst_message}"
    lines = text.splitlines()
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if any(p.search(source_line) for p in _PY2_HINTS):
        message += " (this looks like Python 2 code; port it to Python 3 first)"
    return FileError("E003", f"syntax error: {message}", Span(line, col + 1, line, col + 1))
