"""fixtures/roiheads: per-image proposals collected in a list and pooled together (sizes read
from their total and from each image's count, across calls and a Module's ``forward``), and
stores of constants through data-dependent indices or bounds, which stay quiet."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "roiheads"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=12)


def test_sizes_name_the_list_they_come_from(result: ScanResult) -> None:
    src = (FIXTURE / "roiheads/pool.py").read_text().splitlines()
    line = next(n for n, text in enumerate(src, 1) if "torch.zeros((num_rois" in text)
    found = [
        f for f in result.shape_findings if (f.path, f.span.line) == ("roiheads/pool.py", line)
    ]
    assert [f.rule for f in found] == ["DS113"]
    # the list reached the pooler through a Module's forward, whose parameter the callers
    # passed a list to: the chain names the calls it took
    assert "`Pooler.forward` → `pool_levels`" in found[0].message
