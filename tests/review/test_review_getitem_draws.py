"""Augmentation written by hand in a dataset's ``__getitem__``, on ``fixtures/getitemaug``:
the random draws are recipe rows with the settings they read, and a short side drawn from a
list of sizes is an input pipeline with multi-scale shapes; a dataset that resizes to a fixed
size and normalises draws nothing and has no row."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.roles import HAND_DRAWN

GETITEM = Path(__file__).resolve().parents[2] / "fixtures" / "getitemaug"


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(GETITEM), jobs=1)


def hand_rows(review: Review) -> dict[str, dict[str, str]]:
    return {i.name: dict(i.values) for i in review.recipe if i.note == HAND_DRAWN}


def test_draws_in_getitem_are_augmentation_rows_with_their_settings(review: Review) -> None:
    rows = hand_rows(review)
    assert (
        rows["MultiScaleSet.__getitem__"]["draw 1"] == "short = np.random.choice((300, 375, 450))"
    )
    # the coin flip is the test of its ``if``: shown as the test
    assert rows["MultiScaleSet.__getitem__"]["draw 2"] == "if np.random.choice([0, 1])"
    jitter = rows["JitterSet.__getitem__"]
    # a repository function that draws (rand_scale) is a draw of the dataset's, shown with
    # the name it is stored as
    assert jitter["draw 1"] == "sat = rand_scale(1.5)"
    # ... followed by what it draws, with the amount the call passes
    assert jitter["draw 2"] == "in rand_scale: scale = random.uniform(1, 1.5)"
    assert jitter["draw 3"] == "in rand_scale: random.randint(0, 1)"
    assert jitter["draw 4"] == "frac = random.choice([0.3, 0.5, 0.7])"
    assert jitter["draw 5"] == "kind = random.randint(0, 2) under if self.blur"
    assert jitter["self.saturation"].startswith("1.5 ")
    assert jitter["self.blur"].startswith("0 ")
    # a flag the method sets itself is state, not a setting
    assert "self.shuffled" not in jitter
    assert all(i.category == "augmentation" for i in review.recipe if i.note == HAND_DRAWN)


def test_a_fixed_size_dataset_has_no_augmentation_row(review: Review) -> None:
    assert "FixedSizeSet.__getitem__" not in hand_rows(review)
    assert not any("FixedSizeSet" in i.name for i in review.recipe if i.category == "augmentation")


def test_a_short_side_drawn_from_sizes_is_a_multi_scale_input_pipeline(review: Review) -> None:
    # MultiScaleSet draws from three sizes; JitterSet's crop fractions are no sizes
    assert review.effort.input_shape_rewrites == 1
    said = next(e for e in review.effort.explanation if "input pipeline" in e)
    assert "multi-scale MultiScaleSet.__getitem__" in said
    assert "JitterSet" not in said


TEXT_TRAIN = """
import torch
from torch import nn
from torchtext.data import BucketIterator


def prepare(train, val, batch_size):
    train_iterator = BucketIterator(train, batch_size=batch_size, train=True)
    val_iterator = BucketIterator(val, batch_size=batch_size)
    return train_iterator, val_iterator


def main(train, val):
    net = nn.Linear(4, 4)
    opt = torch.optim.Adam(net.parameters())
    for batch in prepare(train, val, 8)[0]:
        loss = net(batch.src).sum()
        loss.backward()
        opt.step()
"""

PLAIN_TRAIN = TEXT_TRAIN.replace("from torchtext.data import BucketIterator\n", "").replace(
    "BucketIterator(", "torch.utils.data.DataLoader("
)


def test_a_bucketing_iterator_is_an_input_pipeline_with_data_dependent_shapes(tmp_path) -> None:
    root = write_repo(tmp_path / "text", {"train.py": TEXT_TRAIN})
    effort = build_review(str(root), jobs=1).effort
    # the training and validation iterators of one file: one pipeline
    assert effort.input_shape_rewrites == 1
    said = next(e for e in effort.explanation if "input pipeline" in e)
    assert "train.py:BucketIterator (lines 7, 8)" in said


def test_a_plain_loader_is_no_input_pipeline(tmp_path) -> None:
    root = write_repo(tmp_path / "plain", {"train.py": PLAIN_TRAIN})
    assert "BucketIterator" not in PLAIN_TRAIN
    assert build_review(str(root), jobs=1).effort.input_shape_rewrites == 0
