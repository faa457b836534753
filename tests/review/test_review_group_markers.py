"""A parameter group's key no torch optimizer reads (``'WD_exclude': True``, which the
repository's weight-decay schedule tests) is the repository's own marker: the optimizer row
says so, and does not ask for one optimizer per group as it does for a per-group setting
MindSpore's groups lack (``betas``)."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

TRAIN = """\
import torch
from torch import nn


def main():
    net = nn.Linear(8, 8)
    param_groups = [
        {'params': [net.weight]},
        {'params': [net.bias], 'WD_exclude': True, 'weight_decay': 0, 'betas': (0.9, 0.95)},
    ]
    opt = torch.optim.AdamW(param_groups)
    for _ in range(10):
        for group in opt.param_groups:
            if not group.get('WD_exclude'):
                group['weight_decay'] = 0.05
        loss = net(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_a_group_key_no_optimizer_reads_is_the_repositorys_marker(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    optimizer = next(i for i in review.recipe if i.category == "optimizer")
    assert "no group key for betas there: one optimizer per group" in optimizer.note
    assert "WD_exclude: the repository's own key, no optimizer setting" in optimizer.note
