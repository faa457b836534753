"""A schedule builder's branches the run's values never take (issue 20 item 1): Swin-like
``build_scheduler`` building a cosine, a linear or a step schedule by the config's
``LR_SCHEDULER.NAME`` (``cosine`` by default). The row shows the steps that run, names the
tests of the branches left out, and its shape is the cosine the run builds."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_CONFIG = """
from yacs.config import CfgNode as CN

_C = CN()
_C.TRAIN = CN()
_C.TRAIN.EPOCHS = 300
_C.TRAIN.WARMUP_EPOCHS = 20
_C.TRAIN.BASE_LR = 5e-4
_C.TRAIN.LR_SCHEDULER = CN()
_C.TRAIN.LR_SCHEDULER.NAME = 'cosine'
_C.TRAIN.LR_SCHEDULER.DECAY_EPOCHS = 30


def get_config():
    return _C.clone()
"""

_SCHEDULER = """
import torch


def build_scheduler(config, optimizer, n_iter_per_epoch):
    num_steps = int(config.TRAIN.EPOCHS * n_iter_per_epoch)
    decay_steps = int(config.TRAIN.LR_SCHEDULER.DECAY_EPOCHS * n_iter_per_epoch)
    lr_scheduler = None
    if config.TRAIN.LR_SCHEDULER.NAME == 'cosine':
        lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=num_steps)
    elif config.TRAIN.LR_SCHEDULER.NAME == 'linear':
        lr_scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, total_iters=num_steps)
    elif config.TRAIN.LR_SCHEDULER.NAME == 'step':
        lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=decay_steps)
    return lr_scheduler
"""

_MAIN = """
import torch

from config import get_config
from lr_scheduler import build_scheduler


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def main(config):
    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.TRAIN.BASE_LR)
    lr_scheduler = build_scheduler(config, optimizer, 100)
    for epoch in range(config.TRAIN.EPOCHS):
        for _ in range(100):
            loss = model(torch.randn(8, 4)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            lr_scheduler.step()


if __name__ == "__main__":
    main(get_config())
"""


def _schedule(tmp_path: Path, config: str) -> dict[str, str]:
    files = {"config.py": config, "lr_scheduler.py": _SCHEDULER, "main.py": _MAIN}
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    row = next(r for r in review.recipe if r.name == "lr_scheduler.build_scheduler")
    return dict(row.values)


def test_the_branches_the_config_skips_are_named_not_shown(tmp_path: Path) -> None:
    values = _schedule(tmp_path, _CONFIG)
    steps = [v for k, v in values.items() if k.startswith("step ")]
    assert any("CosineAnnealingLR" in s for s in steps)
    assert not any("LinearLR" in s or "StepLR" in s for s in steps)
    skipped = values["not taken with the run's values"]
    assert "'linear'" in skipped and "'step'" in skipped
    assert "'cosine'" not in skipped
    assert values["shape"] == "cosine"


def test_every_branch_shows_when_the_config_cannot_tell(tmp_path: Path) -> None:
    # the name is read from the command line: no branch is known to be skipped
    unknown = _CONFIG.replace("_C.TRAIN.LR_SCHEDULER.NAME = 'cosine'\n", "")
    assert unknown != _CONFIG
    values = _schedule(tmp_path, unknown)
    steps = [v for k, v in values.items() if k.startswith("step ")]
    assert any("StepLR" in s for s in steps)
    assert "not taken with the run's values" not in values
