"""A training entry point that hands control to an installed training framework (basicsr's
``train_pipeline`` given ``-opt options/x.yml``): the recipe comes from the option file the
training command names, the networks it names are the top models, the framework's own
loop, networks and losses are one work item, and an inference helper's casts and loads are
no recipe rows (``fixtures/optfiles/frameworknet``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.config_files import framework_training
from apiscan.review.model import RecipeItem, Review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "optfiles" / "frameworknet"


def review_of(root: Path) -> Review:
    return build_review(str(root), jobs=1)


def rows(review: Review, category: str) -> dict[str, RecipeItem]:
    return {i.name: i for i in review.recipe if i.category == category}


def test_the_option_file_gives_the_recipe_with_its_places() -> None:
    review = review_of(FIXTURE)
    why = "read from options/train_tinysr_gan.yml, the training command at README.md:6"
    optim = rows(review, "optimizer")["config train.optim_g: Adam"]
    assert dict(optim.values) == {"type": "'Adam'", "betas": "[0.9, 0.99]", "lr": "1e-4"}
    assert (optim.where.path, optim.where.line) == ("options/train_tinysr_gan.yml", 35)
    assert optim.note == why
    assert "config train.optim_d: Adam" in rows(review, "optimizer")
    scheduler = rows(review, "scheduler")["config train.scheduler: MultiStepLR"]
    assert dict(scheduler.values) == {
        "type": "'MultiStepLR'",
        "gamma": "0.5",
        "milestones": "[1000]",
    }
    losses = rows(review, "loss")
    assert dict(losses["config train.pixel_opt: L1Loss"].values)["loss_weight"] == "1.0"
    assert dict(losses["config train.gan_opt: GANLoss"].values)["loss_weight"] == "1e-1"
    # nested settings by their path: which VGG layers, with their weights
    assert dict(losses["config train.perceptual_opt: PerceptualLoss"].values) == {
        "type": "'PerceptualLoss'",
        "perceptual_weight": "1.0",
        "vgg_type": "'vgg19'",
        "layer_weights.conv1_2": "0.1",
        "layer_weights.conv5_4": "1",
    }
    # a weight with no section of its own is a loss row too
    assert dict(losses["config train.r1_reg_weight"].values) == {"value": "10"}
    ema = rows(review, "ema")["config train.ema_decay"]
    assert dict(ema.values) == {"value": "0.999"}
    assert dict(rows(review, "epochs")["config train.total_iter"].values) == {"value": "2000"}
    assert dict(rows(review, "batch_size")["config datasets.train.batch_size_per_gpu"].values) == {
        "value": "4"
    }
    augmentation = rows(review, "augmentation")
    assert dict(augmentation["config datasets.train.gt_size"].values) == {"value": "64"}
    assert dict(augmentation["config datasets.train.use_hflip"].values) == {"value": "true"}
    checkpoints = rows(review, "checkpoint")
    # the weights the training starts from; a null path is no row
    assert dict(checkpoints["config path.pretrain_network_g"].values) == {
        "value": "'weights/tinysr_stage1.pth'"
    }
    assert "config path.pretrain_network_d" not in checkpoints


def test_an_inference_helpers_casts_loads_and_unset_steps_are_no_rows() -> None:
    review = review_of(FIXTURE)
    # TinyUpsampler's .half() casts and torch.load: the inference helper's
    assert not rows(review, "amp")
    assert "torch.load" not in rows(review, "checkpoint")
    # normalize runs only when the option file sets mean/std, and it sets neither
    assert not [i for i in review.recipe if "normalize" in i.name]
    # the conversion of the released weights is still work
    assert [w.what for w in review.work if w.kind == "checkpoint"] == ["torch.load"]


def test_the_networks_the_option_file_names_are_the_top_models() -> None:
    review = review_of(FIXTURE)
    # the framework's generator (third-party), then the repository's registered
    # discriminator; the inference script's own network after them
    assert [m.cls for m in review.top_models] == [
        "srkit.RRDBNet",
        "tinysr.archs.disc_arch.TinyDisc",
        "tinysr.archs.compact_arch.TinyCompact",
    ]
    first = review.top_models[0]
    assert first.cls == "srkit.RRDBNet"
    assert (first.where.path, first.where.line) == ("options/train_tinysr_gan.yml", 19)
    parts = dict(first.parts)
    assert parts["built by the training framework"] == (
        "srkit.train.train_pipeline at tinysr/train.py:10"
    )
    assert parts["defined in"] == "srkit (third-party: port it with the framework)"
    disc = review.top_models[1]
    assert disc.cls == "tinysr.archs.disc_arch.TinyDisc"
    assert "trained by" not in dict(disc.parts)
    assert review.top_models[2].cls == "tinysr.archs.compact_arch.TinyCompact"


def test_the_framework_is_a_work_item_the_effort_prices() -> None:
    review = review_of(FIXTURE)
    (item,) = [w for w in review.work if w.kind == "framework-training"]
    assert item.what == (
        "training loop, models and losses in srkit: port what the option file uses "
        "(RRDBNet (network_g), GANLoss (train.gan_opt), PerceptualLoss (train.perceptual_opt), "
        "L1Loss (train.pixel_opt; as torch.nn.L1Loss)); what tinysr/data/paired_dataset.py "
        "(datasets.train) calls of it: augment"
    )
    # the framework's L1Loss is torch.nn.L1Loss's counterpart: no part of its own to port
    assert item.uses == 4
    assert str(item.where[0]) == "tinysr/train.py:10"
    assert "4 framework-training as 3.1 × 2–4" in review.effort.formula
    # at least the framework's own share (its checkpoint is priced once, by its item)
    assert review.effort.person_days[0] >= 3.1 * 2


def test_a_repository_running_its_own_training_has_none_of_it(tmp_path: Path) -> None:
    """INVALID: the same repository whose train.py runs its own loop (the framework's name
    appears only in a test), or whose framework is vendored in-tree: no framework."""
    root = tmp_path / "frameworknet"
    shutil.copytree(FIXTURE, root)
    (root / "tinysr" / "train.py").write_text(
        "import torch\n"
        "from tinysr.archs.disc_arch import TinyDisc\n\n\n"
        "def main():\n"
        "    model = TinyDisc()\n"
        "    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)\n"
        "    loss = model(torch.zeros(1, 3, 8, 8)).mean()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n\n\n"
        "if __name__ == '__main__':\n"
        "    main()\n"
    )
    (root / "tests").mkdir()
    (root / "tests" / "test_pipeline.py").write_text(
        "from srkit.train import train_pipeline\n\n\ndef test_it():\n    train_pipeline('.')\n"
    )
    review = review_of(root)
    assert not [w for w in review.work if w.kind == "framework-training"]
    assert "srkit.RRDBNet" not in [m.cls for m in review.top_models]
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    assert framework_training(analyses) is None


def test_a_framework_vendored_in_tree_is_the_repositorys_own(tmp_path: Path) -> None:
    root = tmp_path / "frameworknet"
    shutil.copytree(FIXTURE, root)
    (root / "srkit").mkdir()
    (root / "srkit" / "__init__.py").write_text("")
    (root / "srkit" / "train.py").write_text("def train_pipeline(root):\n    return root\n")
    _, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    assert framework_training(analyses) is None
    _, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    found = framework_training(analyses)
    assert found is not None
    assert (found.package, found.entry, str(found.where)) == (
        "srkit",
        "srkit.train.train_pipeline",
        "tinysr/train.py:10",
    )
