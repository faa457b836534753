"""A bare import of a module beside the importing file is the repository's own code: a
vendored deformable-convolution folder (``ext/``, a package the model imports as
``ext.dcn_layer``) ships a check script that runs from inside the folder and imports its
neighbour by its bare name (``from dcn_layer import DCNLayer``). That is no third-party
package (the check script is ported: the training loads modules by name, so no module is
"unused"): no compiled-op item of a package ``dcn_layer`` and no row of the third-party list.
A package of the same kind installed beside the repository (``dcn_lib``, no such module
in the repository) stays both."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.gaps import sibling_module

FILES = {
    "ext/__init__.py": "",
    "ext/dcn_layer.py": """
        import torch
        from torch import nn


        class DCNLayer(nn.Module):
            def __init__(self, channels):
                super().__init__()
                self.weight = nn.Parameter(torch.zeros(channels, channels, 3, 3))

            def forward(self, x, offset):
                return torch.nn.functional.conv2d(x + offset.mean(), self.weight, padding=1)
    """,
    "ext/check.py": """
        import torch
        from torch import nn

        from dcn_layer import DCNLayer


        class Probe(nn.Module):
            def __init__(self):
                super().__init__()
                self.dcn = DCNLayer(2)

            def forward(self, x):
                return self.dcn(x, torch.zeros_like(x)).relu()


        def check():
            x = torch.randn(1, 2, 4, 4)
            layer = DCNLayer(2)
            y = layer(x, torch.zeros_like(x)).sigmoid()
            return torch.autograd.gradcheck(Probe(), (x,))


        if __name__ == "__main__":
            check()
    """,
    "model.py": """
        import torch
        from torch import nn
        from dcn_lib import DCN

        from ext.dcn_layer import DCNLayer


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 2, 3, padding=1)
                self.local = DCNLayer(2)
                self.dcn = DCN(2, 2, 3)

            def forward(self, x):
                y = self.conv(x)
                return self.dcn(self.local(y, torch.zeros_like(y)))
    """,
    "train.py": """
        import torch

        from model import Net


        def main(plugin=""):
            if plugin:
                __import__(plugin)  # a user's module, loaded by name
            net = Net()
            opt = torch.optim.SGD(net.parameters(), lr=0.1)
            for _ in range(10):
                loss = net(torch.randn(2, 3, 8, 8)).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("siblings"), FILES)))


def test_a_module_beside_the_file_is_a_sibling() -> None:
    paths = {"ext/__init__.py", "ext/dcn_layer.py", "ext/check.py", "model.py", "pkg/__init__.py"}
    assert sibling_module("ext/check.py", "dcn_layer", paths)
    assert sibling_module("train.py", "pkg", paths)  # a package beside a root script
    # INVALID: not beside the file, or not in the repository
    assert not sibling_module("model.py", "dcn_layer", paths)
    assert not sibling_module("ext/check.py", "dcn_lib", paths)


def test_a_bare_import_of_a_neighbour_is_no_third_party_package(review) -> None:  # type: ignore[no-untyped-def]
    packages = {t.package for t in review.third_party}
    assert "dcn_layer" not in packages
    assert "dcn_lib" in packages  # VALID: installed beside the repository
    ops = [i.what for i in review.work if i.kind in ("compiled-op", "compiled-custom-op")]
    assert not any(w.startswith("dcn_layer.") for w in ops)
    assert "dcn_lib.DCN" in ops
