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

#: The table beside this module: :func:`magic`, then the ``marshal`` of a dict: text -> the
#: ``marshal`` of its code object. A command unmarshals the dict (its texts and their codes as
#: bytes: ~0.5 ms) and the codes it asks for (an empty directory's scan: ~50 of ~1,700; a cold
#: scan of YOLOX ~1,900 lookups, ~5 ms in all, where compiling them took ~0.1 s).
#: Not compressed: decompressing it cost as much as the rest (~3 ms).
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


def table_of(texts: list[str]) -> dict[str, bytes]:
    """The table of ``texts``, compiled here (sorted: the same texts, the same order)."""
    import marshal

    return {text: marshal.dumps(compile_text(text)) for text in sorted(set(texts))}


def read_table(path: Path = TABLE_FILE) -> dict[str, bytes]:
    """The table at ``path``; empty when it is missing, unreadable, or written by another
    interpreter version (its header is checked before anything else is read)."""
    import marshal

    try:
        data = path.read_bytes()
    except OSError:
        return {}
    head = magic()
    if not data.startswith(head):
        return {}
    try:
        table = marshal.loads(memoryview(data)[len(head) :])
    except (ValueError, EOFError, TypeError):
        return {}
    return table if isinstance(table, dict) else {}


def write_table(texts: list[str], path: Path = TABLE_FILE) -> int:
    """Write the table of ``texts``; returns how many texts it holds."""
    import marshal

    table = table_of(texts)
    path.write_bytes(magic() + marshal.dumps(table))
    return len(table)


class _Hook:
    """The installed table (read when first asked for), and ``dataclasses``' ``exec``.
    ``seen`` (when recording, for the table's script) collects every text asked for."""

    def __init__(self, table: dict[str, bytes] | None, seen: list[str] | None = None) -> None:
        self.table, self.seen, self.misses = table, seen, 0

    def code(self, text: str) -> CodeType:
        if self.seen is not None:
            self.seen.append(text)
        if self.table is None:
            self.table = read_table()
        packed = self.table.get(text)
        if packed is not None:
            import marshal

            try:
                return marshal.loads(packed)  # type: ignore[no-any-return]
            except (ValueError, EOFError, TypeError):  # a damaged entry: compiled
                pass
        self.misses += 1
        return compile_text(text)

    def __call__(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        builtins.exec(self.code(source) if type(source) is str else source, globals, locals)


#: The installed table, if any.
_INSTALLED: list[_Hook] = []


def install(table: dict[str, bytes] | None = None, seen: list[str] | None = None) -> None:
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
