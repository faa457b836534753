"""A compiled op the model imports with a fallback (issue 20 item 4): a fused kernel (CUDA
source, its ``autograd.Function`` wrapper) imported in a ``try:`` whose ``except`` binds the
wrapper to None, used only under a flag off by default. The code runs without it: the port
keeps the PyTorch path, so neither the kernel nor its hand-written backward is priced. A
kernel the model imports unconditionally stays work."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown

_WRAPPER = """
import torch
import fused_shift_ext


class FusedShift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, shift):
        ctx.shift = shift
        return fused_shift_ext.forward(x, shift)

    @staticmethod
    def backward(ctx, grad):
        return fused_shift_ext.backward(grad, ctx.shift), None
"""

_OPTIONAL = """
import torch

try:
    from kernels.shift.shift import FusedShift
except ImportError:
    FusedShift = None


class Net(torch.nn.Module):
    def __init__(self, fused=False):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.fused = fused

    def forward(self, x):
        if self.fused:
            x = FusedShift.apply(x, 1)
        else:
            x = torch.roll(x, 1, dims=1)
        return self.fc(x)
"""

_TRAIN = """
import torch
from model import Net

if __name__ == "__main__":
    net = Net()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(10):
        loss = net(torch.randn(2, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def _repo(tmp_path: Path, model: str) -> Path:
    return write_repo(
        tmp_path / "repo",
        {
            "train.py": _TRAIN,
            "model.py": model,
            "kernels/__init__.py": "",
            "kernels/shift/__init__.py": "",
            "kernels/shift/shift.py": _WRAPPER,
            "kernels/shift/shift_kernel.cu": "// kernel\n",
        },
    )


def test_a_kernel_imported_with_a_fallback_is_counted_apart(tmp_path: Path) -> None:
    review = build_review(str(_repo(tmp_path, _OPTIONAL)), jobs=1)
    apart = dict(review.ancillary)
    assert apart["kernels/shift/shift.py"].startswith("optional kernel")
    assert "model.py:4" in apart["kernels/shift/shift.py"]
    assert apart["kernels/shift/shift_kernel.cu"].startswith("optional kernel")
    assert not review.extensions
    assert "custom-backward" not in review.effort.formula + " ".join(review.effort.explanation)
    text = render_markdown(review)
    assert "optional kernels the code runs without" in text
    assert "`kernels/shift/shift.py`" in text


def test_a_kernel_imported_unconditionally_stays_work(tmp_path: Path) -> None:
    required = _OPTIONAL.replace(
        "try:\n    from kernels.shift.shift import FusedShift\n"
        "except ImportError:\n    FusedShift = None\n",
        "from kernels.shift.shift import FusedShift\n",
    )
    assert required != _OPTIONAL
    review = build_review(str(_repo(tmp_path, required)), jobs=1)
    assert "kernels/shift/shift.py" not in dict(review.ancillary)
    assert any("FusedShift" in what for what, _ in review.extensions)


def test_a_try_without_a_stand_in_is_no_fallback(tmp_path: Path) -> None:
    # the handler only warns: the names are unbound without the module, nothing falls back
    warned = _OPTIONAL.replace("    FusedShift = None\n", "    print('no fused kernel')\n")
    assert warned != _OPTIONAL
    review = build_review(str(_repo(tmp_path, warned)), jobs=1)
    assert "kernels/shift/shift.py" not in dict(review.ancillary)
