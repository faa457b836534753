"""A loss a network's forward keeps on the module (``self.last_loss = F.cross_entropy(...)``)
and the training step reads back from the model after the call: a work item, since
value_and_grad differentiates what the wrapped function returns. A loss attribute nothing
outside the module reads is none."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
    import torch.nn.functional as F
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)
            self.last_loss = None

        def forward(self, x, y=None):
            logits = self.fc(x)
            if y is not None:
                self.last_loss = F.cross_entropy(logits, y)
            return logits
"""

TRAIN = """
    import torch

    from model import Net

    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        x, y = torch.randn(4, 8), torch.randint(0, 8, (4,))
        logits = model(x, y)
        {read}
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""


def _items(tmp_path, read: str) -> list:  # type: ignore[no-untyped-def]
    files = {"model.py": MODEL, "train.py": TRAIN.replace("{read}", read)}
    return [i for i in build_review(str(write_repo(tmp_path, files))).work]


def test_a_loss_read_back_from_the_model_is_a_work_item(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (item,) = [i for i in _items(tmp_path, "loss = model.last_loss") if i.kind == "loss-attribute"]
    assert "self.last_loss" in item.what
    assert {w.path for w in item.where} == {"model.py", "train.py"}
    assert item.uses == 1
    assert "value_and_grad" in item.why


def test_a_loss_attribute_nothing_reads_back_is_none(tmp_path) -> None:  # type: ignore[no-untyped-def]
    read = "loss = torch.nn.functional.cross_entropy(logits, y)"
    assert not [i for i in _items(tmp_path, read) if i.kind == "loss-attribute"]
