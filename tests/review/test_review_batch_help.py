"""An option named for nothing the recipe knows whose help starts by saying it is the batch
size (``--N_rand``: "batch size (number of random rays per gradient step)") is the batch-size
row; one whose help says it is the evaluation's batch is not, nor one beside an option
named for the batch size (``--master_batch_size``, "batch size on the master gpu", beside
``--batch_size``)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    def train():
        parser = argparse.ArgumentParser()
        parser.add_argument("--N_rand", type=int, default=32*32*4,
                            help="batch size (number of random rays per gradient step)")
        parser.add_argument("--chunk_eval", type=int, default=64,
                            help="batch size for evaluation")
        args = parser.parse_args()
        model = torch.nn.Linear(2, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for i in range(100):
            loss = model(torch.zeros(args.N_rand, 2)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(model(torch.zeros(args.chunk_eval, 2)))

    if __name__ == "__main__":
        train()
"""


def test_an_option_whose_help_says_batch_size_is_the_batch_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"train.py": TRAIN})), jobs=1)
    rows = [(i.name, dict(i.values)) for i in review.recipe if i.category == "batch_size"]
    assert rows == [("argparse --N_rand", {"default": "32*32*4"})], rows


def test_a_named_batch_option_leaves_the_help_of_another_aside(tmp_path) -> None:
    named = TRAIN.replace(
        'parser.add_argument("--chunk_eval"',
        'parser.add_argument("--batch_size", type=int, default=8)\n'
        '        parser.add_argument("--chunk_eval"',
    )
    review = build_review(str(write_repo(tmp_path, {"train.py": named})), jobs=1)
    rows = [i.name for i in review.recipe if i.category == "batch_size"]
    assert rows == ["argparse --batch_size"], rows
