"""A loss scaler whose ``__call__`` clips the gradients (``clip_grad_norm_(parameters,
clip_grad)``) with the norm its callers pass: two training scripts call the instance (each
call, alone on its first line, found both by the call facts and by following the instance
into ``train_one_epoch``),
and the clip row shows the value they pass, not the parameter's ``None`` default."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

UTILS = """
    import torch


    class GradScalerWithClip:
        def __init__(self):
            self._scaler = torch.cuda.amp.GradScaler()

        def __call__(self, loss, optimizer, clip_grad=None, parameters=None):
            self._scaler.scale(loss).backward()
            self._scaler.unscale_(optimizer)
            norm = None
            if clip_grad is not None:
                norm = torch.nn.utils.clip_grad_norm_(parameters, clip_grad)
            self._scaler.step(optimizer)
            self._scaler.update()
            return norm
"""

SCRIPT = """
    import argparse

    import torch

    from utils import GradScalerWithClip


    def train_one_epoch(model, optimizer, loss_scaler, clip):
        for _ in range(10):
            loss = model(torch.zeros(1, 2)).sum()
            loss_scaler(loss, optimizer, clip_grad=clip,
                        parameters=model.parameters())


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--clip-grad', type=float, default=5.0)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loss_scaler = GradScalerWithClip()
        train_one_epoch(model, optimizer, loss_scaler, args.clip_grad)


    if __name__ == '__main__':
        main()
"""


def test_the_clip_norm_the_callers_pass(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo", {"utils.py": UTILS, "main.py": SCRIPT, "main_big.py": SCRIPT}
    )
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    items = extract_recipe(result, analyses, root)
    clips = [i for i in items if i.category == "grad_clip"]
    (clip,) = [i for i in clips if i.name == "torch.nn.utils.clip_grad_norm_"]
    assert dict(clip.values)["max_norm"].startswith("5.0 ")
