"""The recipe holds what the default run executes (fixtures/gatedrecipe): no row from code the
review itself finds not reached (an angle loss nothing builds and its helpers), none from the
side of a conditional expression or ``if`` on an option the defaults leave off
(``MSELoss() if opt.mse_loss else FocalLoss()``), none from a yacs key no code reads when
no YAML is the training's; and the augmentation of a training set that derives from a
plain base class (``JointSet(LoadImagesAndBoxes)``), the base's inherited ``get_data``
included, with the keyword amounts of its draws and without the sample fallbacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.build import build_review
from apiscan.review.model import RecipeItem, Review

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/gatedrecipe")


def _rows(review: Review, category: str) -> dict[tuple[str, int, str], RecipeItem]:
    return {
        (i.where.path, i.where.line, i.name): i for i in review.recipe if i.category == category
    }


def test_no_row_from_code_the_review_finds_not_reached(review: Review) -> None:
    losses = _rows(review, "loss")
    # INVALID: AngleLoss is built by nothing; its helpers are used only by it
    assert not [k for k in losses if k[0] == "gated/losses.py" and 21 <= k[1] <= 37]
    # VALID: the reached box loss's own call stays
    assert ("gated/losses.py", 13, "torch.nn.functional.l1_loss") in losses


def test_only_the_default_side_of_an_option_is_the_runs_loss(review: Review) -> None:
    losses = {name for _, _, name in _rows(review, "loss")}
    # VALID: ``else FocalLoss()`` with --mse_loss off; ``BoxL1Loss() if opt.box_loss ==
    # "l1"`` with "l1" the default; the loss built with no test
    assert {"gated.losses.FocalLoss", "gated.losses.BoxL1Loss"} <= losses
    assert "torch.nn.CrossEntropyLoss" in losses
    # INVALID: the body of the switched-off flag, the later side of the chain
    assert "torch.nn.MSELoss" not in losses
    assert "gated.losses.BoxSmoothLoss" not in losses
    # INVALID: the initialisation under ``if opt.cls_loss == "focal":`` ("ce" by default)
    assert [i for i in review.recipe if i.category == "init"] == []


def test_a_config_key_no_code_reads_is_no_row(review: Review) -> None:
    names = {i.name for i in review.recipe}
    # INVALID: set in the defaults and the YAML, read nowhere
    for key in ("TRAIN.LR", "TRAIN.BATCH_SIZE_PER_GPU", "MODEL.IMAGE_SIZE"):
        assert f"config {key} across YAML configs" not in names
    # VALID: the key ``schedule_length`` reads
    (epochs,) = [i for i in review.recipe if i.name.startswith("config TRAIN.NUM_EPOCHS")]
    assert dict(epochs.values)["values"] == "210 in 1 of 1 YAML configs"


def test_a_training_sets_plain_base_is_reached_and_its_draws_are_the_recipe(
    review: Review,
) -> None:
    aug = _rows(review, "augmentation")
    row = aug[("gated/data.py", 21, "LoadImagesAndBoxes.get_data")]
    values = dict(row.values)
    # VALID: the affine amounts passed by keyword, then the flip
    assert values["draw 1"].startswith(
        "img = random_affine(img, degrees=(-5, 5), scale=(0.50, 1.20)) with shear=(-2, 2)"
    )
    assert values["draw 2"] == "if self.augment and random.random() > 0.5"
    # INVALID: the base's ``augment=False`` is not the training set's (it passes True)
    assert "self.augment" not in values
    # VALID: the base the training set derives from is not "used only by files counted
    # apart" (the evaluation script builds it too), nor is ``random_affine``, its helper
    (apart,) = [s for s in review.effort.explanation if s.startswith("Used only by files")] or [""]
    assert "LoadImagesAndBoxes" not in apart
    assert "random_affine" not in apart


def test_a_fallback_fetching_another_sample_is_no_augmentation(review: Review) -> None:
    names = {name for _, _, name in _rows(review, "augmentation")}
    # INVALID: ``fallback`` calls ``self.__getitem__``; ``skip`` only calls such methods
    assert "JointSet.fallback" not in names
    assert "JointSet.skip" not in names
    # VALID: the training set's own ``__getitem__``
    assert "JointSet.__getitem__" in names


def test_a_base_built_only_apart_gives_no_row_of_its_own(review: Review, tmp_path: Path) -> None:
    aug = {name for _, _, name in _rows(review, "augmentation")}
    # INVALID: the base's own ``__getitem__``, overridden by the training set and built
    # itself only by the evaluation script counted apart
    assert "LoadImagesAndBoxes.__getitem__" not in aug
    # VALID: once the training builds the base itself, its ``__getitem__`` runs
    root = tmp_path / "gatedrecipe"
    shutil.copytree(REPO / "fixtures" / "gatedrecipe", root)
    train = root / "train.py"
    text = train.read_text().replace(
        'dataset = JointSet(["a.npy", "b.npy"], augment=True)',
        'dataset = LoadImagesAndBoxes(["a.npy", "b.npy"], augment=True)',
    )
    train.write_text(text.replace("import JointSet", "import JointSet, LoadImagesAndBoxes"))
    built = build_review(str(root), jobs=1)
    names = {i.name for i in built.recipe if i.category == "augmentation"}
    assert "LoadImagesAndBoxes.__getitem__" in names


def test_a_loss_only_added_in_times_a_zero_weight_is_no_row(review: Review, tmp_path: Path) -> None:
    losses = {name for _, _, name in _rows(review, "loss")}
    # INVALID: ``kl * kl_weight`` with ``kl_weight=0.0`` (unpacked from ``self.kl_weight``)
    assert "torch.nn.functional.kl_div" not in losses
    # VALID: the reconstruction term beside it
    assert "torch.nn.functional.mse_loss" in losses
    # VALID: once the training passes a weight, the term counts
    root = tmp_path / "gatedrecipe"
    shutil.copytree(REPO / "fixtures" / "gatedrecipe", root)
    train = root / "train.py"
    train.write_text(train.read_text().replace("ReconLoss()", "ReconLoss(kl_weight=0.5)"))
    built = build_review(str(root), jobs=1)
    assert "torch.nn.functional.kl_div" in {i.name for i in built.recipe if i.category == "loss"}
