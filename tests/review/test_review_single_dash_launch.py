"""An option declared with a single dash (``parser.add_argument('-label_smoothing',
action='store_true')``) or a short alias (``'-warmup', '--n_warmup_steps'``) that the
documented training command passes as declared (``python train.py -label_smoothing -warmup
128000``) holds the command's value in the run: the branch it switches on (a label-smoothed
loss with a masked sum) is the run's, its dynamic shapes are reviewed."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse
    import torch
    import torch.nn.functional as F

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 4)
        def forward(self, x):
            return self.fc(x)

    def cal_loss(pred, gold, pad, smoothing=False):
        if smoothing:
            log_prb = F.log_softmax(pred, dim=1)
            non_pad = gold.ne(pad)
            loss = -(log_prb.sum(dim=1))
            loss = loss.masked_select(non_pad).sum()
        else:
            loss = F.cross_entropy(pred, gold, ignore_index=pad)
        return loss

    def train_epoch(model, data, optimizer, smoothing):
        for x, gold in data:
            optimizer.zero_grad()
            loss = cal_loss(model(x), gold, 0, smoothing=smoothing)
            loss.backward()
            optimizer.step()

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('-label_smoothing', action='store_true')
        parser.add_argument('-epoch', type=int, default=10)
        opt = parser.parse_args()
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        for _ in range(opt.epoch):
            train_epoch(model, [], optimizer, opt.label_smoothing)

    if __name__ == "__main__":
        main()
"""


def _review(tmp_path: Path, command: str):
    repo = {"train.py": TRAIN, "README.md": f"# Train\n\n```\n{command}\n```\n"}
    return build_review(str(write_repo(tmp_path / "repo", repo)))


def _masked_lines(review) -> set[int]:
    return {where.line for where, rule, _, _ in review.dynamic_shape if rule == "DS102"}


def test_a_single_dash_flag_the_command_passes_switches_its_branch_on(tmp_path: Path) -> None:
    review = _review(tmp_path, "python train.py -label_smoothing -epoch 400")
    lines = textwrap.dedent(TRAIN).lstrip("\n").splitlines()
    (line,) = [n for n, text in enumerate(lines, 1) if "masked_select" in text]
    assert _masked_lines(review) == {line}, review.dynamic_shape


def test_left_out_the_flag_keeps_its_branch_off(tmp_path: Path) -> None:
    review = _review(tmp_path, "python train.py -epoch 400")
    assert _masked_lines(review) == set(), review.dynamic_shape
