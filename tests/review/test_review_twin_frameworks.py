"""What runs beside a second framework's implementation (issue 20 items 1 and 4): a package
holding the same model for MXNet Gluon beside its torch one is an adapter for another
framework, counted apart with the modules only it imports; importing a submodule runs the
packages above it, so a registry package whose ``__init__.py`` imports the model files is
reached by the training that imports only its builder (not "used only by torch.hub entry
points")."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TWIN = {
    "pkg/__init__.py": "",
    "pkg/torch/__init__.py": "from .models import *\n",
    "pkg/torch/models/__init__.py": "from .net import *\n",
    "pkg/torch/models/build.py": """
        REGISTRY = {}
        def register(fn):
            REGISTRY[fn.__name__] = fn
            return fn
        def get_model(name):
            return REGISTRY[name]
    """,
    "pkg/torch/models/net.py": """
        import torch
        from .build import register
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)
            def forward(self, x):
                return self.fc(x)
        @register
        def net18(pretrained=False):
            model = Net()
            if pretrained:
                model.load_state_dict(torch.hub.load_state_dict_from_url("https://x/net18.pth"))
            return model
    """,
    "pkg/gluon/__init__.py": "from .net import *\n",
    "pkg/gluon/net.py": """
        from mxnet.gluon import nn
        class Net(nn.HybridBlock):
            def __init__(self):
                super().__init__()
                self.fc = nn.Dense(2)
    """,
    # no framework import of its own: only the Gluon script uses it
    "pkg/gluon/augment.py": """
        import random
        random_mirror = True
        def flip(img):
            return img[:, ::-1] if random_mirror and random.random() > 0.5 else img
    """,
    "hubconf.py": """
        dependencies = ["torch"]
        from pkg.torch import net18
    """,
    "scripts/torch/train.py": """
        import argparse
        import torch
        from pkg.torch.models.build import get_model
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="net18")
            args = parser.parse_args()
            model = get_model(args.model)()
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            loss = model(torch.zeros(1, 2)).sum()
            loss.backward()
            opt.step()
        if __name__ == "__main__":
            main()
    """,
    "scripts/gluon/train.py": """
        import argparse
        import mxnet as mx
        from mxnet import gluon
        from pkg.gluon import Net
        from pkg.gluon.augment import flip
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--lr", type=float, default=0.05)
            parser.add_argument("--mixup", action="store_true")
            args = parser.parse_args()
            net = Net()
            trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": args.lr})
            loss = gluon.loss.SoftmaxCrossEntropyLoss()
        if __name__ == "__main__":
            main()
    """,
}


def test_another_frameworks_twin_is_an_adapter(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "twin", TWIN)))
    apart = dict(review.ancillary)
    # VALID: the Gluon model and training script are another framework's
    assert apart["pkg/gluon/net.py"].startswith("adapter for mxnet")
    assert apart["scripts/gluon/train.py"].startswith("adapter for mxnet")
    # ... and what only they import goes with them
    assert "pkg/gluon/augment.py" in apart
    # INVALID: no row of the recipe comes from the Gluon script or its helpers
    assert not any("gluon" in r.where.path for r in review.recipe), [
        (r.name, r.where.path) for r in review.recipe if "gluon" in r.where.path
    ]
    assert any(r.name == "torch.optim.SGD" for r in review.recipe)


def test_a_registry_package_is_reached_through_its_init(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "twin", TWIN)))
    apart = dict(review.ancillary)
    # VALID: importing pkg.torch.models.build runs pkg/torch/__init__.py and
    # pkg/torch/models/__init__.py, which import the registered models: the training's
    for path in ("pkg/torch/models/net.py", "pkg/torch/__init__.py"):
        assert path not in apart, (path, apart.get(path))
    assert apart["hubconf.py"] == "torch.hub entry points"
