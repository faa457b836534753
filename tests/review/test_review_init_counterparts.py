"""A recipe's initialiser row names MindSpore's unverified counterpart when the tables lack
the initialiser (``orthogonal_`` → ``mindspore.common.initializer.Orthogonal``), instead of
reading as an API MindSpore lacks."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        nn.init.orthogonal_(self.fc.weight)
        nn.init.calculate_gain("relu")

    def forward(self, x):
        return self.fc(x)
"""

TRAIN = """
import torch
from model import Net


def main():
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(10):
        loss = net(torch.randn(2, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_an_initialiser_row_names_its_unverified_counterpart(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, {"model.py": MODEL, "train.py": TRAIN})), jobs=1)
    rows = {r.name: r.note for r in review.recipe}
    assert (
        "MindSpore counterpart: mindspore.common.initializer.Orthogonal (unverified)"
        in (rows["torch.nn.init.orthogonal_"])
    )
    assert "no orthogonal_ in MindSpore" not in rows["torch.nn.init.orthogonal_"]
    # INVALID: an optimiser with a table row says nothing of the kind
    assert "unverified" not in (rows.get("torch.optim.SGD") or "")
