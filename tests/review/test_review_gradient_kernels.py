"""The gradient kernels of a compiled extension's ops (issue 20 item 4): pointnet2-like
``_ext.gather_points`` in an ``autograd.Function``'s ``forward`` and
``_ext.gather_points_grad`` in its ``backward`` are one custom op written with its backward,
priced once; an op with no gradient binding stays one op, and a ``_grad`` binding whose
forward the code never calls is an op of its own."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "pointnet2/setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CUDAExtension
        setup(
            name="pointnet2",
            ext_modules=[CUDAExtension("pointnet2._ext", ["_ext_src/src/bindings.cpp"])],
            cmdclass={"build_ext": BuildExtension},
        )
    """,
    "pointnet2/_ext_src/src/bindings.cpp": "// bindings\n",
    "pointnet2/utils.py": """
        import torch
        from torch.autograd import Function
        import pointnet2._ext as _ext
        class GatherOperation(Function):
            @staticmethod
            def forward(ctx, features, idx):
                ctx.for_backwards = (idx, features.size(2))
                return _ext.gather_points(features, idx)
            @staticmethod
            def backward(ctx, grad_out):
                idx, n = ctx.for_backwards
                return _ext.gather_points_grad(grad_out.contiguous(), idx, n), None
        class BallQuery(Function):
            @staticmethod
            def forward(ctx, radius, nsample, xyz, new_xyz):
                return _ext.ball_query(new_xyz, xyz, radius, nsample)
            @staticmethod
            def backward(ctx, a=None):
                return None, None, None, None
        class Smooth(Function):
            @staticmethod
            def forward(ctx, x):
                return x
            @staticmethod
            def backward(ctx, g):
                return _ext.smooth_grad(g)
        gather_operation = GatherOperation.apply
        ball_query = BallQuery.apply
        smooth = Smooth.apply
    """,
    "net.py": """
        import torch
        from pointnet2.utils import ball_query, gather_operation, smooth
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(3, 3)
            def forward(self, xyz, idx):
                feats = gather_operation(self.fc(xyz).transpose(1, 2), idx)
                return smooth(feats) + ball_query(0.2, 16, xyz, xyz).float().sum()
    """,
    "train.py": """
        import torch
        from net import Net
        def main():
            net = Net()
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            for _ in range(3):
                loss = net(torch.rand(2, 64, 3), torch.zeros(2, 16, dtype=torch.int)).sum()
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            main()
    """,
}


def test_gradient_kernel_is_its_forward_ops_backward(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    ops = sorted(i.what for i in review.work if i.kind == "compiled-custom-op")
    assert ops == [
        "pointnet2._ext.ball_query",
        "pointnet2._ext.gather_points (gather_points, gather_points_grad)",
        "pointnet2._ext.smooth_grad",
    ]
    assert review.effort.custom_ops == 3
