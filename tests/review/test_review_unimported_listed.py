"""A module that no file imports and no command runs is not reached, even where the
repository loads other modules by name (issue 20: a toolkit whose model registry imports
its own folder's modules by name, while its package of layers lists the modules it offers in
its ``__init__.py``, and one layer module there is imported by nothing). That module is
counted apart (unused), its state written in the forward no work item; a module of the
folder the registry scans stays ported though no file imports it by name."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

FILES = {
    "README.md": """
        # kit

        ```
        python train.py --model net
        ```
    """,
    "kit/__init__.py": "",
    "kit/models/__init__.py": """
        import importlib
        import os

        MODELS = {}


        def register(name):
            def wrap(cls):
                MODELS[name] = cls
                return cls
            return wrap


        def build(name):
            return MODELS[name]()


        for file in sorted(os.listdir(os.path.dirname(__file__))):
            if file.endswith(".py") and not file.startswith("_"):
                importlib.import_module("kit.models." + file[: -len(".py")])
    """,
    "kit/models/net.py": """
        from torch import nn

        from kit.models import register
        from kit.modules import Block


        @register("net")
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block(8)

            def forward(self, x):
                return self.block(x)
    """,
    # loaded by the registry's scan of its folder: no file imports it by name
    "kit/models/wide.py": """
        from torch import nn

        from kit.models import register


        @register("wide")
        class Wide(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 16)

            def forward(self, x):
                return self.fc(x)
    """,
    "kit/modules/__init__.py": """
        from .block import Block

        __all__ = ["Block"]
    """,
    "kit/modules/block.py": """
        from torch import nn


        class FeedForward(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)

            def forward(self, x):
                return self.fc(x).relu()


        class Block(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.ff = FeedForward(dim)

            def forward(self, x):
                return self.ff(x)
    """,
    # imported by no file: neither the package's ``__init__.py`` nor any model (its
    # ``FeedForward`` named as the block's is)
    "kit/modules/clustered.py": """
        import torch
        from torch import nn


        class Kmeans(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.register_buffer("means", torch.zeros(4, dim))

            @torch.no_grad()
            def init(self, x):
                self.means.data.copy_(x[:4])

            def forward(self, x):
                self.init(x)
                return x @ self.means.t()


        class FeedForward(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.kmeans = Kmeans(dim)

            def forward(self, x):
                return self.kmeans(x)
    """,
    "train.py": """
        import argparse

        import torch

        from kit.models import build


        def main(args):
            model = build(args.model)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for x, y in torch.utils.data.DataLoader(list(range(4)), batch_size=2):
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="net")
            main(parser.parse_args())
    """,
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(tmp_path_factory.mktemp("unimportedlisted"), FILES)
    return build_review(str(root), jobs=1)


def test_the_module_nothing_imports_is_counted_apart(review: Review) -> None:
    apart = dict(review.ancillary)
    assert apart.get("kit/modules/clustered.py") == "unused (nothing imports it)"


def test_the_modules_a_scan_loads_by_name_stay_ported(review: Review) -> None:
    apart = dict(review.ancillary)
    assert "kit/models/wide.py" not in apart
    assert "kit/models/net.py" not in apart
    assert "kit/modules/block.py" not in apart


def test_the_unimported_module_gives_no_work_item(review: Review) -> None:
    assert not [
        i for i in review.work if any(w.path == "kit/modules/clustered.py" for w in i.where)
    ]
    assert "state-in-forward" not in {i.kind for i in review.work}
