"""Items and rows under a branch the configured run switches off (issue 20, the recipe from
what runs).

fixtures/configgates: ``config.json`` sets ``use_synch_bn`` and ``freeze_bn`` false and gives
the loader no ``val_split``: the vendored data-parallel wrapper, the BatchNorm freeze and the
validation split's seeded shuffle are not the run's. A copy with the switches on has them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]
GATES = REPO / "fixtures" / "configgates"


@pytest.fixture(scope="module")
def off():
    return review_fixture(str(GATES))


@pytest.fixture(scope="module")
def on(tmp_path_factory):
    copy = tmp_path_factory.mktemp("gates") / "configgates"
    shutil.copytree(GATES, copy)
    config = json.loads((copy / "config.json").read_text())
    config["use_synch_bn"] = True
    config["arch"]["args"]["freeze_bn"] = True
    config["train_loader"]["args"]["val_split"] = 0.1
    (copy / "config.json").write_text(json.dumps(config))
    return review_fixture(str(copy))


def _kinds(review) -> set[str]:
    return {i.kind for i in review.work}


def _names(review) -> set[str]:
    return {r.name for r in review.recipe}


def test_switched_off_by_the_config_no_item_no_row(off) -> None:
    assert "bn-frozen" not in _kinds(off)
    assert "vendored-parallel" not in _kinds(off)
    # the split runs only ``if val_split:``, which nothing gives: None
    assert not {"numpy.random.seed", "torch.utils.data.SubsetRandomSampler"} & _names(off)
    # a flip only a demo makes, under an option off by default
    assert not [r for r in off.recipe if "flip_images" in r.name]
    # what runs stays
    assert "torch.optim.SGD" in _names(off)


def test_switched_on_by_the_config_the_items_and_rows_are_there(on) -> None:
    frozen = [i for i in on.work if i.kind == "bn-frozen"]
    assert [i.what for i in frozen] == ["BatchNorm layers frozen in training: SegNet.freeze_bn"]
    parallel = [i for i in on.work if i.kind == "vendored-parallel"]
    assert [(w.path, w.line) for i in parallel for w in i.where] == [("train.py", 22)]
    assert {"numpy.random.seed", "torch.utils.data.SubsetRandomSampler"} <= _names(on)
