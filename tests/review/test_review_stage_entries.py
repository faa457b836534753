"""A pipeline the documentation trains in stages (fixtures/stagetrain: ``train_coder.py``
trains the coder, then ``train_prior.py --coder_path`` trains a prior on it): each stage's
script trains its own model, so the earlier stage's rows are recipe too, said to be that
stage's. A script launched before the entry that trains the entry's own model again (a
legacy trainer), or one launched after it (a fine-tuning), is no stage."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import documented_entry, documented_stages
from apiscan.review.model import Review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "stagetrain"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/stagetrain")


def _rows(review: Review, category: str) -> dict[str, tuple[tuple[str, str], ...]]:
    return {str(r.where): r.values for r in review.recipe if r.category == category}


def test_the_scripts_launched_before_the_entry_are_read_in_order() -> None:
    scripts = {
        p: p for p in ("train_coder.py", "train_prior.py", "legacy_prior.py", "finetune_prior.py")
    }
    assert documented_entry(FIXTURE, scripts) == "train_prior.py"
    assert documented_stages(FIXTURE, scripts, "train_prior.py") == (
        "train_coder.py",
        "legacy_prior.py",
    )
    # INVALID: nothing is launched before the first script
    assert documented_stages(FIXTURE, scripts, "train_coder.py") == ()


def test_an_earlier_stage_keeps_its_rows(review: Review) -> None:
    optimizers = _rows(review, "optimizer")
    assert optimizers["train_coder.py:19"][1] == (
        "lr",
        "1e-3 (args.learning_rate: default of argparse --learning_rate at train_coder.py:9)",
    )
    assert "train_prior.py:17" in optimizers
    batches = _rows(review, "batch_size")
    assert batches["train_coder.py:10"] == (("default", "8"), ("launched", "8 (README.md:6)"))
    assert batches["train_prior.py:9"][0] == ("default", "4")
    coder = [r for r in review.recipe if r.where.path == "train_coder.py"]
    assert coder
    assert all(
        r.note.startswith("stage 1 of 2: train_coder.py trains its own model") for r in coder
    )
    # the entry's own rows are not a stage's
    assert not any("stage" in r.note for r in review.recipe if r.where.path == "train_prior.py")


def test_a_second_trainer_of_the_same_model_is_no_stage(review: Review) -> None:
    # INVALID: legacy_prior.py is launched first but builds what the entry builds, and
    # finetune_prior.py is launched after the entry: neither is part of the recipe
    paths = {r.where.path for r in review.recipe}
    assert "legacy_prior.py" not in paths
    assert "finetune_prior.py" not in paths


def test_an_annealed_temperature_is_its_own_row(review: Review) -> None:
    annealed = {r.name: r.values for r in review.recipe if r.category == "anneal"}
    assert annealed == {
        "argparse --starting_temp": (("default", "1.0"),),
        "argparse --temp_min": (("default", "0.5"),),
        "argparse --anneal_rate": (("default", "1e-6"),),
    }
    # INVALID: a constant temperature is not annealed
    assert not [
        r for r in review.recipe if r.name == "argparse --temperature" and r.category == "anneal"
    ]
