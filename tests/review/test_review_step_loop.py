"""Which host reads run every training step in a script's module code: a forward and
backward run once before the loop (gradients written out for a test of another
implementation) is no step, and a backward in a loop of micro-batches steps once per outer
iteration, where the loss is read."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x).pow(2).mean()


def write_state(model, x, loss, filename):
    with open(filename, "wb") as file:
        file.write(x.cpu().numpy().tobytes())
        file.write(loss.cpu().numpy().tobytes())


model = Net()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(2, 4)
loss = model(x)
loss.backward()
write_state(model, x, loss, "state.bin")
for step in range(100):
    optimizer.zero_grad()
    total = 0.0
    for micro in range(4):
        loss = model(torch.randn(2, 4)) / 4
        total += loss.detach()
        loss.backward()
    total = total.item()
    optimizer.step()
    print(f"step {step} loss {total:.4f}")
"""


def test_a_one_off_backward_before_the_loop_runs_no_step(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "steps", {"train.py": TRAIN})))
    syncs = [i for i in review.work if i.kind == "step-sync"]
    lines = [w.line for i in syncs for w in i.where]
    assert 33 in lines  # ``total.item()`` after the micro-batches, every step (VALID)
    assert not {16, 17} & set(lines)  # write_state, run once before the loop (INVALID)
