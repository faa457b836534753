"""fixtures/batchreads: a collate class passed as ``collate_fn=`` that pads each batch to its
longest item (sorted lengths' first, or ``max`` over the batch rounded up, written into a
legacy typed constructor of several sizes) is DS119's batch padding, and one padded to a
length given up front is not; a batch field read with ``.item()`` in the forward and used
as a slice bound (also through ``max`` of such reads) is DS109 — exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.extract.shapes import BATCH_PADDING
from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "batchreads"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=5)


@pytest.mark.parametrize(
    "line",
    ["torch.LongTensor(len(batch), longest)", "torch.FloatTensor(len(batch), channels, longest)"],
)
def test_collate_padding_is_batch_padding(result: ScanResult, line: str) -> None:
    words = message_on_line(result, FIXTURE, "data.py", "DS119", line)
    assert BATCH_PADDING in words
    found = [f for f in result.shape_findings if f.path == "data.py" and f.rule == "DS119"]
    assert {f.case for f in found} == {BATCH_PADDING}


def test_fixed_length_collate_is_quiet(result: ScanResult) -> None:
    src = (FIXTURE / "data.py").read_text().splitlines()
    start = next(n for n, s in enumerate(src, 1) if s.startswith("class FixedCollate"))
    end = next(n for n, s in enumerate(src, 1) if s.startswith("def loaders"))
    assert [
        f for f in result.shape_findings if f.path == "data.py" and start <= f.span.line < end
    ] == []


def test_item_read_bound_is_a_data_slice(result: ScanResult) -> None:
    words = message_on_line(result, FIXTURE, "model.py", "DS109", "gt = gt[:, :, :most]")
    assert "slice bound is read from tensor data" in words
    sync = message_on_line(result, FIXTURE, "model.py", "DS118", "o.item() for o in")
    assert "slice bound" in sync
