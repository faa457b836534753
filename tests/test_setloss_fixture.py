"""fixtures/setloss: per-sample targets, host round trips, masks without a comparison, sizes
read from tensor values, batch padding — exactly the marked lines, with their origins named."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "setloss"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=20)


def _finding(result: ScanResult, path: str, rule: str, text: str) -> str:
    return message_on_line(result, FIXTURE, path, rule, text)


def test_findings_name_where_the_shape_comes_from(result: ScanResult) -> None:
    # the round trip names the host call that decided the length
    words = _finding(result, "setpred/matcher.py", "DS121", "torch.as_tensor(i, dtype")
    assert "linear_sum_assignment" in words
    # a size of one sample's field, not a host sync
    words = _finding(result, "setpred/matcher.py", "DS109", "cost.split(counts")
    assert "one sample" in words
    # the matched indices downstream name the matcher they came from
    words = _finding(result, "setpred/loss.py", "DS111", 'outputs["boxes"][position]')
    assert "matched_positions" in words


def test_scopes(result: ScanResult) -> None:
    scopes = {(f.path, f.function, f.rule): f.scope for f in result.shape_findings}
    assert scopes[("setpred/matcher.py", "BipartiteMatcher.forward", "DS120")] == "network"
    assert scopes[("setpred/matcher.py", "BipartiteMatcher.forward", "DS121")] == "network"
    assert scopes[("setpred/matcher.py", "greedy_match", "DS121")] == "host"
    assert scopes[("setpred/data.py", "pad_to_largest", "DS119")] == "data"
