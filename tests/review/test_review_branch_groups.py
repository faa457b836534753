"""Parameter groups built in one branch of an option and ``model.parameters()`` in the other
(``if args.fix_pred_lr: optim_params = [{...}, {..., 'fix_lr': True}] else: optim_params =
model.parameters()``): the optimizer row shows the groups when the documented run takes that
branch, and no groups when the run leaves the option off (issue 20 point 1)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch
    import torch.nn as nn


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--fix-pred-lr', action='store_true')
        args = parser.parse_args()
        encoder = nn.Linear(2, 2)
        predictor = nn.Linear(2, 2)
        model = nn.Sequential(encoder, predictor)
        if args.fix_pred_lr:
            optim_params = [{'params': encoder.parameters(), 'fix_lr': False},
                            {'params': predictor.parameters(), 'fix_lr': True}]
        else:
            optim_params = model.parameters()
        optimizer = torch.optim.SGD(optim_params, 0.05, momentum=0.9)
        for x in range(10):
            loss = model(torch.ones(2)).sum()
            loss.backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""
README = """
    # Siamese

    ```
    python train.py --fix-pred-lr
    ```
"""


def _optimizer(root: Path) -> dict[str, str]:
    review = build_review(str(root), jobs=1)
    (row,) = [i for i in review.recipe if i.name == "torch.optim.SGD"]
    return dict(row.values)


def test_the_documented_runs_branch_gives_the_groups(tmp_path: Path) -> None:
    values = _optimizer(write_repo(tmp_path, {"train.py": TRAIN, "README.md": README}))
    assert values["params"] == "2 parameter groups"
    assert values["group 2: fix_lr"] == "True"


def test_with_the_option_off_there_are_no_groups(tmp_path: Path) -> None:
    values = _optimizer(write_repo(tmp_path, {"train.py": TRAIN}))
    # INVALID: the groups of the branch the defaults skip
    assert values["params"].startswith("model.parameters() (optim_params set at train.py:")
    assert not [k for k in values if k.startswith("group ")]
