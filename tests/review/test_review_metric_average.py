"""A helper that all-reduces numbers for the log is no hand-written gradient sync.

The training step reads the gradients for a logged norm and, after the loop, averages its
metrics across devices through a helper that builds a tensor from them, all-reduces it and
reads it back (``.cpu().numpy().tolist()``): no gradient is averaged there, so neither a
distributed row nor a work item says the repository reduces its gradients by hand. A helper
that reduces the tensor handed to it (the gradients) still counts."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import review_fixture

DISTRIB = """\
import torch
import torch.distributed as dist

world_size = 1


def average(metrics, count=1.0):
    if world_size == 1:
        return metrics
    tensor = torch.tensor(list(metrics) + [1], device="cuda", dtype=torch.float32)
    tensor *= count
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return (tensor[:-1] / tensor[-1]).cpu().numpy().tolist()


def reduce_grads(tensor):
    dist.all_reduce(tensor)
    return tensor
"""

TRAIN = """\
import torch

import distrib


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def run_epoch(model, optimizer, batches):
    losses = []
    for x in batches:
        loss = model(x).abs().mean()
        loss.backward()
        grad_norm = 0
        for p in model.parameters():
            if p.grad is not None:
                grad_norm += p.grad.data.norm() ** 2
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.detach())
    return distrib.average(losses, len(batches))


def {sync}(model):
    for p in model.parameters():
        if p.grad is not None:
            distrib.reduce_grads(p.grad.data)


def main():
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        run_epoch(model, optimizer, [torch.randn(2, 4)])


if __name__ == "__main__":
    main()
"""


def _review(tmp_path: Path, sync: str):
    (tmp_path / "distrib.py").write_text(DISTRIB)
    (tmp_path / "train.py").write_text(TRAIN.replace("{sync}", sync))
    return review_fixture(str(tmp_path))


def test_metrics_averaged_for_the_log_are_no_gradient_sync(tmp_path: Path) -> None:
    review = _review(tmp_path, "sync_grads")
    rows = [r for r in review.recipe if r.name.startswith("gradient all-reduce written by hand")]
    # the gradients' helper reduces what it is handed: counted; the metrics' helper is not
    assert [r.name for r in rows] == ["gradient all-reduce written by hand (sync_grads)"]
    items = [i for i in review.work if i.kind == "vendored-parallel"]
    assert len(items) == 1
    assert "run_epoch" not in items[0].what
    assert "sync_grads" in items[0].what
