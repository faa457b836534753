"""The checkpoint row of the recipe is the training's own load (issue 20, the recipe from what
runs): an evaluation script's ``torch.load(args.model)``, which runs whenever it is run, is
another run's start; the training's ``torch.load`` under ``if args.restore_ckpt is not None``
is the row, its note saying the defaults leave it off."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_MODEL = """
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return self.conv(x).mean((2, 3))
"""

_EVALUATE = """
import argparse

import torch

from model import Net


def validate(model):
    with torch.no_grad():
        return model(torch.randn(2, 3, 8, 8)).mean().item()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    args = parser.parse_args()
    model = Net()
    model.load_state_dict(torch.load(args.model))
    print(validate(model))
"""

_TRAIN = """
import argparse

import torch

import evaluate
from model import Net


def train(args):
    model = Net()
    if args.restore_ckpt is not None:
        model.load_state_dict(torch.load(args.restore_ckpt), strict=False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for _ in range(10):
        loss = model(torch.randn(2, 3, 8, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(evaluate.validate(model))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--restore_ckpt", default=None)
    parser.add_argument("--lr", type=float, default=0.0004)
    train(parser.parse_args())
"""


def test_the_training_scripts_load_is_the_checkpoint_row(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo", {"model.py": _MODEL, "evaluate.py": _EVALUATE, "train.py": _TRAIN}
    )
    review = build_review(str(root), jobs=1)
    rows = [r for r in review.recipe if r.category == "checkpoint"]
    assert [(r.where.path, r.where.line) for r in rows] == [("train.py", 12)]
    assert "off by default" in rows[0].note
    assert "evaluate.py:18" in rows[0].note


def test_a_load_the_documented_later_stages_switch_on_starts_them(tmp_path: Path) -> None:
    """The same training, launched in stages by a shell script whose second stage passes
    ``--restore_ckpt`` a weights file: the load is off by default but starts that run, not
    a resume."""
    root = write_repo(
        tmp_path / "repo",
        {
            "model.py": _MODEL,
            "evaluate.py": _EVALUATE,
            "train.py": _TRAIN,
            "train_stages.sh": (
                "#!/bin/bash\n"
                "python train.py --lr 0.0004\n"
                "python train.py --restore_ckpt checkpoints/stage1.pth --lr 0.0001\n"
            ),
        },
    )
    review = build_review(str(root), jobs=1)
    rows = [r for r in review.recipe if r.category == "checkpoint"]
    assert [(r.where.path, r.where.line) for r in rows] == [("train.py", 12)]
    assert "start from it (train_stages.sh:3)" in rows[0].note
    assert "a run resumed" not in rows[0].note
