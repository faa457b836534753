"""A composition whose list is grown with ``+=`` (``t = []``, ``t += [RandomResizedCrop(...)]``,
``if flip: t += [RandomHorizontalFlip()]``, ``t += [ToTensor()]``, then ``Compose(t)`` stored
and returned by a builder) is one row with those steps in order, each ``+=`` under a test
marked with it; not a row saying the empty list it starts from."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

TRANSFORMS = """\
import torchvision.transforms as transforms


def make_transforms(crop_size=224, crop_scale=(0.3, 1.0), horizontal_flip=False):
    transform_list = []
    transform_list += [transforms.RandomResizedCrop(crop_size, scale=crop_scale)]
    if horizontal_flip:
        transform_list += [transforms.RandomHorizontalFlip()]
    transform_list += [transforms.ToTensor()]
    transform = transforms.Compose(transform_list)
    return transform
"""

TRAIN = """\
import sys

import torch
from torch import nn
from torchvision.datasets import ImageFolder

from transforms import make_transforms


def main(flip):
    data = ImageFolder("data", transform=make_transforms(horizontal_flip=flip))
    loader = torch.utils.data.DataLoader(data, batch_size=8)
    net = nn.Linear(8, 2)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.cross_entropy(net(x.flatten(1)[:, :8]), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main(len(sys.argv) > 1)
"""


def test_a_list_grown_with_augmented_assignments_is_composed_in_order(tmp_path: Path) -> None:
    (tmp_path / "transforms.py").write_text(TRANSFORMS)
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    rows = [i for i in review.recipe if i.name == "composition in make_transforms"]
    assert len(rows) == 1
    steps = [v for k, v in rows[0].values if k.isdigit()]
    assert [s.partition("(")[0] for s in steps] == [
        "RandomResizedCrop",
        "RandomHorizontalFlip",
        "ToTensor",
    ]
    assert steps[1].endswith("(if horizontal_flip)")
    assert all(s != "[]" for s in steps)
