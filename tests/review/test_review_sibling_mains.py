"""Two scripts side by side, each with its own ``main()`` (a pre-training script and a
linear-evaluation script, issue 20): the evaluation script's call of its own ``main`` is no
call of the training script's, so the training script's functions that nothing calls by
name (the worker ``torch.multiprocessing.spawn`` runs) are not an unbuilt variant of a
module whose siblings other files call: its checkpoint resume is a work item."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

WORKER = """
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--checkpoint", default="run/checkpoint.pth")


def main():
    args = parser.parse_args()
    torch.multiprocessing.spawn(main_worker, (args,), nprocs=2)


def main_worker(gpu, args):
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    ckpt = torch.load(args.checkpoint, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    for _ in range(10):
        loss = model(torch.randn(4, 8)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""

FILES = {"main.py": WORKER, "evaluate.py": WORKER.replace("run/checkpoint.pth", "lin/ck.pth")}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("siblingmains"), FILES)))


def test_each_scripts_spawned_worker_loads_its_checkpoint(review) -> None:
    (item,) = [w for w in review.work if w.kind == "checkpoint"]
    assert {(w.path, w.line) for w in item.where} >= {("main.py", 19)}
