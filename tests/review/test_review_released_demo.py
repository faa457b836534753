"""A root script whose name only looks like a test module (``run_test.py``: a main guard,
argparse, no test function) is a tool, not the repository's tests; the released checkpoint
it loads (and a demo's) joins the checkpoint item the training's resume load makes: one
conversion, the released file's place named, and not the training recipe's row."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
"""

TRAIN = """
import argparse
import torch
from model import Net


def main(args):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    if args.resume:
        checkpoint = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(checkpoint["model"])
    for _ in range(10):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save({"model": model.state_dict()}, "latest.pth")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--resume", default="")
    main(p.parse_args())
"""

RUN_TEST = """
import argparse
import torch
from model import Net


def main(args):
    model = Net()
    checkpoint = torch.load(args.weight_path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    model.eval()
    print(model(torch.zeros(1, 4)))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--weight_path", default="weights/net.pth")
    main(p.parse_args())
"""

UNIT_TEST = """
import torch
from model import Net


def test_shape():
    assert Net()(torch.zeros(1, 4)).shape == (1, 2)


if __name__ == "__main__":
    test_shape()
"""


def test_a_script_named_like_a_test_loads_the_released_checkpoint(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "model.py": MODEL,
            "train.py": TRAIN,
            "run_test.py": RUN_TEST,
            "model_test.py": UNIT_TEST,
        },
    )
    review = build_review(str(root))
    apart = dict(review.ancillary)
    assert apart.get("run_test.py") == "tools"  # a tool beside the training, not tests
    assert "model_test.py" not in apart  # a real test module: tests, never listed
    (item,) = [i for i in review.work if i.kind == "checkpoint"]
    assert [str(w) for w in item.where] == ["train.py:10", "run_test.py:8"]
    assert "released checkpoint is loaded at run_test.py:8" in item.why
    # the training recipe's row stays the training's own load
    (row,) = [r for r in review.recipe if r.category == "checkpoint"]
    assert str(row.where) == "train.py:10"
