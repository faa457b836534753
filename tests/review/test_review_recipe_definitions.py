"""Recipe rows come from what runs, not from what is merely defined (``fixtures/defrecipe``):
a library function nothing calls, a parameter default every training call replaces, a class
that only mentions a loss in its name, the tools beside the training script and another task's
training folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

DEFRECIPE = Path(__file__).resolve().parents[2] / "fixtures" / "defrecipe"


@pytest.fixture(scope="module")
def recipe() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(DEFRECIPE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, DEFRECIPE)


def places(items: tuple[RecipeItem, ...], category: str) -> set[str]:
    return {str(i.where) for i in items if i.category == category}


def test_a_library_function_nothing_calls_makes_no_row(recipe) -> None:
    # poly_lr (called by the training) is the schedule; step_lr (line 7) is only defined
    assert places(recipe, "scheduler") == {"lib/util.py:12"}
    (poly,) = [i for i in recipe if i.category == "scheduler"]
    assert dict(poly.values)["formula"] == "base_lr * (1 - float(curr_iter) / max_iter) ** power"
    # init_weights is called by no one: its nn.init calls are no initialisation of the run
    assert places(recipe, "init") == set()


def test_a_default_every_training_call_replaces_is_not_the_loss(recipe) -> None:
    # Net's criterion=nn.CrossEntropyLoss(ignore_index=255) at lib/model.py:7 is replaced by
    # train.py's criterion; the tool's and the other task's Net() calls do not count
    (loss,) = [i for i in recipe if i.category == "loss"]
    assert str(loss.where) == "train.py:19"
    assert dict(loss.values)["ignore_index"].startswith("254 ")


def test_a_sampler_named_after_the_loss_is_no_loss(recipe) -> None:
    assert not [i for i in recipe if "Sampler" in i.name or i.where.path == "lib/resample.py"]


def test_tools_and_other_tasks_beside_the_training_script_are_not_its_recipe(recipe) -> None:
    paths = {i.where.path for i in recipe}
    # projector.py's Adam and seed, segment/train.py's Adam and loader: separate runs
    assert "projector.py" not in paths
    assert not [p for p in paths if p.startswith("segment/")]
    assert places(recipe, "optimizer") == {"train.py:15", "train.py:21"}
    assert places(recipe, "seed") == {"train.py:18"}
