"""Root scripts beside a root training script (issue 20): a benchmark named ``bench.py``
timing the training step, a sampling script drawing from the trained checkpoint with its loop
at module level (no guard, no options), and an options file the training runs with
``exec(open(...).read())``. The first two are tools (their seeds, precision and host reads are
not the recipe's or the port's); the third is the training's own code."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "model.py": """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)
""",
    "overrides.py": """
import sys

for arg in sys.argv[1:]:
    if arg.endswith(".py"):
        exec(open(arg).read())
""",
    "train.py": """
import torch
from model import Net

batch_size = 32
learning_rate = 1e-3
exec(open("overrides.py").read())
model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=learning_rate)
for step in range(100):
    x = torch.randn(batch_size, 8)
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
torch.save(model.state_dict(), "ckpt.pt")
""",
    "bench.py": """
import torch
from model import Net

seed = 1234
torch.manual_seed(seed)
model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(20):
    loss = model(torch.randn(4, 8)).mean()
    loss.backward()
    opt.step()
    print(loss.item())
""",
    "sample.py": """
import torch
from model import Net

seed = 7
torch.manual_seed(seed)
model = Net()
model.load_state_dict(torch.load("ckpt.pt"))
with torch.no_grad():
    for k in range(3):
        print(model(torch.randn(1, 8)))
""",
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("sidescripts"), FILES)))


def test_a_benchmark_and_a_sampling_script_beside_the_training_are_tools(review) -> None:
    apart = dict(review.ancillary)
    assert apart["bench.py"] == "tools"
    assert apart["sample.py"] == "tools"
    for path in ("train.py", "model.py"):
        assert path not in apart, path


def test_an_options_file_the_training_executes_stays_ported(review) -> None:
    assert "overrides.py" not in dict(review.ancillary)


def test_their_seeds_precision_and_host_reads_are_no_recipe_or_work(review) -> None:
    # (a checkpoint a tool loads stays a conversion item: released weights are loaded so)
    places = {w.path for item in review.work if item.kind != "checkpoint" for w in item.where}
    assert not places & {"bench.py", "sample.py"}
    rows = {r.where.path for r in review.recipe if r.category != "checkpoint"}
    assert not rows & {"bench.py", "sample.py"}
    assert any(r.name == "torch.optim.AdamW" and r.where.path == "train.py" for r in review.recipe)
