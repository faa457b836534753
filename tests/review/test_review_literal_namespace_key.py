"""A module's namespace looked up by a key written as a literal (``vit.__dict__[
'vit_predictor'](...)``) is no option: no run picks another of the module's builders through
it, so the model those builders make (the encoder, looked up beside it by a name only the
run's YAML gives) is no alternative another config builds: it is priced with the port."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

MODELS = """\
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return self.norm(self.proj(x))


class Predictor(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.head = nn.Linear(dim, dim)

    def forward(self, x):
        return self.head(x)


def enc_small(**kwargs):
    return Encoder(dim=8, **kwargs)


def enc_large(**kwargs):
    return Encoder(dim=16, **kwargs)


def predictor(**kwargs):
    return Predictor(**kwargs)
"""

TRAIN = """\
import torch
import yaml

import models as net


def init_model(model_name):
    encoder = net.__dict__[model_name]()
    pred = net.__dict__['predictor']()
    return encoder, pred


def main(args):
    encoder, pred = init_model(args['meta']['model_name'])
    opt = torch.optim.AdamW(list(encoder.parameters()) + list(pred.parameters()), lr=1e-3)
    for _ in range(10):
        x = torch.randn(4, 8)
        loss = (pred(encoder(x)) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    with open("config.yaml") as f:
        main(yaml.load(f, Loader=yaml.FullLoader))
"""


def test_a_literal_namespace_key_leaves_no_alternatives(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    assert not any("Encoder" in a for a in review.alternatives)
    said = " ".join(review.effort.explanation)
    assert "models.py:Encoder" not in said.partition("Alternatives")[2]
