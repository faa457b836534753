"""A yacs key the training script rewrites before the run (issue 20 item 1): Swin-like
``__main__`` code scales the base LR by the total batch (``linear_scaled_lr =
config.TRAIN.BASE_LR * config.DATA.BATCH_SIZE * world / 512``, more under gradient
accumulation) and writes it back into the config before ``main(config)`` builds the
optimizer. The optimizer's LR is that formula, with the default it starts from, not the
default alone; the schedule's settings rewritten so are shown the same way."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_CONFIG = """
from yacs.config import CfgNode as CN

_C = CN()
_C.DATA = CN()
_C.DATA.BATCH_SIZE = 128
_C.TRAIN = CN()
_C.TRAIN.EPOCHS = 300
_C.TRAIN.BASE_LR = 5e-4
_C.TRAIN.MIN_LR = 5e-6
_C.TRAIN.WEIGHT_DECAY = 0.05
_C.TRAIN.ACCUMULATION_STEPS = 1


def get_config():
    return _C.clone()
"""

_MAIN = """
import torch
import torch.distributed as dist

from config import get_config


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def main(config):
    model = Net()
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=config.TRAIN.BASE_LR, weight_decay=config.TRAIN.WEIGHT_DECAY
    )
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(
        optimizer, T_max=config.TRAIN.EPOCHS, eta_min=config.TRAIN.MIN_LR
    )
    for epoch in range(config.TRAIN.EPOCHS):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()


if __name__ == "__main__":
    config = get_config()
    dist.init_process_group(backend="nccl")
    linear_scaled_lr = config.TRAIN.BASE_LR * config.DATA.BATCH_SIZE * dist.get_world_size() / 512.0
    scaled_min_lr = config.TRAIN.MIN_LR * config.DATA.BATCH_SIZE * dist.get_world_size() / 512.0
    if config.TRAIN.ACCUMULATION_STEPS > 1:
        linear_scaled_lr = linear_scaled_lr * config.TRAIN.ACCUMULATION_STEPS
    config.defrost()
    config.TRAIN.BASE_LR = linear_scaled_lr
    config.TRAIN.MIN_LR = scaled_min_lr
    config.freeze()
    main(config)
"""


def _row(review, api: str):
    return next(r for r in review.recipe if r.name == api)


def test_the_lr_is_the_formula_the_script_writes_back(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"config.py": _CONFIG, "main.py": _MAIN})
    review = build_review(str(root), jobs=1)
    values = dict(_row(review, "torch.optim.AdamW").values)
    lr = values["lr"]
    assert lr.startswith("config.TRAIN.BASE_LR * config.DATA.BATCH_SIZE * dist.get_world_size()")
    assert "rewritten at main.py:" in lr
    # the default it starts from, and the step under gradient accumulation
    assert "config.TRAIN.BASE_LR = 5e-4" in lr
    assert "config.DATA.BATCH_SIZE = 128" in lr
    assert "(if config.TRAIN.ACCUMULATION_STEPS > 1)" in lr
    # a key the script leaves alone keeps its default
    assert values["weight_decay"].startswith("0.05")


def test_a_key_no_script_rewrites_keeps_its_default(tmp_path: Path) -> None:
    kept = _MAIN.replace("    config.TRAIN.BASE_LR = linear_scaled_lr\n", "")
    assert kept != _MAIN
    root = write_repo(tmp_path / "repo", {"config.py": _CONFIG, "main.py": kept})
    review = build_review(str(root), jobs=1)
    assert dict(_row(review, "torch.optim.AdamW").values)["lr"].startswith("5e-4")
