"""The shipped table of compiled generated methods (apiscan.precompiled): the classes it
creates are the classes ``dataclasses`` creates by itself, a text it lacks is compiled, and a
table written by another interpreter is never read."""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Iterator
from pathlib import Path

import pytest

from apiscan import precompiled
from apiscan.precompiled import code_of, compile_text, install, misses, read_table, uninstall

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
    install(table={}, seen=seen)
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
    install(table={t: marshal.dumps(compile_text(t)) for t in texts})
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
    install(table={})
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
    install(table={}, seen=seen)
    init = slot_init(point)
    assert init is not None and len(seen) == 1 and misses() == 1
    uninstall()
    install(table={seen[0]: marshal.dumps(compile_text(seen[0]))})
    again = slot_init(point)
    assert misses() == 0 and again is not None
    assert again.__code__ == init.__code__ == compile_text(seen[0]).co_consts[0]
    uninstall()
    assert code_of(seen[0]) == compile_text(seen[0])  # not installed: compiled


def test_the_shipped_table_holds_what_the_compiler_makes_of_each_text() -> None:
    table = read_table()
    if not table:
        pytest.skip("the table was written by another interpreter version")
    for text, packed in table.items():
        assert marshal.loads(packed) == compile_text(text), text[:80]


def test_a_table_of_another_interpreter_or_a_broken_one_is_not_read(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"\x00\x00\r\n" + b"anything")
    assert read_table(other) == {}
    broken = tmp_path / "broken.bin"
    broken.write_bytes(precompiled.magic() + b"not zlib")
    assert read_table(broken) == {}
    assert read_table(tmp_path / "missing.bin") == {}
    written = tmp_path / "t.bin"
    assert precompiled.write_table(["x = 1", "x = 1"], written) == 1
    assert marshal.loads(read_table(written)["x = 1"]) == compile_text("x = 1")
