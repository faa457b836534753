"""A training script's step counter (``total_steps = 0`` before the loop, ``total_steps +=
batch_size`` in it) is no training length; the length is what the epoch loop runs to:
the options read in the ``range`` of the loop around the loop over the data, whatever their
names (``--nepoch``, ``--nepoch_decay``)."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

TRAIN = """import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--nepoch", type=int, default=5, help="# epochs at base learning rate")
parser.add_argument("--nepoch_decay", type=int, default=5, help="# more epochs")
parser.add_argument("--depth", type=int, default=3)
opt = parser.parse_args()

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
dataset = [torch.randn(2, 4) for _ in range(8)]
for k in range(opt.depth):
    for j in range(2):
        print(k, j)
total_steps = 0
for epoch in range(1, opt.nepoch + opt.nepoch_decay + 1):
    for i, x in enumerate(dataset):
        total_steps += 2
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_the_length_is_the_epoch_loop_s_options_not_the_counter(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    lengths = {item.name: dict(item.values) for item in review.recipe if item.category == "epochs"}
    # VALID: the two options the epoch loop runs to; INVALID: the counter starting at 0,
    # and --depth, whose loop counts something else than the data
    assert lengths == {
        "argparse --nepoch": {"default": "5"},
        "argparse --nepoch_decay": {"default": "5"},
    }
