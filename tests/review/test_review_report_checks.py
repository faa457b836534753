"""A branch on tensor values whose body only prints (``if torch.min(y) < -1.: print(...)``, a
range check at the top of a feature function the loss calls every step) is a debugging
check: deleted from the compiled network or kept outside it, with its host reads priced as
the training step's. It is no dynamic-shape function to redesign; a branch that changes
what the function computes still is one."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

NET = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(1, 1, 3, padding=1)

        def forward(self, x):
            return self.conv(x)


    def features(y):
        if torch.min(y) < -1.0:
            print("min value is ", torch.min(y))
        if torch.max(y) > 1.0:
            print("max value is ", torch.max(y))
        return torch.log(torch.clamp(y.abs(), min=1e-5))
"""
BRANCHING = """
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(1, 1, 3, padding=1)

        def forward(self, x):
            return self.conv(x)


    def features(y):
        if torch.min(y) < -1.0:
            y = y / y.abs().max()
        return torch.log(torch.clamp(y.abs(), min=1e-5))
"""
TRAIN = """
    import torch
    import torch.nn.functional as F

    from net import Net, features


    def main():
        net = Net()
        opt = torch.optim.AdamW(net.parameters(), lr=2e-4)
        for x, y in torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
                torch.zeros(8, 1, 16), torch.zeros(8, 1, 16)), batch_size=2):
            opt.zero_grad()
            loss = F.l1_loss(features(net(x)), features(y))
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


@pytest.mark.parametrize(("net", "rewrites"), [(NET, 0), (BRANCHING, 1)])
def test_reporting_branch_is_no_shape_rewrite(tmp_path, net: str, rewrites: int) -> None:
    root = write_repo(tmp_path, {"net.py": net, "train.py": TRAIN})
    review = build_review(str(root))
    assert review.effort.dynamic_shape_rewrites == rewrites, review.effort.explanation
    if not rewrites:
        assert any("debugging check" in line for line in review.effort.explanation)
