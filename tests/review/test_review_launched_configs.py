"""The config modules a documented training command names (issue 20 item 4): ``train.py -f
exps/example/run/exp_a.py`` loads its experiment by path, so that file is the run's
configuration wherever it lies (an ``example`` folder), and the experiments beside it that
no command names are configurations the run never loads, with their work items."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.work import UNLAUNCHED

_FILES = {
    "README.md": """
        # Tracker

        ```
        python tools/train.py -f exps/example/run/exp_a.py -b 8
        python tools/train.py -f exps/example/run/exp_c.py -b 8
        ```
    """,
    "pkg/__init__.py": "",
    "pkg/model.py": """
        import torch


        class Net(torch.nn.Module):
            def __init__(self, width=1.0):
                super().__init__()
                self.fc = torch.nn.Linear(4, int(2 * width))

            def forward(self, x):
                return self.fc(x)
    """,
    "pkg/exp.py": """
        import torch

        from pkg.model import Net


        class Exp:
            def __init__(self):
                self.width = 1.0
                self.lr = 0.01

            def get_model(self):
                return Net(self.width)

            def get_optimizer(self, model):
                return torch.optim.SGD(model.parameters(), lr=self.lr)
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
            for x in [torch.randn(args.batch_size, 4)]:
                loss = model(x).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
    "exps/example/run/exp_a.py": """
        from pkg.exp import Exp as BaseExp


        class Exp(BaseExp):
            def __init__(self):
                super().__init__()
                self.lr = 0.001
    """,
    "exps/example/run/exp_c.py": """
        from pkg.exp import Exp as BaseExp


        class Exp(BaseExp):
            def __init__(self):
                super().__init__()
                self.width = 2.0
    """,
    "exps/default/exp_b.py": """
        import torch

        from pkg.exp import Exp as BaseExp


        class Exp(BaseExp):
            def get_data_loader(self, batch_size):
                from data.datasets.cocodataset import COCODataset
                from data.datasets.dataloading import DataLoader

                dataset = COCODataset(data_dir="data/COCO/", json_file="train.json")
                return DataLoader(dataset, batch_size=batch_size, shuffle=True)
    """,
}


def test_the_configs_the_training_command_names_are_ported_and_the_others_apart(
    tmp_path: Path,
) -> None:
    review = build_review(str(write_repo(tmp_path / "repo", _FILES)), jobs=1)
    apart = dict(review.ancillary)
    # named by the documented command: the run's configuration, not an example
    assert "exps/example/run/exp_a.py" not in apart
    assert "exps/example/run/exp_c.py" not in apart
    # an experiment no command loads: its stale third-party data pipeline is no work
    assert apart["exps/default/exp_b.py"] == UNLAUNCHED
    assert not any(w.path == "exps/default/exp_b.py" for i in review.work for w in i.where)


def test_a_command_picking_its_config_by_name_leaves_the_others_ported(tmp_path: Path) -> None:
    files = dict(_FILES)
    files["README.md"] = _FILES["README.md"].replace("-f exps/example/run/exp_c.py", "-n exp-b")
    review = build_review(str(write_repo(tmp_path / "named", files)), jobs=1)
    apart = dict(review.ancillary)
    assert "exps/example/run/exp_a.py" not in apart
    # the run may load any experiment by its name: none is told apart as unloaded, and
    # the third-party data pipeline of the one the name picks is work
    assert UNLAUNCHED not in apart.values()
    assert any(w.path == "exps/default/exp_b.py" for i in review.work for w in i.where)
