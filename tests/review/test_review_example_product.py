"""Where nothing trains, the examples, demos and notebooks are how the library is used: the
code they call of its ported modules (a diffusion sampler a notebook drives) is the inference
path to port, priced, not code counted apart with them. Where something trains, what only
an example calls stays apart with it."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions
from apiscan.review.build import review

MODEL = """
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x, t):
        return self.proj(x) * t
"""

SAMPLER = """
import torch


class Sampler:
    def __init__(self, model, steps=8):
        self.model = model
        self.steps = steps

    def sample(self, shape):
        x = torch.randn(*shape)
        for t in torch.linspace(1.0, 0.0, self.steps):
            eps = self.model(x, t)
            x = torch.addcmul(x, eps, torch.full_like(x, -0.1))
        return x.clamp(-1, 1)
"""

EXAMPLE = """
import torch
from pkg.model import Denoiser
from pkg.sampler import Sampler

model = Denoiser(4)
model.load_state_dict(torch.load("weights.pt"))
print(Sampler(model).sample((2, 4)))
"""

TRAIN = """
import torch
from pkg.model import Denoiser

model = Denoiser(4)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(10):
    loss = model(torch.randn(2, 4), 1.0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def _apart_sentence(root: Path) -> str:
    rv = review(ScanOptions(str(root), cache_dir=None, jobs=1))
    return " ".join(s for s in rv.effort.explanation if s.startswith("Used only by files"))


def test_what_an_untrained_librarys_examples_call_is_ported(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/model.py": MODEL,
            "pkg/sampler.py": SAMPLER,
            "examples/sample.py": EXAMPLE,
        },
    )
    # VALID: the sampler only the example calls is the inference path: ported and priced
    assert "Sampler" not in _apart_sentence(tmp_path)


def test_what_only_an_example_calls_stays_apart_where_something_trains(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/model.py": MODEL,
            "pkg/sampler.py": SAMPLER,
            "examples/sample.py": EXAMPLE,
            "train.py": TRAIN,
        },
    )
    # INVALID: beside a training, an example's sampler is the example's, counted apart
    assert "pkg/sampler.py:Sampler (examples/sample.py)" in _apart_sentence(tmp_path)
