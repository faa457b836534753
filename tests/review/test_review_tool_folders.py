"""What the training entry reaches is ported whatever its folder is named, and a second entry
script in a tools folder is counted apart with what only it reaches (issue 20), on
fixtures/toolreach: a pytorch-YOLOv4-like layout. ``train.py`` at the root trains ``Net``
(``models.py``, whose head is ``tool/layers.py``) or the cfg-built ``tool/darknet.py`` and
imports a collate function from ``tool/reference/data.py``; ``tool/reference/train.py`` is
torchvision's detection reference training, run on its own with its optimizer, its
``engine.py`` and a pretrained Faster R-CNN; ``demo.py`` names ``cfg/net.cfg``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import REPO_ROOT, review_fixture

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
    # their network call sites count with models.py's (2 when tool/ was counted apart)
    assert review.effort.call_sites_to_change == 7


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


def test_losses_a_model_builds_from_its_parsed_description_are_no_rows(review) -> None:
    """``tool/darknet.py``'s ``create_network`` builds ``nn.MSELoss`` for a ``cost`` block
    and ``RegionLoss`` for a ``region`` block of the cfg it parses (INVALID: the training
    computes its loss with its own ``DetLoss``): neither, nor ``RegionLoss.forward``'s
    losses, is the recipe's loss."""
    losses = {(r.name, r.where.path) for r in review.recipe if r.category == "loss"}
    assert losses == {
        ("torch.nn.functional.mse_loss", "train.py"),
        ("train.DetLoss", "train.py"),
    }


def test_with_no_loss_of_its_own_the_described_losses_say_they_are_conditional(
    tmp_path: Path,
) -> None:
    """VALID: the training backpropagates the model's output; the losses the description
    may add are all there is, each saying when it is built."""
    root = tmp_path / "toolreach"
    shutil.copytree(REPO_ROOT / "fixtures" / "toolreach", root)
    train = root / "train.py"
    text = train.read_text(encoding="utf-8")
    text = text.replace("    criterion = DetLoss()\n", "")
    text = text.replace("loss = criterion(model(images), images)", "loss = model(images).sum()")
    # the description's network is the default one: its losses are the run's
    text = text.replace('"--darknet", action="store_true"', '"--darknet", action="store_false"')
    text = text.replace(
        '        return nn.functional.mse_loss(pred, target, reduction="sum")',
        "        return pred",
    )
    train.write_text(text, encoding="utf-8")
    recipe = review_fixture(str(root)).recipe
    notes = {(r.name, r.where.path, r.where.line): r.note for r in recipe if r.category == "loss"}
    built = "built only when the parsed description holds such an element"
    assert notes[("torch.nn.MSELoss", "tool/darknet.py", 26)] == (
        f'{built} (if block["type"] == "cost")'
    )
    assert notes[("tool.region_loss.RegionLoss", "tool/darknet.py", 28)] == (
        f'defined at tool/region_loss.py:4; {built} (if block["type"] == "region")'
    )
    inside = "in a class built only when the parsed description holds such an element"
    assert notes[("torch.nn.MSELoss", "tool/region_loss.py", 11)] == (
        f"{inside} (at tool/darknet.py:28)"
    )
    assert notes[("torch.nn.CrossEntropyLoss", "tool/region_loss.py", 12)] == (
        f"{inside} (at tool/darknet.py:28)"
    )
