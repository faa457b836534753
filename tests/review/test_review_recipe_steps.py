"""The recipe rows a training step writes by hand (``fixtures/steprecipe``): loss weights
multiplied in (a JSON hparams value, argparse options in a lazily applied penalty), an EMA of
the weights kept through a local dict of the parameters, an LR written into the param groups
as a warm-up formula or scaled in place, and normalisation written as arithmetic in the data
path (not in a plotting helper)."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

STEPRECIPE = Path(__file__).resolve().parents[2] / "fixtures" / "steprecipe"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(STEPRECIPE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, STEPRECIPE)


def rows(items: tuple[RecipeItem, ...], category: str) -> dict[str, RecipeItem]:
    return {f"{i.name} @ {i.where}": i for i in items if i.category == category}


def test_a_loss_multiplied_by_a_json_hparam_carries_the_weight(items) -> None:
    losses = rows(items, "loss")
    l1 = dict(losses["torch.nn.functional.l1_loss @ train.py:41"].values)
    assert l1["weight"] == (
        "45 (hps.train.c_rec: 45 in configs/base.json:4, the default of --config at utils.py:13)"
    )
    kl = dict(losses["train.kl_loss @ train.py:42"].values)
    assert kl["weight"].startswith("1.0 (hps.train.c_kl: 1.0 in configs/base.json:5")


def test_a_penalty_weighted_where_it_is_backpropagated_carries_its_factors(items) -> None:
    r1 = dict(rows(items, "loss")["train.r1_loss @ train.py:47"].values)
    assert r1["weight"] == (
        "args.r1 / 2 * args.reg_every (args.r1 = 10 (args.r1: default of argparse --r1 at "
        "train.py:55); args.reg_every = 16 (args.reg_every: default of argparse --reg_every "
        "at train.py:56))"
    )


def test_a_loss_multiplied_by_a_tensor_has_no_weight(items) -> None:
    # ``F.mse_loss(out, y) * y.gt(0).float()``: a mask, not a setting
    mse = dict(rows(items, "loss")["torch.nn.functional.mse_loss @ train.py:43"].values)
    assert "weight" not in mse


def test_an_ema_kept_through_a_dict_of_the_parameters_is_a_row(items) -> None:
    (ema,) = rows(items, "ema").values()
    assert ema.name == "EMA of weights (accumulate)"
    values = dict(ema.values)
    assert values["update"] == (
        "par1[k].data.mul_(decay).add_(par2[k].data, alpha=1 - decay) at train.py:16"
    )
    assert values["decay"] == (
        "0.5 ** (32 / 10000) (parameter decay of accumulate(), passed at train.py:50)"
        " | 0 (parameter decay of accumulate(), passed at train.py:66)"
    )


def test_an_lr_written_into_the_param_groups_is_a_warmup_or_a_schedule(items) -> None:
    warmup = rows(items, "warmup")["LR set by hand in train @ train.py:39"]
    assert dict(warmup.values) == {
        "formula": "hps.train.learning_rate * (i + 1) / args.warmup_iters",
        "hps.train.learning_rate": (
            "2e-4 (hps.train.learning_rate: 2e-4 in configs/base.json:3, the default of "
            "--config at utils.py:13)"
        ),
        "args.warmup_iters": (
            "500 (args.warmup_iters: default of argparse --warmup_iters at train.py:57)"
        ),
    }
    scaled = rows(items, "scheduler")["LR scaled by hand in scale_lr @ train.py:30"]
    assert dict(scaled.values) == {
        "update": 'group["lr"] *= decay',
        "decay": (
            "0.2 (parameter decay of scale_lr(), passed at train.py:36; args.lr_decay: "
            "default of argparse --lr_decay at train.py:58)"
        ),
        "called at": "train.py:36: scale_lr(optim, args.lr_decay) if i == 10000",
    }


def test_normalisation_written_as_arithmetic_in_the_data_path_is_an_input_step(items) -> None:
    steps = {
        k: dict(i.values)["formula"]
        for k, i in rows(items, "preprocessing").items()
        if k.startswith("normalisation")
    }
    # data.show's ``(img * 0.5 + 0.5) * 255.0`` draws a picture: no row
    assert steps == {
        "normalisation in Images.__getitem__ @ data.py:15": "img / 255.0",
        "normalisation in Images.__getitem__ @ data.py:16": "img.sub_(0.5).div_(0.5)",
    }
