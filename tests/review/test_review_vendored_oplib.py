"""A library of compiled ops the repository vendors (its own package of a known library's
name, built by its own setup script) is the repository's code, not a third-party library
(issue 20 items 2 and 4): its Python layers are ported with the model, its kernels are the
extension's custom ops, priced once; no op-library job beside them, and the MindTorch route
does not list the repository's own classes as missing."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "ops_lib/setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CUDAExtension
        setup(
            name="pointnet2_ops",
            ext_modules=[CUDAExtension("pointnet2_ops._ext", ["pointnet2_ops/src/b.cpp"])],
            cmdclass={"build_ext": BuildExtension},
        )
    """,
    "ops_lib/pointnet2_ops/src/b.cpp": "// bindings\n",
    "ops_lib/pointnet2_ops/__init__.py": "",
    "ops_lib/pointnet2_ops/utils.py": """
        import torch
        from torch.autograd import Function
        import pointnet2_ops._ext as _ext
        class BallQuery(Function):
            @staticmethod
            def forward(ctx, radius, nsample, xyz, new_xyz):
                return _ext.ball_query(new_xyz, xyz, radius, nsample)
            @staticmethod
            def backward(ctx, a=None):
                return None, None, None, None
        ball_query = BallQuery.apply
    """,
    "ops_lib/pointnet2_ops/modules.py": """
        import torch
        from pointnet2_ops.utils import ball_query
        class SAModule(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(3, 3)
            def forward(self, xyz):
                return self.fc(xyz) + ball_query(0.2, 16, xyz, xyz).float().sum()
    """,
    "models/__init__.py": "",
    "models/net.py": """
        import torch
        from pointnet2_ops.modules import SAModule
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.sa = SAModule()
                self.head = torch.nn.Linear(3, 2)
            def forward(self, xyz):
                return self.head(self.sa(xyz))
    """,
    "train.py": """
        import torch
        from models.net import Net
        def main():
            net = Net()
            opt = torch.optim.Adam(net.parameters(), lr=1e-3)
            for _ in range(3):
                loss = net(torch.rand(2, 64, 3)).sum()
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            main()
    """,
}


def test_vendored_op_library_is_the_repositorys_own_code(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)), jobs=1)
    # INVALID: a third-party porting job for the repository's own package
    assert not any(i.kind == "op-library" for i in review.work)
    assert "library-op" not in review.effort.formula
    # VALID: its kernel is the extension's custom op
    assert [i.what for i in review.work if i.kind == "compiled-custom-op"] == [
        "pointnet2_ops._ext.ball_query"
    ]
    # the MindTorch route runs the repository's own Python layers
    assert not any("SAModule" in n for n in review.effort.mindtorch_lacks)
