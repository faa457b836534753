"""A training script whose loop is module code (issue 20 item 1): the learning rate computed
by hand every step (a linear warm-up while a step counter is below a setting, then an
exponential decay) and written into the optimizer's first param group. The schedule is a
recipe row with every statement that runs (the counter changes from pass to pass, so both
sides of the warm-up test run) and the settings it reads; the decay options are the
schedule's, not the training's length."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_SCRIPT = """
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument('--seed', default=0, type=int, help='random seed')
parser.add_argument('--learning_rate', default=0.0004, type=float)
parser.add_argument('--warmup_steps', default=1000, type=int)
parser.add_argument('--decay_rate', default=0.5, type=float,
                    help='Rate for the learning rate decay.')
parser.add_argument('--decay_steps', default=100000, type=int,
                    help='Number of steps for the learning rate decay.')
parser.add_argument('--num_epochs', default=100, type=int)
opt = parser.parse_args()


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=opt.learning_rate)
i = 0
for epoch in range(opt.num_epochs):
    for x in [torch.randn(8, 4)]:
        i += 1
        if i < opt.warmup_steps:
            learning_rate = opt.learning_rate * (i / opt.warmup_steps)
        else:
            learning_rate = opt.learning_rate
        learning_rate = learning_rate * (opt.decay_rate ** (i / opt.decay_steps))
        optimizer.param_groups[0]['lr'] = learning_rate
        loss = model(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_module_level_hand_schedule(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "repo", {"train.py": _SCRIPT})), jobs=1)
    rows = {(r.category, r.name): r for r in review.recipe}
    row = rows[("scheduler", "learning_rate computed by hand in the module code of train.py")]
    values = dict(row.values)
    # both sides of ``if i < opt.warmup_steps`` run: ``i`` counts the steps
    assert values["1"] == "learning_rate = opt.learning_rate * (i / opt.warmup_steps)"
    assert values["2"] == "learning_rate = opt.learning_rate"
    assert values["3"] == (
        "learning_rate = learning_rate * (opt.decay_rate ** (i / opt.decay_steps))"
    )
    assert values["opt.decay_rate"].startswith("0.5 (")
    assert values["opt.warmup_steps"].startswith("1000 (")
    lines = _SCRIPT.lstrip("\n").splitlines()
    written = "        optimizer.param_groups[0]['lr'] = learning_rate"
    assert row.where.line == lines.index(written) + 1
    # the decay options are the schedule's settings (its row shows them), not the
    # training's length
    assert values["opt.decay_steps"].startswith("100000 (")
    assert ("epochs", "argparse --decay_steps") not in rows
    assert ("epochs", "argparse --num_epochs") in rows
