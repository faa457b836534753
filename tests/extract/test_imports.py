"""Every import form resolves to the public, canonical torch name."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import api_set, scan_repo, scan_snippet, write_repo

CASES = [
    ("import torch\ntorch.zeros(3)\n", {(2, "torch.zeros")}),
    ("import torch as t\nt.ones(2)\n", {(2, "torch.ones")}),
    ("import torch.nn as nn\nnn.Conv2d(3, 8, 3)\n", {(2, "torch.nn.Conv2d")}),
    ("import torch.nn.functional as F\nF.relu\n", {(2, "torch.nn.functional.relu")}),
    (
        "from torch import nn, optim\nnn.ReLU()\noptim.SGD\n",
        {(2, "torch.nn.ReLU"), (3, "torch.optim.SGD")},
    ),
    (
        "from torch.nn import functional as F, Conv2d\nF.gelu(x)\nConv2d(1, 2, 3)\n",
        {(2, "torch.nn.functional.gelu"), (3, "torch.nn.Conv2d")},
    ),
    (
        "from torch.nn import *\nLinear(2, 3)\nfunctional.relu\n",
        {(2, "torch.nn.Linear"), (3, "torch.nn.functional.relu")},
    ),
    ("import torch.nn\ntorch.nn.Linear(1, 2)\n", {(2, "torch.nn.Linear")}),
    ("def f():\n    import torch\n    return torch.cat([])\n", {(3, "torch.cat")}),
    (
        "try:\n    from torch.cuda.amp import GradScaler\nexcept ImportError:\n"
        "    GradScaler = None\nGradScaler()\n",
        {(5, "torch.cuda.amp.GradScaler")},
    ),
    # the fallback class of an old-version ``except:`` does not hide the import inside a
    # function either (functions read the module's names as they stand after it ran)
    (
        "try:\n    from torch.cuda.amp import GradScaler\nexcept:\n"
        "    class GradScaler:\n        pass\ndef f():\n    return GradScaler()\n",
        {(7, "torch.cuda.amp.GradScaler")},
    ),
    (
        "import torch\ntry:\n    autocast = torch.cuda.amp.autocast\nexcept:\n"
        "    class autocast:\n        pass\ndef f():\n    with autocast(enabled=True):\n"
        "        pass\n",
        {(8, "torch.cuda.amp.autocast")},
    ),
    ("from torch.nn.modules.conv import Conv2d\nConv2d(1, 1, 1)\n", {(2, "torch.nn.Conv2d")}),
    ("import torch\ntorch.nn.modules.batchnorm.BatchNorm2d(4)\n", {(2, "torch.nn.BatchNorm2d")}),
    ("from torch.autograd import no_grad\nno_grad()\n", {(2, "torch.autograd.no_grad")}),
    (
        "from torch.optim.lr_scheduler import StepLR as S\nS(o, 3)\n",
        {(2, "torch.optim.lr_scheduler.StepLR")},
    ),
    # a function defined above the import still sees it when it runs
    ("def f(x):\n    return torch.exp(x)\nimport torch\n", {(2, "torch.exp")}),
]


@pytest.mark.parametrize(("src", "expected"), CASES, ids=[c[0].split("\n")[0] for c in CASES])
def test_import_forms(tmp_path: Path, src: str, expected: set[tuple[int, str]]) -> None:
    found = api_set(scan_snippet(tmp_path, src))
    assert expected <= found, found


def test_reexport_through_repo_module(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "from .layers import nn\n",
            "pkg/layers.py": "from torch import nn\nimport torch.nn.functional as F\n",
            "pkg/model.py": """
            from pkg.layers import nn
            from .layers import F
            from pkg import nn as nn2
            import pkg.layers as L

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.c = nn.Conv2d(1, 1, 1)
                    self.d = nn2.Dropout()
                    self.e = L.nn.Linear(1, 1)

                def forward(self, x):
                    return F.relu(self.c(x)).flatten(1)
            """,
        },
    )
    found = {(f.path, f.span.line, f.api, f.confidence) for f in scan_repo(tmp_path).api_findings}
    assert ("pkg/model.py", 6, "torch.nn.Module", "certain") in found
    assert ("pkg/model.py", 9, "torch.nn.Conv2d", "certain") in found
    assert ("pkg/model.py", 10, "torch.nn.Dropout", "certain") in found
    assert ("pkg/model.py", 11, "torch.nn.Linear", "certain") in found
    assert ("pkg/model.py", 14, "torch.nn.functional.relu", "certain") in found
    # the receiver of .flatten is known to be a tensor because F.relu returns one
    assert ("pkg/model.py", 14, "torch.Tensor.flatten", "certain") in found


def test_a_submodule_shadowed_by_a_package_attribute_keeps_its_own_names(
    tmp_path: Path,
) -> None:
    # pkg/layers/__init__.py binds ``nms`` (the package attribute) to torchvision's nms while
    # pkg/layers/nms.py defines its own batched_nms: ``from .nms import batched_nms`` imports
    # the submodule, so batched_nms is the repository's function, not a torchvision one.
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/layers/__init__.py": "from .nms import batched_nms, nms\n",
            "pkg/layers/nms.py": """
            import torch
            from torchvision.ops import nms

            def batched_nms(boxes, scores, idxs, t):
                return nms(boxes.float(), scores, t)
            """,
            "pkg/head.py": """
            from pkg.layers import batched_nms, nms

            def run(b, s, i):
                return batched_nms(b, s, i, 0.5), nms(b, s, 0.5)
            """,
        },
    )
    found = {(f.path, f.api) for f in scan_repo(tmp_path).api_findings}
    assert not any("batched_nms" in api for _, api in found), found
    assert ("pkg/head.py", "torchvision.ops.nms") in found


def test_local_names_shadow_torch(tmp_path: Path) -> None:
    src = """
        import torch.nn.functional as F
        from torch import nn

        def table():
            F = {"a": "{:.1f}"}
            nn = dict()
            return F.get("a"), nn.items()

        F.relu
        """
    found = api_set(scan_snippet(tmp_path, src))
    assert found == {(9, "torch.nn.functional.relu")}


def test_user_class_named_like_torch(tmp_path: Path) -> None:
    src = """
        import torch

        class Linear:
            def __init__(self, n):
                self.n = n

            def forward(self, x):
                return x

        layer = Linear(3)
        layer.forward(1)
        torch.nn.Linear(2, 2)
        """
    found = api_set(scan_snippet(tmp_path, src))
    assert found == {(12, "torch.nn.Linear")}


def test_non_torch_modules_are_ignored(tmp_path: Path) -> None:
    src = """
        import numpy as np
        import os.path
        np.zeros(3).reshape(1, 3).transpose(1, 0).sum()
        os.path.join("a", "b").split("/")
        """
    assert scan_snippet(tmp_path, src) == []


def test_a_fallback_class_stays_the_repositorys_when_the_try_imports_no_torch_name(
    tmp_path: Path,
) -> None:
    """Only a torch name the ``try:`` imports wins over its handler's fallback: a class
    defined for a missing third-party package is the repository's own."""
    src = (
        "import torch\ntry:\n    from apex import Scaler\nexcept:\n"
        "    class Scaler:\n        pass\ndef f():\n    return Scaler(), torch.zeros(1)\n"
    )
    found = api_set(scan_snippet(tmp_path, src))
    assert found == {(8, "torch.zeros")}


def test_a_name_star_imported_back_into_its_package_keeps_its_class(tmp_path: Path) -> None:
    # pkg/nat/__init__.py star-imports the base's module, then a module that imported the
    # base from pkg.nat: the second star import binds the same object again, so pkg.nat's
    # name still stands for the class in base.py, and a class deriving from it is a module
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/nat/__init__.py": "from .base import *\nfrom .sub import *\n",
            "pkg/nat/base.py": """
            from torch import nn

            class NatBase(nn.Module):
                def forward(self, x):
                    return x
            """,
            "pkg/nat/sub.py": """
            from pkg.nat import NatBase

            class NatSub(NatBase):
                pass
            """,
            "pkg/train.py": """
            from pkg.nat import NatSub

            def main():
                model = NatSub()
                model.zero_grad()
            """,
        },
    )
    found = {(f.path, f.span.line, f.api, f.confidence) for f in scan_repo(tmp_path).api_findings}
    assert ("pkg/train.py", 5, "torch.nn.Module.zero_grad", "certain") in found, found
