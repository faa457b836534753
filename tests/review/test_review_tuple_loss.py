"""A loss a model's ``forward`` computes under ``if targets is not None:`` and returns in a
tuple (``fixtures/tupleloss``: ``return logits, loss``) is the loss row when the training
step unpacks that tuple and differentiates the element (``logits, self.loss = model(x, y)``,
then ``self.loss.backward()``), the model followed from the trainer's ``self.model`` to
the construction its caller passes, though ``forward``'s other caller (``generate``,
calling ``self(x)``) leaves the targets at None; a model no step differentiates keeps its
loss off the recipe."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

TUPLELOSS = Path(__file__).resolve().parents[2] / "fixtures" / "tupleloss"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(TUPLELOSS), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, TUPLELOSS)


def test_a_loss_returned_in_the_unpacked_tuple_is_the_loss_row(items) -> None:
    losses = [i for i in items if i.category == "loss"]
    assert [(i.name, str(i.where)) for i in losses] == [
        ("torch.nn.functional.cross_entropy", "model.py:14")
    ]
    assert dict(losses[0].values) == {"input": "logits", "target": "targets", "ignore_index": "-1"}


def test_a_loss_no_step_differentiates_stays_off(items) -> None:
    # INVALID: ``Scorer`` is built but only its ``generate`` path runs: no targets
    assert not [i for i in items if i.name == "torch.nn.functional.nll_loss"]
