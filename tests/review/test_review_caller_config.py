"""The settings an inference-only model runs with, as its caller gives them
(fixtures/callerconf): a script builds ``config = {"detector": {"max_points":
opt.max_points, ...}, "matcher": {...}}`` from its options and hands it to the model, whose
parts merge their share over a class-level ``default_config``. The runtime rows show the
values passed over the defaults; an option read only into such a config is no training
length, a count of inputs is no preprocessing size, and a fixed ``--resize`` is."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/callerconf")


def _row(review: Review, category: str, name: str):
    found = [r for r in review.recipe if r.category == category and r.name == name]
    assert len(found) == 1, [(r.category, r.name) for r in review.recipe]
    return found[0]


def test_the_values_the_caller_passes_replace_the_defaults(review: Review) -> None:
    detector = dict(_row(review, "runtime", "Detector.default_config").values)
    assert detector["max_points"] == (
        "1024 (passed at run_pairs.py:16 as opt.max_points, default of argparse "
        "--max_points at run_pairs.py:9); class default -1"
    )
    assert detector["radius"] == "4 (passed at run_pairs.py:16); class default 4"
    # INVALID: a key the caller does not pass keeps the default as written
    assert detector["threshold"] == "0.005"
    solver = _row(review, "runtime", "Solver.default_config")
    values = dict(solver.values)
    assert values["iterations"].startswith("20 (passed at run_pairs.py:17 as opt.iterations")
    assert values["iterations"].endswith("; class default 100")
    # INVALID: the one-key dict ``{"threshold": 0.9}`` overrides nothing
    assert values["threshold"] == "0.3 (passed at run_pairs.py:17); class default 0.2"
    assert values["dim"] == "8"
    assert solver.note.startswith("the values the caller passes over the class defaults")


def test_options_are_filed_by_what_they_do(review: Review) -> None:
    rows = {(r.category, r.name) for r in review.recipe}
    # passed into the model's config: no training length
    assert not any(name == "argparse --iterations" for _, name in rows)
    # "maximum number of pairs": a count of inputs, not a size
    assert not any(name == "argparse --max_length" for _, name in rows)
    resize = _row(review, "preprocessing", "argparse --resize")
    assert resize.values == (("default", "[640, 480]"),)
    # INVALID: a flag named after resizing is no size
    assert not any(name == "argparse --resize_float" for _, name in rows)
