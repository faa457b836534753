"""An option whose name says nothing of a learning rate (``--f_lr``, ``--head_rate``) read
in the ``lr=`` of a ``torch.optim`` optimizer, whole or as one branch of a conditional, is
an optimizer setting of the recipe; one read elsewhere is not."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch


    def train(args):
        nets = {'mapping': torch.nn.Linear(4, 4), 'generator': torch.nn.Linear(4, 4)}
        optims = {}
        for name, net in nets.items():
            optims[name] = torch.optim.Adam(
                net.parameters(), lr=args.head_rate if name == 'mapping' else args.lr
            )
        for _ in range(args.total_iters):
            loss = sum(net(torch.zeros(2, 4)).mean() for net in nets.values())
            loss.backward()
            for o in optims.values():
                o.step()
        print(args.other_rate)


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--lr', type=float, default=1e-4)
        parser.add_argument('--head_rate', type=float, default=1e-6)
        parser.add_argument('--other_rate', type=float, default=0.5)
        parser.add_argument('--total_iters', type=int, default=100)
        train(parser.parse_args())
"""


def test_an_option_read_in_an_optimizers_lr_is_an_optimizer_row(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "repo", {"train.py": TRAIN})), jobs=1)
    rows = {r.name: r.category for r in review.recipe}
    assert rows.get("argparse --head_rate") == "optimizer"
    assert "argparse --other_rate" not in rows
