"""fixtures/passon: a helper that returns one of its own parameters returns, at each call,
what that call passes (not the join of every caller's argument)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "passon"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    # the config number passed through ``default`` / ``with_tag`` is no mask: no DS116 on
    # ``if self.shorten:`` or ``if count > 1:``, no DS109 on ``x[:, :count]``
    assert_exactly_marked(result, FIXTURE, at_least=3)
    found = {(f.span.line, f.rule) for f in result.shape_findings}
    assert found == {(28, "DS104"), (30, "DS104"), (34, "DS104")}


def test_a_computed_mask_keeps_the_solver_chain(result: ScanResult) -> None:
    msg = message_on_line(result, FIXTURE, "passon/model.py", "DS104", "above(noisy, 0.5)")
    assert "the value returned by `above` is a boolean mask" in msg


def test_a_mask_passed_through_is_the_callers_own(result: ScanResult) -> None:
    # the mask is the one this call built, not a value named as returned by ``default``
    msg = message_on_line(result, FIXTURE, "passon/model.py", "DS104", "noisy[keep]")
    assert "returned by `default`" not in msg
