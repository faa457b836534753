"""Two folders that are no packages, each holding a ``convnext.py`` (a model folder beside the
training script, and a downstream task's backbone folder): each file is importable as
``convnext`` from its own folder, yet the whole-program pass keys functions by a file's first
module name. Keyed by the shared name, one file's functions took the other's place and the
model file's layers were scoped ``host``."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo, write_repo

from apiscan.discovery import discover, discover_many

MODEL = """
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return torch.relu(self.fc(x)).permute(0, 1)
"""

TRAIN = """
import torch
from models.convnext import Block

model = Block(4)
loss = model(torch.randn(2, 4)).sum()
loss.backward()
"""


def test_same_stem_in_two_plain_folders_keeps_both_files_scoped(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path,
        {
            "train.py": TRAIN,
            "models/convnext.py": MODEL,
            "segmentation/backbone/convnext.py": MODEL,
            "segmentation/train_seg.py": "from backbone.convnext import Block\n",
        },
    )
    scopes = {
        (f.path, f.api): f.scope
        for f in scan_repo(root).api_findings
        if f.api in ("torch.relu", "torch.Tensor.permute")
    }
    assert scopes == {
        ("models/convnext.py", "torch.relu"): "network",
        ("models/convnext.py", "torch.Tensor.permute"): "network",
        ("segmentation/backbone/convnext.py", "torch.relu"): "network",
        ("segmentation/backbone/convnext.py", "torch.Tensor.permute"): "network",
    }


def test_a_shared_first_module_name_gives_way_to_the_path_name(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path,
        {
            "models/convnext.py": MODEL,
            "backbone/convnext.py": MODEL,
            "seg/backbone/convnext.py": MODEL,
            "other/unique.py": "",
        },
    )
    _, files, _ = discover(root)
    first = {f.relpath: f.modules[0] for f in files}
    assert first == {
        # two files as near the root as each other: neither keeps the shared name
        "backbone/convnext.py": "backbone.convnext",
        "models/convnext.py": "models.convnext",
        "seg/backbone/convnext.py": "seg.backbone.convnext",
        "other/unique.py": "unique",  # no other file is ``unique``: its name stays first
    }
    _, files, _ = discover(write_repo(tmp_path / "near", {"m/net.py": "", "a/b/net.py": ""}))
    # the file nearest the root keeps it (the model beside the training script)
    assert {f.relpath: f.modules for f in files} == {
        "m/net.py": ("net", "m.net"),
        "a/b/net.py": ("a.b.net",),
    }
    # the shared name stays an alias of each (an import from either folder still resolves)
    assert all("convnext" in f.modules for f in files if f.relpath.endswith("convnext.py"))


def test_several_paths_keep_a_first_module_name_to_one_file(tmp_path: Path) -> None:
    """A scan of several paths (a pre-commit hook's) names its files from their common base:
    the same rule holds there."""
    write_repo(tmp_path, {"m/net.py": "", "a/b/net.py": ""})
    _, files, _ = discover_many([str(tmp_path / "m"), str(tmp_path / "a")])
    assert {f.relpath: f.modules[0] for f in files} == {"m/net.py": "net", "a/b/net.py": "a.b.net"}
