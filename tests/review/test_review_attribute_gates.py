"""A branch on an attribute a class's ``__init__`` sets once from a parameter that keeps its
default (issue 20 item 4): pointnet2's grouper tests ``if self.sample_uniformly:`` in its
``forward`` around a per-region ``torch.unique``; no construction switches the flag on
(the module building the grouper forwards its own parameter, left at False by the network).
The branch never runs: no dynamic-shape rewrite, no API call site to port there."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "net.py": """
import torch
class Group(torch.nn.Module):
    def __init__(self, n, sample_uniformly=False):
        super().__init__()
        self.n = n
        self.sample_uniformly = sample_uniformly
    def forward(self, idx):
        if self.sample_uniformly:
            for b in range(idx.shape[0]):
                u = torch.unique(idx[b])
                idx[b, : u.shape[0]] = u
        return idx.float()
class SA(torch.nn.Module):
    def __init__(self, n, sample_uniformly=False):
        super().__init__()
        self.grouper = Group(n, sample_uniformly=sample_uniformly)
        self.fc = torch.nn.Linear(4, 4)
    def forward(self, idx):
        return self.fc(self.grouper(idx))
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sa = SA(4)
    def forward(self, idx):
        return self.sa(idx)
""",
    "train.py": """
import torch
from net import Net
def main():
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(3):
        loss = net(torch.zeros(2, 4, dtype=torch.long)).sum()
        loss.backward()
        opt.step()
if __name__ == "__main__":
    main()
""",
}


def test_branch_on_an_attribute_left_at_its_default_never_runs(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    assert not review.dynamic_shape, review.dynamic_shape
    assert review.effort.dynamic_shape_rewrites == 0


def test_branch_on_an_attribute_switched_on_still_runs(tmp_path: Path) -> None:
    files = dict(REPO)
    files["net.py"] = REPO["net.py"].replace("SA(4)", "SA(4, sample_uniformly=True)")
    review = build_review(str(write_repo(tmp_path, files)))
    assert [rule for _, rule, _, _ in review.dynamic_shape] == ["DS101"]
