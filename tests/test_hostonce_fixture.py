"""fixtures/hostonce: a join written back under a test of the same place's shape (a
checkpoint widened once on load) does not grow call after call, while a cache joined on
every call and the ``else`` of such a test do (DS122); a branch on numbers of a numpy array
holding a tensor's data is host code (no DS116), though the list it fills is still as long
as data says when it goes back into torch (DS121); a slice bound read from a tensor the code
filled from numbers it knows (``torch.IntTensor([self.hidden])[0]``) is static, one read from
a tensor of data is not (DS109) — exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "hostonce"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=4)


def test_no_branch_finding_on_host_numbers(result: ScanResult) -> None:
    found = {(f.path, f.rule) for f in result.shape_findings}
    assert ("points.py", "DS116") in found  # the tensor read keeps its finding
    lines = [f.span.line for f in result.shape_findings if f.path == "points.py"]
    src = (FIXTURE / "points.py").read_text().splitlines()
    host_if = next(n for n, s in enumerate(src, 1) if "if group < 0" in s)
    assert host_if not in lines


def test_bound_from_code_filled_tensor_is_static(result: ScanResult) -> None:
    src = (FIXTURE / "gates.py").read_text().splitlines()
    static = next(n for n, s in enumerate(src, 1) if "torch.tanh(x[:, :n])" in s)
    lines = {f.span.line for f in result.shape_findings if f.path == "gates.py"}
    assert static not in lines
    assert len(lines) == 2
