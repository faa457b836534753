"""Recipe rows labelled for what they are (a constant term, a plain call, a fixed resize).

fixtures/recipelabels: ``nll_loss`` adds ``0.5 * math.log(2 * math.pi)``, a constant, while
``box_loss`` weights ``l2`` by a setting; ``PairSet.get_pair`` only calls ``get_signal``
(which adds noise, its own row) while ``get_jittered`` draws a scale itself; a composition of
``Resize`` and ``CenterCrop`` is input preprocessing, one with ``RandomResizedCrop`` is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]
LABELS = REPO / "fixtures" / "recipelabels"


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(LABELS))


def _row(review, name: str):
    (row,) = [r for r in review.recipe if r.name == name]
    return row


def test_a_constant_term_is_no_loss_weight(review) -> None:
    assert not [k for k, _ in _row(review, "losses.nll_loss").values if k.startswith("weight")]
    # a setting weighting a real term stays
    weights = dict(_row(review, "losses.box_loss").values)
    assert weights["weight of l2"].startswith("2.0 ")


def test_a_call_of_a_drawing_method_is_no_draw_of_its_own(review) -> None:
    drawing = sorted(r.name for r in review.recipe if r.category == "augmentation")
    assert "PairSet.get_pair" not in drawing
    assert "PairSet.get_signal" in drawing
    # a method that draws itself keeps its row, with the call beside its own draw
    jittered = dict(_row(review, "PairSet.get_jittered").values)
    assert jittered["draw 1"] == "scale = random.uniform(0.9, 1.1)"


def test_a_fixed_resize_and_crop_is_preprocessing(review) -> None:
    compositions = {
        r.note.rpartition("stored as ")[2]: r for r in review.recipe if "composition" in r.name
    }
    assert compositions["input_transform"].category == "preprocessing"
    assert "a fixed resize and crop" in compositions["input_transform"].note
    assert compositions["train_transform"].category == "augmentation"
