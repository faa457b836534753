"""A config builder that creates an object and sets its attributes one by one before
returning it (``fixtures/cfgnode``: ``C = CN()``, ``C.learning_rate = 3e-4``, ...,
``return C``) resolves the attribute reads of its result like a keyword-built one, through
the parameters the config is passed as, the attribute a trainer keeps it in, the tuple it is
unpacked from and the config of configs it is an attribute of; a later setting in the code
that built it replaces the builder's default; what the builder does not set stays as
written."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

CFGNODE = Path(__file__).resolve().parents[2] / "fixtures" / "cfgnode"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(CFGNODE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, CFGNODE)


def values(items: tuple[RecipeItem, ...], name: str) -> dict[str, str]:
    return dict(next(i for i in items if i.name == name).values)


def test_an_attribute_set_by_the_builder_is_resolved(items) -> None:
    adamw = values(items, "torch.optim.AdamW")
    # the last setting before the return wins, through the parameter it is passed as
    assert adamw["lr"] == (
        "5e-4 (train_config.learning_rate: built by get_default_config() at train.py:26; "
        "learning_rate set at trainer.py:10)"
    )
    assert adamw["betas"].startswith("(0.9, 0.95) (train_config.betas: built by")


def test_a_config_of_configs_kept_by_a_trainer_is_followed(items) -> None:
    # ``full.trainer`` built by the builder inside ``get_config()``, then overridden
    # there; the trainer keeps it as ``self.config`` and unpacks it in ``run``
    clip = values(items, "torch.nn.utils.clip_grad_norm_")
    assert clip["max_norm"] == (
        "2.0 (config.grad_norm_clip: built by get_default_config() at train.py:10; "
        "grad_norm_clip set at train.py:11, after the builder's default)"
    )


def test_what_the_builder_does_not_set_stays_as_written(items) -> None:
    # INVALID: never set by the builder
    assert values(items, "torch.optim.AdamW")["weight_decay"] == "train_config.weight_decay"
    # a function setting an attribute on the config it is passed and returning it: the
    # attribute read of its result is that setting, the last writer (it runs before the read)
    clip = values(items, "torch.nn.utils.clip_grad_value_")
    assert clip["clip_value"].startswith("0.5 (other.weight_decay: built by get_passed_config()")
