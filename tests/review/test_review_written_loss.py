"""A loss the training step writes out with torch ops and sums in place over views is a
loss row with its steps and the settings they read; a normalisation's iteration count read
only as the ``range`` of a loop of torch ops inside it is no training length, whatever its
help says (issue 20: a clustering-based self-supervised repository showed no loss at all and
listed its Sinkhorn iterations as the training length)."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

FILES = {
    "train.py": """
        import argparse
        import numpy as np
        import torch
        import torch.nn.functional as F

        parser = argparse.ArgumentParser()
        parser.add_argument('--epochs', type=int, default=100)
        parser.add_argument('--temperature', type=float, default=0.1)
        parser.add_argument('--views', type=int, nargs='+', default=[2, 4])
        parser.add_argument('--balance_iterations', type=int, default=3,
                            help='number of iterations of the balancing normalisation')
        args = parser.parse_args()


        def balance(scores):
            q = torch.exp(scores).t()
            for _ in range(args.balance_iterations):
                q /= torch.sum(q, dim=1, keepdim=True)
                q /= torch.sum(q, dim=0, keepdim=True)
            return q.t()


        def train(loader, model, optimizer):
            for images in loader:
                output = model(images)
                bs = images.size(0) // 2
                loss = 0
                for crop in range(2):
                    with torch.no_grad():
                        q = balance(output[bs * crop: bs * (crop + 1)])
                    subloss = 0
                    for v in range(int(np.sum(args.views))):
                        x = output[bs * v: bs * (v + 1)] / args.temperature
                        subloss -= torch.mean(torch.sum(q * F.log_softmax(x, dim=1), dim=1))
                    loss += subloss / (np.sum(args.views) - 1)
                loss /= 2
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        def main():
            model = torch.nn.Linear(8, 4)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            loader = [torch.zeros(4, 8)]
            for epoch in range(args.epochs):
                train(loader, model, optimizer)


        if __name__ == '__main__':
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    return build_review(str(write_repo(tmp_path_factory.mktemp("written"), FILES)), jobs=1)


def test_a_loss_summed_in_place_from_written_out_terms_is_a_row(review: Review) -> None:
    rows = [i for i in review.recipe if i.category == "loss"]
    assert [i.name for i in rows] == ["loss computed in train"]
    values = dict(rows[0].values)
    assert values["type"].startswith("cross-entropy against soft targets")
    assert values["step 1"].startswith("subloss -= torch.mean(")
    assert values["args.temperature"].startswith("0.1")


def test_an_algorithms_iteration_count_is_no_training_length(review: Review) -> None:
    lengths = {i.name for i in review.recipe if i.category == "epochs"}
    assert "argparse --epochs" in lengths
    assert "argparse --balance_iterations" not in lengths
