"""An inference-only repository read as a lead reads it (issue 20): a beam search's loop over
each beam's candidates is no training length, and a notebook importing another framework only
for its side effect (``try: import tensorflow`` for a hosted runtime's pins) adapts nothing: it
is a notebook, while one that uses the other framework's API is still its adapter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

_MODEL = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 16)

    def forward(self, x):
        return torch.log_softmax(self.proj(x), dim=-1)
"""

_DECODE = """
class BeamSearch:
    def __init__(self, beam_size):
        self.beam_size = beam_size

    def update(self, logprobs):
        picked = []
        for j in range(self.beam_size):
            for value, token in zip(*logprobs[j].topk(self.beam_size + 1)):
                picked.append((value.item(), token.item()))
        return picked
"""

_CLI = """
import argparse

import torch

from pkg.decode import BeamSearch
from pkg.model import Net


def cli():
    parser = argparse.ArgumentParser()
    parser.add_argument("--beam_size", type=int, default=5, help="number of beams")
    args = parser.parse_args()
    model = Net().eval()
    with torch.no_grad():
        logprobs = model(torch.randn(args.beam_size, 8))
    print(BeamSearch(args.beam_size).update(logprobs))


if __name__ == "__main__":
    cli()
"""


def _notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "metadata": {}, "source": c, "outputs": [],
                 "execution_count": None}
                for c in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )  # fmt: skip


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):
    root = Path(tmp_path_factory.mktemp("inference")) / "repo"
    write_repo(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/model.py": _MODEL,
            "pkg/decode.py": _DECODE,
            "pkg/cli.py": _CLI,
        },
    )
    (root / "notebooks").mkdir()
    (root / "notebooks" / "eval.ipynb").write_text(
        _notebook(
            "try:\n    import tensorflow\nexcept ImportError:\n    pass\n",
            "import torch\nfrom pkg.model import Net\nprint(Net()(torch.randn(2, 8)))\n",
        )
    )
    (root / "notebooks" / "convert.ipynb").write_text(
        _notebook(
            "import jax\nimport torch\nfrom pkg.model import Net\n",
            "w = jax.numpy.asarray(Net().proj.weight.detach().numpy())\n",
        )
    )
    return build_review(str(root), jobs=1)


def test_a_beam_search_loop_is_no_training_length(review) -> None:
    assert review.inference_only
    assert not [i for i in review.recipe if i.category == "epochs"]


def test_a_framework_imported_and_never_used_adapts_nothing(review) -> None:
    why = dict(review.ancillary)
    assert not why["notebooks/eval.ipynb"].startswith("adapter for")
    assert why["notebooks/convert.ipynb"] == "adapter for jax"
