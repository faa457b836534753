"""The code's reads of a Darknet ``[net]`` section (``fixtures/darknetpick``): values read
by key from the name the code keeps the section in show the file's value, a key the file
leaves out and the code reads with ``.get`` is None, so the branch it picks is told (Adam
under ``in [None, "adam"]``, the SGD ``elif`` no row); a gradient accumulation every 1
backward pass says it is every step. A dict read by one key only is no config."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

DARKNETPICK = Path(__file__).resolve().parents[2] / "fixtures" / "darknetpick"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(DARKNETPICK), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, DARKNETPICK)


def named(items: tuple[RecipeItem, ...], name: str) -> list[RecipeItem]:
    return [i for i in items if i.name == name]


def test_a_key_the_cfg_leaves_out_picks_the_default_branch(items) -> None:
    (adam,) = named(items, "torch.optim.Adam")
    assert adam.note == (
        'the branch taken with the defaults: if model.hyperparams["optimizer"] in [None, "adam"]'
    )
    assert not named(items, "torch.optim.SGD")


def test_a_key_read_from_the_section_shows_the_cfg_value(items) -> None:
    (adam,) = named(items, "torch.optim.Adam")
    assert dict(adam.values)["lr"] == (
        '0.01 (model.hyperparams["learning_rate"]: set in config/net.cfg [net] at line 9)'
    )
    assert dict(adam.values)["weight_decay"].startswith("0.0005 (")


def test_a_dict_read_by_one_key_is_no_config(items) -> None:
    (loader,) = named(items, "torch.utils.data.DataLoader")
    # "batch" is a [net] key (8 in net.cfg), but ``options`` is read by no other: not the
    # section; the local dict's own entry is the value
    assert dict(loader.values)["batch_size"] == (
        '4 (options["batch"]: the entry of the dict the defaults pick)'
    )


def test_an_accumulation_every_one_pass_is_every_step(items) -> None:
    (accumulation,) = named(items, "gradient accumulation")
    assert dict(accumulation.values)["every"].startswith("1 (")
    assert accumulation.note == (
        "n is 1 with the defaults: an optimizer step every step, no accumulation"
    )
