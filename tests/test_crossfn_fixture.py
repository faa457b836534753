"""fixtures/crossfn: facts that cross functions and files reach the rules, and only those.

Lines that must be reported carry ``# expect: DSxxx``; their static twins (same code, static
callers) must stay quiet. A finding inside a helper names where its argument came from.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "crossfn"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=10)


def _message(result: ScanResult, path: str, rule: str, function: str) -> str:
    found = [
        f.message
        for f in result.shape_findings
        if f.path == path and f.rule == rule and f.function == function
    ]
    assert len(found) == 1, found
    return found[0]


def test_helper_findings_name_the_chain(result: ScanResult) -> None:
    msg = _message(result, "crossfn/ops.py", "DS109", "first_rows")
    assert "`k` is `counts.sum().item()` read from tensor data at head.py:55" in msg
    assert "passed by `Head.forward` → `first_rows`" in msg
    msg = _message(result, "crossfn/ops.py", "DS109", "narrow_to")
    assert "`n` is `int(c)` read from tensor data at head.py:62" in msg


def test_returned_masks_and_attributes_are_named(result: ScanResult) -> None:
    assert "returned by `centre_mask` is a boolean mask" in _message(
        result, "crossfn/head.py", "DS104", "Head.forward"
    )
    assert "`self.keep` is a boolean mask" in _message(
        result, "crossfn/head.py", "DS104", "Head.select"
    )


def test_helpers_run_in_the_network(result: ScanResult) -> None:
    scopes = {(f.path, f.function): f.scope for f in result.shape_findings}
    assert scopes[("crossfn/ops.py", "first_rows")] == "network"
    assert scopes[("train.py", "main")] == "host"


def test_solver_stats(result: ScanResult) -> None:
    assert result.stats["solver_rounds"] >= 2  # returns, then the callers that use them
    assert result.stats["files_rewalked"] >= 2


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="workers' CPU is read from /proc")
def test_stats_split_the_workers_cpu_by_round(result: ScanResult) -> None:
    stats = result.stats
    rounds = [stats[k] for k in ("walk_cpu_s", "reexport_walk_cpu_s", "rewalk_cpu_s") if k in stats]
    assert "walk_cpu_s" in stats and "rewalk_cpu_s" in stats  # the fixture's files are walked again
    assert all(seconds >= 0 for seconds in rounds)
    # each round's share is read from the same counters as the total, later
    assert sum(rounds) <= stats["workers_cpu_s"] + 1e-9
    assert stats["solve_cpu_s"] >= 0 and stats["join_cpu_s"] >= 0


def _chain(result: ScanResult, path: str, rule: str, function: str) -> list[tuple]:
    found = [
        f.chain
        for f in result.shape_findings
        if f.path == path and f.rule == rule and f.function == function
    ]
    assert len(found) == 1, found
    return [(s.path, s.line, s.function, s.message) for s in found[0]]


def test_helper_findings_carry_the_structured_chain(result: ScanResult) -> None:
    # origin first (the host sync), then the call that passed it on, each located
    assert _chain(result, "crossfn/ops.py", "DS109", "first_rows") == [
        ("crossfn/head.py", 55, "Head.forward", "`counts.sum().item()` read from tensor data"),
        ("crossfn/head.py", 56, "Head.forward", "passed as `k` to `first_rows` by `Head.forward`"),
    ]
    # a mask returned in a tuple: the step is the helper's return statement
    assert _chain(result, "crossfn/head.py", "DS104", "Head.forward") == [
        ("crossfn/ops.py", 41, "centre_mask", "returned by `centre_mask`")
    ]
    # a mask stored on self by another method: the step is the write
    assert _chain(result, "crossfn/head.py", "DS104", "Head.select") == [
        ("crossfn/head.py", 46, "Head.update", "stored in `self.keep` by `Head.update`")
    ]
    # made where the finding is: no chain
    assert _chain(result, "train.py", "DS104", "main") == []
    for f in result.shape_findings:
        for step in f.chain:
            assert step.line >= 1 and step.column >= 1 and not step.path.startswith("/")


def test_partial_sequential_and_super_reach_the_callee(result: ScanResult) -> None:
    # functools.partial: a bound argument and a later call's argument
    assert "passed by `Head.forward` → `keep_upto`" in _message(
        result, "crossfn/ops.py", "DS109", "keep_upto"
    )
    assert "passed by `Head.forward` → `cut_rows`" in _message(
        result, "crossfn/ops.py", "DS109", "cut_rows"
    )
    # nn.Sequential: Pad.forward gets what Select.forward returned
    assert _chain(result, "crossfn/blocks.py", "DS113", "Pad.forward") == [
        ("crossfn/blocks.py", 15, "Select.forward", "returned by `Select.forward`"),
        ("crossfn/head.py", 85, "Head.forward", "passed as `x` to `Pad.forward` by `Head.forward`"),
    ]
    # super().method(...) resolved through the class hierarchy, across files
    assert "passed by `Head.forward` → `Trunk.shrink`" in _message(
        result, "crossfn/blocks.py", "DS109", "Trunk.shrink"
    )


def test_a_sync_used_as_a_size_in_another_file_is_reported_at_the_sync(
    result: ScanResult,
) -> None:
    # one finding per sync, in the sync's file and function, naming one place of use
    syncs = sorted(
        (f.path, f.span.line, f.function, f.message.rpartition("used as ")[2])
        for f in result.shape_findings
        if f.rule == "DS118"
    )
    assert syncs == [
        ("crossfn/head.py", 55, "Head.forward", "a slice bound in `Trunk.shrink`)"),
        ("crossfn/head.py", 62, "Head.forward", "a slice bound in `narrow_to`)"),
    ]
