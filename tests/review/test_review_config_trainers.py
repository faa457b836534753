"""A class whose own method trains (a Lightning-style ``configure_optimizers``) is built by
the name a config file writes (``target: pkg.models.Base``, instantiated by ``importlib``):
where the configs name such classes, one no config and no code names (an EMA variant
subclassing the named one) is dead code, not a training the port must carry."""

from __future__ import annotations

from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import documented_uncalled

_MODELS = """\
import torch
import torch.nn as nn


class Base(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        return self.fc(x)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-4)


class EmaVariant(Base):
    def configure_optimizers(self):
        return torch.optim.Adam(self.fc.parameters(), lr=1e-4, betas=(0.5, 0.9))
"""

_MAIN = """\
import importlib
import sys

import yaml


def instantiate(config):
    module, cls = config["target"].rsplit(".", 1)
    return getattr(importlib.import_module(module), cls)(**config.get("params", {}))


if __name__ == "__main__":
    config = yaml.safe_load(open(sys.argv[1]))
    model = instantiate(config["model"])
    optimizer = model.configure_optimizers()
"""


def _uncalled(root: Path) -> set[tuple[str, str]]:
    result, analyses = scan_with_facts(ScanOptions(path=str(root), cache_dir=None))
    return set(documented_uncalled(analyses, result, root))


def test_a_trainer_class_no_config_names_is_dead(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", "utf-8")
    (tmp_path / "pkg" / "models.py").write_text(_MODELS, "utf-8")
    (tmp_path / "main.py").write_text(_MAIN, "utf-8")
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "base.yaml").write_text(
        "model:\n  target: pkg.models.Base\n  params:\n    width: 16\n", "utf-8"
    )
    dead = _uncalled(tmp_path)
    assert ("pkg/models.py", "EmaVariant") in dead
    assert ("pkg/models.py", "Base") not in dead
    # VALID: where no config names any such class, each one's training method keeps it
    # (a launcher the records do not show may run it)
    (tmp_path / "configs" / "base.yaml").write_text("model:\n  width: 16\n", "utf-8")
    dead = _uncalled(tmp_path)
    assert ("pkg/models.py", "EmaVariant") not in dead
