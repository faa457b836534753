"""Recipe rows from what a training step runs (``fixtures/vocoder``): a flat JSON config the
training command names (``--config`` has no default), loss weights written as literal
numbers or local constants (also on a loss module built in ``__init__`` and called in
another method), and losses computed only as numbers for a log or a validation score, which
are no training losses."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

VOCODER = Path(__file__).resolve().parents[2] / "fixtures" / "vocoder"


def _recipe(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    return _recipe(VOCODER)


def rows(items: tuple[RecipeItem, ...], category: str) -> dict[str, RecipeItem]:
    return {f"{i.name} @ {i.where}": i for i in items if i.category == category}


def test_a_flat_json_named_by_the_training_command_resolves_the_settings(items) -> None:
    adamw = dict(rows(items, "optimizer")["torch.optim.AdamW @ train.py:18"].values)
    assert adamw["lr"] == (
        "0.0002 (h.learning_rate: 0.0002 in config_a.json:3, the training command at README.md:6)"
    )
    assert adamw["betas"].startswith("[0.8, 0.99] (h.adam_b1: 0.8 in config_a.json:4")
    (sched,) = rows(items, "scheduler").values()
    assert dict(sched.values)["gamma"].startswith("0.999 (h.lr_decay: 0.999 in config_a.json:6")


def test_without_a_training_command_no_json_is_the_config(tmp_path: Path) -> None:
    # the same code, no README: config_a.json and config_b.json are alike candidates
    root = tmp_path / "vocoder"
    shutil.copytree(VOCODER, root)
    (root / "README.md").unlink()
    adamw = dict(rows(_recipe(root), "optimizer")["torch.optim.AdamW @ train.py:18"].values)
    assert adamw["lr"] == "h.learning_rate"


def test_literal_and_local_constant_weights_are_shown(items) -> None:
    losses = rows(items, "loss")
    assert dict(losses["torch.nn.functional.l1_loss @ train.py:22"].values)["weight"] == "45"
    mse = dict(losses["torch.nn.functional.mse_loss @ train.py:24"].values)
    assert mse["weight"] == "2.0 (rec_weight set at train.py:23)"


def test_a_loss_module_weighted_in_another_method_carries_the_weight(items) -> None:
    # ``self.box_loss = BoxLoss()``; ``loss_box = (self.box_loss(p, t)).sum() / num_fg``;
    # ``return box_weight * loss_box + loss_obj``
    losses = rows(items, "loss")
    box = dict(losses["model.BoxLoss @ model.py:14"].values)
    assert box["weight"] == "5.0 (box_weight set at model.py:26)"
    # the unweighted one (``+ loss_obj``) has none, and is kept: it is read by ``.sum()``
    bce = dict(losses["torch.nn.BCEWithLogitsLoss @ model.py:15"].values)
    assert bce == {"reduction": '"none"'}


def test_losses_only_measured_are_no_training_losses(items) -> None:
    losses = rows(items, "loss")
    # ``F.smooth_l1_loss(...).item()`` printed, ``F.huber_loss`` over the validation loader
    assert not any("smooth_l1_loss" in k or "huber_loss" in k for k in losses)
    # VALID: ``loss_kl = F.kl_div(...)`` is backpropagated; a later ``loss_kl.item()`` only
    # logs it
    assert "torch.nn.functional.kl_div @ train.py:25" in losses


_DATASET_CONFIGS = {
    "data/__init__.py": "from .config import *\n",
    "data/config.py": """
        voc = {
            "num_classes": 21,
            "lr_steps": (80000, 100000, 120000),
            "max_iter": 120000,
            "name": "VOC",
        }
        coco = {
            "num_classes": 201,
            "lr_steps": (280000, 360000, 400000),
            "max_iter": 400000,
            "name": "COCO",
        }
    """,
    "train.py": """
        import argparse

        import torch
        from torch import nn

        from data import *

        parser = argparse.ArgumentParser()
        parser.add_argument("--dataset", default=DEFAULT, choices=["VOC", "COCO"])
        parser.add_argument("--lr", default=1e-3, type=float)
        args = parser.parse_args()


        def train():
            if args.dataset == "COCO":
                cfg = coco
                print("training on COCO")
            elif args.dataset == "VOC":
                cfg = voc
                print("training on VOC")
            net = nn.Linear(4, cfg["num_classes"])
            optimizer = torch.optim.SGD(net.parameters(), lr=args.lr)
            for step in range(cfg["max_iter"]):
                optimizer.step()


        if __name__ == "__main__":
            train()
    """,
}


def _config_rows(tmp_path: Path, default: str) -> dict[str, RecipeItem]:
    files = dict(_DATASET_CONFIGS)
    files["train.py"] = files["train.py"].replace("DEFAULT", default)
    root = write_repo(tmp_path / "det", files)
    return {f"{i.category} {i.name}": i for i in _recipe(root) if i.name.startswith("config ")}


def test_the_config_dict_a_branch_on_the_default_picks_is_the_only_one_shown(tmp_path) -> None:
    found = _config_rows(tmp_path, '"VOC"')
    assert sorted(found) == ["epochs config voc: VOC", "scheduler config voc: VOC"]
    assert dict(found["scheduler config voc: VOC"].values) == {
        "lr_steps": "(80000, 100000, 120000)"
    }


def test_with_no_default_to_decide_the_branch_every_config_dict_stays(tmp_path) -> None:
    # ``--dataset`` with no default: neither branch is known to run
    found = _config_rows(tmp_path, "None")
    assert sorted(found) == [
        "epochs config coco: COCO",
        "epochs config voc: VOC",
        "scheduler config coco: COCO",
        "scheduler config voc: VOC",
    ]


_GAN = {
    "augmentations.py": """
        import torch


        class AdaptiveAugment:
            def __init__(self, target):
                self.target = target


        def augment(img, p):
            return img.flip(-1) if torch.rand(()) < p else img


        def random_flip(img):
            return img.flip(-1)
    """,
    "train.py": """
        import argparse

        import torch
        from torch import nn

        from augmentations import AdaptiveAugment, augment, random_flip


        def train(args, loader):
            net = nn.Linear(4, 4)
            optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
            if args.augment:
                ada = AdaptiveAugment(0.6)
            for i in range(args.iter):
                img = next(loader)
                img = random_flip(img)
                if args.augment:
                    img = augment(img, 0.5)
                net(img).mean().backward()
                optimizer.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument(
                "--iter", type=int, default=800000, help="total training iterations"
            )
            parser.add_argument("--lr", type=float, default=0.002)
            parser.add_argument(
                "--mixing", type=float, default=0.9, help="probability of latent code mixing"
            )
            parser.add_argument("--augment", action="store_true", help="apply augmentation")
            parser.add_argument("--n", type=int, default=3, help="number of samples to draw")
            train(parser.parse_args(), iter([]))
    """,
}


def test_augmentations_by_name_called_only_under_an_off_switch_are_left_out(tmp_path) -> None:
    root = write_repo(tmp_path / "gan", _GAN)
    names = {i.name for i in _recipe(root) if i.category == "augmentation"}
    # ``augment`` and ``AdaptiveAugment`` run only under ``if args.augment:`` (off by default)
    assert "augment" not in names and "AdaptiveAugment" not in names
    # VALID: ``random_flip`` is called on every batch; the switch itself stays as a row
    assert {"random_flip", "argparse --augment", "argparse --mixing"} <= names


def test_a_bare_option_whose_help_says_training_length_is_the_epochs_row(tmp_path) -> None:
    root = write_repo(tmp_path / "gan", _GAN)
    epochs = {i.name: dict(i.values) for i in _recipe(root) if i.category == "epochs"}
    assert epochs == {"argparse --iter": {"default": "800000"}}  # not --n ("number of samples")


_DIFFUSION = {
    "diffusion/__init__.py": """
        from .gaussian import GaussianDiffusion
        from .spaced import SpacedDiffusion


        def create_diffusion(respacing, noise_schedule="linear", learn_sigma=True,
                             diffusion_steps=1000, sigma_small=False):
            betas = [noise_schedule, diffusion_steps]
            return SpacedDiffusion(betas, learn_sigma)
    """,
    "diffusion/gaussian.py": """
        import torch


        class GaussianDiffusion:
            def __init__(self, betas, learn_sigma):
                self.betas = betas
                self.learn_sigma = learn_sigma

            def training_losses(self, model, x_start, t, model_kwargs=None):
                terms = {}
                out = model(x_start, t, **model_kwargs)
                terms["mse"] = ((out - x_start) ** 2).mean()
                if self.learn_sigma:
                    terms["vb"] = out.var()
                    terms["loss"] = terms["mse"] + terms["vb"]
                else:
                    terms["loss"] = terms["mse"]
                return terms
    """,
    "diffusion/spaced.py": """
        from .gaussian import GaussianDiffusion


        class SpacedDiffusion(GaussianDiffusion):
            def training_losses(self, model, *args, **kwargs):
                return super().training_losses(model, *args, **kwargs)
    """,
    "train.py": """
        import torch
        from torch import nn

        from diffusion import create_diffusion


        def main(loader, vae):
            model = nn.Linear(4, 4)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
            diffusion = create_diffusion(respacing="")
            for x, y in loader:
                with torch.no_grad():
                    x = vae.encode(x).latent_dist.sample().mul_(0.18215)
                    shown = vae.decode(x) * 0.5
                t = torch.randint(0, 1000, (x.shape[0],))
                loss = diffusion.training_losses(model, x, t, dict(y=y))["loss"].mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main([], None)
    """,
}


@pytest.fixture(scope="module")
def diffusion_items(tmp_path_factory) -> tuple[RecipeItem, ...]:
    return _recipe(write_repo(tmp_path_factory.mktemp("dit"), _DIFFUSION))


def test_a_loss_method_of_a_built_object_is_a_row_with_its_terms(diffusion_items) -> None:
    losses = rows(diffusion_items, "loss")
    # one row for the call the step makes; the override's ``super()`` call is not another
    assert sorted(losses) == [
        "diffusion.create_diffusion @ train.py:10",
        "diffusion.spaced.SpacedDiffusion.training_losses @ train.py:16",
    ]
    step = dict(losses["diffusion.spaced.SpacedDiffusion.training_losses @ train.py:16"].values)
    # the override passes ``*args`` on: the base method names them
    assert list(step)[:4] == ["model", "x_start", "t", "model_kwargs"]
    # each way the ``"loss"`` entry is stored, in the order written
    assert step["terms"] == (
        'loss = terms["mse"] + terms["vb"] | terms["mse"] (diffusion/gaussian.py:15)'
    )


def test_the_factory_of_the_loss_object_shows_its_loss_settings(diffusion_items) -> None:
    built = dict(rows(diffusion_items, "loss")["diffusion.create_diffusion @ train.py:10"].values)
    assert built == {
        "respacing": '""',
        "noise_schedule": '"linear" (default at diffusion/__init__.py:5)',
        "learn_sigma": "True (default at diffusion/__init__.py:5)",
        "diffusion_steps": "1000 (default at diffusion/__init__.py:5)",
    }  # sigma_small is no loss setting by its name


def test_latents_scaled_after_encoding_are_an_input_step(diffusion_items) -> None:
    steps = rows(diffusion_items, "preprocessing")
    (row,) = steps.values()  # INVALID: ``vae.decode(x) * 0.5`` decodes, it is no input step
    assert row.name == "latent scaling in main"
    assert row.where.line == 13
    assert dict(row.values)["scale"] == "0.18215"


def test_a_json_value_the_code_replaces_at_run_time_says_so(items) -> None:
    # ``h.batch_size = int(h.batch_size / ...)`` after the JSON is read: 16 is not the run's
    (loader,) = rows(items, "dataloader").values()
    assert dict(loader.values)["batch_size"] == (
        "h.batch_size (h.batch_size: 16 in config_a.json:2, the training command at "
        "README.md:6, replaced at train.py:56 (int(h.batch_size / max(1, "
        "torch.cuda.device_count()))))"
    )


def test_an_option_named_training_epochs_is_the_length_of_training(items) -> None:
    epochs = {i.name: dict(i.values) for i in items if i.category == "epochs"}
    assert epochs == {"argparse --training_epochs": {"default": "3100"}}
