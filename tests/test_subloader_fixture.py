"""fixtures/subloader: the repository's own subclass of ``DataLoader`` yields batches as the
library's loader does, so the fields of a batch a collate joins from samples of their own
lengths reach the training step and the loss it calls as data-dependent tensors:

- the loader class chosen at run time (``loader = DataLoader if weighted else RepeatLoader``)
  and called with the collate (``loader(dataset, collate_fn=BoxDataset.collate_fn)``);
- the subclass defined below the function that builds it, overriding ``__iter__``, or in
  another file (offered in the library loader's place, its first walk a loader whose batches
  the next walk knows);
- the loader iterated through ``enumerate`` and a progress bar (``tqdm(enumerate(loader))``);
- the same subclass given a collate that pads to a fixed count stays static (no finding in
  the loss walking its targets).

Exactly the marked lines are reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "subloader"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def _found(result: ScanResult, function: str) -> list[tuple[int, str]]:
    return sorted((f.span.line, f.rule) for f in result.shape_findings if f.function == function)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=4)


def test_a_subclass_loader_yields_the_collates_batches(result: ScanResult) -> None:
    # the boolean selection of one image's targets, the branch on its length, the loop over it
    assert _found(result, "AssignLoss.assign") == [(17, "DS104"), (18, "DS116"), (21, "DS116")]


def test_a_padding_collate_keeps_the_subclass_loader_static(result: ScanResult) -> None:
    assert _found(result, "PaddedLoss.__call__") == []


def test_a_subclass_of_another_file_chosen_against_the_library_loader(
    result: ScanResult,
) -> None:
    assert _found(result, "count_matched") == [(42, "DS104"), (43, "DS116")]
