"""A name holding a model or the data-parallel wrapper around it (``if ddp: model =
DDP(model)``; ``raw_model = model.module if ddp else model``), or its compiled form
(``model = torch.compile(model)``) still holds the model: a call
through it runs the model's ``forward``, a method called on it is the model's."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import ScanOptions, scan_with_facts

SRC = """
    import torch
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x, y=None):
            return self.fc(x)

        def configure(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)


    def main(ddp=False, compile=False):
        model = Net()
        if compile:
            model = torch.compile(model)
        if ddp:
            model = DDP(model)
        raw_model = model.module if ddp else model
        optimizer = raw_model.configure()
        out = model(torch.zeros(2, 4), torch.zeros(2))
        return optimizer, out
"""


def test_calls_through_a_maybe_wrapped_model_are_the_model_s(tmp_path: Path) -> None:
    write_repo(tmp_path, {"train.py": SRC})
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    callees = {c.callee for fa in analyses for c in fa.calls if c.caller.endswith("main")}
    assert {"train.Net.configure", "train.Net.forward"} <= callees
