"""Generated methods compiled ahead of time: the command line's start-up without ~1,400 compiles.

Python's ``dataclasses`` writes each method it generates (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, a frozen class's ``__setattr__`` and ``__delattr__``) as source text
and compiles it with ``exec`` when the class is created, one compile per method; apiscan does
the same for its faster constructors (:mod:`apiscan.slotinit`, the parser's node factories in
:mod:`apiscan.parsing`). A cold scan creates ~290 dataclasses before its workers fork (LibCST's
~190 node classes, apiscan's records and results ~100) and ~200 constructors: ~1,400 compiles,
~0.1 s of CPU, 7% of a cold scan of YOLOX.

:func:`install` hands ``dataclasses`` an ``exec`` that takes the code object of a text from a
table shipped with the package (:data:`TABLE_FILE`, written by ``scripts/compile_generated.py``),
and :func:`code_of` (apiscan's own generated code) reads the same table; a text the table lacks
is compiled as before. A code object is what ``compile`` makes of the same text with the same
flags, so each class gets the same methods: only the compiler's work is skipped. The table is
read only by an interpreter with the bytecode magic number it was written under (another
Python compiles everything, as without it), and a text missing from it (a dataclass added or
changed since it was written, another LibCST) costs one compile, as before.

Only the command line's entry points install it (after :func:`apiscan.isolation.isolate`): a
library caller's ``dataclasses`` is left alone, and its :func:`code_of` compiles.
"""

from __future__ import annotations

import builtins
from pathlib import Path
from types import CodeType
from typing import Any

#: The table beside this module: :func:`magic`, the length (4 bytes, little-endian) and the
#: ``marshal`` of an index (:func:`key` of a text -> offset and length of its entry after the
#: index), then the entries: each the ``marshal`` of a code object. A command unmarshals the
#: index and the entries of the texts it asks for (an empty directory's scan, ~50 of ~1,700:
#: ~1.5 ms in all, where unmarshalling the whole table took ~7 ms). Not compressed: a
#: decompression per entry took as long as its unmarshalling.
TABLE_FILE = Path(__file__).with_name("precompiled.bin")


def magic() -> bytes:
    """The bytecode magic number of this interpreter: a table's code objects are read only by
    the interpreter version they were compiled by."""
    from importlib.util import MAGIC_NUMBER

    return MAGIC_NUMBER


def compile_text(text: str) -> CodeType:
    """What ``exec(text)`` in ``dataclasses`` compiles: file name ``<string>``, and no
    ``from __future__`` flags (``dataclasses`` has none; a caller's ``annotations`` must not
    leak into the generated ``__init__``'s annotations)."""
    return compile(text, "<string>", "exec", dont_inherit=True)


def key(text: str) -> bytes:
    """A text's key in the table: a 128-bit digest (the texts themselves are not stored)."""
    from hashlib import blake2b

    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Table:
    """Compiled code by source text: an index and the entries it points into."""

    def __init__(self, index: dict[bytes, tuple[int, int]], entries: bytes) -> None:
        self.index, self.entries = index, entries

    @classmethod
    def of(cls, texts: list[str]) -> Table:
        """The table of ``texts``, compiled here (sorted: the same texts, the same bytes)."""
        import marshal

        index: dict[bytes, tuple[int, int]] = {}
        entries = bytearray()
        for text in sorted(set(texts)):
            packed = marshal.dumps(compile_text(text))
            index[key(text)] = (len(entries), len(packed))
            entries += packed
        return cls(index, bytes(entries))

    def code(self, text: str) -> CodeType | None:
        """The code compiled from ``text``, or None when the table lacks it."""
        where = self.index.get(key(text))
        if where is None:
            return None
        import marshal

        start, size = where
        return marshal.loads(self.entries[start : start + size])  # type: ignore[no-any-return]

    def __contains__(self, text: object) -> bool:
        return isinstance(text, str) and key(text) in self.index

    def __len__(self) -> int:
        return len(self.index)

    def to_bytes(self) -> bytes:
        import marshal

        head = marshal.dumps(self.index)
        return magic() + len(head).to_bytes(4, "little") + head + self.entries


def read_table(path: Path = TABLE_FILE) -> Table:
    """The table at ``path``; empty when it is missing, unreadable, or written by another
    interpreter version (its header is checked before anything else is read)."""
    import marshal

    try:
        data = path.read_bytes()
    except OSError:
        return Table({}, b"")
    head = magic()
    start = len(head) + 4
    if not data.startswith(head) or len(data) < start:
        return Table({}, b"")
    end = start + int.from_bytes(data[len(head) : start], "little")
    try:
        index = marshal.loads(data[start:end])
    except (ValueError, EOFError, TypeError):
        return Table({}, b"")
    if not isinstance(index, dict):
        return Table({}, b"")
    return Table(index, data[end:])


def write_table(texts: list[str], path: Path = TABLE_FILE) -> int:
    """Write the table of ``texts``; returns how many texts it holds."""
    table = Table.of(texts)
    path.write_bytes(table.to_bytes())
    return len(table)


class _Hook:
    """The installed table (read when first asked for), and ``dataclasses``' ``exec``.
    ``seen`` (when recording, for the table's script) collects every text asked for."""

    def __init__(self, table: Table | None, seen: list[str] | None = None) -> None:
        self.table, self.seen, self.misses = table, seen, 0

    def code(self, text: str) -> CodeType:
        if self.seen is not None:
            self.seen.append(text)
        if self.table is None:
            self.table = read_table()
        try:
            code = self.table.code(text)
        except Exception:  # a damaged entry: compiled, as a missing one
            code = None
        if code is None:
            self.misses += 1
            return compile_text(text)
        return code

    def __call__(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        builtins.exec(self.code(source) if type(source) is str else source, globals, locals)


#: The installed table, if any.
_INSTALLED: list[_Hook] = []


def install(table: Table | None = None, seen: list[str] | None = None) -> None:
    """Use ``table`` (default: :data:`TABLE_FILE`'s, read when the first text is asked for)
    for the dataclasses created from now on and for :func:`code_of`. Does nothing when
    already installed; ``dataclasses`` is left alone where it does not compile its methods
    with a module-level ``exec`` call of its own (another Python's module)."""
    import dataclasses

    if _INSTALLED:
        return
    hook = _Hook(table, seen)
    _INSTALLED.append(hook)
    if hasattr(dataclasses, "_create_fn") and "exec" not in vars(dataclasses):
        dataclasses.exec = hook  # type: ignore[attr-defined]


def code_of(text: str) -> CodeType:
    """The code of a generated module-level text (``def f(...): ...``), from the installed
    table, else compiled as :func:`compile_text` does: ``exec`` it in the scope its names
    come from."""
    if _INSTALLED:
        return _INSTALLED[0].code(text)
    return compile_text(text)


def misses() -> int:
    """Texts compiled since :func:`install` because the table lacked them (0 when not
    installed)."""
    return _INSTALLED[0].misses if _INSTALLED else 0


def uninstall() -> None:
    """Give ``dataclasses`` its own ``exec`` back (tests)."""
    import dataclasses

    if _INSTALLED and vars(dataclasses).get("exec") is _INSTALLED[0]:
        del dataclasses.exec  # type: ignore[attr-defined]
    _INSTALLED.clear()
