"""fixtures/defaultnone: a parameter whose default is ``None`` and that no call site passes
keeps ``None`` (a branch that runs only when it is given never runs: no finding in it), and
a mask indexing what a function of another file returns is a finding once the solver finds
that return is a tensor (the file is walked again for it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "defaultnone"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=4)
    found = {(f.path, f.span.line, f.rule) for f in result.shape_findings}
    assert found == {
        ("lib/ops/gather.py", 27, "DS104"),
        ("lib/train/loss.py", 17, "DS104"),
        ("lib/train/loss.py", 18, "DS104"),
        ("lib/train/heads.py", 10, "DS104"),
    }


def test_a_branch_no_call_enters_is_quiet(result: ScanResult) -> None:
    # ``if mask is not None: feat = feat[mask]`` (no call passes ``mask``) and the ``else`` of
    # ``if valid is None`` (no call passes ``valid``) never run
    lines = {(f.path, f.span.line) for f in result.shape_findings}
    assert ("lib/ops/gather.py", 13) not in lines
    assert ("lib/ops/gather.py", 36) not in lines
    # ``if limit is not None: if feat.sum() > limit: return ...``: a data-dependent test in
    # a branch that never runs is no DS116
    assert ("lib/ops/gather.py", 46) not in lines


def test_a_branch_one_call_enters_is_reported(result: ScanResult) -> None:
    # ``pick(feat, keep)`` is passed a mask by one call, left to ``None`` by another
    rules = {f.rule for f in result.shape_findings if f.span.line == 27}
    assert rules == {"DS104"}


def test_a_method_keeps_its_guarded_branch(result: ScanResult) -> None:
    # ``self.select(x)`` is the only call seen, but a method may be called on a receiver the
    # solver cannot resolve: its ``if keep is not None`` branch is not taken as dead
    assert ("lib/train/heads.py", 10) in {(f.path, f.span.line) for f in result.shape_findings}
