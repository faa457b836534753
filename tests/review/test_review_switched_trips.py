"""A host round trip only a switch off by default runs is no cost of the run: an oracle
evaluation's copies in the loss (``if opt.eval_oracle: out = torch.from_numpy(
oracle(batch.detach().cpu().numpy()))``, ``--eval_oracle`` a ``store_true`` flag no
documented command passes) never happen in the training; the same copies with the flag
passed by the README's training command, or unconditional ones, stay work items."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

LOSS = """
    import numpy as np
    import torch
    from torch import nn


    def oracle_map(target):
        out = np.zeros_like(target)
        out[target > 0] = 1.0
        return out


    class HeatLoss(nn.Module):
        def __init__(self, opt):
            super().__init__()
            self.opt = opt

        def forward(self, output, batch):
            opt = self.opt
            if opt.eval_oracle:
                output = torch.from_numpy(oracle_map(batch.detach().cpu().numpy())).to(
                    output.device
                )
            return ((output - batch) ** 2).mean()
"""

TRAIN = """
    import argparse

    import torch
    from torch import nn

    from loss import HeatLoss


    def main(opt):
        net = nn.Conv2d(3, 1, 3, padding=1)
        crit = HeatLoss(opt)
        optimizer = torch.optim.Adam(net.parameters(), lr=opt.lr)
        for _ in range(10):
            x = torch.randn(2, 3, 8, 8)
            loss = crit(net(x), torch.rand(2, 1, 8, 8))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default=1e-3)
        parser.add_argument("--eval_oracle", action="store_true")
        main(parser.parse_args())
"""


def _review(tmp_path_factory: pytest.TempPathFactory, name: str, command: str):  # type: ignore[no-untyped-def]
    files = {
        "README.md": f"# Heat\n\n```\n{command}\n```\n",
        "loss.py": LOSS,
        "train.py": TRAIN,
    }
    return build_review(str(write_repo(tmp_path_factory.mktemp(name), files)))


def _trips(review) -> list[str]:  # type: ignore[no-untyped-def]
    return [i.what for i in review.work if i.kind == "host-round-trip"]


def test_a_trip_only_a_switch_off_by_default_runs_is_no_work(tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    review = _review(tmp_path_factory, "tripoff", "python train.py --lr 0.01")
    assert _trips(review) == []


def test_the_same_trip_with_the_switch_on_in_the_documented_run_is_work(tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    review = _review(tmp_path_factory, "tripon", "python train.py --lr 0.01 --eval_oracle")
    assert any(w.startswith("HeatLoss.forward") for w in _trips(review))
