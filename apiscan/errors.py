"""Error kinds: why a file (or a directory) could not be analysed.

Codes are stable and never reused, like rule ids: reports, SARIF and editors key on them.
"""

from __future__ import annotations

import sys

ERROR_CODES: dict[str, str] = {
    "E001": "unreadable file",
    "E002": "undecodable file (bad bytes for its encoding, or an unknown coding cookie)",
    "E003": "syntax error (including Python 2 code)",
    "E004": "null bytes in the source",
    "E005": "unreadable directory",
    "E006": "symlink loop or broken symlink",
    "E007": "file too large (see --max-file-size)",
    "E008": "too deeply nested to analyse",
    "E009": "internal error of the analyser on this file",
    # Retired: an empty module was analysed, it just holds nothing; no longer an error.
    "E010": "empty module (no longer reported)",
    "E011": "malformed notebook (.ipynb that is not a readable nbformat 4 JSON document)",
}

_warned: set[str] = set()


def warn(message: str) -> None:
    """One ``apiscan: warning:`` line on stderr, once per message per process: a fault of the
    environment (a cache, an ignore pattern) that the run goes on past."""
    if message not in _warned:
        _warned.add(message)
        print(f"apiscan: warning: {message}", file=sys.stderr)
