"""A value every branch of the following ``if`` wraps (``model =
DistributedDataParallel(model)`` after ``model = SyncBatchNorm.convert_sync_batchnorm(
model)``) is used, not replaced: its row stays in the recipe (issue 20 point 1)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import argparse
        import torch
        import torch.nn as nn


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--gpu', default=None, type=int)
            parser.add_argument('--smooth', action='store_true')
            args = parser.parse_args()
            model = nn.Linear(2, 2)
            model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
            if args.gpu is not None:
                model = nn.parallel.DistributedDataParallel(model, device_ids=[args.gpu])
            else:
                model = nn.parallel.DistributedDataParallel(model)
            criterion = nn.MSELoss()
            if args.smooth:
                criterion = nn.SmoothL1Loss()
            else:
                criterion = nn.L1Loss()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for x in range(10):
                loss = criterion(model(torch.ones(2)), torch.zeros(2))
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_a_value_each_branch_wraps_is_no_replaced_value(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    names = {i.name for i in review.recipe}
    # VALID: the conversion the wrappers take in
    assert "torch.nn.SyncBatchNorm.convert_sync_batchnorm" in names
    # INVALID: a loss every branch replaces with another is still none of the run's
    assert "torch.nn.MSELoss" not in names
    assert "torch.nn.L1Loss" in names
