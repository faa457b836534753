"""The reference run's files are ported and its config is the one its command names.

``fixtures/modedispatch`` is a pycls-like layout: ``tools/run_net.py --mode train`` hands
``trainer.train_model`` to a launcher as a callback, the documented command is on a page of
``docs/`` (``--cfg configs/large_8gpu.yaml``), and a sweep tool beside it seeds its own
sampling. ``fixtures/hypcfg`` is a yolor-like layout: ``train.py`` takes its model file by a
star import from a folder that also holds an export script, loads ``--data`` and ``--hyp``
YAMLs into two dicts, builds its network from a darknet ``.cfg`` whose ``[net]`` section
shares key names with the hyperparameter file, guards a focal loss by ``fl_gamma`` and seeds
through an ``init_torch_seeds`` helper."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.review.commands import commanded_config


def _rows(review, category: str) -> dict[str, dict[str, str]]:
    return {r.name: dict(r.values) for r in review.recipe if r.category == category}


@pytest.fixture(scope="module")
def dispatch():
    return review_fixture("fixtures/modedispatch")


@pytest.fixture(scope="module")
def hypcfg():
    return review_fixture("fixtures/hypcfg")


def test_an_entry_dispatching_the_training_as_a_callback_is_ported(dispatch) -> None:
    apart = dict(dispatch.ancillary)
    # VALID: the mode script of the documented command, wherever it lives
    assert "tools/run_net.py" not in apart
    # INVALID: the sweep tool beside it reaches no training: still counted apart
    assert apart["tools/sweep_setup.py"] == "tools"
    # what the entry reaches is not "used only by files counted apart"
    assert not any("train_model" in line for line in dispatch.effort.explanation)


def test_a_tools_folder_script_gives_no_recipe_row(dispatch) -> None:
    seeds = [r for r in dispatch.recipe if r.category == "seed"]
    # VALID: the trainer's seeds, from the config's RNG_SEED
    assert {r.where.path for r in seeds} == {"clsnet/core/trainer.py"}
    assert all(dict(r.values)["seed"].startswith("1 (cfg.RNG_SEED") for r in seeds)
    # INVALID: the sweep tool's np.random.seed(seed) is its own job's
    assert not any(r.where.path.startswith("tools/") for r in dispatch.recipe)


def test_the_config_named_by_a_documentation_page_command_is_the_run(dispatch) -> None:
    batch = _rows(dispatch, "batch_size")["config TRAIN.BATCH_SIZE"]
    assert batch["value"] == "1024"
    assert _rows(dispatch, "epochs")["config OPTIM.MAX_EPOCH"]["value"] == "100"
    sgd = _rows(dispatch, "optimizer")["torch.optim.SGD"]
    assert sgd["lr"].startswith("0.8 (cfg.OPTIM.BASE_LR: 0.8 in configs/large_8gpu.yaml:2")
    assert "docs/GETTING_STARTED.md:13" in sgd["lr"]
    # the values the command passes after the file are the run's too
    epochs = next(r for r in dispatch.recipe if r.name == "config OPTIM.MAX_EPOCH")
    assert "the training command at docs/GETTING_STARTED.md:13" in epochs.note
    assert "OUT_DIR /tmp" in epochs.note
    # no histogram across the YAML files
    assert not any("across YAML configs" in r.name for r in dispatch.recipe)


def test_a_page_command_picks_a_config_only_when_it_trains(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "fixtures/modedispatch", root)
    configs = {"configs/small_4gpu.yaml", "configs/large_8gpu.yaml"}
    # VALID: both ``--mode train`` commands of the page name the large config
    assert commanded_config(root, configs) == (
        "configs/large_8gpu.yaml",
        "docs/GETTING_STARTED.md:13",
    )
    page = root / "docs/GETTING_STARTED.md"
    text = page.read_text()
    # INVALID: a page's single training command (a note) picks none
    page.write_text(text.replace("--mode train", "--mode info", 1))
    assert commanded_config(root, configs) is None
    # nor do info and test commands alone, nor a benchmarks page training the other config
    page.write_text(text.replace("--mode train", "--mode info"))
    assert commanded_config(root, configs) is None
    # nor two pages training two configs
    (root / "docs/OTHER.md").write_text(
        "```\n./tools/run_net.py --mode train --cfg configs/small_4gpu.yaml\n```\n"
    )
    page.write_text(text)
    assert commanded_config(root, configs) is None


def test_a_star_imported_model_beside_an_export_script_is_ported(hypcfg) -> None:
    apart = dict(hypcfg.ancillary)
    # VALID: the model file train.py takes by ``from models.models import *``, and its folder
    assert "models/models.py" not in apart
    assert "models/__init__.py" not in apart
    # INVALID: the export script importing coremltools and onnx is the adapter
    assert apart["models/export.py"] == "adapter for coremltools, onnx"
    assert "models.models.Darknet" in {t.cls for t in hypcfg.top_models}


def test_hyp_keys_are_read_from_the_hyp_yaml_not_the_darknet_net_section(hypcfg) -> None:
    optimizer = _rows(hypcfg, "optimizer")
    sgd = optimizer["torch.optim.SGD"]
    assert sgd["momentum"].startswith('0.937 (hyp["momentum"]: 0.937 in data/hyp.scratch.yaml:2')
    assert sgd["lr"].startswith('0.01 (hyp["lr0"]')
    # INVALID: the model .cfg's [net] keys are no rows of the run (no code reads that section)
    assert not any(name.startswith("config [net]") for name in optimizer)
    assert not any(r.name.startswith("config [net]") for r in hypcfg.recipe)


def test_a_loss_guarded_off_by_the_hyp_file_is_no_row(hypcfg, tmp_path: Path) -> None:
    # VALID: ``if g > 0: FocalLoss(...)`` with fl_gamma 0.0 in the run's hyp file
    assert "utils.loss.FocalLoss" not in _rows(hypcfg, "loss")
    assert "torch.nn.BCEWithLogitsLoss" in _rows(hypcfg, "loss")
    # INVALID: with the --hyp default naming a file with fl_gamma 1.5, it is built
    root = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "fixtures/hypcfg", root)
    train = root / "train.py"
    train.write_text(train.read_text().replace("hyp.scratch.yaml", "hyp.focal.yaml"))
    (root / "README.md").write_text("# hypcfg\n")
    from apiscan.review.build import build_review

    focal = build_review(str(root), jobs=1)
    assert "utils.loss.FocalLoss" in _rows(focal, "loss")


def test_a_seed_helper_named_init_is_no_initialisation(hypcfg) -> None:
    init = _rows(hypcfg, "init")
    # INVALID: init_torch_seeds switches cudnn flags and seeds: no weight set
    assert "init_torch_seeds" not in init
    # VALID: the nn.init call of the real initialiser stays
    assert init["torch.nn.init.kaiming_normal_"]["tensor"] == "m.weight"


def test_a_hand_computed_lr_scaled_under_a_warmup_test_is_a_warmup_row(dispatch) -> None:
    warmup = [r for r in dispatch.recipe if r.category == "warmup"]
    # VALID: ``if cur_epoch < cfg.OPTIM.WARMUP_EPOCHS: ... lr *= warmup_factor``
    assert [(r.name, r.where.path, r.where.line) for r in warmup] == [
        ("lr warm-up in get_epoch_lr", "clsnet/core/optimizer.py", 22)
    ]
    values = dict(warmup[0].values)
    assert values["update"] == "lr *= warmup_factor"
    assert values["when"] == "cur_epoch < cfg.OPTIM.WARMUP_EPOCHS"
    assert values["cfg.OPTIM.WARMUP_EPOCHS"].startswith("5 (")
    assert values["cfg.OPTIM.WARMUP_FACTOR"].startswith("0.1 (")
    # INVALID: ``lr *= 0.5`` past half the epochs in get_step_lr is a schedule step, no warm-up
    assert not any(r.where.line == 29 for r in warmup)


def test_an_average_of_state_dict_tensors_is_an_ema_without_no_grad(dispatch) -> None:
    ema = [r for r in dispatch.recipe if r.category == "ema"]
    # VALID: ``param.copy_(param * (1.0 - alpha) + params[name] * alpha)`` over the EMA
    # copy's ``state_dict()`` (detached tensors: no ``no_grad`` needed)
    assert [(r.name, r.where.line) for r in ema] == [("EMA of weights (update_model_ema)", 4)]
    assert dict(ema[0].values)["update"].startswith("param.copy_(param * (1.0 - alpha)")
    # INVALID: a plain ``param.copy_(params[name])`` copy averages nothing
    assert not any("copy_weights" in r.name for r in dispatch.recipe)


def test_a_yacs_key_off_in_the_run_switches_its_branch_off(dispatch) -> None:
    augmentation = [
        " ".join(str(v) for _, v in r.values)
        for r in dispatch.recipe
        if r.category == "augmentation"
    ]
    # VALID: AutoAugment is built only by the function called under ``if
    # cfg.DATA_LOADER.MODE == "ffcv":``, "pytorch" in the run: no recipe row
    assert not any("AutoAugment" in row for row in augmentation)
    # INVALID: RandAugment on the branch the run takes is the composition applied
    assert any("RandAugment(num_ops=2, magnitude=9)" in row for row in augmentation)


def test_a_local_holding_a_yacs_section_reads_its_keys(dispatch) -> None:
    optimizers = _rows(dispatch, "optimizer")
    # VALID: ``optim, wd = cfg.OPTIM, ...`` then ``optim.BASE_LR``: the section's key,
    # valued by the run's config, and ``if optim.OPTIMIZER == "sgd":`` decided by it
    sgd = optimizers["torch.optim.SGD"]
    assert sgd["lr"].startswith("0.8 (cfg.OPTIM.BASE_LR: 0.8 in configs/large_8gpu.yaml:2")
    assert sgd["nesterov"].startswith("True (cfg.OPTIM.NESTEROV: default")
    # INVALID: the Adam of the branch the run does not take is no row
    assert "torch.optim.Adam" not in optimizers
