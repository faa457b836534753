"""The default config a training loads with ``OmegaConf.load`` (``fixtures/omegadefault``):
the YAML named by a constant (``load_config("train_default")`` loading
``Path(__file__).parent / (config_name + ".yaml")``) gives ``cfg.optim.base_lr`` its value,
with file and line; a key it does not set, and the run's own ``--config-file`` (no constant
names it), give nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

OMEGADEFAULT = Path(__file__).resolve().parents[2] / "fixtures" / "omegadefault"
WHY = "the default config OmegaConf.load reads at proj/configs/__init__.py:8"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(OMEGADEFAULT), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, OMEGADEFAULT)


def values(items: tuple[RecipeItem, ...], name: str) -> dict[str, str]:
    (found,) = [i for i in items if i.name == name]
    return dict(found.values)


def test_a_key_of_the_default_yaml_gives_its_value(items) -> None:
    adamw = values(items, "torch.optim.AdamW")
    assert (
        adamw["lr"]
        == f"0.004 (cfg.optim.base_lr: 0.004 in proj/configs/train_default.yaml:2, {WHY})"
    )
    assert adamw["weight_decay"].startswith("0.04 (cfg.optim.weight_decay: 0.04 in ")
    loader = values(items, "torch.utils.data.DataLoader")
    assert loader["batch_size"].startswith("64 (cfg.train.batch_size_per_gpu: 64 in ")


def test_a_key_the_yaml_does_not_set_stays_as_written(items) -> None:
    assert values(items, "torch.utils.data.DataLoader")["num_workers"] == "cfg.train.workers"
