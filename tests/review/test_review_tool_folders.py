"""What the training entry reaches is ported whatever its folder is named, and a second entry
script in a tools folder is counted apart with what only it reaches (issue 20), on
fixtures/toolreach: a pytorch-YOLOv4-like layout. ``train.py`` at the root trains ``Net``
(``models.py``, whose head is ``tool/layers.py``) or the cfg-built ``tool/darknet.py`` and
imports a collate function from ``tool/reference/data.py``; ``tool/reference/train.py`` is
torchvision's detection reference training, run on its own with its optimizer, its
``engine.py`` and a pretrained Faster R-CNN; ``demo.py`` names ``cfg/net.cfg``."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.work import TOOLS_ONLY


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/toolreach")


def test_a_tools_module_the_training_imports_is_ported(review) -> None:
    apart = dict(review.ancillary)
    # VALID: the model's head, the model train.py builds and the package holding them
    for path in ("tool/layers.py", "tool/darknet.py", "tool/__init__.py"):
        assert path not in apart, path
    # ... and a helper module of the reference folder the training imports a function from
    assert "tool/reference/data.py" not in apart
    # their network call sites count with models.py's (2 without them)
    assert review.effort.call_sites_to_change == 5


def test_a_standalone_reference_script_in_a_tools_folder_is_counted_apart(review) -> None:
    apart = dict(review.ancillary)
    # INVALID: a second training entry the root training never imports, and its engine
    assert apart["tool/reference/train.py"] == "tools"
    assert apart["tool/reference/engine.py"] == f"{TOOLS_ONLY} (tool/reference/train.py)"
    assert apart["demo.py"] == "demo"
    # its pretrained backbone and its host reads are no work of the port
    kinds = {item.kind for item in review.work}
    assert "pretrained-backbone" not in kinds and "step-sync" not in kinds
    assert not any(r.category == "backbone" for r in review.recipe)


def test_the_recipe_is_what_the_root_training_runs(review) -> None:
    rows = {(r.category, r.name, r.where.path) for r in review.recipe}
    assert ("optimizer", "torch.optim.SGD", "train.py") in rows
    assert ("loss", "train.DetLoss", "train.py") in rows
    # the reference script's optimizer, and the composition of a helper only it names
    # (``DATASETS = {"coco": (root, get_data)}``) in a module the training does import
    assert not any(path == "tool/reference/train.py" and c == "optimizer" for c, _, path in rows)
    assert not any(c == "augmentation" for c, _, _ in rows)
    assert not any(name.startswith("torchvision.transforms") for _, name, _ in rows)


def test_a_demos_darknet_cfg_is_not_the_training_config(review) -> None:
    """``demo.py``'s ``-cfgfile`` default names ``cfg/net.cfg`` and a ``-lr`` option's
    ``dest="learning_rate"`` spells a ``[net]`` key: the demo's config, not the training's
    (the training's own ``--model`` default gives the rows: test_review_config_files)."""
    assert not any(r.name.startswith("config [net]") for r in review.recipe)
