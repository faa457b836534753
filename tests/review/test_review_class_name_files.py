"""A file only a dotted class-name string names (``class_name='nets.loss.PenaltyLoss'``
built by ``construct_class_by_name``, no import statement) is used by the run: beside a
selected model's file, it is no "file imported by no file" whose work is an alternative's.
The loss's R1 penalty (``autograd.grad(create_graph=True)``) stays a work item."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review

_ROOT = Path("fixtures/branchpick/classname")

LOSS = """import torch


class PenaltyLoss:
    def __init__(self, D, gamma=10.0):
        self.D = D
        self.gamma = gamma

    def __call__(self, real):
        real = real.detach().requires_grad_(True)
        logits = self.D(real)
        grads = torch.autograd.grad(outputs=[logits.sum()], inputs=[real], create_graph=True)[0]
        return logits.mean() + self.gamma * grads.square().sum()
"""


def _repo(tmp_path: Path, named: bool) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(_ROOT, root)
    (root / "nets" / "loss.py").write_text(LOSS, encoding="utf-8")
    train = root / "train.py"
    code = train.read_text(encoding="utf-8")
    code = code.replace(
        "    opt = torch.optim.Adam(",
        "    loss_fn = construct_class_by_name(D=D, **loss_kwargs)\n    opt = torch.optim.Adam(",
    ).replace("loss = torch.nn", "loss = loss_fn(torch.randn(batch, 8)) + torch.nn")
    code = code.replace(
        "def training_loop(G_kwargs, D_kwargs, batch):",
        "def training_loop(G_kwargs, D_kwargs, batch):\n"
        "    loss_kwargs = EasyDict(class_name=%r)" % ("nets.loss.PenaltyLoss" if named else ""),
    )
    train.write_text(code, encoding="utf-8")
    return root


def test_a_loss_named_by_its_dotted_class_name_keeps_its_work(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path, named=True)), jobs=1)
    kinds = [(w.kind, w.where[0].path) for w in review.work]
    assert ("second-order-grad", "nets/loss.py") in kinds


def test_a_file_no_string_names_is_still_unused(tmp_path: Path) -> None:
    """Without the dotted name nothing reaches nets/loss.py: its work is no run's."""
    review = build_review(str(_repo(tmp_path, named=False)), jobs=1)
    assert not any(w.kind == "second-order-grad" for w in review.work)
