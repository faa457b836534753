"""The loop a training script's step runs in (issue 20 item 4): a script whose module code
runs a backward pass once at start-up (a debug state written with its gradients) before its
loop over steps, each step accumulating gradients over micro-batches. The step is the loop
the optimizer's step closes: a loss read after the micro-batch loop runs every step; the
start-up helper's copies run once."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Where

_SCRIPT = """
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x).mean()


def write_state(x, loss):
    with open("state.bin", "wb") as f:
        f.write(x.cpu().numpy().tobytes())
        f.write(loss.cpu().numpy().tobytes())


if __name__ == "__main__":
    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(8, 4)
    loss = model(x)
    loss.backward()
    write_state(x, loss)
    for step in range(100):
        optimizer.zero_grad()
        lossf = 0.0
        for micro_step in range(4):
            loss = model(torch.randn(8, 4)) / 4
            lossf += loss.detach()
            loss.backward()
        lossf = lossf.item()
        optimizer.step()
        print(f"step {step} loss {lossf:.4f}")
"""


def test_the_step_is_the_loop_the_optimizer_step_closes(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "repo", {"train.py": _SCRIPT})), jobs=1)
    items = [i for i in review.work if i.kind == "step-sync"]
    assert len(items) == 1
    # the loss read after the micro-batch loop, not the start-up state's copies
    assert items[0].where == (Where("train.py", 33),)
    assert "write_state" not in items[0].what
