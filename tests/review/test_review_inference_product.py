"""An inference-only package whose model only a hub entry point and a test load (a released
model library: ``load()`` builds the network from a checkpoint): the model is what is ported,
so its API gaps are listed and priced, not counted apart with the hub file."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        mask = torch.empty(x.shape[1], x.shape[1])
        mask.fill_(float("-inf"))
        mask.triu_(1)
        return self.proj(x) + mask.sum()


class Encoder(nn.Module):
    def __init__(self, width, depth=2):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(width) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return self.norm(self.blocks(x))


def build_model(state_dict):
    model = Encoder(state_dict["proj.weight"].shape[0])
    model.load_state_dict(state_dict)
    return model.eval()
"""

API = """
import torch
from pkg.model import build_model


def load(path, jit=False):
    try:
        archive = torch.jit.load(path, map_location="cpu")
        state_dict = None
    except RuntimeError:
        state_dict = torch.load(path, map_location="cpu")
    return build_model(state_dict or archive.state_dict())
"""

HUB = """
dependencies = ["torch"]
from pkg.api import load


def encoder(path):
    return load(path)
"""

TEST = """
import torch
from pkg.api import load


def test_load(tmp_path):
    model = load(tmp_path / "w.pt")
    assert model(torch.zeros(1, 4, 4)).shape == (1, 4, 4)
"""


def test_the_model_of_an_inference_library_is_ported_not_counted_apart(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "lib",
        {
            "pkg/__init__.py": "from .api import *\n",
            "pkg/model.py": MODEL,
            "pkg/api.py": API,
            "hubconf.py": HUB,
            "tests/test_api.py": TEST,
        },
    )
    review = build_review(str(root))
    assert review.inference_only
    apis = {g.api for g in review.gaps}
    assert "torch.Tensor.triu_" in apis  # the model's own gap (VALID)
    assert review.effort.call_sites_to_change > 0


def test_a_torchscript_archive_is_a_checkpoint_opened_with_pytorch(tmp_path: Path) -> None:
    """The released file is a TorchScript archive whose state dict fills the repository's
    own architecture: one conversion, said to need PyTorch to open the archive."""
    root = write_repo(
        tmp_path / "lib",
        {
            "pkg/__init__.py": "from .api import *\n",
            "pkg/model.py": MODEL,
            "pkg/api.py": API,
            "hubconf.py": HUB,
        },
    )
    items = [i for i in build_review(str(root)).work if i.kind == "checkpoint"]
    assert [i.what for i in items] == ["torch.jit.load, torch.load"]
    assert "TorchScript archive (torch.jit.load) is opened with PyTorch" in items[0].why
