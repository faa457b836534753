"""A top model whose builder only a variant script switches on (issue 20 item 5): Swin-like
``build_model(config, is_pretrain=False)`` returning ``build_simmim(config)`` under ``if
is_pretrain:``, which only the pretraining variant ``main_pt.py`` passes. The tree says the
variant builds it; the run's own model says nothing of the kind."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

_MODELS = """
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class Masked(torch.nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = torch.nn.Linear(2, 4)

    def forward(self, x):
        return self.decoder(self.encoder(x))


def build_simmim(config):
    return Masked(Net())


def build_model(config, is_pretrain=False):
    if is_pretrain:
        return build_simmim(config)
    return Net()
"""

_MAIN = """
import torch

from models import build_model


def main(config):
    model = build_model(config)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(8, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(None)
"""


def test_a_top_only_a_variant_builds_says_so(tmp_path: Path) -> None:
    files = {
        "models.py": _MODELS,
        "main.py": _MAIN,
        "main_pt.py": _MAIN.replace("build_model(config)", "build_model(config, is_pretrain=True)"),
    }
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    assert dict(review.ancillary)["main_pt.py"] == "variant of main.py"
    tops = {t.cls.rpartition(".")[2]: dict(t.parts) for t in review.top_models}
    assert "a variant script only" in tops["Masked"]["built by"]
    assert "built by" not in tops["Net"]


def test_a_top_the_run_builds_is_the_runs(tmp_path: Path) -> None:
    main = _MAIN.replace("build_model(config)", "build_model(config, True)")
    assert main != _MAIN
    files = {"models.py": _MODELS, "main.py": main}
    review = build_review(str(write_repo(tmp_path / "repo", files)), jobs=1)
    assert not review.errors
    assert "Masked" in {t.cls.rpartition(".")[2] for t in review.top_models}
    assert all("built by" not in dict(t.parts) for t in review.top_models)
