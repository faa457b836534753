"""A model zoo package whose ``__init__`` star-imports every network file, beside a training
script that star-imports the package and builds one network (issue 20 items 4 and 5). The
star imports name nothing by themselves: the other networks, their builder functions and
their uncalled ``test()`` try-outs are not reached, no top models, no rows of the tree and
no effort. A ``torch.load`` reading back the file the training's own ``torch.save`` writes
(a resume) is no released checkpoint to convert; one of a path the user passes is."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_NET = """
import torch
import torch.nn as nn


class Block{n}(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv2d(width, width, 3, padding=1)
        self.bn = nn.BatchNorm2d(width)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class Net{n}(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.blocks = nn.Sequential(*[Block{n}(16) for _ in range(depth)])
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(x.mean((2, 3)))


def Net{n}_small():
    return Net{n}(2)


def Net{n}_large():
    return Net{n}(8)


def test():
    net = Net{n}_large()
    y = net(torch.randn(1, 3, 32, 32))
    print(y.size())
"""

_TRAIN = """
import argparse

import torch
import torch.nn as nn

from models import *

parser = argparse.ArgumentParser()
parser.add_argument('--lr', default=0.1, type=float)
parser.add_argument('--resume', action='store_true')
args = parser.parse_args()

# net = NetA_small()
net = NetB_small()
if args.resume:
    checkpoint = torch.load(LOADED)
    net.load_state_dict(checkpoint['net'])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9)
for epoch in range(10):
    x, y = torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))
    loss = criterion(net(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch.save({'net': net.state_dict()}, './checkpoint/ckpt.pth')
"""


def _repo(tmp_path: Path, loaded: str) -> Path:
    return write_repo(
        tmp_path / "repo",
        {
            "models/__init__.py": "from .a import *\nfrom .b import *\n",
            "models/a.py": _NET.replace("{n}", "A"),
            "models/b.py": _NET.replace("{n}", "B"),
            "train.py": _TRAIN.replace("LOADED", loaded),
        },
    )


def test_only_the_built_network_of_a_star_imported_zoo(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path, "'./checkpoint/ckpt.pth'")), jobs=1)
    assert [t.cls for t in review.top_models] == ["models.b.NetB"]
    # the try-out ``test()`` builds no second copy of the network
    assert not [p for p in review.top_models[0].parts if p[0] == "also built by"]
    classes = {m.cls for m in review.modules}
    assert "models.b.NetB" in classes
    assert not {"models.a.NetA", "models.a.BlockA"} & classes
    # the other network's layers are no network call sites to change
    assert not [g for g in review.gaps if any(w.path == "models/a.py" for w in g.where)]
    # the resume reads the training's own checkpoint back: nothing released to convert
    assert not [i for i in review.work if i.kind == "checkpoint"]


def test_a_checkpoint_the_user_passes_is_converted(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path, "args.weights")), jobs=1)
    assert [i for i in review.work if i.kind == "checkpoint"]


_QUEUE_TRAIN = """
import argparse
import os
import torch

parser = argparse.ArgumentParser()
parser.add_argument('--dump_path', default='.')
parser.add_argument('--weights', default='')
args = parser.parse_args()


def main():
    net = torch.nn.Linear(4, 2)
    queue = None
    queue_path = os.path.join(args.dump_path, 'queue.pth')
    if os.path.isfile(queue_path):
        queue = torch.load(queue_path)['queue']
    last = os.path.join(args.dump_path, 'last.pth')
    if os.path.isfile(os.path.join(args.dump_path, 'last.pth')):
        net.load_state_dict(torch.load(os.path.join(args.dump_path, 'last.pth')))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for epoch in range(10):
        loss = net(torch.zeros(2, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save(net.state_dict(), os.path.join(args.dump_path, 'last.pth'))
        torch.save({'queue': queue}, queue_path)
    print(last)


if __name__ == '__main__':
    main()
"""


def test_a_path_saved_through_a_name_or_a_joined_literal_is_read_back(tmp_path: Path) -> None:
    """``torch.save({'queue': queue}, queue_path)`` and ``torch.load(queue_path)`` in the
    same function, ``os.path.join(args.dump_path, 'last.pth')`` written and read: the
    training's own files, nothing released to convert (issue 20: a self-supervised
    repository's feature queue was listed as a checkpoint to convert)."""
    review = build_review(str(write_repo(tmp_path / "q", {"train.py": _QUEUE_TRAIN})), jobs=1)
    assert not [i for i in review.work if i.kind == "checkpoint"]
    # a file the user names is another matter
    weights = _QUEUE_TRAIN.replace(
        "torch.load(queue_path)['queue']", "torch.load(args.weights)['queue']"
    )
    review = build_review(str(write_repo(tmp_path / "w", {"train.py": weights})), jobs=1)
    assert [i for i in review.work if i.kind == "checkpoint"]


_NPZ_MODEL = """
import torch
import torch.nn as nn


def tf2th(w):
    if w.ndim == 4:
        w = w.transpose([3, 2, 0, 1])
    return torch.from_numpy(w)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(self.conv(x).mean((2, 3)))

    def load_from(self, weights, prefix='net/'):
        with torch.no_grad():
            self.conv.weight.copy_(tf2th(weights[f'{prefix}conv/kernel']))
"""

_NPZ_TRAIN = """
import numpy as np
import torch
from model import Net


def main():
    model = Net()
    model.load_from(np.load('released.npz'))
    stats = np.load('mean_std.npy')
    optimizer = torch.optim.SGD(model.parameters(), lr=0.003, momentum=0.9)
    for _ in range(3):
        loss = model(torch.zeros(2, 3, 8, 8) - float(stats[0])).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == '__main__':
    main()
"""


def test_released_weights_read_from_a_numpy_archive_are_converted(tmp_path: Path) -> None:
    """``model.load_from(np.load('released.npz'))``, the loader copying each array into a
    parameter through a helper: a checkpoint to convert (issue 20: a transfer-learning
    repository's released TensorFlow weights were no work item); a statistics array read
    with ``np.load`` and used as data is none."""
    review = build_review(
        str(write_repo(tmp_path / "npz", {"model.py": _NPZ_MODEL, "train.py": _NPZ_TRAIN})),
        jobs=1,
    )
    items = [i for i in review.work if i.kind == "checkpoint"]
    assert [i.what for i in items] == [
        "weights read from a NumPy archive by the model's own loader: "
        "model.load_from(np.load('released.npz'))"
    ]
    assert [str(w) for w in items[0].where] == ["train.py:8"]
