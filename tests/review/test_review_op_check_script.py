"""A vendored op's own check script (issue 20 item 4): ``ops/test.py`` runs the op's
forward and gradient checks with ``torch.autograd.gradcheck`` on the GPU. It is a test of
the extension, counted apart with the tests: its device moves are no port work, and what only
it uses (a pooling variant the model never builds) is not priced."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_OPS = """
import torch
import torch.nn as nn


class Shift(nn.Module):
    def forward(self, x):
        return torch.roll(x, 1, dims=-1)


class ShiftPooling(nn.Module):
    def forward(self, x):
        return torch.roll(x, 1, dims=-1).amax(-1)
"""

_CHECK = """
import torch
from torch.autograd import gradcheck

from shift import Shift, ShiftPooling


def check_gradient():
    x = torch.randn(2, 3, dtype=torch.double, requires_grad=True).cuda()
    print(gradcheck(Shift().cuda(), (x,)))


def example_pooling():
    x = torch.randn(2, 3).cuda()
    print(ShiftPooling().cuda()(x))


if __name__ == "__main__":
    check_gradient()
    example_pooling()
"""

_TRAIN = """
import torch
import torch.nn as nn

from ops.shift import Shift


def main():
    model = nn.Sequential(nn.Linear(3, 3), Shift())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(2, 3)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""


def test_an_op_check_script_is_counted_with_the_tests(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {"ops/__init__.py": "", "ops/shift.py": _OPS, "ops/test.py": _CHECK, "train.py": _TRAIN},
    )
    review = build_review(str(root), jobs=1)
    # the check script's device moves (``.cuda()``) are no deletions of the port
    deleted = {d: n for d, _net, n, _apis in review.effort.by_disposition}
    assert deleted["delete"] <= 1  # the check script alone moves tensors four times
    # ... and the pooling variant only it builds is counted apart with it
    used_apart = [line for line in review.effort.explanation if line.startswith("Used only")]
    assert used_apart and "ShiftPooling (ops/test.py)" in used_apart[0]
