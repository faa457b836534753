"""fixtures/hoststrings: a numpy array of tag strings loaded by a method defined below the
``__init__`` that stores it, indexed with host indices read from tensor data (host work, no
gather), beside a parameter indexed with such indices (a gather of a data-dependent length)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "hoststrings"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    # INVALID: ``self.tag_list[index]`` indexes the numpy array ``load_tag_list`` returns
    # (strings joined on the host), though the method is walked after ``__init__``
    assert_exactly_marked(result, FIXTURE, at_least=1)
    assert [(f.path, f.span.line, f.rule) for f in result.shape_findings] == [
        ("tagger.py", 51, "DS111")
    ]


def test_parameter_indexed_by_host_indices_is_a_gather(result: ScanResult) -> None:
    # VALID: the parameter gathered by indices computed on the host from tensor data
    words = message_on_line(result, FIXTURE, "tagger.py", "DS111", "picked = self.embed[rows]")
    assert "data-dependent length" in words
