"""A config section read by key (``cfg.optim["weight_decay"]``, an OmegaConf node loaded
from the default YAML) is the same setting as ``cfg.optim.weight_decay``: the recipe shows
the YAML's value with its place; a key the code writes before the run reads it
(``cfg.optim.lr = cfg.optim.base_lr`` then ``*=`` a scaling rule) keeps its expression, not
the YAML's placeholder."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

LOADER = """\
import pathlib

from omegaconf import OmegaConf


def load_config(config_name: str):
    config_filename = config_name + ".yaml"
    return OmegaConf.load(pathlib.Path(__file__).parent.resolve() / config_filename)


default_config = load_config("default_config")
"""

YAML = """\
optim:
  base_lr: 0.004
  lr: 0.
  weight_decay: 0.04
"""

TRAIN = """\
import torch
from omegaconf import OmegaConf
from torch import nn

from pkg.configs import default_config


def setup():
    cfg = OmegaConf.create(default_config)
    cfg.optim.lr = cfg.optim.base_lr
    cfg.optim.lr *= 2.0
    return cfg


def main():
    cfg = setup()
    net = nn.Linear(8, 8)
    opt = torch.optim.AdamW(
        net.parameters(), lr=cfg.optim["lr"], weight_decay=cfg.optim["weight_decay"]
    )
    for _ in range(10):
        loss = net(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
"""


def test_a_section_read_by_key_takes_the_config_files_value(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "configs").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "configs" / "__init__.py").write_text(LOADER)
    (tmp_path / "pkg" / "configs" / "default_config.yaml").write_text(YAML)
    (tmp_path / "pkg" / "train.py").write_text(TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    optimizer = next(i for i in review.recipe if i.category == "optimizer")
    values = dict(optimizer.values)
    assert values["weight_decay"].startswith("0.04 (cfg.optim.weight_decay: 0.04 in ")
    assert "default_config.yaml:4" in values["weight_decay"]
    # written by the code before the run reads it: not the YAML's 0.
    assert values["lr"] == 'cfg.optim["lr"]'
