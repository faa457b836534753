"""fixtures/tupleindex: ``tuple(t)`` / ``list(t)`` of a tensor of a data-dependent shape
used as an index (``h[tuple(p.t())]``, one index tensor per column of ``nonzero``'s rows)
gathers as many values as ``t`` holds: DS111; the same of a grid of fixed positions is no
data."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tupleindex"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=6)
    found = {(f.span.line, f.rule) for f in result.shape_findings}
    assert {(15, "DS111"), (17, "DS111"), (18, "DS111")} <= found


def test_an_unpacked_grid_of_fixed_positions_is_quiet(result: ScanResult) -> None:
    assert not [f for f in result.shape_findings if f.span.line == 21]
