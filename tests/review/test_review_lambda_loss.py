"""A loss written as a lambda at the top of a helper module the training script
star-imports (``img2mse = lambda x, y: torch.mean((x - y) ** 2)``), summed over two
outputs in the step (``loss = img_loss``, then ``loss = loss + img_loss0``): one loss row
per term, each an L2 with the lambda's body and place, the held term named for the local
that holds it."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

HELPERS = """
    import torch

    img2mse = lambda x, y: torch.mean((x - y) ** 2)
    half = lambda x: x * 0.5
"""

TRAIN = """
    import torch
    from helpers import *

    def train():
        fine = torch.nn.Linear(2, 3)
        coarse = torch.nn.Linear(2, 3)
        params = list(fine.parameters()) + list(coarse.parameters())
        optimizer = torch.optim.Adam(params, lr=5e-4)
        for i in range(100):
            x, target = torch.zeros(4, 2), torch.zeros(4, 3)
            img_loss = img2mse(fine(x), target)
            loss = img_loss
            img_loss0 = img2mse(half(coarse(x)), target)
            loss = loss + img_loss0
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    if __name__ == "__main__":
        train()
"""


def test_a_lambda_loss_of_a_star_imported_module_is_each_term_s_row(tmp_path) -> None:
    root = write_repo(tmp_path, {"helpers.py": HELPERS, "train.py": TRAIN})
    rows = {i.name: dict(i.values) for i in build_review(str(root), jobs=1).recipe
            if i.category == "loss"}  # fmt: skip
    assert sorted(rows) == ["term img_loss", "term img_loss0"], rows
    assert rows["term img_loss"]["type"] == "L2 (mean squared difference)"
    assert rows["term img_loss"]["defined"] == "torch.mean((x - y) ** 2) (helpers.py:3)"
    assert rows["term img_loss0"]["term"] == "img2mse(half(coarse(x)), target)"
