"""A model that hands a repository class by name to a part's constructor (Swin's
``BasicLayer(..., downsample=PatchMerging if i < last else None)``, the part then building
``downsample(dim)``) builds that class: a part of the model in the tree, not a free-standing
"other" class. A class only tested in an initialiser (``isinstance(m, Gate)``) is none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net.py": """
        import torch
        from torch import nn


        class Merge(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.reduce = nn.Linear(dim * 4, dim * 2)

            def forward(self, x):
                return self.reduce(x)


        class Gate(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)

            def forward(self, x):
                return self.fc(x)


        class Stage(nn.Module):
            def __init__(self, dim, downsample=None):
                super().__init__()
                self.block = nn.Linear(dim, dim)
                self.downsample = downsample(dim) if downsample is not None else None

            def forward(self, x):
                x = self.block(x)
                return self.downsample(x) if self.downsample is not None else x


        class Net(nn.Module):
            def __init__(self, dim=8, depth=3):
                super().__init__()
                self.stages = nn.ModuleList(
                    [
                        Stage(dim, downsample=Merge if i < depth - 1 else None)
                        for i in range(depth)
                    ]
                )
                self.apply(self._init_weights)

            def _init_weights(self, m):
                if isinstance(m, Gate):
                    nn.init.zeros_(m.fc.weight)

            def forward(self, x):
                for stage in self.stages:
                    x = stage(x)
                return x
    """,
    "train.py": """
        import torch

        from net import Net


        def main():
            model = Net()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model(torch.zeros(1, 8)).sum().backward()
            opt.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_a_class_handed_to_a_part_is_a_part(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    modules = {m.cls: m for m in review.modules}
    assert "net.Merge" in modules["net.Net"].children
    assert modules["net.Merge"].role != "other"
    assert "net.Gate" not in modules["net.Net"].children
