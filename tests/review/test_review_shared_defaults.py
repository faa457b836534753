"""A definition two training scripts share (issue 20): both build their parser from one
defaults dict (the second through a function extending it), and the README launches one
with ``--steps 4000``. The option is one row at its definition, saying what the documented
command launched, not a second row saying less."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

SCRIPT = """
import argparse

import torch

from lib.util import add_args, defaults


def main():
    parser = argparse.ArgumentParser()
    add_args(parser, defaults())
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for _ in range(args.steps):
        loss = model(torch.randn(2, 4)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""

FILES = {
    "lib/__init__.py": "",
    "lib/util.py": """
def defaults():
    return dict(steps=1000, schedule="linear")


def sr_defaults():
    res = defaults()
    res["large_size"] = 256
    return res


def add_args(parser, values):
    for key, value in values.items():
        parser.add_argument(f"--{key}", default=value, type=type(value))
""",
    "scripts/image_train.py": SCRIPT,
    "scripts/super_res_train.py": SCRIPT.replace("defaults", "sr_defaults"),
    "README.md": "# t\n\n```\npython scripts/image_train.py --steps 4000 --lr 1e-4\n```\n",
}


def test_a_shared_option_is_one_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)))
    rows = [r for r in review.recipe if r.name == "argparse --steps"]
    assert len(rows) == 1, [r.values for r in rows]


def test_a_row_another_at_the_same_place_says_in_full_is_dropped() -> None:
    from apiscan.review.build import _without_subsumed
    from apiscan.review.model import RecipeItem, Where

    at = Where("lib/util.py", 2)
    launched = RecipeItem(
        "epochs", "argparse --steps", at, (("default", "1000"), ("launched", "4000"))
    )
    plain = RecipeItem("epochs", "argparse --steps", at, (("default", "1000"),))
    elsewhere = RecipeItem("epochs", "argparse --steps", Where("b.py", 9), (("default", "1"),))
    other = RecipeItem("loss", "argparse --steps", at, (("default", "1000"),))
    same = RecipeItem("epochs", "argparse --steps", at, (("default", "1000"), ("launched", "4000")))
    rows = (plain, launched, elsewhere, other, same)
    assert _without_subsumed(rows) == (launched, elsewhere, other)
