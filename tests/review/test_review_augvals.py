"""Augmentation values read through a config object and through attributes
(``fixtures/augvals``): a dataset's draws reading ``self.cfg.hue`` show the values of the
config the training hands it; an augmentor class's steps are listed in ``__call__`` order with
the probabilities ``__init__`` keeps and the scale range its callers give (a dict written in
the call included); a Darknet ``.cfg`` named by a config object's value the training reads
gives the input-size row, one named by a value nothing reads none."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import RecipeItem
from apiscan.review.roles import HAND_DRAWN

AUGVALS = Path(__file__).resolve().parents[2] / "fixtures" / "augvals"


@pytest.fixture(scope="module")
def recipe() -> tuple[RecipeItem, ...]:
    return build_review(str(AUGVALS), jobs=1).recipe


def row(recipe: tuple[RecipeItem, ...], name: str) -> dict[str, str]:
    (found,) = [i for i in recipe if i.name == name]
    return dict(found.values)


def test_draws_reading_a_kept_config_show_the_config_values(recipe) -> None:
    drawn = row(recipe, "ConfigSet.__getitem__")
    # INVALID: a function drawing with no defaults left says nothing more
    assert drawn["draw 2"] == "dsat = rand_scale(1.5)"
    # VALID: the numeric defaults a drawing function is left at are its amounts (a switch
    # such as ``swap=True`` is none)
    # (the draws a helper makes follow its call: the numbers count them too)
    draws = [v for k, v in drawn.items() if k.startswith("draw ")]
    assert "hsv_jitter(img[left:]) with hue=0.1, sat=0.7" in draws
    # the module's own settings pick the branch that sets mixup (elif Cfg.mosaic: 3);
    # a branch nothing decides (an environment variable) leaves the jitter set before it
    assert drawn["self.cfg.mixup"] == (
        "3 (self.cfg.mixup: built by get_args() at train.py:38; Cfg.mixup set at settings.py:25)"
    )
    # the records the sample is read from (an empty list here) are no setting
    assert "self.records" not in drawn
    assert drawn["self.cfg.hue"] == (
        "0.1 (self.cfg.hue: built by get_args() at train.py:38; Cfg.hue set at settings.py:15)"
    )
    assert drawn["self.cfg.flip"].startswith("1 (")
    # read through a local the draw's bounds are computed from (``dw``)
    assert drawn["self.cfg.jitter"].startswith("0.3 (")
    assert "settings.py:17" in drawn["self.cfg.jitter"]
    # ``Cfg.w = Cfg.width`` is no draw's setting here: the output size is not listed
    assert "self.cfg.w" not in drawn
    assert all(i.category == "augmentation" for i in recipe if i.note == HAND_DRAWN)


def test_an_augmentor_lists_its_steps_in_call_order_with_probabilities(recipe) -> None:
    values = row(recipe, "aug.augmentor.PairAugmentor")
    # the scale range by caller: the inline dict's values are not dropped
    assert values["min_scale"] == "-0.1 | -0.3 (by caller; 2 callers)"
    assert values["max_scale"] == "1.0 | 0.5 (by caller; 2 callers)"
    assert [k for k in values if k.startswith("step")] == ["step 1", "step 2", "step 3"]
    assert values["step 1"] == "color: jitter = ColorJitter(brightness=0.4, contrast=0.4)"
    assert values["step 2"] == (
        "erase: if np.random.rand() < 0.25 (erase_prob): size = np.random.randint(10, 40)"
    )
    assert values["step 3"] == (
        "spatial: scale = 2 ** np.random.uniform(min_scale, max_scale); "
        "if np.random.rand() < 0.5 (flip_prob) under if do_flip"
    )


def test_a_fixed_augmentor_has_no_steps(recipe) -> None:
    values = row(recipe, "aug.augmentor.FixedAugmentor")
    assert not [k for k in values if k.startswith("step")]


def test_a_cfg_named_by_a_config_value_the_training_reads_gives_the_input_size(recipe) -> None:
    (size,) = [i for i in recipe if i.name == "config [net] input size"]
    assert dict(size.values) == {"width": "416", "height": "416", "channels": "3"}
    assert (size.where.path, size.where.line) == ("cfg/net.cfg", 4)
    assert size.note == "read from cfg/net.cfg, the value of Cfg.netfile at settings.py:10"
    # the .cfg nothing reads by its name (999) gives no row, and [net] keys the code never
    # reads by key (momentum, learning_rate) give none either
    assert not [i for i in recipe if "unused.cfg" in i.note or i.where.path == "cfg/unused.cfg"]
    assert not [i for i in recipe if i.name == "config [net] optimizer settings"]


MAIN_BLOCK = {
    "data.py": """
import random

import numpy as np
import torch
from torch.utils.data import Dataset


class MosaicSet(Dataset):
    def __init__(self, lines, mosaic, mosaic_prob, train):
        self.lines = lines
        self.mosaic = mosaic
        self.mosaic_prob = mosaic_prob
        self.train = train

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, index):
        img = np.zeros((8, 8, 3))
        if self.mosaic and random.random() < self.mosaic_prob:
            img = img[:, ::-1]
        return torch.from_numpy(img.copy())
""",
    "train.py": """
import torch
from torch.utils.data import DataLoader

from data import MosaicSet

if __name__ == "__main__":
    mosaic = True
    mosaic_prob = 0.5
    net = torch.nn.Conv2d(3, 4, 3)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    train_dataset = MosaicSet([], mosaic=mosaic, mosaic_prob=mosaic_prob, train=True)
    val_dataset = MosaicSet([], mosaic=False, mosaic_prob=0, train=False)
    for images in DataLoader(train_dataset, batch_size=2):
        loss = net(images).mean()
        loss.backward()
        opt.step()
    later = 3
""",
}


def test_settings_of_a_main_block_reach_the_dataset_the_validation_split_aside(
    tmp_path: Path,
) -> None:
    root = write_repo(tmp_path / "mainblock", MAIN_BLOCK)
    drawn = row(build_review(str(root), jobs=1).recipe, "MosaicSet.__getitem__")
    # VALID: the names the script's ``if __name__ == "__main__":`` block assigns, passed
    # to the training dataset; INVALID: the validation split's mosaic=False, mosaic_prob=0
    assert drawn["self.mosaic"].startswith("True (")
    assert "mosaic set at train.py:7" in drawn["self.mosaic"]
    assert drawn["self.mosaic_prob"].startswith("0.5 (")
    assert "False" not in drawn["self.mosaic"] and "0 (" not in drawn["self.mosaic_prob"]
