"""A CUDA/C++ extension built at import whose wrapper runs the file's own PyTorch path on
the other side of an ``if`` (``if x.device.type == "cpu": F.leaky_relu(...)`` / ``else:
Function.apply(...)``, or an early return before the kernel): that path computes the op
with tensor ops, so the port composes it from MindSpore ops; no custom op is priced. Tensor
ops beside the kernel on its own side (a pad before it) are no such path."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

KERNEL = {
    "ops/__init__.py": "",
    "ops/kernel.cpp": "// kernel\n",
    "ops/kernel_cuda.cu": "// kernel\n",
    "ops/act.py": """
        import os

        import torch
        from torch.autograd import Function
        from torch.nn import functional as F
        from torch.utils.cpp_extension import load

        here = os.path.dirname(__file__)
        ext = load("act", sources=[os.path.join(here, "kernel.cpp")])


        class ActFunction(Function):
            @staticmethod
            def forward(ctx, x, bias):
                ctx.save_for_backward(x)
                return ext.act(x, bias)

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return ext.act_grad(grad, x), None


        def act(x, bias):
            if x.device.type == "cpu":
                out = F.leaky_relu(x + bias.view(1, -1, 1, 1), 0.2)
            else:
                out = ActFunction.apply(x.contiguous(), bias)
            return out * 2
    """,
    "net.py": """
        import torch
        from torch import nn

        from ops.act import act


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)
                self.bias = nn.Parameter(torch.zeros(8))

            def forward(self, x):
                return act(self.conv(x), self.bias)
    """,
    "train.py": """
        import torch

        from net import Net

        if __name__ == "__main__":
            net = Net()
            opt = torch.optim.SGD(net.parameters(), lr=0.1)
            for _ in range(10):
                loss = net(torch.randn(2, 3, 16, 16)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
    """,
}


def test_a_kernel_with_a_pytorch_path_in_the_other_branch_is_a_composition(
    tmp_path: Path,
) -> None:
    """The compiled kernel and the file's own tensor-op path are two sides of one ``if``:
    the port composes the op from MindSpore ops, no custom op."""
    review = build_review(str(write_repo(tmp_path, KERNEL)), jobs=1)
    (item,) = [i for i in review.work if i.kind in ("compiled-op", "compiled-custom-op")]
    assert item.kind == "compiled-op"
    assert "own PyTorch path (act)" in item.why
    assert "compiled-custom-op" not in review.effort.formula


def test_a_kernel_whose_wrapper_only_prepares_its_input_is_a_custom_op(tmp_path: Path) -> None:
    """The tensor ops around the kernel's ``apply`` on the same side (a pad before it) are
    no PyTorch path of the op: a custom op is still to write."""
    files = dict(KERNEL)
    files["ops/act.py"] = KERNEL["ops/act.py"].replace(
        """            if x.device.type == "cpu":
                out = F.leaky_relu(x + bias.view(1, -1, 1, 1), 0.2)
            else:
                out = ActFunction.apply(x.contiguous(), bias)""",
        """            if x.shape[-1] % 2:
                x = F.pad(x, (0, 1))
            out = ActFunction.apply(x.contiguous(), bias)""",
    )
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    (item,) = [i for i in review.work if i.kind in ("compiled-op", "compiled-custom-op")]
    assert item.kind == "compiled-custom-op"
