"""An option whose help says it counts training steps but that only bounds an ``if step <
X:`` test in the loop (``--precrop_iters``, "number of steps to train on central crops":
``if i < args.precrop_iters:`` picks centre crops for the first steps) is how long a first
phase lasts, not the training's length: no training-length row. One the loop stops at
(``if step >= args.max_steps: break``) stays the length."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    def train():
        parser = argparse.ArgumentParser()
        parser.add_argument("--precrop_iters", type=int, default=500,
                            help="number of steps to train on central crops")
        parser.add_argument("--budget", type=int, default=9000,
                            help="number of training steps")
        args = parser.parse_args()
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for i in range(10 ** 9):
            if i < args.precrop_iters:
                x = torch.zeros(4, 2)
                print(f"centre crops until {args.precrop_iters}")
            else:
                x = torch.ones(4, 2)
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i >= args.budget:
                break

    if __name__ == "__main__":
        train()
"""


def test_an_option_bounding_a_first_phase_is_no_training_length(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    lengths = [i.name for i in review.recipe if i.category == "epochs"]
    assert lengths == ["argparse --budget"], lengths
