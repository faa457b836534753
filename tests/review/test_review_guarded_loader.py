"""A checkpoint load in a helper every call of which a test the defaults turn off guards
(issue 20 item 1): Swin-like ``load_checkpoint(config, model)`` reading ``torch.load``,
called from ``main`` only under ``if config.MODEL.RESUME:`` (empty by default). The
checkpoint row says the training does not start from it, as it does for a load guarded in
its own function; a helper the run calls unguarded starts the run."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_CONFIG = """
from yacs.config import CfgNode as CN

_C = CN()
_C.MODEL = CN()
_C.MODEL.RESUME = ''
_C.TRAIN = CN()
_C.TRAIN.EPOCHS = 10


def get_config(path="configs/base.yaml"):
    config = _C.clone()
    config.merge_from_file(path)
    return config
"""

_UTILS = """
import torch


def load_checkpoint(config, model):
    checkpoint = torch.load(config.MODEL.RESUME, map_location='cpu')
    model.load_state_dict(checkpoint['model'])
"""

_MAIN = """
import torch

from config import get_config
from utils import load_checkpoint


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def main(config):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if config.MODEL.RESUME:
        load_checkpoint(config, model)
    for epoch in range(config.TRAIN.EPOCHS):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(get_config())
"""


def _note(tmp_path: Path, main: str) -> str:
    files = {
        "config.py": _CONFIG,
        "configs/base.yaml": "TRAIN:\n  EPOCHS: 10\n",
        "utils.py": _UTILS,
        "main.py": main,
    }
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    return next(r.note for r in review.recipe if r.category == "checkpoint")


def test_a_load_every_call_of_which_is_switched_off_is_no_start(tmp_path: Path) -> None:
    note = _note(tmp_path, _MAIN)
    assert "load_checkpoint()" in note
    assert "off by default" in note
    assert "not the training's start" in note


def test_a_load_the_run_calls_is_its_start(tmp_path: Path) -> None:
    unguarded = _MAIN.replace(
        "    if config.MODEL.RESUME:\n        load_checkpoint", "    load_checkpoint"
    )
    assert unguarded != _MAIN
    assert "off by default" not in _note(tmp_path, unguarded)
