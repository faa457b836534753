"""Option files read as data: basicsr-style option YAMLs whose sections the code builds by
``type`` (``fixtures/optfiles/optnet``) and JSON hparams read as ``hps.train.learning_rate``
(``fixtures/optfiles/hpsnet``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "optfiles"


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def rows(items: tuple[RecipeItem, ...], category: str) -> dict[str, RecipeItem]:
    return {i.name: i for i in items if i.category == category}


def test_the_commanded_option_yaml_picks_optimizer_scheduler_loss_and_network() -> None:
    items = recipe_of(FIXTURES / "optnet")
    optimizers = rows(items, "optimizer")
    # only the branch the YAML's type picks stays, saying so
    assert "torch.optim.Adam" not in optimizers
    adamw = optimizers["torch.optim.AdamW"]
    assert "picked by train.optim_g.type: AdamW at options/train/deblur/TinyNet-w32.yml:17" in (
        adamw.note
    )
    assert "not known here" not in adamw.note
    optim = optimizers["config train.optim_g: AdamW"]
    assert dict(optim.values) == {
        "type": "'AdamW'",
        "betas": "[0.9, 0.9]",
        "lr": "1e-3",
        "weight_decay": "0",
    }
    assert optim.note.startswith(
        "read from options/train/deblur/TinyNet-w32.yml, the training command at README.md:5"
    )
    schedulers = rows(items, "scheduler")
    # the name the YAML gives is the branch's test, not the class's name
    assert "torch.optim.lr_scheduler.MultiStepLR" not in schedulers
    assert "TrueCosineAnnealingLR" in schedulers["torch.optim.lr_scheduler.CosineAnnealingLR"].note
    assert dict(schedulers["config train.scheduler: TrueCosineAnnealingLR"].values)["T_max"] == (
        "400000"
    )
    losses = rows(items, "loss")
    psnr = losses["config train.pixel_opt: PSNRLoss"]
    assert dict(psnr.values) == {"type": "'PSNRLoss'", "loss_weight": "1", "reduction": "'mean'"}
    assert psnr.note.startswith("PSNRLoss defined at optnet/losses/losses.py:16")
    # the L1Loss beside it, which no option file picks, is no recipe row
    assert not [n for n in losses if "l1_loss" in n]
    network = rows(items, "backbone")["config network_g: TinyNet"]
    assert dict(network.values)["width"] == "32"
    assert dict(rows(items, "epochs")["config train.total_iter"].values) == {"value": "400000"}
    assert dict(rows(items, "batch_size")["config datasets.train.batch_size_per_gpu"].values) == {
        "value": "4"
    }
    augmentation = rows(items, "augmentation")
    assert "config datasets.train.use_flip" in augmentation
    # the loader's shuffle is no augmentation
    assert "config datasets.train.use_shuffle" not in augmentation


def test_with_no_command_the_option_yamls_are_summarised(tmp_path: Path) -> None:
    root = tmp_path / "optnet"
    shutil.copytree(FIXTURES / "optnet", root)
    (root / "README.md").unlink()
    items = recipe_of(root)
    optim = rows(items, "optimizer")["config train.optim_g: AdamW"]
    assert dict(optim.values)["type"] == "'AdamW' (2 of 3 files; also 'Adam')"
    assert dict(optim.values)["lr"] == "1e-3 (2 of 3 files; also 2e-4)"
    assert optim.note.startswith(
        "3 training option YAML files, none picked (-opt at optnet/train.py:12 names none"
    )
    # both branches some file picks stay; the test YAML is no training file
    assert {"torch.optim.Adam", "torch.optim.AdamW"} <= set(rows(items, "optimizer"))
    assert {
        "torch.optim.lr_scheduler.MultiStepLR",
        "torch.optim.lr_scheduler.CosineAnnealingLR",
    } <= set(rows(items, "scheduler"))
    top = build_review(str(root), jobs=1).top_models[0]
    assert dict(top.parts)["selected by"] == (
        "network_g.type: TinyNet in 2 of 3 training option YAML files "
        "(options/train/deblur/TinyNet-w16.yml:10 first), none picked; "
        "the other files name WideNet"
    )


def test_the_option_yamls_network_is_the_top_model() -> None:
    review = build_review(str(FIXTURES / "optnet"), jobs=1)
    top = review.top_models[0]
    assert top.cls.endswith("TinyNet")
    parts = dict(top.parts)
    assert parts["selected by"].startswith(
        "network_g.type: TinyNet in options/train/deblur/TinyNet-w32.yml:11"
    )
    assert "body" in parts


def test_json_hparams_resolve_attribute_chains_from_the_commanded_file() -> None:
    items = recipe_of(FIXTURES / "hpsnet")
    adamw = dict(rows(items, "optimizer")["torch.optim.AdamW"].values)
    assert adamw["lr"] == (
        "2e-4 (hps.train.learning_rate: 2e-4 in configs/large.json:5, "
        "the training command at README.md:5)"
    )
    assert adamw["betas"].startswith("[0.8, 0.99] (hps.train.betas")
    amp = dict(rows(items, "amp")["torch.cuda.amp.GradScaler"].values)
    assert amp["enabled"].startswith("true (hps.train.fp16_run: true in configs/large.json:9")


def test_json_hparams_with_no_pick_agree_or_say_they_differ(tmp_path: Path) -> None:
    root = tmp_path / "hpsnet"
    shutil.copytree(FIXTURES / "hpsnet", root)
    (root / "README.md").unlink()
    items = recipe_of(root)
    adamw = dict(rows(items, "optimizer")["torch.optim.AdamW"].values)
    # both files set it alike: the value stands
    assert adamw["lr"] == (
        "2e-4 (hps.train.learning_rate: 2e-4 in all 2 JSON hparams files "
        "(configs/large.json:5 first); none is picked)"
    )


def test_the_network_most_documented_commands_train_is_the_top_model(tmp_path: Path) -> None:
    """NAFNet's class: a lower-case ``readme.md`` and ``docs/*.md`` pages whose commands
    name three option files once each (no file chosen): the network two of the three train
    is the top model, though TinyNet and WideNet are set by as many files."""
    root = tmp_path / "optnet"
    shutil.copytree(FIXTURES / "optnet", root)
    (root / "README.md").unlink()
    deblur = root / "options" / "train" / "deblur"
    shutil.copy(deblur / "WideNet.yml", deblur / "WideNet-b.yml")
    (root / "readme.md").write_text("# optnet\n\nSee docs/.\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "deblur.md").write_text(
        "    python optnet/train.py -opt options/train/deblur/TinyNet-w16.yml\n"
        "    python optnet/train.py -opt options/train/deblur/WideNet.yml\n"
        "    python optnet/train.py -opt options/train/deblur/WideNet-b.yml\n",
        encoding="utf-8",
    )
    top = build_review(str(root), jobs=1).top_models[0]
    assert top.cls.endswith("WideNet")
    assert dict(top.parts)["selected by"] == (
        "network_g.type: WideNet in 2 of 3 documented training commands "
        "(docs/deblur.md:2 first), no file picked; the other files name TinyNet"
    )
    # INVALID: with no documented command, the files alone count (a tie: the first name)
    (root / "docs" / "deblur.md").unlink()
    top = build_review(str(root), jobs=1).top_models[0]
    assert top.cls.endswith("TinyNet")
    assert "2 of 4 training option YAML files" in dict(top.parts)["selected by"]
