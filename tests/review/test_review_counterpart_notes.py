"""A recipe row that builds a torch API MindSpore lacks says so, with the scan's way out
(RAFT's ``OneCycleLR``: MindSpore 2.10 has no such scheduler). A row MindSpore has, or an
idiom the work items describe (``DataParallel``), carries no such note."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def main():
    model = nn.DataParallel(Net())
    opt = torch.optim.AdamW(model.parameters(), lr=4e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-4, total_steps=1000)
    for x, y in loader():
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()


def loader():
    return [(torch.randn(8, 4), torch.randn(8, 2))]


if __name__ == "__main__":
    main()
"""


def test_a_row_mindspore_lacks_is_noted_with_the_way_out(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "r", {"train.py": TRAIN})), jobs=1)
    rows = {item.name: item for item in review.recipe}
    sched = rows["torch.optim.lr_scheduler.OneCycleLR"]
    assert sched.note.startswith("no OneCycleLR in MindSpore: ")
    assert "LambdaLR" in sched.note
    # INVALID: AdamW exists; DataParallel is an idiom the work items describe
    assert "in MindSpore" not in rows["torch.optim.AdamW"].note
    assert "in MindSpore" not in rows["torch.nn.DataParallel"].note
