"""Branches switched off by a config of nested dataclasses (issue 20 item 2): a training
script reads ``cfg.common.model_parallel_size``, a field whose default is 1, and only when
it is larger sets a module flag that a helper of the network's forward tests before a host
round trip.
With the default, neither the set-up nor the forward's branch runs: the round trip is no
work item. A documented command that gives the setting leaves its value unknown, and the
item stays."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_CONFIG = """
from dataclasses import dataclass, field


@dataclass
class CommonConfig:
    model_parallel_size: int = field(default=1, metadata={"help": "model shards"})
    seed: int = 1


@dataclass
class Config:
    common: CommonConfig = CommonConfig()
"""

_DIST = """
import numpy as np
import torch

_USE_SHARDS = False


def init(cfg):
    if cfg.common.model_parallel_size > 1:
        global _USE_SHARDS
        _USE_SHARDS = True
    return cfg


def gather(y):
    global _USE_SHARDS
    if _USE_SHARDS:
        return torch.from_numpy(np.sort(y.detach().cpu().numpy(), axis=-1))
    return y
"""

_MODEL = """
import torch.nn as nn

import dist


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return dist.gather(self.fc(x))
"""

_TRAIN = """
import torch

import dist
from config import Config
from model import Net


def main():
    cfg = dist.init(Config())
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(2, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""


def _review(tmp_path: Path, readme: str) -> list[str]:
    files = {
        "config.py": _CONFIG,
        "dist.py": _DIST,
        "model.py": _MODEL,
        "train.py": _TRAIN,
        "README.md": readme,
    }
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    return [i.kind for i in review.work]


def test_a_dataclass_default_switches_the_set_up_and_its_flag_off(tmp_path: Path) -> None:
    kinds = _review(tmp_path, "```\npython train.py\n```\n")
    assert "host-round-trip" not in kinds


def test_a_documented_setting_leaves_the_branch_in(tmp_path: Path) -> None:
    kinds = _review(tmp_path, "```\npython train.py --model-parallel-size 2\n```\n")
    assert "host-round-trip" in kinds
