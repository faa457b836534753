"""Ops of compiled extensions imported inside functions are placed where the file uses them
(fixtures/lazyext): the call of each binding, else the import statement, never the file's
first line."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/lazyext")


def _places(review: Review, prefix: str) -> list[str]:
    (item,) = [
        i for i in review.work if i.kind.startswith("compiled") and i.what.startswith(prefix)
    ]
    return [str(w) for w in item.where]


def test_a_binding_whose_result_is_read_is_placed_at_its_call(review: Review) -> None:
    # ``b = batch_by_size_fn(...)`` then ``b[-1]``: what the call returns is looked up too,
    # the same use as the call (line 20), not a place of its own at line 1
    places = _places(review, "lazyext.fast.fast")
    assert "lazyext/data.py:1" not in places
    assert places[:3] == ["lazyext/data.py:16", "lazyext/data.py:18", "lazyext/data.py:20"]
    assert len(places) == len(set(places))


def test_an_import_in_a_function_with_no_call_is_placed_at_the_import(review: Review) -> None:
    # ``from lazyext.fast import batch_fixed as fixed`` and ``from ._C import shift`` inside
    # functions that hand the op back: the import statements are where the file uses them
    assert _places(review, "lazyext.fast.fast")[3:] == ["lazyext/pick.py:5"]
    assert _places(review, "lazyext._C.shift") == ["lazyext/layers.py:11", "lazyext/pick.py:11"]


def test_import_lines_resolve_relative_imports() -> None:
    from apiscan.extract.records import FileAnalysis
    from apiscan.extract.syntax import SyntaxFacts
    from apiscan.review.sources import import_place

    facts = SyntaxFacts(import_lines=(("..ops._C", 7), ("._C", 3), ("pkg.fast.f", 9)))
    fa = FileAnalysis("pkg/sub/m.py", ("pkg.sub.m",), "", 20, syntax=facts)
    assert str(import_place(fa, facts, "pkg.sub._C.nms")) == "pkg/sub/m.py:3"
    assert str(import_place(fa, facts, "pkg.ops._C.nms")) == "pkg/sub/m.py:7"
    assert str(import_place(fa, facts, "pkg.fast.f")) == "pkg/sub/m.py:9"
    assert import_place(fa, facts, "pkg.fast.g") is None  # no import names it
    init = FileAnalysis("pkg/sub/__init__.py", ("pkg.sub",), "", 20, syntax=facts)
    assert str(import_place(init, facts, "pkg.sub._C.nms")) == "pkg/sub/__init__.py:3"
