"""A name's value at a call is an assignment that can run before the call (issue 20).

fixtures/useorder: names assigned again after the calls that read them, and inside loops."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "useorder"


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(FIXTURE))


def _value(review, name: str, key: str) -> str:
    rows = [i for i in review.recipe if i.name == name]
    assert rows, name
    return dict(rows[0].values)[key]


def test_an_assignment_after_the_call_is_not_its_value(review) -> None:
    # ``momentum = 0.5`` comes after the optimizer is built
    assert _value(review, "torch.optim.SGD", "momentum") == "0.9 (momentum set at train.py:17)"


def test_a_later_assignment_in_a_loop_reaches_the_next_pass(review) -> None:
    assert _value(review, "torch.optim.Adam", "lr") == (
        "0.01 (step set at train.py:20) | step * 0.5 (step set at train.py:24)"
    )


def test_a_loop_body_that_sets_the_name_before_the_read_hides_the_later_one(review) -> None:
    decay = _value(review, "torch.optim.AdamW", "weight_decay")
    assert "0.0005 (decay set at train.py:27)" in decay
    assert "0.25" not in decay


def test_a_dict_assigned_again_after_the_call_is_not_read(review) -> None:
    assert _value(review, "torch.optim.RMSprop", "lr").startswith("0.05 ")
