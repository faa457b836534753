"""fixtures/levellists: targets matched per pyramid level are collected in a list of lists
(``matching[i].append(t[keep])``), joined per level (``matching[i] = torch.cat(...)``) and
returned; the caller indexing its predictions with them is data-dependent. The same lists
holding tensors of a fixed shape stay quiet. A helper comparing a column of a parameter
(``targets[:, 0] == i``) selects rows with a mask when a caller passes it a tensor, not when
the only caller passes a numpy array — exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "levellists"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=4)


def test_the_caller_of_the_matcher_is_reported(result: ScanResult) -> None:
    caller = sorted(
        (f.span.line, f.rule) for f in result.shape_findings if f.function == "MatchedLoss.__call__"
    )
    assert caller == [(17, "DS116"), (18, "DS111")]
    assert not [f for f in result.shape_findings if f.function.startswith("GridLoss")]


def test_a_column_of_a_tensor_parameter_compared_is_a_mask(result: ScanResult) -> None:
    grouped = [(f.function, f.span.line, f.rule) for f in result.shape_findings]
    assert ("group_boxes", 12, "DS104") in grouped
    assert not [g for g in grouped if g[0] == "group_records"]
