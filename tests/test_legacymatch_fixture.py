"""fixtures/legacymatch: an SSD-style loss and detector written for an old torch.

A helper of another file whose tensor result is only indexed (never a method called on it)
is known to be a tensor in time for the mask that indexes it, and ``Variable(t)`` is the
tensor it wraps (a mask compared out of it is a mask, a data-dependent length stays one).
Lines marked ``# expect: DSxxx`` must be reported, their static twins must stay quiet.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "legacymatch"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=7)


def test_other_files_results_indexed_by_masks(result: ScanResult) -> None:
    by_line = {
        (f.path, f.span.line): f.rule
        for f in result.shape_findings
        if f.path == "legacymatch/detect.py"
    }
    assert by_line == {
        ("legacymatch/detect.py", 24): "DS104",
        ("legacymatch/detect.py", 31): "DS104",
        ("legacymatch/detect.py", 35): "DS104",  # a mask compared out of its columns
    }


def test_variable_wraps_the_tensor_it_is_given(result: ScanResult) -> None:
    msg = message_on_line(result, FIXTURE, "legacymatch/loss.py", "DS104", "loc_g = loc_t[pos_idx]")
    assert "boolean mask" in msg
    msg = message_on_line(result, FIXTURE, "legacymatch/loss.py", "DS111", "rows = loc_data[picked")
    assert "data-dependent" in msg
    quiet = {f.span.line for f in result.shape_findings if f.path == "legacymatch/loss.py"}
    assert quiet == {24, 25, 27, 28}  # MaskedLoss, below, has none


def test_the_wrapper_is_still_an_api_use(result: ScanResult) -> None:
    wrapped = [u for u in result.api_findings if u.api == "torch.autograd.Variable"]
    calls = sorted(u.span.line for u in wrapped if u.is_call_site)
    assert calls == [20, 21, 27, 36, 37]  # three in MultiBoxLoss, two in MaskedLoss
    assert {u.path for u in wrapped} == {"legacymatch/loss.py"}
