"""fixtures/matchdispatch: matched indices reach the losses through a dict of bound methods
(``loss_map[name](outputs, targets, indices)``) and a permutation helper defined below them
(``x[idx]`` with ``idx = (batch_idx, src_idx)``); a builder returning the model alone or with
its criterion, unpacked by the training script, makes ``criterion(outputs, targets)`` in
another file the criterion's ``forward`` (its ``.item()`` a host read of every step)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, review_fixture, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "matchdispatch"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=7)


def test_the_dispatched_loss_names_the_way_the_indices_came(result: ScanResult) -> None:
    words = message_on_line(result, FIXTURE, "pointnet/model.py", "DS111", 't["points"][j]')
    assert "PointCriterion.get_loss` → `PointCriterion.loss_points" in words
    # a tuple of index tensors read through a name gathers as many rows as they hold
    words = message_on_line(result, FIXTURE, "pointnet/model.py", "DS111", 'outputs["points"][idx]')
    assert "_src_permutation" in words


def test_the_criterion_unpacked_from_a_builder_is_in_the_step() -> None:
    review = review_fixture("fixtures/matchdispatch")
    (item,) = [i for i in review.work if i.kind == "step-sync"]
    assert "pointnet/model.py:PointCriterion.forward" in item.what
    assert [str(w) for w in item.where] == ["pointnet/model.py:52"]
