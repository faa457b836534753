"""Weights loaded in a classmethod the training calls through its class
(``GPT.from_pretrained(args.model)``): the call is an edge of the call graph, so the
released weights it copies into the repository's own architecture are a work item."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
import argparse

import torch
import torch.nn as nn


class GPT(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        return self.proj(x)

    @classmethod
    def from_pretrained(cls, model_type):
        from transformers import GPT2LMHeadModel

        hf = GPT2LMHeadModel.from_pretrained(model_type)
        model = GPT(8)
        model.load_state_dict(hf.state_dict())
        return model

    @staticmethod
    def load_pretrained_unused(path):
        return torch.load(path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="gpt2")
    args = parser.parse_args()
    if args.model[0] == "d":
        model = GPT(8)
    else:
        model = GPT.from_pretrained(args.model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(4, 8)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_a_classmethod_called_through_its_class_loads_its_weights(tmp_path: Path) -> None:
    """``GPT.from_pretrained`` is called by the training script through the class: the
    transformers weights it copies into GPT are a checkpoint conversion (VALID); the static
    loader nothing calls loads nothing (INVALID)."""
    review = build_review(str(write_repo(tmp_path / "gpt", {"train.py": TRAIN})))
    loads = [(i.kind, i.what, [w.line for w in i.where]) for i in review.work]
    copied = [x for x in loads if "copied into GPT.from_pretrained" in x[1]]
    assert copied == [
        (
            "checkpoint",
            "transformers.GPT2LMHeadModel.from_pretrained(pretrained weights) copied into "
            "GPT.from_pretrained",
            [19],
        )
    ]
    assert not any("load_pretrained_unused" in i.what for i in review.work)
