"""A compiled op that a factory function tries first and falls back from (fairseq's
``DynamicConv``: ``try: from fairseq.modules.dynamicconv_layer import DynamicconvLayer;
return DynamicconvLayer(...)`` / ``except ImportError: print(e)``, then the PyTorch
``DynamicConv1dTBC``), imported through its package's re-export: an optional kernel,
counted apart, no custom op to write (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net/__init__.py": "",
    "net/dynconv/__init__.py": "from .dynconv_layer import DynconvLayer  # noqa: F401\n",
    "net/dynconv/dynconv_layer.py": """
        import dynconv_cuda
        import torch
        from torch.autograd import Function


        class DynconvFunction(Function):
            @staticmethod
            def forward(ctx, x, weights):
                ctx.save_for_backward(x, weights)
                return dynconv_cuda.forward(x, weights)[0]

            @staticmethod
            def backward(ctx, grad):
                x, weights = ctx.saved_tensors
                return tuple(dynconv_cuda.backward(grad, x, weights))


        class DynconvLayer(torch.nn.Module):
            def __init__(self, size):
                super().__init__()
                self.weight = torch.nn.Linear(size, 3)

            def forward(self, x):
                return DynconvFunction.apply(x, self.weight(x))
    """,
    "net/dynconv/setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CUDAExtension

        setup(
            name="dynconv",
            ext_modules=[CUDAExtension("dynconv_cuda", ["dynconv_cuda.cpp"])],
            cmdclass={"build_ext": BuildExtension},
        )
    """,
    "net/dynconv/dynconv_cuda.cpp": "// the kernel\\n",
    "net/dynamic_convolution.py": """
        import torch


        class DynamicConv1d(torch.nn.Module):
            def __init__(self, size):
                super().__init__()
                self.weight = torch.nn.Linear(size, 3)

            def forward(self, x):
                return x * self.weight(x).softmax(-1).sum(-1, keepdim=True)


        def DynamicConv(size):
            if torch.cuda.is_available():
                try:
                    from net.dynconv import DynconvLayer

                    return DynconvLayer(size)
                except ImportError as e:
                    print(e)
            return DynamicConv1d(size)
    """,
    "train.py": """
        import torch

        from net.dynamic_convolution import DynamicConv


        def main():
            model = torch.nn.Sequential(torch.nn.Linear(8, 8), DynamicConv(8))
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(2):
                loss = model(torch.zeros(2, 8)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_a_kernel_a_factory_falls_back_from_is_optional(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    # INVALID: no custom op to write for the kernel the factory can do without
    assert not [i.what for i in review.work if "dynconv_cuda" in i.what]
    # VALID: its wrapper is told apart as an optional kernel
    assert any("optional kernel" in why for _, why in review.extensions) or any(
        "optional kernel" in why for _, why in review.ancillary
    ), (review.extensions, review.ancillary)
