"""A seed set in the body of an ``if`` that tests a test or debug flag (``if pytest:
np.random.seed(0)`` before drawing fixed noise to compare with a reference) is that mode's,
not the run's: no seed row. The module's own seed, and one in the ``else`` of such a
test, stay rows."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import os
    import random
    import numpy as np
    import torch

    np.random.seed(0)

    def noise(shape, pytest=False):
        out = torch.randn(shape)
        if pytest:
            np.random.seed(0)
            out = torch.Tensor(np.random.rand(*shape))
        return out

    def jitter(debug=False):
        if debug:
            return 0.0
        else:
            random.seed(7)
        return random.random()

    def main():
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        flag = os.environ.get("PYTEST") is not None
        for i in range(10):
            loss = (model(torch.zeros(1, 2)) + noise((1, 2), flag) * jitter()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    if __name__ == "__main__":
        main()
"""


def test_a_seed_under_a_test_flag_is_no_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    seeds = sorted(str(i.where) for i in review.recipe if i.category == "seed")
    assert seeds == ["train.py:19", "train.py:6"], seeds
