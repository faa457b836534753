"""The recipe reads what runs, with the values that run: an optional argparse flag declared
without a default is None (vq-vae-2's ``--sched``: ``if args.sched == "cycle":`` builds no
scheduler row), a parameter holds what every call that runs in training passes
(detectron2's ``build_augmentation(cfg, is_train)`` through ``DatasetMapper(cfg, True)``,
the test loader's ``False`` aside), and a documented multi-stage training reads its last
stage deliberately, naming the earlier one (Real-ESRGAN's RealESRNet, then RealESRGAN from
its weights). Small repositories written inline."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.extract.values import ArgOption
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.evaluate import UNKNOWN, agreed, unset_option
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe


def recipe(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def named(items: tuple[RecipeItem, ...], category: str) -> dict[str, RecipeItem]:
    return {i.name: i for i in items if i.category == category}


_GATED = """
    import argparse

    import torch

    from sched import CycleScheduler


    def main(args):
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
        scheduler = None
        if args.sched == "cycle":
            scheduler = CycleScheduler(optimizer, args.lr, warmup_proportion=0.05)
        if args.ckpt is not None:
            model.load_state_dict(torch.load(args.ckpt))
        for step in range(10):
            loss = model(torch.randn(2, 4)).sum()
            loss.backward()
            optimizer.step()
            if scheduler is not None:
                scheduler.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default=3e-4)
        parser.add_argument("--sched", type=str SCHED)
        parser.add_argument("--ckpt", type=str)
        parser.add_argument("path", type=str)
        main(parser.parse_args())
"""

_SCHED = """
    class CycleScheduler:
        def __init__(self, optimizer, lr_max, warmup_proportion=0.1):
            self.optimizer = optimizer
            self.lr_max = lr_max

        def step(self):
            for group in self.optimizer.param_groups:
                group["lr"] = self.lr_max
"""


def _gated(tmp_path: Path, sched: str) -> tuple[RecipeItem, ...]:
    files = {"train_vq.py": _GATED.replace(" SCHED", sched), "sched.py": _SCHED}
    return recipe(write_repo(tmp_path / "vq", files))


def test_a_flag_declared_without_a_default_is_off(tmp_path: Path) -> None:
    schedulers = named(_gated(tmp_path, ""), "scheduler")
    # ``--sched`` left out is None: the branch that builds the scheduler is not taken
    assert "sched.CycleScheduler" not in schedulers
    option = schedulers["argparse --sched"]
    assert dict(option.values) == {"default": "None (no default)"}
    assert option.note == (
        'optional, off by default: if args.sched == "cycle" builds sched.CycleScheduler '
        "(train_vq.py:13)"
    )


def test_a_flag_whose_default_takes_the_branch_keeps_its_row(tmp_path: Path) -> None:
    schedulers = named(_gated(tmp_path, ', default="cycle"'), "scheduler")
    row = schedulers["sched.CycleScheduler"]
    assert dict(row.values)["warmup_proportion"] == "0.05"


def test_a_required_flag_decides_no_branch(tmp_path: Path) -> None:
    # the command line always gives ``--sched``: its value is not known, the row stays
    schedulers = named(_gated(tmp_path, ", required=True"), "scheduler")
    assert "sched.CycleScheduler" in schedulers


def test_what_an_option_left_out_holds() -> None:
    assert unset_option(ArgOption("sched", "--sched", None, "")) is None
    assert unset_option(ArgOption("amp", "--amp", None, "store_true")) is False
    assert unset_option(ArgOption("no_aug", "--no-aug", None, "store_false")) is True
    assert unset_option(ArgOption("path", "path", None, "", required=True)) is UNKNOWN
    assert unset_option(ArgOption("cfg", "--cfg", None, "", required=True)) is UNKNOWN


def test_a_value_every_call_agrees_on() -> None:
    assert agreed([True, True]) is True
    assert agreed([True, False]) is UNKNOWN
    assert agreed([]) is UNKNOWN
    assert agreed([1, UNKNOWN]) is UNKNOWN
    # 1 and True are different values for a test (``is True``)
    assert agreed([1, True]) is UNKNOWN


_MAPPER = {
    "pkg/__init__.py": "",
    "pkg/augs.py": """
        from torchvision import transforms as T


        def build_augmentation(size, is_train):
            augs = [T.Resize(size)]
            if is_train:
                augs.append(T.RandomHorizontalFlip())
            return T.Compose(augs)
    """,
    "pkg/mapper.py": """
        from pkg.augs import build_augmentation


        class Mapper:
            def __init__(self, is_train, *, augs=None):
                self.is_train = is_train
                self.augs = augs

            @classmethod
            def from_config(cls, cfg, is_train=True):
                return {"is_train": is_train, "augs": build_augmentation(cfg["size"], is_train)}

            def __call__(self, x):
                return self.augs(x)
    """,
    "pkg/loaders.py": """
        import torch

        from pkg.mapper import Mapper


        def build_train_loader(cfg, dataset, is_train):
            mapper = Mapper(cfg, is_train)
            return torch.utils.data.DataLoader(dataset, batch_size=4, collate_fn=mapper)


        def build_test_loader(cfg, dataset):
            return torch.utils.data.DataLoader(dataset, batch_size=1, collate_fn=Mapper(cfg, False))
    """,
    "train.py": """
        import torch

        from pkg.loaders import build_test_loader, build_train_loader


        def main():
            cfg = {"size": 32}
            model = torch.nn.Linear(4, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for x in build_train_loader(cfg, list(range(8)), TRAIN):
                loss = model(x).sum()
                loss.backward()
                optimizer.step()
            for x in build_test_loader(cfg, list(range(8))):
                model(x)


        if __name__ == "__main__":
            main()
    """,
}


def _flip_step(tmp_path: Path, train: str) -> str:
    files = dict(_MAPPER)
    files["train.py"] = files["train.py"].replace("TRAIN", train)
    rows = named(recipe(write_repo(tmp_path / "mapper", files)), "augmentation")
    return dict(rows["composition in build_augmentation"].values)["2"]


def test_a_parameter_holds_what_the_training_callers_pass(tmp_path: Path) -> None:
    # ``Mapper(cfg, True)`` runs ``Mapper.from_config(cfg, True)``, which hands ``is_train``
    # on; the test loader's ``Mapper(cfg, False)`` is evaluation: the flip runs in training
    assert _flip_step(tmp_path, "True") == "RandomHorizontalFlip()"


def test_a_parameter_the_training_callers_leave_unknown_decides_nothing(tmp_path: Path) -> None:
    # the training passes a value only known at run time: the flip is shown with its test
    assert _flip_step(tmp_path, "model.training") == "RandomHorizontalFlip() (if is_train)"


_STAGE_ONE = """
    name: train_SRNetx4_B12
    network_g:
      type: TinySR
      num_feat: 64
    path:
      pretrain_network_g: experiments/pretrained_models/Official_SRx4.pth
    train:
      optim_g:
        type: Adam
        lr: !!float 2e-4
      total_iter: 1000000
"""

_STAGE_TWO = """
    name: train_SRGANx4_B12
    network_g:
      type: TinySR
      num_feat: 64
    path:
      pretrain_network_g: experiments/pretrained_models/SRNet_x4.pth
    train:
      optim_g:
        type: Adam
        lr: !!float 1e-4
      gan_opt:
        type: GANLoss
        loss_weight: !!float 1e-1
      total_iter: 400000
"""


def _staged(tmp_path: Path, two: str) -> tuple[RecipeItem, ...]:
    files = {
        "srpkg/__init__.py": "",
        "srpkg/train.py": """
            from basicsr.train import train_pipeline

            if __name__ == "__main__":
                train_pipeline(".")
        """,
        "srpkg/arch.py": """
            from torch import nn


            class TinySR(nn.Module):
                def __init__(self, num_feat=64):
                    super().__init__()
                    self.conv = nn.Conv2d(3, num_feat, 3)
        """,
        "options/train_srnet_x4.yml": _STAGE_ONE,
        "options/train_srgan_x4.yml": two,
        "docs/Training.md": """
            # Training

            First train the SRNet model:

                python srpkg/train.py -opt options/train_srnet_x4.yml --auto_resume

            Then train SRGAN from the SRNet weights:

                python srpkg/train.py -opt options/train_srgan_x4.yml --auto_resume
        """,
    }
    return recipe(write_repo(tmp_path / "sr", files))


def test_documented_stages_read_the_last_one_and_name_the_first(tmp_path: Path) -> None:
    items = _staged(tmp_path, _STAGE_TWO)
    optim = named(items, "optimizer")["config train.optim_g: Adam"]
    assert optim.where.path == "options/train_srgan_x4.yml"
    assert dict(optim.values)["lr"] == "1e-4"
    assert "the last of 2 training stages the documentation runs in order" in optim.note
    assert "an earlier stage trains with options/train_srnet_x4.yml (docs/Training.md:5)" in (
        optim.note
    )
    assert "earlier stage: options/train_srnet_x4.yml sets lr 2e-4" in optim.note
    gan = named(items, "loss")["config train.gan_opt: GANLoss"]
    assert "options/train_srnet_x4.yml sets none of it" in gan.note
    epochs = named(items, "epochs")["config train.total_iter"]
    assert dict(epochs.values) == {"value": "400000"}


def test_two_documented_files_that_do_not_chain_are_no_stages(tmp_path: Path) -> None:
    # the second file starts from other weights: two alternatives, none picked
    two = _STAGE_TWO.replace("SRNet_x4.pth", "Official_SRx4.pth")
    optim = named(_staged(tmp_path, two), "optimizer")["config train.optim_g: Adam"]
    assert "none picked" in optim.note
    assert "stage" not in optim.note
    assert dict(optim.values)["lr"] == "1e-4 (1 of 2 files; also 2e-4)"


_NEEDED = """
    import argparse

    import torch
    from torchvision import transforms as T


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--dataset")
        parser.add_argument("--epochs", type=int, default=10)
        args = parser.parse_args()
        if args.dataset == "coco":
            transform = T.Compose([T.RandomHorizontalFlip(), T.ToTensor()])
        elif args.dataset == "csv":
            transform = T.Compose([T.RandomVerticalFlip(), T.ToTensor()])
        ELSE
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-5)
        for epoch in range(args.epochs):
            loss = model(torch.randn(2, 4)).sum()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _needed(tmp_path: Path, otherwise: str) -> list[RecipeItem]:
    files = {"train.py": _NEEDED.replace("ELSE", otherwise)}
    items = recipe(write_repo(tmp_path / "det", files))
    return [i for i in items if i.name == "composition in main"]


def test_an_option_the_run_stops_without_is_given_not_none(tmp_path: Path) -> None:
    # left out, ``--dataset`` falls to ``raise``: every command line gives it, and both
    # compositions are alternatives it picks, not branches None leaves off
    rows = _needed(tmp_path, 'else:\n            raise ValueError("unknown dataset")')
    whens = [dict(i.values)["when"] for i in rows]
    assert whens == ['args.dataset == "coco"', 'args.dataset == "csv"']


def test_an_option_the_run_does_without_is_none(tmp_path: Path) -> None:
    # no ``raise``: left out, ``--dataset`` is None and neither composition runs
    assert _needed(tmp_path, "else:\n            transform = None") == []


_STEP = """
    import torch


    def train(model, loader, optimizer):
        criterion = torch.nn.MSELoss()
        latent_loss_weight = WEIGHT
        for img in loader:
            out, latent_loss = model(img)
            recon_loss = criterion(out, img)
            latent_loss = latent_loss.mean()
            loss = recon_loss + latent_loss_weight * latent_loss
            loss.backward()
            optimizer.step()
"""


def _weights(tmp_path: Path, weight: str) -> dict[str, RecipeItem]:
    root = write_repo(tmp_path / "vq", {"train_vq.py": _STEP.replace("WEIGHT", weight)})
    return {n: i for n, i in named(recipe(root), "loss").items() if n.startswith("weight of")}


def test_a_weight_the_training_step_gives_a_term_the_model_returns(tmp_path: Path) -> None:
    row = _weights(tmp_path, "0.25")["weight of latent_loss"]
    assert dict(row.values) == {
        "weight": "latent_loss_weight = 0.25 (latent_loss_weight set at train_vq.py:6)"
    }
    assert (row.where.path, row.where.line) == ("train_vq.py", 11)


def test_a_weight_of_one_or_a_tensor_is_no_setting(tmp_path: Path) -> None:
    assert _weights(tmp_path, "1.0") == {}
    assert _weights(tmp_path / "t", "torch.ones(1)") == {}


_WEIGHTED = """
    import argparse

    import numpy as np
    import torch


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--balanced", action="store_true")
        args = parser.parse_args()
        if args.balanced:
            weight = torch.from_numpy(np.load("weights.npy"))
        else:
            weight = None
        criterion = torch.nn.CrossEntropyLoss(weight=weight)
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = criterion(model(torch.randn(2, 4)), torch.zeros(2, dtype=torch.long))
        loss.backward()
        optimizer.step()


    if __name__ == "__main__":
        main()
"""


def test_a_value_is_followed_through_the_assignment_that_runs(tmp_path: Path) -> None:
    # ``--balanced`` is off: ``weight`` is the ``else``'s None, not the loaded array
    root = write_repo(tmp_path / "seg", {"train_seg.py": _WEIGHTED})
    loss = named(recipe(root), "loss")["torch.nn.CrossEntropyLoss"]
    assert dict(loss.values)["weight"] == "None (weight set at train_seg.py:14)"


_CODEBOOK = """
    import torch
    from torch import nn


    class Quantize(nn.Module):
        def __init__(self, dim, n_embed, decay=0.99):
            super().__init__()
            self.decay = decay
            self.register_buffer("cluster_size", torch.zeros(n_embed))

        def forward(self, x):
            onehot_sum = x.sum(0)
            if self.training:
                self.cluster_size.data.mul_(self.decay).add_(onehot_sum, alpha=1 - self.decay)
            return x


    class VQ(nn.Module):
        def __init__(self):
            super().__init__()
            self.quantize = Quantize(64, 512)
            self.head = nn.Linear(64, 64)

        def forward(self, x):
            return self.head(self.quantize(x))
"""


def test_a_moving_average_a_module_keeps_of_its_buffers(tmp_path: Path) -> None:
    step = _STEP.replace("WEIGHT", "0.25")
    root = write_repo(tmp_path / "vq", {"vqvae.py": _CODEBOOK, "train_vq.py": step})
    (row,) = named(recipe(root), "ema").values()
    assert row.name == "EMA of buffers (Quantize)"
    # the constructor default no call changes
    assert dict(row.values)["decay"].startswith("0.99 (self.decay set in Quantize.__init__")
    assert row.note == "a moving average of self.cluster_size kept by Quantize.forward"


def _checkpoint_note(root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(root)
    (row,) = [i for i in build_review(".", jobs=1).recipe if i.category == "checkpoint"]
    return row.note


def test_a_checkpoint_loaded_only_to_resume_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gated = _GATED.replace(" SCHED", "")
    root = write_repo(tmp_path / "vq", {"train_vq.py": gated, "sched.py": _SCHED})
    assert _checkpoint_note(root, monkeypatch) == (
        "loaded only if args.ckpt is not None, off by default: a run resumed, not the "
        "training's start"
    )


def test_a_checkpoint_the_defaults_load_is_the_training_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gated = _GATED.replace(" SCHED", "").replace(
        'add_argument("--ckpt", type=str)', 'add_argument("--ckpt", default="init.pt")'
    )
    root = write_repo(tmp_path / "vq", {"train_vq.py": gated, "sched.py": _SCHED})
    assert _checkpoint_note(root, monkeypatch) == ""
