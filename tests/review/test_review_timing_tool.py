"""A timing script in a tools folder, and the training entry it imports.

``tools/bench.py`` builds the solver through the training module's ``get_solver`` and runs
one forward and backward pass at its top level to time it: it builds no optimizer and steps
none, so it is counted apart (timing) wherever it lives, and its top-level code is no
training step (the dataset helpers the solver's builder calls read no value "every step").
The training module it imports (``pkg/train.py``: ``get_optimizer`` builds the optimizer a
solver of another module steps, ``main()`` under ``__main__``) stays the training entry, not
a library trying itself out: its optimizer and seed are recipe rows."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import review_fixture

TRAIN = """\
import torch

from pkg.solver import Solver
from pkg.utils import random_subset


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def get_optimizer(model, lr):
    return torch.optim.Adam(model.parameters(), lr=lr)


def get_solver(lr=3e-4, samples=8):
    torch.manual_seed(42)
    model = Net()
    data = random_subset([torch.randn(4) for _ in range(16)], samples)
    return Solver(model, get_optimizer(model, lr), data)


def main():
    get_solver().train()


if __name__ == "__main__":
    main()
"""

SOLVER = """\
import torch


class Solver:
    def __init__(self, model, optimizer, data):
        self.model = model
        self.optimizer = optimizer
        self.data = data

    def train(self):
        for epoch in range(3):
            for x in self.data:
                loss = self.model(x).abs().mean()
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
"""

UTILS = """\
import torch


def random_subset(dataset, max_samples, seed=42):
    generator = torch.Generator().manual_seed(seed)
    perm = torch.randperm(len(dataset), generator=generator)
    return [dataset[i] for i in perm[:max_samples].tolist()]
"""

BENCH = """\
import torch

from pkg.train import get_solver, main

print(main.__doc__)
solver = get_solver()
x = torch.randn(2, 4)
y = solver.model(x)
y.sum().backward()
print(torch.cuda.max_memory_allocated())
"""


def test_timing_tool_is_apart_and_the_entry_it_imports_trains(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(TRAIN)
    (tmp_path / "pkg" / "solver.py").write_text(SOLVER)
    (tmp_path / "pkg" / "utils.py").write_text(UTILS)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "bench.py").write_text(BENCH)
    review = review_fixture(str(tmp_path))
    apart = dict(review.ancillary)
    assert "tools/bench.py" in apart
    # no host read "every step" in the dataset helper the solver's builder calls once
    assert not [i for i in review.work if i.kind == "step-sync"]
    # the training entry's rows: the optimizer it builds and the seed it sets
    (adam,) = [r for r in review.recipe if r.category == "optimizer"]
    assert adam.name == "torch.optim.Adam"
    assert dict(adam.values)["lr"].startswith("3e-4")
    assert [r.name for r in review.recipe if r.name == "torch.manual_seed"] == ["torch.manual_seed"]


def test_an_entry_building_the_optimizer_is_no_self_test(tmp_path: Path) -> None:
    """A module other files import whose own functions build the optimizer (the backward
    pass is a solver's, in another module) runs a training from its ``__main__`` block:
    no library trying itself out. A module that only builds a model there still is one."""
    from apiscan.pipeline import ScanOptions, scan_with_facts
    from apiscan.review.sources import self_tests

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(TRAIN)
    (tmp_path / "pkg" / "solver.py").write_text(SOLVER)
    (tmp_path / "pkg" / "utils.py").write_text(UTILS)
    (tmp_path / "pkg" / "net.py").write_text(
        "import torch\n\n\nclass Tiny(torch.nn.Module):\n    pass\n\n\n"
        'if __name__ == "__main__":\n    print(Tiny())\n'
    )
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "bench.py").write_text(BENCH + "from pkg.net import Tiny\n")
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    assert sorted(self_tests(analyses)) == ["pkg/net.py"]
