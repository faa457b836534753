"""A collate that concatenates every image's boxes into one targets tensor, on
``fixtures/boxcollate``: the batch's row count is the number of boxes it holds, so the loader
is an input pipeline with data-dependent shapes (pad to a maximum box count), even when the
loader class and the collate are chosen at run time (``loader = DataLoader if w else
RepeatLoader``, ``collate_fn=A.collate_quad if quad else A.collate_fn``); a collate that pads
the boxes to a fixed count is none."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import Review

BOXES = Path(__file__).resolve().parents[2] / "fixtures" / "boxcollate"


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(BOXES), jobs=1)


def test_a_collate_joining_per_image_boxes_is_one_input_pipeline(review: Review) -> None:
    # the two alternatives of one loader's collate are one pipeline; pad_collate pads
    assert review.effort.input_shape_rewrites == 1
    said = next(e for e in review.effort.explanation if "input pipeline" in e)
    assert said.endswith("static shapes: boxdet/data.py:BoxSet.collate_fn.")
    assert "pad_collate" not in said


def test_each_branch_of_a_conditional_collate_is_a_data_edge() -> None:
    result, analyses = scan_with_facts(ScanOptions(path=str(BOXES), cache_dir=None, jobs=1))
    data = next(fa for fa in analyses if fa.path == "boxdet/data.py")
    edges = sorted((c.caller, c.callee) for c in data.calls if c.role == "collate_fn")
    assert edges == [
        ("make_fixed_loader", "boxdet.data.pad_collate"),
        ("make_loader", "boxdet.data.BoxSet.collate_fn"),
        ("make_loader", "boxdet.data.BoxSet.collate_quad"),
    ]
    # so the collates run in the data pipeline, where their joins are reported
    joins = sorted((f.function, f.span.line, f.scope) for f in result.shape_findings)
    assert joins == [
        ("BoxSet.collate_fn", 43, "data"),
        ("BoxSet.collate_quad", 50, "data"),
    ]
