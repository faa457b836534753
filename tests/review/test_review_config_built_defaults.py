"""A layer class a constructor picks by a flag (``norm = nn.BatchNorm2d`` unless
``use_special``, then ``SpecialNorm``), in a class built only from a config's ``target:``
string whose ``params`` never set that flag: the class runs with the flag's default, so the
layer the other branch names, and its work, are not the run's (taming-transformers'
``ActNorm`` under ``use_actnorm=False``)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import review_fixture

_LOSS = """\
import torch
import torch.nn as nn


class SpecialNorm(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, channels, 1, 1))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if self.initialized.item() == 0:
            self.loc.data.copy_(-x.mean(dim=(0, 2, 3), keepdim=True))
            self.initialized.fill_(1)
        return x + self.loc


class Disc(nn.Module):
    def __init__(self, channels=4, use_special=False):
        super().__init__()
        if not use_special:
            norm = nn.BatchNorm2d
        else:
            norm = SpecialNorm
        self.conv = nn.Conv2d(3, channels, 3)
        self.norm = norm(channels)

    def forward(self, x):
        return self.norm(self.conv(x))


class Criterion(nn.Module):
    def __init__(self, weight=1.0, use_special=False):
        super().__init__()
        self.weight = weight
        self.disc = Disc(use_special=use_special)

    def forward(self, x):
        return self.weight * self.disc(x).mean()
"""

_MAIN = """\
import importlib
import sys

import torch
import yaml


def instantiate(config):
    module, cls = config["target"].rsplit(".", 1)
    return getattr(importlib.import_module(module), cls)(**config.get("params", {}))


if __name__ == "__main__":
    config = yaml.safe_load(open(sys.argv[1]))
    criterion = instantiate(config["loss"])
    optimizer = torch.optim.Adam(criterion.parameters(), lr=1e-4)
    for _ in range(10):
        loss = criterion(torch.randn(2, 3, 8, 8))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def _repo(root: Path, params: str) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("", "utf-8")
    (root / "pkg" / "loss.py").write_text(_LOSS, "utf-8")
    (root / "main.py").write_text(_MAIN, "utf-8")
    (root / "configs").mkdir()
    (root / "configs" / "a.yaml").write_text(
        f"loss:\n  target: pkg.loss.Criterion\n  params:\n{params}", "utf-8"
    )
    (root / "README.md").write_text("```\npython main.py configs/a.yaml\n```\n", "utf-8")


def _special_items(root: Path) -> list[str]:
    review = review_fixture(str(root))
    return [w.what for w in review.work if "SpecialNorm" in w.what]


def test_a_flag_no_config_sets_keeps_its_default(tmp_path: Path) -> None:
    _repo(tmp_path, "    weight: 0.5\n")
    assert _special_items(tmp_path) == []


def test_a_flag_a_config_sets_is_not_decided_by_the_default(tmp_path: Path) -> None:
    """VALID: where a config writes the flag, the default decides nothing: the item stays."""
    _repo(tmp_path, "    weight: 0.5\n    use_special: true\n")
    assert _special_items(tmp_path), "the layer the config may switch on keeps its item"
