"""Boolean-mask selections that are only reduced are the known masked-sum rewrite, priced as
one, not a dynamic-shape function: fixtures/maskloss."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.effort import RATES
from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/maskloss")


def _sentence(review: Review, start: str) -> str:
    return next(s for s in review.effort.explanation if start in s)


def test_selections_only_reduced_are_masked_reductions(review) -> None:
    # VALID: the SILog loss (through log, var, mean; its NaN check only prints), an L1 loss
    # on the selections and masked_select(...).abs().mean()
    reduced = _sentence(review, "masked reductions")
    assert reduced.endswith(
        "depthnet/losses.py:MaskedL1.forward, depthnet/losses.py:ScaleInvariantLoss.forward."
    )
    assert "2 masked-reduction as 1.8 × 0.25–0.5" in review.effort.formula


def test_selections_that_flow_on_stay_dynamic_shape_functions(review) -> None:
    # INVALID: the count read (``.shape[0]``), a ``reduction="none"`` loss returned per
    # element, a NaN branch that replaces the loss
    functions = _sentence(review, "dynamic-shape rewrites:")
    assert functions.startswith("3 dynamic-shape rewrites")
    assert functions.endswith(
        "depthnet/losses.py:Guarded.forward, depthnet/losses.py:PerPixel.forward, "
        "depthnet/losses.py:ValidCount.forward."
    )
    assert review.effort.dynamic_shape_rewrites == 3
    # the findings themselves are all still listed
    assert sorted({w.line for w, rule, *_ in review.dynamic_shape if rule == "DS104"}) == [
        14,
        15,
        26,
        33,
        41,
        48,
    ]


def test_a_masked_reduction_costs_a_rewrite_not_a_redesign() -> None:
    assert RATES["masked-reduction"] == (0.25, 0.5)
    assert RATES["masked-reduction"][1] < RATES["dynamic-shape"][0]
