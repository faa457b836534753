"""``super(BaseNetwork, self).__init__()`` in a base class's constructor names the class
only to reach its base: no part of the model that extends it (the tree listed the base
class as a block each subclass builds) (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "nets/__init__.py": "",
    "nets/base.py": """
        import torch.nn as nn


        class BaseNetwork(nn.Module):
            def __init__(self):
                super(BaseNetwork, self).__init__()

            def init_weights(self):
                for m in self.children():
                    if hasattr(m, "init_weights"):
                        m.init_weights()
    """,
    "nets/disc.py": """
        import torch.nn as nn
        from nets.base import BaseNetwork


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 3, 3)

            def forward(self, x):
                return self.conv(x)


        class Disc(BaseNetwork):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x)
    """,
    "train.py": """
        import torch
        from nets.disc import Disc

        net = Disc()
        opt = torch.optim.Adam(net.parameters())
        for e in range(2):
            for x in [torch.zeros(1, 3, 8, 8)]:
                opt.zero_grad()
                net(x).sum().backward()
                opt.step()
    """,
}


def test_the_class_super_names_is_no_part(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    [disc] = [m for m in review.modules if m.cls == "nets.disc.Disc"]
    assert disc.children == ("nets.disc.Block",), disc.children
