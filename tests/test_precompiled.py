"""The shipped table of compiled generated methods (apiscan.precompiled): the classes it
creates are the classes ``dataclasses`` creates by itself, a text it lacks is compiled, and a
table written by another interpreter is never read."""

from __future__ import annotations
import __future__

import dataclasses
import marshal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

import pytest

from apiscan import precompiled
from apiscan.precompiled import (
    code_of,
    compile_text,
    install,
    misses,
    read_table,
    table_of,
    uninstall,
)

METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


def _point() -> type:
    """A frozen slotted dataclass with a default and a factory, made afresh."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)

    return Point


def _texts_of(make: object) -> list[str]:
    """The method texts ``dataclasses`` compiles for the class ``make()`` creates."""
    seen: list[str] = []
    install(table=table_of([]), seen=seen)
    try:
        make()  # type: ignore[operator]
    finally:
        uninstall()
    return seen


@pytest.fixture
def clean() -> Iterator[None]:
    """Each test installs its own table; whatever was installed comes back after."""
    before = list(precompiled._INSTALLED)
    hook = vars(dataclasses).get("exec")
    precompiled._INSTALLED.clear()
    if hook is not None:
        del dataclasses.exec  # type: ignore[attr-defined]
    try:
        yield
    finally:
        uninstall()
        precompiled._INSTALLED[:] = before
        if hook is not None:
            dataclasses.exec = hook  # type: ignore[attr-defined]


def test_a_class_from_the_table_has_the_methods_dataclasses_compiles(clean: None) -> None:
    plain = _point()
    texts = _texts_of(_point)
    assert len(texts) == 6  # init, repr, eq, hash, setattr, delattr
    install(table=table_of(texts))
    fast = _point()
    assert misses() == 0  # every method came from the table
    for name in METHODS:
        assert getattr(fast, name).__code__ == getattr(plain, name).__code__, name
    a, b = fast(1, tags=("t",)), plain(1, tags=("t",))
    assert repr(a) == repr(b) == "_point.<locals>.Point(x=1, y=0, tags=('t',))"
    assert a == fast(1, 0, ("t",)) and a != fast(2)
    assert hash(a) == hash(fast(1, 0, ("t",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 2  # type: ignore[misc]


def test_a_text_the_table_lacks_is_compiled_without_this_modules_future_flags(
    clean: None,
) -> None:
    install(table=table_of([]))
    point = _point()
    assert misses() == 6
    # ``dataclasses`` compiles without ``from __future__ import annotations``: the
    # annotation of a parameter is the field's type, not the name the text spells it by
    assert point.__init__.__annotations__["x"] == dataclasses.fields(point)[0].type
    assert point(3).x == 3


def test_apiscans_own_generated_constructors_come_from_the_table(clean: None) -> None:
    from apiscan.slotinit import slot_init

    point = _point()
    seen: list[str] = []
    install(table=table_of([]), seen=seen)
    init = slot_init(point)
    assert init is not None and len(seen) == 1 and misses() == 1
    uninstall()
    install(table=table_of(seen))
    again = slot_init(point)
    assert misses() == 0 and again is not None
    assert again.__code__ == init.__code__ == compile_text(seen[0]).co_consts[0]
    uninstall()
    assert code_of(seen[0]) == compile_text(seen[0])  # not installed: compiled


def test_the_shipped_table_holds_what_the_compiler_makes_of_each_text() -> None:
    table = read_table()
    if not table:
        pytest.skip("the table was written by another interpreter version")
    # in a fresh interpreter, the texts the results model's dataclasses compile: those the
    # table holds (all of them, unless a dataclass changed since it was written) must be
    # the code the compiler makes of them
    script = (
        "import marshal\n"
        "from apiscan import precompiled\n"
        "seen = []\n"
        "precompiled.install(table=precompiled.table_of([]), seen=seen)\n"
        "import apiscan.model\n"
        "table = precompiled.read_table()\n"
        "held = [t for t in seen if t in table]\n"
        "assert all(marshal.loads(table[t]) == precompiled.compile_text(t) for t in held)\n"
        "print(len(seen), len(held))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert int(out[0]) > 20 and int(out[1]) > 0
    for packed in table.values():  # every entry reads as code, as compiled here
        code = marshal.loads(packed)
        assert isinstance(code, CodeType) and code.co_filename == "<string>"
        assert not code.co_flags & __future__.annotations.compiler_flag


def test_a_table_of_another_interpreter_or_a_broken_one_is_not_read(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"\x00\x00\r\n" + b"anything")
    assert len(read_table(other)) == 0
    broken = tmp_path / "broken.bin"
    broken.write_bytes(precompiled.magic() + b"not marshal")
    assert len(read_table(broken)) == 0
    assert len(read_table(tmp_path / "missing.bin")) == 0
    written = tmp_path / "t.bin"
    assert precompiled.write_table(["x = 1", "x = 1", "y = 2"], written) == 2
    table = read_table(written)
    assert sorted(table) == ["x = 1", "y = 2"]
    assert marshal.loads(table["x = 1"]) == compile_text("x = 1")
