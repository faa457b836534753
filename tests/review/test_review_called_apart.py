"""Code of a file counted apart that the ported training calls (a training loop writing
the model with an export script's function at every checkpoint): the effort's explanation
names it with the calls, so the port does not lose them with the file."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import torch
    from torch import nn

    from export import model_export


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x):
            return self.fc(x)


    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 5 == 0:
            torch.save(model.state_dict(), "ckpt.pt")
            model_export(model, "model.bin")
"""

EXPORT = """
    import struct

    import torch


    def model_export(model, path):
        with open(path, "wb") as f:
            for p in model.parameters():
                f.write(struct.pack("f", float(p.detach().sum())))


    def onnx_export(model, path):
        torch.onnx.export(model, torch.randn(1, 8), path)


    if __name__ == "__main__":
        from train import Net

        onnx_export(Net(), "model.onnx")
"""


@pytest.fixture(scope="module")
def explanation(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = write_repo(tmp_path_factory.mktemp("apart"), {"train.py": TRAIN, "export.py": EXPORT})
    review = build_review(str(root))
    assert "export.py" in dict(review.ancillary)
    return " ".join(review.effort.explanation)


def test_a_counted_apart_function_the_training_calls_is_named(explanation: str) -> None:
    line = TRAIN.lstrip("\n").splitlines().index('            model_export(model, "model.bin")')
    assert "Called by ported code from files counted apart: export.py:model_export (" in (
        explanation
    )
    assert f"at train.py:{line + 1}" in explanation
    # what only the file counted apart calls is not named
    assert "onnx_export" not in explanation
