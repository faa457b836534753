"""The recipe comes from the training entry point and what it runs (issue 20), on two
fixtures. ``fixtures/cmdrecipe``: a README whose table cells chain a training and an
evaluation run (``python train.py ...; python test.py ...``), an evaluation script that
touches ``torch.optim`` only to load an averaged model, a data-preparation script seeding its
split at the top level, and an optimizer class bound to a name then called through it.
``fixtures/litentry``: a PyTorch Lightning ``main.py`` that builds its model from a config by
name and hands it to ``trainer.fit``, beside a sampling script with its own batch size and
step count."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import documented_entry, split_commands

REPO = Path(__file__).resolve().parents[2]
COMMANDS = REPO / "fixtures" / "cmdrecipe"
LIGHTNING = REPO / "fixtures" / "litentry"


@pytest.fixture(scope="module")
def commands_review():
    return review_fixture(str(COMMANDS))


@pytest.fixture(scope="module")
def lightning_review():
    return review_fixture(str(LIGHTNING))


def _rows(review) -> list[tuple[str, str, str]]:
    return [(i.category, i.name, str(i.where)) for i in review.recipe]


def test_chained_commands_are_separate_runs() -> None:
    cell = "| base | 88% | `python train.py --name b --lr 0.1; python test.py --name b` |"
    assert split_commands(cell, page=True) == [
        ["python", "train.py", "--name", "b", "--lr", "0.1"],
        ["python", "test.py", "--name", "b"],
    ]
    line = "python train.py --a 1 && python eval.py --b 2 | tee log ; echo done"
    assert split_commands(line) == [
        ["python", "train.py", "--a", "1"],
        ["python", "eval.py", "--b", "2"],
        ["tee", "log"],
        ["echo", "done"],
    ]
    # INVALID: a quoted separator is an argument, and a shell script's line is no page
    assert split_commands("python train.py --tag 'a;b'") == [["python", "train.py", "--tag", "a;b"]]
    assert split_commands("python train.py --x `date`") == [["python", "train.py", "--x", "`date`"]]


def test_the_training_command_decides_the_entry() -> None:
    scripts = {"train": "train.py", "train.py": "train.py"}
    assert documented_entry(COMMANDS, scripts) == "train.py"
    # INVALID: a script only loading an averaged model is no training a command may launch:
    # were it one, the evaluation commands (five, against four) would win
    both = {**scripts, "test": "test.py", "test.py": "test.py"}
    assert documented_entry(COMMANDS, both) == "test.py"


def test_the_training_scripts_rows_are_the_recipe(commands_review) -> None:
    rows = _rows(commands_review)
    assert ("scheduler", "torch.optim.lr_scheduler.StepLR", "train.py:33") in rows
    assert ("loss", "torch.nn.CrossEntropyLoss", "train.py:34") in rows
    batches = [
        (i.name, dict(i.values), str(i.where))
        for i in commands_review.recipe
        if i.category == "batch_size"
    ]
    assert batches == [("argparse --batchsize", {"default": "32"}, "train.py:13")]
    loaders = [i for i in commands_review.recipe if i.category == "dataloader"]
    assert [str(i.where) for i in loaders] == ["train.py:25"]
    augment = [i for i in commands_review.recipe if i.category == "augmentation"]
    assert [str(i.where) for i in augment] == ["train.py:19"]
    # the evaluation's precision is the inference path's, not the training's: no row where
    # the repository trains; the training's --fp16 says what it switches on, the
    # evaluation's --fp16 of the same name does not
    amp = {str(i.where): i.note for i in commands_review.recipe if i.category == "amp"}
    assert amp == {
        "train.py:16": "optional, off by default: if opt.fp16 builds torch.autocast (train.py:40)",
    }


def test_a_composition_of_an_evaluation_list_is_no_augmentation(commands_review) -> None:
    """``Compose(transform_val_list)`` beside the training's composition: the list's name
    says evaluation; the training's ``transform_train`` stays (above)."""
    names = [(i.name, str(i.where)) for i in commands_review.recipe if i.category == "augmentation"]
    assert names == [("composition in module code", "train.py:19")]


def test_a_data_preparation_script_gives_no_seed(commands_review) -> None:
    assert not [i for i in commands_review.recipe if i.category == "seed"]


def test_an_optimizer_called_through_a_name(commands_review) -> None:
    sgd = [i for i in commands_review.recipe if i.category == "optimizer" and "SGD" in i.name]
    assert [(i.name, str(i.where)) for i in sgd] == [("torch.optim.SGD", "train.py:32")]
    values = dict(sgd[0].values)
    assert values["momentum"] == "0.9"
    assert values["nesterov"] == "True"
    assert values["lr"].startswith("0.05 (opt.lr: default of argparse --lr")
    # INVALID: an optimizer option gating no learning rate has no rule to tell
    lr = [i.note for i in commands_review.recipe if i.name == "argparse --lr"]
    assert lr == [""]
    assert sgd[0].note == (
        "called through optim_name = optim.SGD (train.py:28); FusedSGD if opt.fused instead"
    )


def test_without_the_chained_cells_the_same_recipe(tmp_path: Path) -> None:
    """VALID either way: the plain commands alone name train.py too."""
    copy = tmp_path / "cmdrecipe"
    shutil.copytree(COMMANDS, copy)
    readme = copy / "README.md"
    readme.write_text(
        "\n".join(ln for ln in readme.read_text().splitlines() if not ln.startswith("|")),
        encoding="utf-8",
    )
    rows = _rows(review_fixture(str(copy)))
    assert ("optimizer", "torch.optim.SGD", "train.py:32") in rows
    assert not [r for r in rows if r[0] == "batch_size" and r[2].startswith("test.py")]


def test_a_lightning_main_is_the_training_entry(lightning_review) -> None:
    rows = _rows(lightning_review)
    assert ("optimizer", "torch.optim.AdamW", "ldpkg/models/diffusion.py:27") in rows
    seeds = [
        (i.name, dict(i.values), str(i.where))
        for i in lightning_review.recipe
        if i.category == "seed"
    ]
    assert seeds == [("argparse --seed", {"default": "23"}, "main.py:15")]
    # the predict loader is no training's; the training loader is
    loaders = [str(i.where) for i in lightning_review.recipe if i.category == "dataloader"]
    assert loaders == ["main.py:29"]
    assert "main.py" not in dict(lightning_review.ancillary)


def test_the_lr_scaling_rule_is_on_its_option(lightning_review) -> None:
    rows = {
        i.name: (dict(i.values), i.note)
        for i in lightning_review.recipe
        if i.category == "optimizer" and i.name.startswith("argparse")
    }
    assert rows == {
        "argparse --scale_lr": (
            {"default": "True"},
            "if opt.scale_lr: model.learning_rate = accumulate * opt.ngpu * bs * base_lr"
            " (main.py:49)",
        )
    }


def test_the_trainer_settings_the_entry_writes(lightning_review) -> None:
    """``trainer_config["accelerator"] = "ddp"`` and ``["accumulate_grad_batches"] = 2`` in
    the entry's ``__main__`` block, which the sampler importing ``get_parser`` from
    ``main.py`` does not make a module's self-test; INVALID: ``= "cpu"`` names a device."""
    rows = [
        (i.category, i.name, dict(i.values), str(i.where))
        for i in lightning_review.recipe
        if i.name.startswith("trainer ")
    ]
    assert rows == [
        ("grad_accum", "trainer accumulate_grad_batches", {"value": "2"}, "main.py:45"),
        ("distributed", "trainer accelerator", {"value": '"ddp"'}, "main.py:42"),
    ]


def test_a_sampling_script_gives_no_training_rows(lightning_review) -> None:
    rows = _rows(lightning_review)
    assert not [r for r in rows if r[2].startswith("scripts/") and r[0] != "checkpoint"]
    # a module only the sampler builds, which no config names, goes with the sampler:
    # counted apart, no rows of its own
    assert ("init", "torch.nn.init.normal_", "ldpkg/modules/encoder.py:9") not in rows


def test_a_fit_without_the_framework_is_no_entry(tmp_path: Path) -> None:
    """INVALID: a ``main.py`` that imports no training framework and calls ``fit`` on a
    model it builds by name is no training entry; the review then finds none."""
    copy = tmp_path / "litentry"
    shutil.copytree(LIGHTNING, copy)
    main = copy / "main.py"
    text = main.read_text().replace("import pytorch_lightning as pl\n", "")
    text = text.replace("from pytorch_lightning import seed_everything\n", "")
    text = text.replace(
        "from pytorch_lightning.trainer import Trainer\n", "from trainer import Trainer\n"
    )
    text = text.replace("pl.LightningDataModule", "object")
    main.write_text(text, encoding="utf-8")
    review = review_fixture(str(copy))
    assert not [i for i in review.recipe if i.category == "seed"]
