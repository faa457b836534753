"""fixtures/padsamples: lists of per-image tensors padded to the batch's largest image. Each
padding op gives one finding, DS119 (the batch takes the largest shape), never DS120 (a
per-sample total, with its advice to pad targets) beside it or on the same list; samples
computed on without the padding keep their DS120 — exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "padsamples"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=7)


def test_one_finding_per_padding_op(result: ScanResult) -> None:
    # ``F.pad(tensors[0], [0, max_size[-1] - image_size[1], ...])``: the padding amounts are
    # the batch maximum minus the image's size held in a tensor; the op pads a sample
    line = "F.pad(tensors[0], padding_size"
    words = message_on_line(result, FIXTURE, "pl/imagelist.py", "DS119", line)
    assert "padded to the largest sample of each batch" in words
    per_line: dict[int, list[str]] = {}
    for f in result.shape_findings:
        per_line.setdefault(f.span.line, []).append(f.rule)
    assert all(len(rules) == 1 for rules in per_line.values()), per_line


def test_padded_image_lists_get_no_per_sample_advice(result: ScanResult) -> None:
    padding = {"ImageList.from_tensors", "alloc_then_copy", "pad_each"}
    near = [f for f in result.shape_findings if f.function in padding]
    assert sorted(f.rule for f in near) == ["DS119"] * 4
    assert not [f for f in near if "targets" in f.suggestion]


def test_a_sample_computed_on_without_padding_keeps_its_finding(result: ScanResult) -> None:
    words = message_on_line(result, FIXTURE, "pl/imagelist.py", "DS120", "(0, 1, 0, 1)")
    assert "a tensor op computes on one sample's tensor" in words
