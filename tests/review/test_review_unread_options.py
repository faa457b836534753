"""A command-line option nothing reads (``--weight_decay`` declared, the optimizer built
with ``lr`` only) sets nothing the run uses: no recipe row. Read by name, through a string,
through ``vars(args)`` or by a function the repository does not define, it keeps its row."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
import argparse
import torch
import torch.nn as nn
{imports}

def get_args_parser():
    parser = argparse.ArgumentParser("train", add_help=False)
    parser.add_argument("--lr", default=1e-4, type=float)
    parser.add_argument("--weight_decay", default=1e-4, type=float)
    parser.add_argument("--batch_size", default=8, type=int)
    return parser


def main(args):
    print(args)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    {extra}
    for _ in range(10):
        x = torch.randn(args.batch_size, 4)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser("train", parents=[get_args_parser()])
    main(parser.parse_args())
"""


def _rows(tmp_path: Path, name: str, imports: str = "", extra: str = "") -> set[str]:
    root = write_repo(tmp_path / name, {"train.py": TRAIN.format(imports=imports, extra=extra)})
    return {r.name for r in build_review(str(root)).recipe}


def test_an_option_nothing_reads_is_no_recipe_row(tmp_path: Path) -> None:
    rows = _rows(tmp_path, "unread")
    assert "argparse --lr" in rows
    assert "argparse --batch_size" in rows
    assert "argparse --weight_decay" not in rows


def test_an_option_read_whole_or_by_a_library_keeps_its_row(tmp_path: Path) -> None:
    # the options read as a dict: any key may be read
    assert "argparse --weight_decay" in _rows(tmp_path, "vars", extra="cfg = vars(args)")
    # handed to a function another package defines, which may read any of them
    assert "argparse --weight_decay" in _rows(
        tmp_path,
        "lib",
        imports="from somelib import make_scheduler",
        extra="sched = make_scheduler(args, optimizer)",
    )
    # read by name through getattr
    assert "argparse --weight_decay" in _rows(
        tmp_path, "named", extra='wd = getattr(args, "weight_decay")'
    )
