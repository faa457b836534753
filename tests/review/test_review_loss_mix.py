"""What a loss's weights are bound to (fixtures/lossmix): a weight that also divides the sum
is the terms' weighted mean, shown as the mix written, not as the loss's own ``weight=``
argument; a loss class whose output is weighted by parameters it learns (uncertainty
weighting) shows that weighting and each parameter's initial value."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "lossmix"


@pytest.fixture(scope="module")
def losses() -> dict[str, dict[str, str]]:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    items: tuple[RecipeItem, ...] = extract_recipe(result, analyses, FIXTURE)
    return {f"{i.name} @ {i.where}": dict(i.values) for i in items if i.category == "loss"}


def test_a_weight_dividing_the_sum_is_a_mix(losses) -> None:
    mixed = losses["torch.nn.functional.cross_entropy @ model.py:15"]
    assert mixed["loss mix"] == (
        "(loss_a + self.text_weight * loss_b) / (self.text_weight + 1), with "
        "self.text_weight = 7 (self.text_weight set in Generator.__init__ at model.py:9; "
        "default of parameter text_weight of Generator.__init__() at model.py:7)"
    )
    assert "weight" not in mixed and "loss weight" not in mixed
    # the unweighted term of the same mean carries the same mix (its share is 1 / (w + 1))
    assert (
        losses["torch.nn.functional.cross_entropy @ model.py:14"]["loss mix"] == mixed["loss mix"]
    )


def test_a_plain_factor_is_no_mix(losses) -> None:
    # INVALID: no division by the weight: the weight scales the term, no mean of terms
    plain = losses["torch.nn.functional.cross_entropy @ model.py:29"]
    assert "loss mix" not in plain
    assert plain["weight"].startswith("3 (self.aux_weight set in Plain.__init__")
    # INVALID: the bare term of a plain sum is in no mix
    assert "loss mix" not in losses["torch.nn.functional.nll_loss @ model.py:27"]


def test_learned_weights_of_a_loss_class(losses) -> None:
    row = losses["model.TaskLoss @ train.py:9"]
    assert row["learned weighting of output 1"] == (
        "torch.exp(-self.s_a) * loss_a + torch.exp(-self.s_b) * loss_b + self.s_a + self.s_b"
        ' (at model.py:46, under if self.mode == "uncertainty")'
    )
    assert row["learned self.s_a"].startswith("nn.Parameter(-1.5 * torch.ones(1)) (at model.py:37)")
    assert row["learned self.s_b"].startswith("nn.Parameter(-0.5 * torch.ones(1)) (at model.py:38)")
    # INVALID: a constant attribute is no learned weight
    assert "learned self.scale" not in row
    # INVALID: a model computing its losses with no parameter weighting has no such value
    gen = [k for k, v in losses.items() if k.startswith("model.Generator")]
    assert not any(k.startswith("learned") for g in gen for k in losses[g])


def test_a_loss_function_chosen_by_a_test_is_a_row_per_branch(losses) -> None:
    mse = losses["torch.nn.functional.mse_loss @ model.py:55"]
    smooth = losses["torch.nn.functional.smooth_l1_loss @ model.py:55"]
    assert mse == {} and smooth == {}
    # INVALID: a reference kept in a table is no chosen loss
    assert not [k for k in losses if k.startswith("torch.nn.functional.l1_loss")]


def test_the_chosen_branch_notes() -> None:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    notes = {
        i.name: i.note
        for i in extract_recipe(result, analyses, FIXTURE)
        if i.category == "loss" and i.where.line == 55
    }
    default = "(smooth = False (default of parameter smooth of Recon.__init__() at model.py:53))"
    assert notes == {
        "torch.nn.functional.mse_loss": (
            f"stored as self.loss_fn, called through it; picked unless smooth {default}"
        ),
        "torch.nn.functional.smooth_l1_loss": (
            f"stored as self.loss_fn, called through it; picked if smooth {default}"
        ),
    }
