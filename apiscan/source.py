"""Reading and decoding one source file the way Python itself would.

Python decides a file's encoding from a BOM or a PEP 263 coding cookie (default UTF-8); we do
the same with :func:`tokenize.detect_encoding`, so that a latin-1 file with a cookie scans and a
file with stray bytes is reported as undecodable instead of crashing the run.
"""

from __future__ import annotations

import ast
import codecs
import errno
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass

from apiscan.model import FileError, Span


class NotRegularFile(OSError):
    """The path no longer names a regular file (replaced by a FIFO, a device...)."""


def read_source_file(path: str) -> bytes:
    """The bytes of the regular file at ``path``. Opened non-blocking and checked *after*
    opening, so a file swapped for a FIFO or a device between discovery and this read is
    refused at once instead of blocking the scan forever."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file (replaced since discovery?)")
        chunks = []
        while chunk := os.read(fd, max(st.st_size + 1, 65536)):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


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
        # tokenize also refuses undecodable bytes in a comment on the first two lines,
        # which Python compiles; and a codec a package registers to rewrite the source
        # (``# -*- coding: future_fstrings -*-``) reads UTF-8 text a current Python compiles
        if _cookie_name(data) in SOURCE_REWRITING_CODECS:
            encoding = "utf-8"
        elif not _python_decodes(data):
            return FileError("E002", f"bad coding declaration: {exc.msg}")
        else:
            encoding = _cookie(data) or "utf-8"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        if isinstance(exc, UnicodeDecodeError) and _python_decodes(data):
            # Python only decodes what its tokenizer reads as tokens: undecodable bytes in
            # a comment compile. Each bad sequence becomes U+FFFD, inside that comment.
            text = data.decode(encoding, errors="replace")
        elif isinstance(exc, UnicodeDecodeError):
            line = data[: exc.start].count(b"\n") + 1
            return FileError(
                "E002",
                f"cannot decode byte 0x{data[exc.start]:02x} at offset {exc.start} as {encoding}"
                " (add a coding declaration or re-save the file as UTF-8)",
                Span(line, 1, line, 1),
            )
        else:
            return FileError("E002", f"unknown encoding {encoding!r}")
    if data.startswith(codecs.BOM_UTF8 * 2):  # a second BOM is a character Python refuses
        return FileError(
            "E003", "syntax error: invalid non-printable character U+FEFF", Span(1, 1, 1, 1)
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    codecs.lookup(encoding)
    return DecodedSource(text, encoding)


def _python_decodes(data: bytes) -> bool:
    """Whether CPython's own compiler gets past decoding ``data`` (called only when a strict
    decode failed, so its cost is paid by odd files alone). A syntax error elsewhere in the
    file still counts as decoded: the parse stage reports it with its real position."""
    try:
        compile(data, "<apiscan>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        msg = (exc.msg or "").lower()
        return not any(word in msg for word in ("unicode error", "decode", "encoding"))
    except (ValueError, RecursionError, MemoryError):
        return False
    return True


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


#: Coding cookies that name no text encoding but a package's source rewriter, registered as
#: a codec when the package is installed: future-fstrings decodes UTF-8 and rewrites the
#: f-strings for Pythons before 3.6, which compile them themselves. The text is UTF-8.
SOURCE_REWRITING_CODECS = frozenset({"future_fstrings", "future-fstrings"})


def _cookie_name(data: bytes) -> str | None:
    """The name the PEP 263 coding cookie of the first two lines spells, as written."""
    head = b"\n".join(data.splitlines()[:2])
    match = _COOKIE.search(head)
    return None if match is None else match.group(1).decode("ascii", "replace")


def _cookie(data: bytes) -> str | None:
    """The PEP 263 coding cookie of the first two lines, read without decoding them."""
    name = _cookie_name(data)
    if name is None:
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None
