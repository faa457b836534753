"""Every file Python compiles is analysed (issue 13, item 2): the reproductions, then a
bounded property test over hypothesmith programs and byte-mutated fixtures."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from apiscan.extract import FileTask, analyse
from apiscan.model import FileError
from apiscan.parsing import normalise_for_libcst, parse_module
from apiscan.source import DecodedSource, decode_source

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("apiscan_fuzz", REPO / "scripts" / "fuzz.py")
assert _spec and _spec.loader
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["apiscan_fuzz"] = fuzz
_spec.loader.exec_module(fuzz)

TORCH_USE = b"import torch\n\nclass A:\n    def f(self, x):\n        return torch.relu(x)\n"


def _analyse(data: bytes):  # type: ignore[no-untyped-def]
    return analyse(FileTask("m.py", ("m",), False, data), frozenset(), 1_000_000)


@pytest.mark.parametrize(
    "data",
    [
        # a form feed at the start of a nested block's first line (LibCST: "no matching outer
        # block for dedent")
        b"import torch\n\nclass A:\n    def f(self, x):\n\f        return torch.relu(x)\n"
        b"    def g(self):\n        pass\n",
        b"import torch\n\nclass A:\n\f    def f(self, x):\n        return torch.relu(x)\n",
        b"import torch\n\ndef f(x):\n    if x:\n  \f      return torch.relu(x)\n    return x\n",
        # a backslash then CRLF at the end of the file
        TORCH_USE.replace(b"\n", b"\r\n") + b"\\\r\n",
        # a backslash continuation right after indentation (found by scripts/fuzz.py)
        b"import torch\n\nclass A:\n    def f(self, x):\n           \\\r\n"
        b" return torch.relu(x)\n    def g(self):\n        pass\n",
        # invalid UTF-8 inside comments, on the first line and further down
        b"# \xff\xfe header\n" + TORCH_USE,
        TORCH_USE + b"# caf\xe9 \xff\n",
        TORCH_USE.replace(b"(x)\n", b"(x)  # \xc3(\n"),
    ],
    ids=[
        "ff-nested",
        "ff-class-body",
        "ff-after-spaces",
        "backslash-crlf-eof",
        "continuation-after-indent",
        "bad-utf8-line1",
        "bad-utf8-last",
        "bad-utf8-inline",
    ],
)
def test_python_accepts_so_apiscan_analyses(data: bytes) -> None:
    compile(data, "m.py", "exec")  # the premise: Python runs this file
    fa = _analyse(data)
    assert fa.errors == ()
    [use] = [u for u in fa.uses if u.api == "torch.relu"]
    line = data.replace(b"\r\n", b"\n")[: data.replace(b"\r\n", b"\n").index(b"torch.relu")]
    assert use.span.line == line.count(b"\n") + 1  # positions stay exact


def test_form_feed_normalisation_keeps_lines() -> None:
    text = "class A:\n    def f(self):\n\f        return 1\n  \f  \n"
    normalised = normalise_for_libcst(text)
    assert normalised.count("\n") == text.count("\n")
    assert "\f" not in normalised
    assert normalise_for_libcst("x = 1\r\n\\\r\n") == "x = 1\r\n\r\n"
    assert normalise_for_libcst("x = 'a\\fb'\n") == "x = 'a\\fb'\n"  # only indentation


def test_invalid_utf8_outside_comments_is_still_e002() -> None:
    for data in (b"x = '\xff'\n", b"x\xff = 1\n", b"import torch\ny = '\xe9'\n"):
        decoded = decode_source(data)
        assert not isinstance(decoded, DecodedSource), data
        assert decoded.code == "E002"


def test_a_source_rewriting_codec_reads_as_utf8() -> None:
    # VALID: ``future_fstrings`` (a package's f-string rewriter for Pythons before 3.6)
    # names no text encoding: the file is UTF-8 and a current Python compiles it
    data = "# -*- coding: future_fstrings -*-\nimport torch\nname = f'{torch.__name__} é'\n"
    decoded = decode_source(data.encode())
    assert isinstance(decoded, DecodedSource)
    assert decoded.encoding == "utf-8" and decoded.text == data
    fa = _analyse(data.encode())
    assert not fa.errors
    # INVALID: an unknown codec that is no such rewriter is still a bad declaration
    bad = decode_source(b"# -*- coding: nope -*-\nx = 1\n")
    assert isinstance(bad, FileError) and bad.code == "E002" and "nope" in bad.message


def test_a_real_libcst_refusal_is_still_reported() -> None:
    err = parse_module("def f(:\n", "m.py")
    assert not hasattr(err, "body") and err.code == "E003"  # type: ignore[union-attr]


def _check(tally: object, data: bytes, name: str) -> None:
    fa = _analyse(data)  # an exception here is the crash the test looks for
    fuzz.judge(tally, name, data, [e.code for e in fa.errors])


def test_mutated_fixtures_bounded() -> None:
    """A few hundred byte-level mutations of our fixtures (scripts/fuzz.py runs thousands)."""
    tally = fuzz.Tally()
    rng = random.Random(13)
    seeds = fuzz.seeds([])
    for i in range(250):
        _check(tally, fuzz.mutate(rng.choice(seeds), rng), f"mutated[{i}]")
    assert tally.ok, tally.examples
    assert tally.files == 250


def test_generated_programs_bounded() -> None:
    pytest.importorskip("hypothesmith")
    import hypothesmith
    from hypothesis import HealthCheck, given, settings

    tally = fuzz.Tally()

    @settings(
        max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(hypothesmith.from_grammar())
    def check(source: str) -> None:
        _check(tally, source.encode("utf-8", "surrogatepass"), repr(source[:60]))
        assert tally.ok, tally.examples

    check()
    assert tally.files >= 40


def test_trusted_parse_builds_the_same_tree_and_keeps_validation_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's parse skips LibCST's node validation (``TRUST_PARSER``): the same tree,
    and nodes built by hand afterwards are still validated."""
    import libcst as cst

    import apiscan.parsing as parsing

    text = (REPO / "fixtures" / "tinydet" / "tinydet" / "head.py").read_text()
    checked = parsing.libcst_parse(text)
    monkeypatch.setattr(parsing, "TRUST_PARSER", True)
    trusted = parsing.libcst_parse(text)
    assert trusted.deep_equals(checked)
    assert trusted.code == text
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_a_trusted_parse_shares_equal_whitespace_and_tokens_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's parse builds one instance of each distinct whitespace or token node (the
    commas of ``f(a, b, c)`` are one ``Comma``); names, calls and the rest stay one node per
    place, the tree is the same, LibCST's classes are back in place afterwards, and the
    analysis of a file is the same as from an unshared tree."""
    import libcst as cst

    import apiscan.parsing as parsing

    text = "x = f(a, b, c)\ny = g(a, b)  # note\nz = [a , b]\n"
    checked = parsing.libcst_parse(text)
    monkeypatch.setattr(parsing, "TRUST_PARSER", True)
    trusted = parsing.libcst_parse(text)
    assert trusted.deep_equals(checked) and trusted.code == text
    first, second = trusted.body[0].body[0], trusted.body[1].body[0]
    assert isinstance(first, cst.Assign) and isinstance(second, cst.Assign)
    call, other = first.value, second.value
    assert isinstance(call, cst.Call) and isinstance(other, cst.Call)
    assert call.args[0].comma is call.args[1].comma is other.args[0].comma
    assert call.lpar is other.lpar  # the empty tuple
    assert call.whitespace_after_func is other.whitespace_before_args
    assert call.args[0].value is not other.args[0].value  # two names ``a``: two nodes
    spaced = trusted.body[2].body[0].value
    assert isinstance(spaced, cst.List)
    assert spaced.elements[0].comma is not call.args[0].comma  # " , " is another comma
    # a comment is not shared, and neither is the line ending it
    trailing = [line.trailing_whitespace for line in trusted.body]
    assert trailing[0] is trailing[2] is not trailing[1]
    assert all(isinstance(getattr(cst, n), type) for n in ("Comma", "SimpleWhitespace", "Add"))
    assert isinstance(cst.Comma(), cst.Comma)

    path = REPO / "fixtures" / "tinydet" / "tinydet" / "head.py"
    task = FileTask("tinydet/head.py", ("tinydet.head",), False, path.read_bytes())
    shared = analyse(task, frozenset({"tinydet"}))
    monkeypatch.setattr(parsing, "TRUST_PARSER", False)
    assert analyse(task, frozenset({"tinydet"})) == shared
    assert shared.uses


def test_one_parse_thread_serves_a_workers_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    """``REUSE_THREAD``: every parse runs on one big-stack thread, and its errors come back."""
    import threading

    import libcst as cst

    import apiscan.parsing as parsing

    monkeypatch.setattr(parsing, "REUSE_THREAD", True)
    monkeypatch.setattr(parsing, "_PARSE_THREAD", None)

    def where(text: str) -> tuple[int | None, str]:
        return threading.get_ident(), text

    first, second = parsing.on_big_stack(where, "a"), parsing.on_big_stack(where, "b")
    assert first[0] == second[0] != threading.get_ident()
    assert (first[1], second[1]) == ("a", "b")
    assert parsing.libcst_parse("x = 1\n").code == "x = 1\n"
    with pytest.raises(cst.ParserSyntaxError):
        parsing.libcst_parse("x = (\n")
    assert isinstance(parsing.parse_module("x = (\n", "m.py"), FileError)


def test_slot_storing_node_inits_build_the_same_trees() -> None:
    """A worker's node classes store their fields through their slots
    (:func:`apiscan.parsing.fast_node_inits`): the same trees, the same defaults, and a node
    built by hand is still validated."""
    import libcst as cst

    import apiscan.parsing as parsing

    classes: list[type] = []
    todo: list[type] = [cst.CSTNode]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in classes:
                classes.append(sub)
                todo.append(sub)
    own = {c: c.__dict__["__init__"] for c in classes if "__init__" in c.__dict__}
    texts = [p.read_text() for p in sorted((REPO / "fixtures" / "tinydet").rglob("*.py"))]
    before = [cst.parse_module(t) for t in texts]
    try:
        assert parsing.fast_node_inits() > 100
        assert parsing.fast_node_inits() == 0  # idempotent
        after = [cst.parse_module(t) for t in texts]
        pairs = zip(after, before, strict=True)
        assert all(a.deep_equals(b) and a.code == b.code for a, b in pairs)
        assert cst.Name("x").lpar == ()
        assert cst.Param(cst.Name("a")).star is cst.MaybeSentinel.DEFAULT
        assert cst.Comma().whitespace_before.deep_equals(cst.SimpleWhitespace(""))
        with pytest.raises(cst.CSTValidationError):
            cst.Name("not a name")
        with pytest.raises(TypeError):
            cst.Name()  # type: ignore[call-arg]
    finally:
        for cls, init in own.items():
            cls.__init__ = init  # type: ignore[misc]


def test_a_trusted_parse_freezes_its_tree_and_no_garbage(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's parse puts the new tree out of the collector's reach (it holds no cycle)
    after Python's parse collected what was there: a cycle the last walk left is freed, not
    frozen."""
    import gc
    import weakref

    import apiscan.parsing as parsing

    class Node:
        pass

    left = Node()
    left.self = left  # type: ignore[attr-defined]
    alive = weakref.ref(left)
    del left
    frozen = gc.get_freeze_count()
    try:
        monkeypatch.setattr(parsing, "TRUST_PARSER", True)
        text = "def f(x):\n    return x + 1\n"
        assert not isinstance(parsing.parse_python(text, "m.py"), FileError)
        assert alive() is None
        module = parsing._parse_trusted(text)
        assert alive() is None
        assert gc.get_freeze_count() > frozen
        assert gc.isenabled()
        assert module.code == "def f(x):\n    return x + 1\n"
    finally:
        gc.unfreeze()
