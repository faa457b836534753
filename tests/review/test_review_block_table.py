"""A block picked from a module-level table by a config's name (``blocks_dict = {'BASIC':
BasicBlock, 'BOTTLENECK': Bottleneck}``, the class handed to the stage that builds it): a
block of the model tree, not a free-standing "other" class (issue 20 point 5)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net.py": """
        import torch.nn as nn


        class BasicBlock(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv = nn.Conv2d(c, c, 3, padding=1)

            def forward(self, x):
                return self.conv(x) + x


        class Bottleneck(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv = nn.Conv2d(c, c, 1)

            def forward(self, x):
                return self.conv(x) + x


        class Lonely(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv = nn.Conv2d(c, c, 1)

            def forward(self, x):
                return self.conv(x)


        blocks_dict = {'BASIC': BasicBlock, 'BOTTLENECK': Bottleneck}


        class Stage(nn.Module):
            def __init__(self, block, c):
                super().__init__()
                self.body = nn.Sequential(*[block(c) for _ in range(2)])

            def forward(self, x):
                return self.body(x)


        class Net(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.layer1 = Bottleneck(8)
                self.stage2 = Stage(blocks_dict[cfg['BLOCK']], 8)

            def forward(self, x):
                return self.stage2(self.layer1(x))
    """,
    "train.py": """
        import torch
        from net import Net, Lonely


        def main():
            model = Net({'BLOCK': 'BASIC'})
            extra = Lonely(8)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            loss = model(torch.ones(1, 8, 4, 4)).sum() + extra(torch.ones(1, 8, 4, 4)).sum()
            loss.backward()
            optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_a_class_tabled_beside_a_block_is_a_block(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    roles = {m.cls.rpartition(".")[2]: m.role for m in review.modules}
    assert roles["BasicBlock"] == "block"
    # INVALID: a class no table lists and nothing builds keeps its own role
    assert roles["Lonely"] != "block"
