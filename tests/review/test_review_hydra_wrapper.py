"""A Hydra entry point reached through a wrapper imported under its own name.

Experiment managers wrap Hydra's decorator with the same ``config_path=``/``config_name=``
signature (``from dora import hydra_main``): the decorated function is handed the composed
config, so the optimizer's settings and the branch the config picks are read from the YAML,
as for ``@hydra.main``."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import review_fixture

TRAIN = """\
import torch
from dora import hydra_main


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def get_optimizer(model, args):
    if args.optim.optim == "adam":
        return torch.optim.Adam(model.parameters(), lr=args.optim.lr)
    elif args.optim.optim == "sgd":
        return torch.optim.SGD(model.parameters(), lr=args.optim.lr, momentum=0.9)
    raise ValueError(args.optim.optim)


@hydra_main(config_path="../conf", config_name="config")
def main(args):
    torch.manual_seed(args.seed)
    model = Net()
    optimizer = get_optimizer(model, args)
    for x in range(args.epochs):
        loss = model(torch.randn(2, 4)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""

CONFIG = """\
seed: 7
epochs: 3
optim:
  optim: sgd
  lr: 0.05
"""


def test_wrapped_hydra_entry_reads_the_composed_config(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(TRAIN)
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text(CONFIG)
    review = review_fixture(str(tmp_path))
    optimizers = [r for r in review.recipe if r.category == "optimizer"]
    # the config picks SGD: the Adam branch is no row
    assert [r.name for r in optimizers] == ["torch.optim.SGD"]
    lr = dict(optimizers[0].values)["lr"]
    assert lr.startswith("0.05 (") and "conf/config.yaml" in lr
    assert "@hydra_main" in lr
    (seed,) = [r for r in review.recipe if r.name == "torch.manual_seed"]
    assert dict(seed.values)["seed"].startswith("7 (")


SOLVER_TRAIN = """\
import torch
from dora import hydra_main


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


class Solver:
    def __init__(self, model, optimizer, args):
        self.model = model
        self.optimizer = optimizer
        self.args = args
        self.history = []

    def train(self):
        for epoch in range(len(self.history), self.args.epochs):
            self._run_one_epoch(epoch)
            for k, v in enumerate(self.history):
                print(k, v)

    def _run_one_epoch(self, epoch):
        for x in [torch.randn(2, 4)]:
            loss = self.model(x).sum()
            loss.backward()
            self.optimizer.step()


@hydra_main(config_path="../conf", config_name="config")
def main(args):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.optim.lr)
    Solver(model, optimizer, args).train()


if __name__ == "__main__":
    main()
"""


def test_config_stored_on_self_gives_the_epochs(tmp_path: Path) -> None:
    """A solver handed the config stores it (``self.args = args``); its epoch loop runs to
    ``self.args.epochs``: the config's value, read through the constructor's call site."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(SOLVER_TRAIN)
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text(CONFIG)
    review = review_fixture(str(tmp_path))
    (epochs,) = [r for r in review.recipe if r.category == "epochs"]
    assert dict(epochs.values)["value"].startswith("3 (")
