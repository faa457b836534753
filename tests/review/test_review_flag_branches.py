"""A branch the options' defaults never take (``if args.alt_loader:``, a ``store_true``
flag off by default) is dead code for the run: the data pipeline only that branch builds
(its loader factory, its dataset and collate classes, what only they call) is not reached,
so its sites are not priced; switched on by default it is the run's again."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.readings import Readings
from apiscan.review.work import apart_only, switched_off_named, switched_off_spans

FILES = {
    "pkg/__init__.py": "",
    "pkg/data/__init__.py": (
        "from .alt import create_alt_loader\nfrom .plain import create_loader\n"
    ),
    "pkg/data/plain.py": """
        import torch
        from torch.utils.data import DataLoader, Dataset


        class Plain(Dataset):
            def __len__(self):
                return 8

            def __getitem__(self, i):
                return torch.randn(3, 8, 8), i


        def create_loader(batch_size):
            return DataLoader(Plain(), batch_size=batch_size)
    """,
    "pkg/data/alt.py": """
        import random

        import torch
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, Dataset


        def pad_to(x, n):
            keep = torch.nonzero(x.sum(0) > 0)
            return F.pad(x[:, keep[:, 0]], (0, n))


        class Patches(Dataset):
            def __len__(self):
                return 8

            def __getitem__(self, i):
                size = random.choice([4, 8, 16])
                x = F.interpolate(torch.randn(1, 3, 8, 8), size=size).squeeze(0)
                return pad_to(x, size), i


        def collate(batch):
            longest = max(x.shape[-1] for x, _ in batch)
            return torch.stack([F.pad(x, (0, longest - x.shape[-1])) for x, _ in batch])


        def create_alt_loader(batch_size):
            return DataLoader(Patches(), batch_size=batch_size, collate_fn=collate)
    """,
    "train.py": """
        import argparse

        import torch
        from torch import nn

        from pkg.data import create_alt_loader, create_loader

        parser = argparse.ArgumentParser()
        parser.add_argument("--alt-loader", action="store_true", default=False)
        parser.add_argument("--batch-size", type=int, default=4)


        def main():
            args = parser.parse_args()
            model = nn.Linear(8, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            if args.alt_loader:
                loader = create_alt_loader(args.batch_size)
            else:
                loader = create_loader(args.batch_size)
            for x, y in loader:
                loss = model(x).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def analyses(tmp_path_factory):  # type: ignore[no-untyped-def]
    root = write_repo(tmp_path_factory.mktemp("flags"), FILES)
    return root, scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]


def test_the_branch_a_flag_off_by_default_guards_is_dead(analyses) -> None:  # type: ignore[no-untyped-def]
    root, found = analyses
    defaults = Readings(root, found).argparse.values()
    spans = switched_off_spans(found, defaults, switched_off_named(found, defaults)[1])
    # VALID: the ``if`` body; INVALID: its ``else``, which runs
    assert list(spans.values()) == [(17, 18)]
    reach = apart_only(found, lambda path: "", spans)
    unreached = {name for path, name in reach.unreached if path == "pkg/data/alt.py"}
    assert unreached == {"create_alt_loader", "Patches", "collate", "pad_to"}
    assert not any(path == "pkg/data/plain.py" for path, _ in reach.unreached)


def _sites(review) -> int:  # type: ignore[no-untyped-def]
    return sum(n for _, n, _, _ in review.effort.by_disposition)


def test_the_pipeline_only_an_untaken_branch_builds_is_not_priced(tmp_path) -> None:  # type: ignore[no-untyped-def]
    off = build_review(str(write_repo(tmp_path / "off", FILES)))
    files = dict(FILES)
    files["train.py"] = files["train.py"].replace(
        'action="store_true", default=False', 'action="store_false", default=True'
    )
    on = build_review(str(write_repo(tmp_path / "on", files)))
    assert off.effort.person_days[1] < on.effort.person_days[1]


def test_an_option_the_code_sets_at_run_time_is_not_told_by_its_default(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # INVALID: ``setup(args)`` switches the flag on from the environment (as a distributed
    # launcher's set-up sets ``args.distributed``): the branch may run
    files = dict(FILES)
    files["train.py"] = files["train.py"].replace(
        "        def main():\n            args = parser.parse_args()\n",
        "        def setup(args):\n            args.alt_loader = True\n\n\n"
        "        def main():\n            args = parser.parse_args()\n            setup(args)\n",
    )
    assert "args.alt_loader = True" in files["train.py"]
    root = write_repo(tmp_path, files)
    found = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    defaults = Readings(root, found).argparse.values()
    assert switched_off_spans(found, defaults, switched_off_named(found, defaults)[1]) == {}


FEATURES = {
    "nets.py": """
        import torch
        from torch import nn


        class Jsd(nn.Module):
            def forward(self, x, y):
                return (x - y).abs().mean()


        class Smooth(nn.Module):
            def forward(self, x, y):
                return (x - y).pow(2).mean()


        class Ema:
            def __init__(self, model):
                self.shadow = {k: v.clone() for k, v in model.state_dict().items()}


        class Swa:
            def __init__(self, model):
                self.model = model


        def load_ckpt(path, model, optimizer):
            state = torch.load(path, map_location="cpu")
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            return state["epoch"]


        def save_ckpt(path, model):
            torch.save({"model": model.state_dict()}, path)
    """,
    "train.py": """
        import argparse

        import torch
        from torch import nn

        from nets import Ema, Jsd, Smooth, Swa, load_ckpt, save_ckpt

        parser = argparse.ArgumentParser()
        parser.add_argument("--resume", default="")
        parser.add_argument("--save", default="")
        parser.add_argument("--jsd", action="store_true", default=False)
        parser.add_argument("--smooth", action="store_true", default=False)
        parser.add_argument("--ema", action="store_true", default=False)
        parser.add_argument("--swa", action="store_true", default=False)
        parser.add_argument("--script", action="store_true", default=False)


        def main():
            args = parser.parse_args()
            model = nn.Linear(8, 2)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            if args.resume:
                start = load_ckpt(args.resume, model, optimizer)
            else:
                start = 0
            if args.jsd:
                criterion = Jsd()
            elif args.smooth:
                criterion = Smooth()
            else:
                criterion = nn.MSELoss()
            if args.ema:
                averaged = Ema(model)
            elif args.swa:
                averaged = Swa(model)
            if args.script:
                model = torch.jit.script(model)
            else:
                model = model.float()
            for _ in range(start, 10):
                x = torch.randn(4, 8)
                loss = criterion(model(x), torch.zeros(4, 2))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if args.save:
                save_ckpt(args.save, model)


        if __name__ == "__main__":
            main()
    """,
}


def test_a_switch_off_by_default_over_a_feature_keeps_it_reached(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The script's own features behind switches off by default stay the run's code: a
    resume whose ``else`` only sets a constant, a checkpoint save with no ``else``, an EMA
    or SWA chain the defaults take no branch of, a wrap of the model the run built
    (``model = torch.jit.script(model)``) (VALID: none is a dead span); a loss picked in
    an ``if``/``elif`` chain instead of the default ``else``'s is an alternative (VALID:
    the two skipped bodies are dead spans, the ``else`` is not)."""
    root = write_repo(tmp_path, FEATURES)
    found = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    defaults = Readings(root, found).argparse.values()
    spans = switched_off_spans(found, defaults, switched_off_named(found, defaults)[1])
    assert sorted(spans.values()) == [(26, 27), (28, 29)]
    reach = apart_only(found, lambda path: "", spans)
    unreached = {name for path, name in reach.unreached if path == "nets.py"}
    assert unreached == {"Jsd", "Smooth"}
    # the checkpoint loaded and saved behind the switches stays work, noted off by default
    review = build_review(str(root))
    checkpoint = [i for i in review.work if i.kind == "checkpoint"]
    assert checkpoint
    assert {w.path for i in checkpoint for w in i.where} == {"nets.py"}
