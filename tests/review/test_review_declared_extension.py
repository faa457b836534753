"""An extension a setup script declares under a top-level name (CornerNet's
``CppExtension("top_pool", ["src/top_pool.cpp"])``, then ``import top_pool`` and
``top_pool.forward(x)`` in an autograd Function): the repository's own compiled op, one
item per op with its forward and backward, never a third-party package (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "net/__init__.py": "",
    "net/_ext/setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CppExtension

        setup(
            name="ext",
            ext_modules=[
                CppExtension("top_pool", ["src/top_pool.cpp"]),
                CppExtension(name="scatter_sum", sources=["src/scatter_sum.cpp"]),
            ],
            cmdclass={"build_ext": BuildExtension},
        )
    """,
    "net/_ext/src/top_pool.cpp": "// the kernel\\n",
    "net/_ext/src/scatter_sum.cpp": "// the kernel\\n",
    "net/_ext/__init__.py": """
        from torch import nn
        from torch.autograd import Function

        import scatter_sum
        import top_pool


        class TopPoolFunction(Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return top_pool.forward(x)[0]

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return top_pool.backward(x, grad)[0]


        class TopPool(nn.Module):
            def forward(self, x):
                return TopPoolFunction.apply(x)


        def summed(x, index):
            return scatter_sum.scatter_sum_forward(x, index)
    """,
    "net/model.py": """
        from torch import nn

        from net._ext import TopPool, summed


        class Corner(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)
                self.pool = TopPool()

            def forward(self, x, index):
                return summed(self.pool(self.conv(x)), index)
    """,
    "train.py": """
        import torch

        from net.model import Corner


        def main():
            model = Corner()
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(2):
                loss = model(torch.zeros(1, 3, 8, 8), torch.zeros(8).long()).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
}


def test_a_declared_extensions_ops_are_the_repositorys_own(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    ops = {i.what: i for i in review.work if i.kind in ("compiled-op", "compiled-custom-op")}
    # the corner pool: a known composition; the scatter: a custom op to write
    assert set(ops) == {
        "top_pool.top_pool (top_pool.backward, top_pool.forward)",
        "scatter_sum.scatter_sum (scatter_sum.scatter_sum_forward)",
    }, list(ops)
    pool = ops["top_pool.top_pool (top_pool.backward, top_pool.forward)"]
    assert pool.kind == "compiled-op" and "cummax" in pool.why
    assert "the repository's CUDA/C++ extension" in pool.why
    assert ops["scatter_sum.scatter_sum (scatter_sum.scatter_sum_forward)"].kind == (
        "compiled-custom-op"
    )
    # INVALID: no third-party package item for the same modules
    assert not any("third-party package top_pool" in i.why for i in review.work)
