"""A constructor that picks its block class into a local and builds it in a loop
(``resblock = ResBlock1 if h.resblock == "1" else ResBlock2``, then
``self.resblocks.append(resblock(h, ch, k, d))``): both classes are parts of the model it
builds, not blocks hanging apart from it."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODELS = """
    import torch
    from torch import nn


    class BlockA(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.conv = nn.Conv1d(ch, ch, 3, padding=1)

        def forward(self, x):
            return x + self.conv(x)


    class BlockB(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.conv = nn.Conv1d(ch, ch, 5, padding=2)

        def forward(self, x):
            return x + self.conv(x)


    class Generator(nn.Module):
        def __init__(self, h):
            super().__init__()
            block = BlockA if h.kind == "1" else BlockB
            self.blocks = nn.ModuleList()
            for _ in range(3):
                self.blocks.append(block(8))

        def forward(self, x):
            for b in self.blocks:
                x = b(x)
            return torch.tanh(x)
"""


def test_class_picked_into_a_local_is_a_part(tmp_path) -> None:
    root = write_repo(tmp_path, {"models.py": MODELS})
    review = build_review(str(root))
    nodes = {n.cls.rpartition(".")[2]: n for n in review.modules}
    children = {c.rpartition(".")[2] for c in nodes["Generator"].children}
    assert {"BlockA", "BlockB"} <= children, children


BLOCKS = """
    from torch import nn


    class ResBlock1(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.conv = nn.Conv1d(ch, ch, 3, padding=1)

        def forward(self, x):
            return x + self.conv(x)


    class ResBlock2(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.conv = nn.Conv1d(ch, ch, 5, padding=2)

        def forward(self, x):
            return x + self.conv(x)
"""

GENERATOR = """
    from torch import nn
    import modules


    class Generator(nn.Module):
        def __init__(self, resblock):
            super().__init__()
            resblock = modules.ResBlock1 if resblock == '1' else modules.ResBlock2
            self.resblocks = nn.ModuleList()
            for _ in range(3):
                self.resblocks.append(resblock(8))

        def forward(self, x):
            for r in self.resblocks:
                x = r(x)
            return x
"""


def test_class_of_an_imported_module_picked_into_a_local_is_a_part(tmp_path) -> None:
    """The classes are spelled through their module (``modules.ResBlock1 if ... else
    modules.ResBlock2``): parts of the generator, not blocks hanging apart ("other")."""
    root = write_repo(tmp_path, {"modules.py": BLOCKS, "models.py": GENERATOR})
    review = build_review(str(root))
    nodes = {n.cls.rpartition(".")[2]: n for n in review.modules}
    children = {c.rpartition(".")[2] for c in nodes["Generator"].children}
    assert {"ResBlock1", "ResBlock2"} <= children, children
    assert nodes["ResBlock1"].role == "block"
