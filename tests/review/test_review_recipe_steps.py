"""The recipe rows a training step writes by hand (``fixtures/steprecipe``): loss weights
multiplied in (a JSON hparams value, argparse options in a lazily applied penalty), an EMA of
the weights kept through a local dict of the parameters, an LR written into the param groups
as a warm-up formula or scaled in place, and normalisation written as arithmetic in the data
path (not in a plotting helper)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

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
    l1 = dict(losses["torch.nn.functional.l1_loss @ train.py:42"].values)
    assert l1["weight"] == (
        "45 (hps.train.c_rec: 45 in configs/base.json:4, the default of --config at utils.py:13)"
    )
    kl = dict(losses["train.kl_loss @ train.py:43"].values)
    assert kl["weight"].startswith("1.0 (hps.train.c_kl: 1.0 in configs/base.json:5")


def test_a_penalty_weighted_where_it_is_backpropagated_carries_its_factors(items) -> None:
    r1 = dict(rows(items, "loss")["train.r1_loss @ train.py:48"].values)
    assert r1["weight"] == (
        "args.r1 / 2 * args.reg_every (args.r1 = 10 (args.r1: default of argparse --r1 at "
        "train.py:58); args.reg_every = 16 (args.reg_every: default of argparse --reg_every "
        "at train.py:59))"
    )
    assert r1["every"] == (
        "16 steps (args.reg_every: default of argparse --reg_every at train.py:59)"
    )


def test_a_loss_stored_first_of_a_tuple_carries_its_weight(items) -> None:
    # ``path_loss, mean_length = path_regularize(...)`` then ``args.path_weight * path_loss``
    path = dict(rows(items, "loss")["train.path_regularize @ train.py:52"].values)
    assert (
        path["weight"] == "2 (args.path_weight: default of argparse --path_weight at train.py:62)"
    )


def test_a_loss_multiplied_by_a_tensor_has_no_weight(items) -> None:
    # ``F.mse_loss(out, y) * y.gt(0).float()``: a mask, not a setting
    mse = dict(rows(items, "loss")["torch.nn.functional.mse_loss @ train.py:44"].values)
    assert "weight" not in mse


def test_an_ema_kept_through_a_dict_of_the_parameters_is_a_row(items) -> None:
    (ema,) = rows(items, "ema").values()
    assert ema.name == "EMA of weights (accumulate)"
    values = dict(ema.values)
    assert values["update"] == (
        "par1[k].data.mul_(decay).add_(par2[k].data, alpha=1 - decay) at train.py:16"
    )
    assert values["decay"] == (
        "0.5 ** (32 / 10000) (parameter decay of accumulate(), passed at train.py:51)"
        " | 0 (parameter decay of accumulate(), passed at train.py:70)"
    )


def test_an_lr_written_into_the_param_groups_is_a_warmup_or_a_schedule(items) -> None:
    warmup = rows(items, "warmup")["LR set by hand in train @ train.py:40"]
    assert dict(warmup.values) == {
        "formula": "hps.train.learning_rate * (i + 1) / args.warmup_iters",
        "hps.train.learning_rate": (
            "2e-4 (hps.train.learning_rate: 2e-4 in configs/base.json:3, the default of "
            "--config at utils.py:13)"
        ),
        "args.warmup_iters": (
            "500 (args.warmup_iters: default of argparse --warmup_iters at train.py:60)"
        ),
        # the ``if`` around an assignment is known though no call sits in its body
        "when": "i < args.warmup_iters",
    }
    scaled = rows(items, "scheduler")["LR scaled by hand in scale_lr @ train.py:30"]
    assert dict(scaled.values) == {
        "update": 'group["lr"] *= decay',
        "decay": (
            "0.2 (parameter decay of scale_lr(), passed at train.py:37; args.lr_decay: "
            "default of argparse --lr_decay at train.py:61)"
        ),
        "called at": "train.py:37: scale_lr(optim, args.lr_decay) if i == 10000",
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


def test_two_optimizers_in_one_branch_are_no_alternatives(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "gan",
        {
            "train.py": """
            import argparse
            import torch

            if __name__ == "__main__":
                parser = argparse.ArgumentParser()
                parser.add_argument("--lr", type=float, default=0.002)
                args = parser.parse_args()
                generator, discriminator = torch.nn.Linear(4, 4), torch.nn.Linear(4, 1)
                g_optim = torch.optim.Adam(generator.parameters(), lr=args.lr)
                d_optim = torch.optim.Adam(discriminator.parameters(), lr=args.lr)
                if args.lr > 1:
                    opt = torch.optim.SGD(generator.parameters(), lr=args.lr)
                elif args.lr > 0.5:
                    opt = torch.optim.AdamW(generator.parameters(), lr=args.lr)
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    notes = {
        (i.name, i.where.line): i.note
        for i in extract_recipe(result, analyses, root)
        if i.category == "optimizer" and not i.name.startswith("argparse")
    }
    assert notes == {("torch.optim.Adam", 9): "", ("torch.optim.Adam", 10): ""}


def test_a_module_level_config_instance_gives_its_class_body_settings(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "det",
        {
            "config.py": """
            class Config:
                use_adam = False
                lr = 1e-3


            class Unused:
                use_adam = True  # no instance of it: not the settings


            opt = Config()
            """,
            "train.py": """
            import torch

            from config import opt

            model = torch.nn.Linear(4, 4)
            if opt.use_adam:
                optimizer = torch.optim.Adam(model.parameters(), lr=opt.lr)
            else:
                optimizer = torch.optim.SGD(model.parameters(), lr=opt.lr, momentum=0.9)
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    rows = [
        (i.name, dict(i.values).get("lr"), i.note)
        for i in extract_recipe(result, analyses, root)
        if i.category == "optimizer" and i.name.startswith("torch.")
    ]
    assert rows == [
        (
            "torch.optim.SGD",
            "1e-3 (opt.lr: Config sets it at config.py:3)",
            "the branch taken with the defaults: else of if opt.use_adam",
        )
    ]


def test_an_optimizer_writing_its_own_lr_is_no_schedule(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "opt",
        {
            "myopt.py": """
            import torch


            class Factor(torch.optim.Optimizer):
                def step(self):
                    for group in self.param_groups:
                        group["lr"] = group["base"] * group["scale"] ** 0.5
            """,
            "train.py": """
            import torch

            from myopt import Factor


            def train():
                model = torch.nn.Linear(4, 4)
                optimizer = Factor(model.parameters(), {})
                for epoch in range(10):
                    for group in optimizer.param_groups:
                        group["lr"] = 0.1 * 0.5 ** (epoch // 3)
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    rows = [
        (i.name, str(i.where), dict(i.values)["formula"])
        for i in extract_recipe(result, analyses, root)
        if i.name.startswith("LR set by hand")
    ]
    # the optimizer's own ``group["lr"] = ...`` in Factor.step is its step size, no row
    assert rows == [("LR set by hand in train", "train.py:11", "0.1 * 0.5 ** (epoch // 3)")]


def test_an_initialiser_named_for_its_distribution_and_a_norm_override_are_init_rows(
    items,
) -> None:
    init = rows(items, "init")
    assert dict(init["normal_init @ model.py:4"].values) == {
        # the helper's parameters, read where it is called
        "m.weight.data.normal_": "0, 0.01 (normal_init() called at model.py:15)",
        "m.bias.data.zero_": "",
    }
    override = init["normalisation settings in main @ train.py:69"]
    assert override.values == (("m.eps", "1e-3"), ("m.momentum", "0.03"))
    assert override.note.endswith(
        "MindSpore's BatchNorm momentum is 1 − torch's (torch 0.03 is MindSpore 0.97)"
    )


def test_a_config_dicts_lr_steps_are_the_schedule_and_its_steps_are_not(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "ssd",
        {
            "data/__init__.py": "",
            "data/config.py": """
            voc = {
                "num_classes": 21,
                "lr_steps": (80000, 100000, 120000),
                "max_iter": 120000,
                "steps": [8, 16, 32, 64, 100, 300],
                "name": "VOC",
            }
            """,
            "train.py": """
            import torch

            from data.config import voc

            def train():
                net = torch.nn.Linear(4, 4)
                optimizer = torch.optim.SGD(net.parameters(), lr=1e-3)
                for iteration in range(voc["max_iter"]):
                    if iteration in voc["lr_steps"]:
                        pass
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    rows = [
        (i.category, i.values)
        for i in extract_recipe(result, analyses, root)
        if i.name.startswith("config ")
    ]
    assert rows == [
        ("scheduler", (("lr_steps", "(80000, 100000, 120000)"),)),
        ("epochs", (("max_iter", "120000"),)),
    ]


def test_a_param_group_being_built_is_no_lr_schedule(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "groups",
        {
            "train.py": """
            import torch

            def get_params(model, base_lr, bias_lr_factor, decay):
                params = []
                for name, p in model.named_parameters():
                    hyper = {"lr": base_lr}
                    if name.endswith("bias"):
                        hyper["lr"] = base_lr * bias_lr_factor
                    for _ in range(2):
                        hyper["lr"] *= decay
                    params.append({"params": [p], **hyper})
                return params

            def train():
                model = torch.nn.Linear(4, 4)
                optimizer = torch.optim.SGD(get_params(model, 0.01, 2.0, 0.5), lr=0.01)
                return optimizer
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    names = [i.name for i in extract_recipe(result, analyses, root) if i.category == "scheduler"]
    assert names == []


def test_a_penalty_applied_every_n_steps_through_a_flag_says_how_often(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "lazy",
        {
            "train.py": """
            import torch

            D_REG_EVERY = 16

            def d_r1_loss(pred, real):
                (grad,) = torch.autograd.grad(pred.sum(), real, create_graph=True)
                return grad.pow(2).sum()

            def train(net, loader):
                for i, x in enumerate(loader):
                    d_regularize = i % D_REG_EVERY == 0
                    if d_regularize:
                        r1 = d_r1_loss(net(x), x)
                        r1.backward()
                    if i > 100:
                        late = d_r1_loss(net(x), x)
                        late.backward()

            if __name__ == "__main__":
                net = torch.nn.Linear(4, 1)
                optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
                train(net, [])
            """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    every = {
        i.where.line: dict(i.values).get("every")
        for i in extract_recipe(result, analyses, root)
        if i.category == "loss"
    }
    # ``if i > 100`` is no modulo: the loss is applied at every step from then on
    assert every == {13: "16 steps (D_REG_EVERY set at train.py:3)", 16: None}
