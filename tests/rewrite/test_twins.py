"""A torch op written in another of its forms than the one the tables or the idiom catalogue
list is no custom op: ``torch.detach(x)`` is ``x.detach()`` (``ops.stop_gradient``),
``x.log_softmax(2)`` is ``F.log_softmax`` (the tables' row), and any optimizer's ``step`` is
the train step (VITS and deep-text-recognition-benchmark were given custom ops and gaps)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_snippet

SRC = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        x = torch.detach(x)
        return x.log_softmax(2)


def train(model, data):
    opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
    loss = model(data).sum()
    loss.backward()
    opt.step()
"""


def test_function_form_of_a_method_idiom_is_that_idiom(tmp_path: Path) -> None:
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, SRC)}
    detach = found[(7, "torch.detach")]
    assert (detach.disposition, detach.rewrite) == ("idiom", "mindspore.ops.stop_gradient(x)")


def test_method_listed_by_its_functional_twin_is_matched(tmp_path: Path) -> None:
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, SRC)}
    f = found[(8, "torch.Tensor.log_softmax")]
    assert f.status != "missing" and f.disposition != "custom-op"
    assert f.mindspore_api and f.mindspore_api.endswith("log_softmax")
    # mindspore.Tensor has no log_softmax method: the call becomes the function's
    assert f.rewrite == f"{f.mindspore_api}(x, 2)"


def test_any_optimizers_step_is_the_train_step(tmp_path: Path) -> None:
    found = {(f.span.line, f.api): f for f in scan_snippet(tmp_path, SRC)}
    step = found[(15, "torch.optim.Adadelta.step")]
    assert step.disposition == "idiom"
    assert "training_and_evaluation" in step.rewrite_source
