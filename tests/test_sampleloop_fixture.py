"""fixtures/sampleloop: Python ``max``/``min`` comparing tensors on the host (and their twins
on host numbers and shapes), collate functions bound with ``functools.partial`` — exactly the
marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sampleloop"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=5)


def test_builtin_comparison_says_why(result: ScanResult) -> None:
    for text in ("n = max(num_pos.sum().float(), 1)", "m = min(1.0, pos.float().mean())"):
        words = message_on_line(result, FIXTURE, "sl/loss.py", "DS116", text)
        assert "compares a tensor with its other arguments on the host" in words


def test_builtin_comparison_is_network_scope(result: ScanResult) -> None:
    found = [f for f in result.shape_findings if f.path == "sl/loss.py" and f.rule == "DS116"]
    assert [(f.span.line, f.scope) for f in found] == [(30, "network"), (31, "network")]


def test_partial_collate_is_data_code_and_feeds_the_step(result: ScanResult) -> None:
    scopes = {(f.span.line, f.scope) for f in result.shape_findings if f.path == "sl/collate.py"}
    # bound with functools.partial and passed as collate_fn: the loader runs it
    assert scopes == {(10, "data"), (17, "data")}
    words = message_on_line(result, FIXTURE, "sl/arch.py", "DS111", "index=mask_indices).sum()")
    assert "data-dependent" in words


def test_samples_read_by_position_are_joined(result: ScanResult) -> None:
    # ``targets[i]`` in ``for i in range(len(targets))`` is the sample ``for t in targets``
    # gives; another list read at those positions is not
    words = message_on_line(result, FIXTURE, "sl/match.py", "DS120", 'targets[i]["labels"]')
    assert "each sample of the batch has its own length" in words
    lines = {f.span.line for f in result.shape_findings if f.path == "sl/match.py"}
    assert lines == {6}
