"""Placeholders in a documented command that are capitalised names joined by underscores
or bracketed words (``train.py --batch BATCH_SIZE LMDB_PATH``, ``--ckpt [CHECKPOINT]``)
give the option no value: the recipe keeps the argparse default, never the placeholder."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.commands import Launch


def test_capitalised_and_bracketed_placeholders_give_no_value() -> None:
    """``--batch BATCH_SIZE LMDB_PATH`` (a README's command: the reader fills both in, the
    second the positional dataset path): the option keeps its default; a real value before
    a positional's placeholder is the option's alone."""

    def given(*words: str) -> tuple[str, ...] | None:
        return Launch("README.md", 1, words).given(("--batch",))

    assert given("--batch", "BATCH_SIZE", "LMDB_PATH") is None
    assert given("--batch", "[BATCH]") is None
    assert given("--batch=N_BATCH") is None
    assert given("--batch", "16", "LMDB_PATH") == ("16",)
    assert given("--batch", "16") == ("16",)
    # an optional flag in brackets after the value is the next option, not a second value
    assert given("--batch", "2", "[--use-checkpoint]") == ("2",)
    # an ordinary capitalised value is a value
    assert Launch("README.md", 1, ("--optim", "SGD")).given(("--optim",)) == ("SGD",)


def test_a_placeholder_batch_size_in_the_readme_is_no_recipe_value(tmp_path: Path) -> None:
    files = {
        "README.md": "```\npython train.py --batch BATCH_SIZE DATA_PATH\n```\n",
        "train.py": """
            import argparse

            import torch
            from torch.utils.data import DataLoader, TensorDataset

            if __name__ == "__main__":
                parser = argparse.ArgumentParser()
                parser.add_argument("path", type=str)
                parser.add_argument("--batch", type=int, default=16)
                args = parser.parse_args()
                net = torch.nn.Linear(4, 1)
                opt = torch.optim.SGD(net.parameters(), lr=0.1)
                data = TensorDataset(torch.randn(64, 4))
                for (x,) in DataLoader(data, batch_size=args.batch, drop_last=True):
                    loss = net(x).mean()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    shown = " ".join(v for r in review.recipe for _, v in r.values)
    assert "BATCH_SIZE" not in shown
    (batch,) = [r for r in review.recipe if r.category == "batch_size"]
    assert batch.values == (("default", "16"),)
