"""A training script importing its model class in ``if``/``elif`` branches on an option
(``if args.arch == "plain": from nets.plain import Generator`` / ``elif ...: from
nets.wavelet import Generator``): the scan's import table keeps the last binding, but the
script's construction may build either class, so neither is "used only by files counted
apart" when a tool script also builds one of them: the model the training builds is priced."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import apart_only

FILES = {
    "nets/__init__.py": "",
    "nets/plain.py": """
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(8, 8, 3, padding=1)

            def forward(self, x):
                return torch.relu(self.conv(x))


        class Generator(nn.Module):
            def __init__(self, size):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x)
    """,
    "nets/wavelet.py": """
        from torch import nn


        class Generator(nn.Module):
            def __init__(self, size):
                super().__init__()
                self.conv = nn.Conv2d(8, 8, 1)

            def forward(self, x):
                return self.conv(x)
    """,
    "train.py": """
        import argparse

        import torch


        def train(generator):
            opt = torch.optim.Adam(generator.parameters(), lr=1e-3)
            for _ in range(10):
                loss = generator(torch.randn(2, 8, 16, 16)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--arch", type=str, default="plain")
            args = parser.parse_args()
            if args.arch == "plain":
                from nets.plain import Generator
            elif args.arch == "wavelet":
                from nets.wavelet import Generator
            generator = Generator(16)
            train(generator)
    """,
    "generate.py": """
        import torch
        from nets.plain import Generator

        if __name__ == "__main__":
            g = Generator(16)
            print(g(torch.randn(1, 8, 16, 16)).shape)
    """,
}


def test_a_class_imported_in_a_branch_is_built_by_the_training(tmp_path: Path) -> None:
    root = write_repo(tmp_path, FILES)
    found = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    reach = apart_only(found, lambda path: "tools" if path == "generate.py" else "")
    assert not [key for key in reach.exporting if key[0] == "nets/plain.py"]
