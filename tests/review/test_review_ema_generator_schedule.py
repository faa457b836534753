"""An EMA of weights whose decay is drawn step by step from a generator written by hand in
the function around the training step (``m = next(momentum_scheduler)``, ``momentum_scheduler
= (ema[0] + i*(ema[1]-ema[0])/total for i in range(total+1))``): the EMA row shows the
sequence and the settings it reads, not only ``next(momentum_scheduler)``."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

TRAIN = """\
import copy

import torch
from torch import nn


def main(args):
    ema = args['optimization']['ema']
    num_epochs = args['optimization']['epochs']
    encoder = nn.Linear(8, 8)
    target_encoder = copy.deepcopy(encoder)
    opt = torch.optim.AdamW(encoder.parameters(), lr=1e-3)
    ipe = 100
    momentum_scheduler = (ema[0] + i * (ema[1] - ema[0]) / (ipe * num_epochs)
                          for i in range(int(ipe * num_epochs) + 1))

    for epoch in range(num_epochs):
        for itr in range(ipe):
            def train_step():
                x = torch.randn(4, 8)
                with torch.no_grad():
                    h = target_encoder(x)
                loss = (encoder(x) - h).pow(2).mean()
                loss.backward()
                opt.step()
                opt.zero_grad()
                with torch.no_grad():
                    m = next(momentum_scheduler)
                    for param_q, param_k in zip(encoder.parameters(), target_encoder.parameters()):
                        param_k.data.mul_(m).add_((1. - m) * param_q.detach().data)
                return float(loss)
            train_step()


if __name__ == "__main__":
    main({'optimization': {'ema': [0.996, 1.0], 'epochs': 10}})
"""


def test_an_ema_decay_drawn_from_a_generator_shows_the_generator(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    ema = next(i for i in review.recipe if i.category == "ema")
    values = dict(ema.values)
    assert values["momentum_scheduler"].startswith("(ema[0] + i * (ema[1] - ema[0])")
    assert values["ema"].startswith("[0.996, 1.0]")
    assert "num_epochs" in values
    assert "i" not in values
