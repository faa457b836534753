"""A training dataset that resizes and pads every image to one size gives the network a
fixed-size input, on fixtures/letterboxfix: ``TrainImages`` (the dataset the training
loads, whose per-sample flip the recipe reads) inherits ``load``, which letterboxes to
320×256; ``SizedImages`` passes its own height by name; ``DemoImages`` letterboxes to
640×480 for a demo and ``shrink`` only resizes."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.work import Ancillary, fixed_size_inputs

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "letterboxfix"


@pytest.fixture(scope="module")
def analyses():
    return scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))[1]


def test_the_training_letterbox_is_a_fixed_input(analyses) -> None:
    ancillary = Ancillary(analyses, None, root=FIXTURE)
    # VALID: the training dataset's base class letterboxes; INVALID: the demo loader's
    # letterbox (no training dataset) and a plain resize
    assert fixed_size_inputs(analyses, ancillary, {"TrainImages"}) == (
        "letterbox(...) at data/loaders.py:33 (height=256, width=320)",
    )
    # VALID: a size passed as a name is the caller's; INVALID: letterbox's default height
    # (256) shown for it
    assert fixed_size_inputs(analyses, ancillary, {"SizedImages"}) == (
        "letterbox(...) at data/loaders.py:56 (height=size (passed by the caller), width=320)",
    )
    # INVALID: with no training dataset known, no input is said to be fixed
    assert fixed_size_inputs(analyses, ancillary, set()) == ()


def test_the_review_says_the_input_is_fixed() -> None:
    review = build_review(str(FIXTURE), jobs=1)
    (line,) = [e for e in review.effort.explanation if e.startswith("0 input pipelines")]
    assert line.endswith(
        "The training input is resized and padded to a fixed size (one static input shape "
        "for the compiled network; per-sample target counts still vary): letterbox(...) at "
        "data/loaders.py:33 (height=256, width=320)."
    )
    assert "640" not in line
