"""A schedule function's per-step values written into the optimizer's weight decay are a
weight-decay schedule: their own row, not the LR schedule's."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RECIPE_CATEGORIES
from apiscan.review.recipe import extract_recipe

UTILS = """
    def cosine_scheduler(base_value, final_value, epochs, niter_per_ep):
        return [base_value] * (epochs * niter_per_ep) + [final_value]
    """

ENGINE = """
    def train_one_epoch(model, optimizer, loader, lr_values, {wd}):
        for it, batch in enumerate(loader):
            for param_group in optimizer.param_groups:
                param_group["lr"] = lr_values[it]
                param_group["weight_decay"] = {wd}[it]
            optimizer.step()
    """

TRAIN = """
    import argparse
    import torch
    import utils
    from engine import train_one_epoch

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", default=4e-3, type=float)
        parser.add_argument("--weight_decay", default=0.05, type=float)
        parser.add_argument("--epochs", default=300, type=int)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        loader = [1, 2]
        lr_values = utils.cosine_scheduler(args.lr, 1e-6, args.epochs, len(loader))
        {wd} = utils.cosine_scheduler({base}, 0.4, args.epochs, len(loader))
        train_one_epoch(model, optimizer, loader, lr_values, {wd})

    main()
    """


def schedules(root: Path, wd: str, base: str) -> dict[str, str]:
    write_repo(
        root,
        {
            "utils.py": UTILS,
            "engine.py": ENGINE.format(wd=wd),
            "train.py": TRAIN.format(wd=wd, base=base),
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    items = extract_recipe(result, analyses, root)
    return {i.note: i.category for i in items if i.name == "utils.cosine_scheduler"}


def test_named_for_the_weight_decay(tmp_path: Path) -> None:
    rows = schedules(tmp_path, "wd_schedule_values", "0.04")
    assert rows == {
        "stored as lr_values, defined at utils.py:1": "scheduler",
        "stored as wd_schedule_values, the weight decay's per-step values, defined at "
        "utils.py:1": "wd_schedule",
    }
    assert RECIPE_CATEGORIES["wd_schedule"] == "Weight-decay schedule"


def test_written_into_the_param_groups_weight_decay(tmp_path: Path) -> None:
    """A neutral name, and a constant start: what it is written into decides."""
    rows = schedules(tmp_path, "decay_values", "0.04")
    assert rows == {
        "stored as lr_values, defined at utils.py:1": "scheduler",
        "stored as decay_values, written into the param groups' weight decay at engine.py:5, "
        "defined at utils.py:1": "wd_schedule",
    }


def test_starting_from_the_weight_decay(tmp_path: Path) -> None:
    """Not written into any slot the scan sees, but its base value is the weight decay."""
    write_repo(
        tmp_path,
        {
            "utils.py": UTILS,
            "train.py": """
                import argparse
                import utils

                parser = argparse.ArgumentParser()
                parser.add_argument("--weight_decay", default=0.05, type=float)
                args = parser.parse_args()
                lr_sched = utils.cosine_scheduler(1e-3, 1e-6, 100, 10)
                reg_sched = utils.cosine_scheduler(args.weight_decay, 0.4, 100, 10)
                """,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    items = extract_recipe(result, analyses, tmp_path)
    rows = {i.note: i.category for i in items if i.name == "utils.cosine_scheduler"}
    assert rows == {
        "stored as lr_sched, defined at utils.py:1": "scheduler",
        "stored as reg_sched, starting from args.weight_decay, defined at utils.py:1": (
            "wd_schedule"
        ),
    }
