"""fixtures/dimtaint: a tensor whose rows a mask selected keeps its other dimensions static
in the functions it is handed to (the class dimension of masked pixels, the 3-D branch of a
pairwise helper another caller feeds fixed-size rois), an ``else`` branch reads what the
names held before the ``if``, and a gather by the permutation ``sort`` gives carries the
sorted tensor's length on — exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dimtaint"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=14)


def test_other_dimensions_stay_static(result: ScanResult) -> None:
    lines = {(f.path, f.span.line) for f in result.shape_findings}
    # ``C = probas.size(1)``, ``probas.shape[1]``, ``rows, cols = probas.shape`` of the
    # masked pixels: the class loop and the tests on the class count are plain Python
    for line in (30, 31, 35):
        assert ("dt/lossfns.py", line) not in lines
    # the 3-D branch of the helper: every size it reads is a static dimension
    for line in (15, 19):
        assert ("dt/boxes.py", line) not in lines


def test_the_varying_dimension_still_reported(result: ScanResult) -> None:
    # ``rows`` of ``rows, cols = probas.shape`` is the masked pixels' count
    words = message_on_line(result, FIXTURE, "dt/lossfns.py", "DS116", "if rows > 4:")
    assert "length of a data-dependent shape" in words
    # ``len(gt_sorted)`` of a gather by ``sort``'s permutation: the sorted length
    words = message_on_line(result, FIXTURE, "dt/lossfns.py", "DS109", "gt_sorted[1:p]")
    assert "length of a data-dependent shape" in words
