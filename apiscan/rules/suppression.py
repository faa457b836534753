"""``# apiscan: ignore[DS101]`` comments: which findings a line asks to drop.

Three spellings, all on the line a finding is reported on (the first line of its statement):

- ``# apiscan: ignore[DS101]`` drops DS101 findings on that line;
- ``# apiscan: ignore[DS101, DS110]`` drops both;
- ``# apiscan: ignore`` drops every finding on that line (an empty set means "all rules").

This runs on every scanned file, so it costs a substring test unless the file mentions the
directive at all; only then is the file tokenized (up to the last line that may hold one), which
is what tells a real comment from the same text inside a string literal. ``ignore[]`` or a
bracket with no well-formed id suppresses nothing: a typo must not silence every rule on a line.
"""

from __future__ import annotations

import io
import re
import tokenize

from apiscan.rules.base import ID_PATTERN

#: What a file must contain for any directive to be possible (the fast path's test).
_NEEDLE = "apiscan:"
_DIRECTIVE = re.compile(r"#\s*apiscan:\s*ignore\b(\[[^\]]*\])?")


def parse_suppressions(text: str) -> dict[int, frozenset[str]]:
    """Map each 1-based line carrying a directive to the rule ids it suppresses (empty: all).

    Source that cannot be tokenized to the end (a syntax error) keeps the directives found before
    the error: the file is reported as an error anyway, and what was read is still right.
    """
    if _NEEDLE not in text:
        return {}
    candidates = [m.start() for m in _DIRECTIVE.finditer(text)]
    if not candidates:
        return {}
    # Tokenizing is the expensive part: stop after the last line that may hold a directive.
    last_line = text.count("\n", 0, candidates[-1]) + 1
    found: dict[int, frozenset[str]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.start[0] > last_line:
                break
            if tok.type != tokenize.COMMENT:
                continue
            match = _DIRECTIVE.search(tok.string)
            if match is None:
                continue
            ids = _ids(match.group(1))
            if ids is not None:
                found[tok.start[0]] = ids
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _ids(bracket: str | None) -> frozenset[str] | None:
    """The ids of ``[DS101, DS110]`` (upper-cased); ``frozenset()`` for a bare ``ignore``;
    ``None`` when a bracket names no valid id."""
    if bracket is None:
        return frozenset()
    ids = frozenset(
        part.strip().upper()
        for part in bracket[1:-1].split(",")
        if ID_PATTERN.fullmatch(part.strip().upper())
    )
    return ids or None
