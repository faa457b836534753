"""A ``torch.autograd.Function`` applied in a Module's forward runs in the network: torch
calls its ``forward`` then and its ``backward`` in the same backward pass (a checkpointing
Function in a UNet block is MindSpore's recompute, a network gap). One applied only by host
code (a visualisation script) stays host."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import scan_repo, write_repo

FILES = {
    "pkg/__init__.py": "",
    "pkg/util.py": """
        import torch


        def recompute(fn, x):
            return Recompute.apply(fn, x)


        class Recompute(torch.autograd.Function):
            @staticmethod
            def forward(ctx, fn, x):
                ctx.fn = fn
                with torch.no_grad():
                    return fn(x)

            @staticmethod
            def backward(ctx, grad):
                return None, torch.autograd.grad(grad, grad)


        class Clamp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clamp(min=0)

            @staticmethod
            def backward(ctx, grad):
                return grad.clone()
    """,
    "pkg/model.py": """
        from torch import nn

        from pkg.util import recompute


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 3, 3)

            def forward(self, x):
                return recompute(self.conv, x)
    """,
    "tools/plot_saliency.py": """
        from pkg.util import Clamp


        def saliency(x):
            return Clamp.apply(x)
    """,
}


def test_an_autograd_function_applied_in_a_forward_is_network(tmp_path: Path) -> None:
    write_repo(tmp_path, FILES)
    result = scan_repo(tmp_path)
    got = {(f.function, f.api): f.scope for f in result.api_findings if f.path == "pkg/util.py"}
    # applied (through a helper) in Block.forward: forward and backward are network code
    assert got[("Recompute.forward", "torch.no_grad")] == "network"
    assert got[("Recompute.backward", "torch.autograd.grad")] == "network"
    # applied only by a host script: stays host
    assert got[("Clamp.forward", "torch.Tensor.clamp")] == "host"
    assert got[("Clamp.backward", "torch.Tensor.clone")] == "host"
