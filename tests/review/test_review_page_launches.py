"""The training commands of a Markdown page at the root (a ``TRAINING.md`` the README sends
its reader to) give the recipe the values the documented runs pass, as a shell script's
commands do; an evaluation command (``--eval true``) is no training run; a page of many
runs counts them by value."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.commands import launches

TRAIN = """
    import argparse
    import torch

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", default=64, type=int)
        parser.add_argument("--lr", default=1e-3, type=float)
        parser.add_argument("--eval", default=False, type=bool)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
        loader = torch.utils.data.DataLoader(list(range(8)), batch_size=args.batch_size)
        for x in loader:
            model(x).sum().backward()
            opt.step()

    main()
    """

README = """
    # Net

    See TRAINING.md for training. Evaluate with:

    ```
    python main.py --eval true --batch_size 8
    ```
    """


def _page(runs: int) -> str:
    blocks = [
        "\n```\npython -m torch.distributed.launch --nproc_per_node=8 main.py \\\n"
        f"  --batch_size {128 if n == 0 else 32} --lr 4e-3\n```\n"
        for n in range(runs)
    ]
    return "# Training\n" + "".join(blocks)


def _batch_row(review) -> dict[str, str]:
    [row] = [i for i in review.recipe if i.name == "argparse --batch_size"]
    return dict(row.values)


def test_a_pages_training_command_gives_the_runs_value(tmp_path: Path) -> None:
    write_repo(tmp_path, {"main.py": TRAIN, "README.md": README, "TRAINING.md": _page(2)})
    runs = launches(tmp_path, "main.py")
    # the README's evaluation is not a run of the training
    assert [(r.path, r.line) for r in runs] == [("TRAINING.md", 4), ("TRAINING.md", 9)]
    review = build_review(str(tmp_path), jobs=1)
    assert _batch_row(review) == {
        "default": "64",
        "launched": "128 (TRAINING.md:4 (run batch_size=128); later runs: batch_size=32 32)",
    }


def test_many_runs_are_counted_by_value(tmp_path: Path) -> None:
    write_repo(tmp_path, {"main.py": TRAIN, "README.md": README, "TRAINING.md": _page(8)})
    review = build_review(str(tmp_path), jobs=1)
    assert _batch_row(review) == {
        "default": "64",
        "launched": "128 (TRAINING.md:4; 8 runs of TRAINING.md: 128 in 1, 32 in 7)",
    }
