"""Reading and decoding one source file the way Python itself would.

Python decides a file's encoding from a BOM or a PEP 263 coding cookie (default UTF-8); we do
the same with :func:`tokenize.detect_encoding`, so that a latin-1 file with a cookie scans and a
file with stray bytes is reported as undecodable instead of crashing the run.
"""

from __future__ import annotations

import codecs
import io
import tokenize
from dataclasses import dataclass

from apiscan.model import FileError, Span


@dataclass(frozen=True, slots=True)
class DecodedSource:
    text: str  # BOM stripped
    encoding: str


def decode_source(data: bytes) -> DecodedSource | FileError:
    """Decode ``data`` as Python source or say precisely why it cannot be."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        return FileError(
            "E004",
            "source contains null bytes; Python refuses to compile it",
            Span(line, 1, line, 1),
        )
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        return FileError("E002", f"bad coding declaration: {exc.msg}")
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        if isinstance(exc, UnicodeDecodeError):
            line = data[: exc.start].count(b"\n") + 1
            return FileError(
                "E002",
                f"cannot decode byte 0x{data[exc.start]:02x} at offset {exc.start} as {encoding}"
                " (add a coding declaration or re-save the file as UTF-8)",
                Span(line, 1, line, 1),
            )
        return FileError("E002", f"unknown encoding {encoding!r}")
    if text.startswith("\ufeff"):
        text = text[1:]
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    codecs.lookup(encoding)
    return DecodedSource(text, encoding)
