"""A dataset every experiment file builds in its own ``get_data_loader`` (``Mosaic(ds,
scale=self.scale)``), the documented command loading two of them (``train.py -f
exps/run/exp_a.py``) while four more and the base class build it with other values: the
parameter's value in the dataset's own rows (its per-sample draws) is what the loaded
configurations pass, not the constructor's default the unloaded ones leave it at."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_EXP = """
    from pkg.exp import Exp as BaseExp
    from pkg.data import Mosaic


    class Exp(BaseExp):
        def __init__(self):
            super().__init__()
            self.lr = {lr}

        def get_data_loader(self):
            return Mosaic([1, 2, 3], {scale})
"""

FILES = {
    "README.md": """
        # Detector

        ```
        python tools/train.py -f exps/run/exp_a.py -b 8
        python tools/train.py -f exps/run/exp_b.py -b 8
        ```
    """,
    "pkg/__init__.py": "",
    "pkg/data.py": """
        import random


        class Mosaic:
            def __init__(self, items, scale=(0.5, 1.5)):
                self.items = items
                self.scale = scale

            def __len__(self):
                return len(self.items)

            def __getitem__(self, index):
                factor = random.uniform(self.scale[0], self.scale[1])
                return self.items[index] * factor
    """,
    "pkg/model.py": """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x)
    """,
    "pkg/exp.py": """
        import torch

        from pkg.data import Mosaic
        from pkg.model import Net


        class Exp:
            def __init__(self):
                self.lr = 0.01
                self.scale = (0.1, 2)

            def get_model(self):
                return Net()

            def get_optimizer(self, model):
                return torch.optim.SGD(model.parameters(), lr=self.lr)

            def get_data_loader(self):
                return Mosaic([1, 2, 3], scale=(0.3, 0.4))
    """,
    "pkg/build.py": """
        import importlib
        import os
        import sys


        def get_exp(exp_file):
            sys.path.append(os.path.dirname(exp_file))
            module = importlib.import_module(os.path.basename(exp_file).split(".")[0])
            return module.Exp()
    """,
    "tools/train.py": """
        import argparse

        import torch

        from pkg.build import get_exp


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("-f", "--exp_file", default=None)
            parser.add_argument("-b", "--batch-size", type=int, default=4)
            args = parser.parse_args()
            exp = get_exp(args.exp_file)
            model = exp.get_model()
            opt = exp.get_optimizer(model)
            data = exp.get_data_loader()
            for item in data:
                loss = model(torch.full((args.batch_size, 4), float(item))).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
    "exps/run/exp_a.py": _EXP.format(lr=0.001, scale="scale=self.scale"),
    "exps/run/exp_b.py": _EXP.format(lr=0.002, scale="scale=self.scale"),
    "exps/run/exp_c.py": _EXP.format(lr=0.003, scale="scale=(0.9, 1.1)"),
    "exps/run/exp_d.py": _EXP.format(lr=0.004, scale="scale=(0.9, 1.1)"),
    "exps/run/exp_e.py": _EXP.format(lr=0.005, scale="scale=(0.9, 1.1)"),
}


def test_the_loaded_configurations_give_the_dataset_its_values(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "repo", FILES)), jobs=1)
    (row,) = [i for i in review.recipe if i.name == "Mosaic.__getitem__"]
    scale = dict(row.values)["self.scale"]
    assert scale.startswith("(0.1, 2)"), scale
