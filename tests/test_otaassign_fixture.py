"""fixtures/otaassign: three ways a data-dependent shape reaches a later line unseen before.

- a mask stacked from a constant mask and masks of data (``torch.stack((torch.ones_like(j), j,
  k))``, a tuple or a list) still selects by data; a stack of constant masks does not;
- a helper that takes a tensor or an array (``x.clone() if isinstance(x, torch.Tensor) else
  np.copy(x)``) returns the tensor branch when its callers pass tensors, so a shape read from
  what it returns is data;
- a list made for the batch (``[torch.zeros((0, 6))] * n``) that data-dependent detections are
  stored into (``output[i] = x[keep]``) holds them, and its elements' lengths are data; one
  that stores a fixed number of rows stays quiet.

Exactly the marked lines are reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otaassign"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def _found(result: ScanResult, function: str) -> list[tuple[int, str]]:
    return sorted((f.span.line, f.rule) for f in result.shape_findings if f.function == function)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=7)


def test_a_stack_of_masks_with_one_of_data_selects_by_data(result: ScanResult) -> None:
    assert _found(result, "neighbour_cells") == [(19, "DS104")]
    assert _found(result, "neighbour_cells_listed") == [(26, "DS104")]
    assert _found(result, "every_cell") == []


def test_the_tensor_branch_of_a_helper_given_tensors(result: ScanResult) -> None:
    assert _found(result, "class_cost") == [(39, "DS104"), (40, "DS111"), (41, "DS113")]
    sized = next(
        f for f in result.shape_findings if (f.function, f.rule) == ("class_cost", "DS113")
    )
    assert "xywh2xyxy" in sized.message


def test_a_batch_list_holds_what_is_stored_into_it(result: ScanResult) -> None:
    assert _found(result, "nms") == [(12, "DS104")]
    assert _found(result, "evaluate") == [(28, "DS113")]
    assert _found(result, "heads") == []
