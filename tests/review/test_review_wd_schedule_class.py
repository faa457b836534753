"""A schedule class written by hand whose ``step`` writes the param groups' weight decay
(``group['weight_decay'] = new_wd``) and never their LR is the weight decay's schedule, not
an LR schedule; its sibling writing ``group['lr']`` stays the LR's."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

SCHEDULERS = """\
import math


class WarmupCosineSchedule:
    def __init__(self, optimizer, ref_lr, T_max):
        self.optimizer = optimizer
        self.ref_lr = ref_lr
        self.T_max = T_max
        self._step = 0

    def step(self):
        self._step += 1
        new_lr = self.ref_lr * 0.5 * (1.0 + math.cos(math.pi * self._step / self.T_max))
        for group in self.optimizer.param_groups:
            group['lr'] = new_lr
        return new_lr


class CosineWDSchedule:
    def __init__(self, optimizer, ref_wd, final_wd, T_max):
        self.optimizer = optimizer
        self.ref_wd = ref_wd
        self.final_wd = final_wd
        self.T_max = T_max
        self._step = 0

    def step(self):
        self._step += 1
        progress = self._step / self.T_max
        span = self.ref_wd - self.final_wd
        new_wd = self.final_wd + span * 0.5 * (1.0 + math.cos(math.pi * progress))
        for group in self.optimizer.param_groups:
            if not group.get('WD_exclude'):
                group['weight_decay'] = new_wd
        return new_wd
"""

TRAIN = """\
import torch
from torch import nn

from schedulers import CosineWDSchedule, WarmupCosineSchedule


def main():
    net = nn.Linear(8, 8)
    opt = torch.optim.AdamW(net.parameters())
    scheduler = WarmupCosineSchedule(opt, ref_lr=1e-3, T_max=100)
    wd_scheduler = CosineWDSchedule(opt, ref_wd=0.04, final_wd=0.4, T_max=100)
    for _ in range(100):
        scheduler.step()
        wd_scheduler.step()
        loss = net(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_a_schedule_class_writing_only_the_weight_decay_is_its_schedule(tmp_path: Path) -> None:
    (tmp_path / "schedulers.py").write_text(SCHEDULERS)
    (tmp_path / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    rows = {i.name.rpartition(".")[2]: i.category for i in review.recipe}
    assert rows.get("CosineWDSchedule") == "wd_schedule"
    assert rows.get("WarmupCosineSchedule") == "scheduler"


UTILS = """\
import numpy as np


class CosineScheduler:
    def __init__(self, base_value, final_value, total_iters):
        iters = np.arange(total_iters)
        self.schedule = final_value + 0.5 * (base_value - final_value) * (
            1 + np.cos(np.pi * iters / len(iters))
        )

    def __getitem__(self, it):
        return self.schedule[it]
"""

TRAIN_SHARED = """\
import torch
from torch import nn

from utils import CosineScheduler


def main():
    net = nn.Linear(8, 8)
    opt = torch.optim.AdamW(net.parameters())
    lr_schedule = CosineScheduler(base_value=1e-3, final_value=1e-6, total_iters=100)
    wd_schedule = CosineScheduler(base_value=0.04, final_value=0.4, total_iters=100)
    teacher_temp_schedule = CosineScheduler(base_value=0.04, final_value=0.07, total_iters=100)
    for it in range(100):
        for group in opt.param_groups:
            group["lr"] = lr_schedule[it]
            group["weight_decay"] = wd_schedule[it]
        loss = (net(torch.randn(4, 8)) / teacher_temp_schedule[it]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_one_schedule_class_is_the_schedule_of_what_it_is_stored_as(tmp_path: Path) -> None:
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "train.py").write_text(TRAIN_SHARED)
    review = build_review(str(tmp_path), jobs=1)
    rows = {i.where.line: i.category for i in review.recipe if i.name.endswith("CosineScheduler")}
    assert rows == {10: "scheduler", 11: "wd_schedule", 12: "anneal"}
