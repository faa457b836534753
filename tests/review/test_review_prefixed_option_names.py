"""The batch size and training length under the names a hand-written recommender trainer
gives them (``--mini-batch-size``, ``--nepochs``, beside ``--test-mini-batch-size`` for its
evaluation) are the recipe's batch-size and training-length rows."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    def run():
        parser = argparse.ArgumentParser()
        parser.add_argument("--mini-batch-size", type=int, default=128)
        parser.add_argument("--test-mini-batch-size", type=int, default=-1)
        parser.add_argument("--nepochs", type=int, default=3)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        k = 0
        while k < args.nepochs:
            for j in range(10):
                x = torch.zeros(args.mini_batch_size, 2)
                loss = model(x).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            k += 1

    if __name__ == "__main__":
        run()
"""


def test_mini_batch_size_and_nepochs_are_batch_and_length_rows(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    rows = {(i.category, i.name): dict(i.values) for i in review.recipe}
    assert rows[("batch_size", "argparse --mini-batch-size")]["default"] == "128"
    assert rows[("epochs", "argparse --nepochs")]["default"] == "3"
    assert not any("test-mini-batch-size" in name for _, name in rows)
