"""A training loop whose backward pass and optimizer step run in a helper it calls (a loss
scaler's ``__call__``: ``scale(loss).backward()``, ``step(optimizer)``, no loop of its own)
is the training step: its ``loss.item()`` in that loop is a host read every step. A read
after the loop (the epoch's summary) is none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "utils.py": """
        import torch


        class Scaler:
            def __init__(self):
                self._scaler = torch.cuda.amp.GradScaler()

            def __call__(self, loss, optimizer):
                self._scaler.scale(loss).backward()
                self._scaler.step(optimizer)
                self._scaler.update()
    """,
    "main.py": """
        import torch

        from utils import Scaler


        def train_one_epoch(model, loader, optimizer, loss_scaler):
            total = 0.0
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                loss_scaler(loss, optimizer)
                total += loss.item()
            last = loss.detach()
            return total, last.item()


        def main():
            model = torch.nn.Linear(2, 2)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
            loader = [(torch.zeros(1, 2), torch.zeros(1, 2))]
            for epoch in range(3):
                train_one_epoch(model, loader, optimizer, Scaler())


        if __name__ == '__main__':
            main()
    """,
}


def test_the_loop_calling_the_step_helper_reads_every_step(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    (item,) = [i for i in review.work if i.kind == "step-sync"]
    assert item.what == "1 host read in the training step (main.py:train_one_epoch)"
    assert [(w.path, w.line) for w in item.where] == [("main.py", 11)]
