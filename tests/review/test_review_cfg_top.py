"""Recipe values held by a global config object's top-level keys and by the arguments an
initialisation helper is called with (``fixtures/cfgtop``: faster-rcnn-shaped ``__C.RNG_SEED
= 3`` read as ``cfg.RNG_SEED`` after ``cfg = __C``; ``normal_init(layer, 0, 0.01, ...)``
defined inside ``_init_weights`` and called there per layer), and options that set how often
the run logs or saves rather than how long it trains."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "cfgtop"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, FIXTURE)


def values(items: tuple[RecipeItem, ...], category: str, name: str) -> dict[str, str]:
    (found,) = [i for i in items if i.category == category and i.name == name]
    return dict(found.values)


def test_a_top_level_key_is_read_through_the_alias(items: tuple[RecipeItem, ...]) -> None:
    assert values(items, "seed", "numpy.random.seed") == {
        "seed": "3 (cfg.RNG_SEED: default at lib/config.py:11)"
    }
    # an upper-case attribute of another object is not the config's key: its own class's
    assert values(items, "seed", "torch.manual_seed") == {
        "seed": "7 (opts.RNG_SEED: built by Options() at train.py:28; RNG_SEED: field "
        "default at train.py:12)"
    }
    # section keys read as before
    assert values(items, "optimizer", "torch.optim.SGD")["momentum"] == (
        "0.9 (cfg.TRAIN.MOMENTUM: default at lib/config.py:7)"
    )


def test_an_option_the_function_overwrites_before_the_call(
    items: tuple[RecipeItem, ...],
) -> None:
    group = values(items, "distributed", "torch.distributed.init_process_group")
    # written unconditionally before the call: the option's 'gloo' never reaches it
    assert group["backend"] == "'nccl' (args.dist_backend set at lib/dist.py:9)"
    # written under an ``if``: the option's default when it does not run
    assert group["world_size"] == (
        "int(os.environ['WORLD_SIZE']) (args.world_size set at lib/dist.py:8) | 1 "
        "(args.world_size: default of argparse --world_size at train.py:21)"
    )
    # a write after the call is not what the call was given
    assert group["init_method"] == (
        "'env://' (args.dist_url: default of argparse --dist_url at train.py:23)"
    )


def test_an_init_helper_shows_what_its_callers_pass(items: tuple[RecipeItem, ...]) -> None:
    normal = values(items, "init", "Detector._init_weights.normal_init")
    assert normal["m.weight.data.normal_"] == (
        "0, 0.01 | 0.001 (normal_init() called at lib/net.py:24, lib/net.py:25, lib/net.py:26)"
    )
    assert normal["m.bias.data.zero_"] == ""
    # a value computed from the layer is left as the parameter's name
    uniform = values(items, "init", "Detector.init_extra.uniform_init")
    assert uniform == {"m.weight.data.uniform_": "-bound, bound"}


def test_logging_and_saving_cadence_is_no_training_length(
    items: tuple[RecipeItem, ...],
) -> None:
    lengths = {i.name for i in items if i.category == "epochs"}
    assert lengths == {"argparse --epochs", "argparse --max_iters"}
    assert not [i for i in items if "interval" in i.name]
