"""Triton kernels of the ported code are compiled ops to port, one item per module (the
forward and backward kernels of one op), a composition where the module holds its own
PyTorch reference; a jitted device helper another kernel calls is part of that kernel; an
extension's ``fwd``/``bwd`` bindings are one op (issue 20: mamba's Triton scan kernels and
``selective_scan_cuda`` were listed but not priced)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "ssm/__init__.py": "",
    "ssm/softplus.py": """
        import triton
        import triton.language as tl


        @triton.jit
        def softplus(dt):
            return tl.log(tl.exp(dt) + 1)
    """,
    "ssm/scan.py": """
        import torch
        import triton
        import triton.language as tl

        from ssm.softplus import softplus


        @triton.jit
        def _scan_fwd_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n)
            tl.store(out_ptr + offs, softplus(x), mask=offs < n)


        @triton.jit
        def _scan_bwd_kernel(dout_ptr, dx_ptr, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            d = tl.load(dout_ptr + offs, mask=offs < n)
            tl.store(dx_ptr + offs, d, mask=offs < n)


        def scan_ref(x):
            return torch.nn.functional.softplus(x).cumsum(-1)


        class ScanFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = torch.empty_like(x)
                _scan_fwd_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
                return out

            @staticmethod
            def backward(ctx, dout):
                dx = torch.empty_like(dout)
                _scan_bwd_kernel[(1,)](dout, dx, dout.numel(), BLOCK=1024)
                return dx
    """,
    "ssm/gate.py": """
        import torch
        import triton
        import triton.language as tl


        @triton.jit
        def _gate_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n)
            tl.store(y_ptr + offs, x * tl.sigmoid(x), mask=offs < n)


        def gate(x):
            y = torch.empty_like(x)
            _gate_kernel[(1,)](x, y, x.numel(), BLOCK=1024)
            return y
    """,
    "ssm/align.py": """
        import numpy as np
        import torch
        import triton
        import triton.language as tl


        @triton.jit
        def _dtw_kernel(cost_ptr, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            c = tl.load(cost_ptr + offs, mask=offs < n)
            tl.store(cost_ptr + offs, c + 1, mask=offs < n)


        def dtw_cpu(cost):
            return np.cumsum(cost)


        def dtw(cost):
            try:
                _dtw_kernel[(1,)](cost, cost.numel(), BLOCK=1024)
                return cost.cpu().numpy()
            except RuntimeError:
                return dtw_cpu(cost.cpu().numpy())
    """,
    "train.py": """
        import torch

        from ssm.align import dtw
        from ssm.model import Block


        def main():
            model = Block()
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(2):
                loss = model(torch.zeros(2, 8)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(dtw(torch.zeros(4)))


        if __name__ == "__main__":
            main()
    """,
    "ssm/model.py": """
        import selective_scan_cuda
        from torch import nn

        from ssm.gate import gate
        from ssm.scan import ScanFn


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)

            def forward(self, x):
                y = selective_scan_cuda.fwd(x)
                z = selective_scan_cuda.bwd(y)
                return gate(ScanFn.apply(self.proj(x))) + z
    """,
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CUDAExtension

        setup(
            name="ssm",
            ext_modules=[CUDAExtension(name="selective_scan_cuda", sources=["csrc/scan.cu"])],
            cmdclass={"build_ext": BuildExtension},
        )
    """,
    "csrc/scan.cu": "// the kernel\\n",
}


def test_triton_modules_and_an_extensions_passes_are_compiled_ops(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    ops = {i.what: i for i in review.work if i.kind in ("compiled-op", "compiled-custom-op")}
    scan = "ssm.scan (Triton: _scan_fwd_kernel, _scan_bwd_kernel)"
    assert set(ops) == {
        scan,
        "ssm.gate (Triton: _gate_kernel)",
        "selective_scan_cuda.selective_scan_cuda "
        "(selective_scan_cuda.bwd, selective_scan_cuda.fwd)",
    }, list(ops)
    # VALID: the module's PyTorch reference is the composition to port
    assert ops[scan].kind == "compiled-op" and "scan_ref" in ops[scan].why
    assert ops["ssm.gate (Triton: _gate_kernel)"].kind == "compiled-custom-op"
    # INVALID: the device helper the scan kernel calls is no op of its own, and a kernel
    # host-side alignment code launches (with a CPU fallback) is no op of the network
    assert not any("softplus (Triton" in what or "ssm.softplus" in what for what in ops)
    assert not any(what.startswith("ssm.align") for what in ops)
