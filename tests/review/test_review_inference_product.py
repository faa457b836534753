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


LISTED_API = """
import torch
from pkg.model import build_model

__all__ = ["load", "tokenize"]


def _open(path):
    return torch.load(path, map_location="cpu")


def load(path):
    return build_model(_open(path))


def tokenize(texts, length=8):
    out = torch.empty(len(texts), length, dtype=torch.int)
    out.fill_(0)
    for i, t in enumerate(texts):
        out[i, : len(t)] = torch.tensor([ord(c) for c in t][:length])
    return out
"""

NOTEBOOK_LIKE = """
from pkg.api import load, tokenize

model = load("w.pt")
print(model(tokenize(["a photo"]).float()))
"""


def test_the_public_api_a_library_lists_is_its_inference_path(tmp_path: Path) -> None:
    """Where nothing trains, what a module lists in ``__all__`` (``load`` building the model
    from a state dict, ``tokenize`` feeding it) is what the library's users call: ported and
    priced, though only a demo calls it here; the helpers it calls go with it."""
    root = write_repo(
        tmp_path / "lib",
        {
            "pkg/__init__.py": "from .api import *\n",
            "pkg/model.py": MODEL,
            "pkg/api.py": LISTED_API,
            "hubconf.py": HUB.replace("pkg.api import load", "pkg.api import load, tokenize"),
            "demo/run_demo.py": NOTEBOOK_LIKE,
        },
    )
    review = build_review(str(root))
    assert review.inference_only
    told = " ".join(review.effort.explanation)
    assert "Used only by files counted apart" not in told
    # tokenize's own torch calls are the port's: counted with the rest
    everywhere = dict((d, n) for d, _, n, _ in review.effort.by_disposition)
    network = dict((d, n) for d, n, _, _ in review.effort.by_disposition)
    assert sum(everywhere.values()) > sum(network.values())
    # the checkpoint the listed load opens (through a helper it calls) is a work item
    assert [i.what for i in review.work if i.kind == "checkpoint"] == ["torch.load"]
