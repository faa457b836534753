"""An LR computed into a name by one formula of the step counter, then written into each
param group in the training loop (``new_lr = args.lr * (0.1 ** (global_step /
decay_steps))``, ``for g in optimizer.param_groups: g['lr'] = new_lr``), is the run's LR
schedule: an exponential decay written by hand, with the settings it reads. A formula that
reads no step (``lr = args.lr * world_size`` set again each step) is no schedule."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--lrate", type=float, default=5e-4)
        parser.add_argument("--lrate_decay", type=int, default=250)
        parser.add_argument("--world", type=int, default=2)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=args.lrate)
        global_step = 0
        for i in range(1000):
            loss = model(torch.zeros(1, 2)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            decay_rate = 0.1
            decay_steps = args.lrate_decay * 1000
            {formula}
            for param_group in optimizer.param_groups:
                param_group['lr'] = new_lrate
            global_step += 1

    if __name__ == "__main__":
        main()
"""


def _rows(tmp_path, formula: str) -> list:
    root = write_repo(tmp_path, {"train.py": TRAIN.replace("{formula}", formula)})
    return [i for i in build_review(str(root), jobs=1).recipe if i.category == "scheduler"]


def test_an_lr_formula_of_the_step_written_into_the_groups_is_the_schedule(tmp_path) -> None:
    rows = _rows(tmp_path, "new_lrate = args.lrate * (decay_rate ** (global_step / decay_steps))")
    assert [r.name for r in rows] == ["LR set by hand in main"], rows
    values = dict(rows[0].values)
    assert values["formula"] == "args.lrate * (decay_rate ** (global_step / decay_steps))"
    assert values["args.lrate"].startswith("5e-4")
    assert values["decay_steps"].startswith("250000")
    assert str(rows[0].where) == "train.py:20"


def test_an_lr_formula_that_reads_no_step_is_no_schedule(tmp_path) -> None:
    assert _rows(tmp_path, "new_lrate = args.lrate * args.world") == []
