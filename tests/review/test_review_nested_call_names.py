"""A call of a function nested in a method (``Cloud.sample``'s inner ``dists()``, resolved as
``pkg.cloud.Cloud.sample.dists``) uses that method, not another module's function named
``sample``: the metric helper only an evaluation script reaches stays counted apart with it,
its dynamic shapes unpriced."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions
from apiscan.review.build import review

CLOUD = """
import numpy as np


class Cloud:
    def __init__(self, coords):
        self.coords = coords

    def sample(self, n):
        def dists(i):
            return ((self.coords - self.coords[i]) ** 2).sum(-1)

        picked = [0]
        for _ in range(n - 1):
            picked.append(int(np.argmax(dists(picked[-1]))))
        return self.coords[picked]
"""

METRIC = """
import torch


def sample(xyz, n):
    mask = xyz[:, 0] > 0
    return xyz[mask][:n]


class Scorer:
    def score(self, xyz):
        return sample(xyz, 8).mean()
"""

EVALUATE = """
import torch
from pkg.metric import Scorer

if __name__ == "__main__":
    print(Scorer().score(torch.randn(16, 3)))
"""

TRAIN = """
import torch
from pkg.cloud import Cloud

net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(10):
    points = torch.as_tensor(Cloud(torch.randn(32, 3).numpy()).sample(8))
    loss = net(points).mean()
    loss.backward()
    opt.step()
"""


def test_a_nested_function_call_is_no_use_of_a_namesake(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/cloud.py": CLOUD,
            "pkg/metric.py": METRIC,
            "scripts/evaluate.py": EVALUATE,
            "train.py": TRAIN,
        },
    )
    rv = review(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    [sentence] = [s for s in rv.effort.explanation if s.startswith("Used only by files")]
    # VALID: the metric's ``sample`` goes with the script, through the scorer
    assert "pkg/metric.py:sample (via Scorer" in sentence
    # INVALID: its boolean-mask selection is no dynamic-shape rewrite of the port
    assert rv.effort.dynamic_shape_rewrites == 0
