"""A synchronized BatchNorm or data-parallel wrapper imported from a module of the
repository's own package that the repository does not hold (``from models.nets.sync_batchnorm
import SynchronizedBatchNorm2d``, the copy the setup instructions clone in): the port still
needs MindSpore's built-in in its place, so it is a work item, said to be absent (issue 20).
A module of the package that is present is no such item."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "models/__init__.py": "",
    "models/nets/__init__.py": "",
    "models/nets/norm.py": """
        import torch.nn as nn
        from models.nets.sync_batchnorm import SynchronizedBatchNorm2d
        from models.nets.blocks import Plain


        class Block(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv = nn.Conv2d(c, c, 3, padding=1)
                self.norm = SynchronizedBatchNorm2d(c, affine=True)
                self.plain = Plain()

            def forward(self, x):
                return self.plain(self.norm(self.conv(x)))
    """,
    "models/nets/blocks.py": """
        import torch.nn as nn


        class Plain(nn.Module):
            def forward(self, x):
                return x
    """,
    "train.py": """
        import torch
        from models.nets.sync_batchnorm import DataParallelWithCallback
        from models.nets.norm import Block

        net = DataParallelWithCallback(Block(3), device_ids=[0])
        optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        for epoch in range(3):
            for x in [torch.zeros(1, 3, 8, 8)]:
                optimizer.zero_grad()
                net(x).sum().backward()
                optimizer.step()
    """,
}


def test_an_absent_copy_of_sync_batchnorm_is_a_work_item(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    items = [i for i in review.work if i.kind == "vendored-parallel"]
    whats = " | ".join(i.what for i in items)
    assert "SynchronizedBatchNorm2d" in whats, review.work
    assert "DataParallelWithCallback" in whats, review.work
    assert all("not in the repository" in i.why for i in items), items
    assert "Plain" not in whats
