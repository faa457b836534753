"""A collate object (an instance whose ``__call__`` the loader calls) that draws a block
of kept patches per batch (``torch.nonzero`` of a sampled mask, truncated to the batch's
shortest): every batch's index tensors have their own length, so the loader is an input
pipeline with data-dependent shapes; a collate object that only stacks the batch is none."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

TRAIN = """\
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from masks import {collator}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x, idx):
        return torch.gather(self.fc(x), 1, idx.unsqueeze(-1).expand(-1, -1, 8))


def main():
    data = TensorDataset(torch.randn(64, 16, 8))
    loader = DataLoader(data, batch_size=4, collate_fn={collator}(grid=4))
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, idx in loader:
        loss = net(x, idx).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""

MASKS = """\
import torch


class BlockCollator:
    def __init__(self, grid=4):
        self.grid = grid

    def _sample(self):
        size = int(torch.randint(1, self.grid, (1,)))
        mask = torch.zeros(self.grid, self.grid)
        mask[:size, :size] = 1
        return torch.nonzero(mask.flatten()).squeeze(-1)

    def __call__(self, batch):
        x = torch.utils.data.default_collate(batch)
        idx = [self._sample() for _ in batch]
        keep = min(len(i) for i in idx)
        return x, torch.stack([i[:keep] for i in idx])


class StackCollator:
    def __init__(self, grid=4):
        self.grid = grid

    def __call__(self, batch):
        x = torch.utils.data.default_collate(batch)
        return x, torch.arange(self.grid).expand(len(batch), -1)
"""


def _repo(tmp_path: Path, collator: str) -> str:
    (tmp_path / "train.py").write_text(TRAIN.format(collator=collator))
    (tmp_path / "masks.py").write_text(MASKS)
    return str(tmp_path)


def test_a_collate_object_drawing_a_length_per_batch_is_one_input_pipeline(
    tmp_path: Path,
) -> None:
    review = build_review(_repo(tmp_path, "BlockCollator"), jobs=1)
    assert review.effort.input_shape_rewrites == 1
    said = next(e for e in review.effort.explanation if "input pipeline" in e)
    assert "masks.py:BlockCollator._sample" in said
    assert "a length drawn per batch" in said


def test_a_collate_object_of_fixed_shapes_is_no_input_pipeline(tmp_path: Path) -> None:
    review = build_review(_repo(tmp_path, "StackCollator"), jobs=1)
    assert review.effort.input_shape_rewrites == 0
