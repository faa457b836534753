"""fixtures/dynshape: exactly the marked dynamic-shape findings, with the right scopes.

Each line of the fixture that must be reported carries a comment ``# expect: DS101`` (or
several ids); every other line — the static twins — must not be reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, marked_findings, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dynshape"


def expected() -> set[tuple[str, int, str]]:
    return marked_findings(FIXTURE)


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=30)


def test_every_rule_of_the_catalogue_is_exercised(result: ScanResult) -> None:
    from apiscan.rules.registry import all_rules

    rules = {r.id for r in all_rules() if r.id.startswith("DS")}
    exercised = {rule for _, _, rule in expected()}
    assert rules <= exercised, rules - exercised


def test_scopes_and_severities(result: ScanResult) -> None:
    scopes = {(f.path, f.function): f.scope for f in result.shape_findings}
    assert scopes[("dynshape/assign.py", "assign")] == "network"
    assert scopes[("dynshape/assign.py", "Matcher.forward")] == "network"
    assert scopes[("dynshape/assign.py", "confident")] == "network"
    assert scopes[("dynshape/model.py", "Detector.postprocess")] == "host"  # not in forward
    assert scopes[("dynshape/data.py", "MultiScaleImages.__getitem__")] == "data"
    assert scopes[("train.py", "main")] == "host"
    by_scope = {f.scope: f.severity for f in result.shape_findings if f.rule == "DS101"}
    assert by_scope["network"] == "high"
    assert by_scope["data"] != "high"


def test_suppression_comment(tmp_path: Path) -> None:
    src = (FIXTURE / "dynshape" / "assign.py").read_text()
    src = src.replace(
        "labels = torch.unique(gt)  # expect: DS101",
        "labels = torch.unique(gt)  # apiscan: ignore[DS101]",
    )
    (tmp_path / "assign.py").write_text(src)
    rules = {(f.span.line, f.rule) for f in scan_repo(tmp_path).shape_findings}
    line = src.splitlines().index("    labels = torch.unique(gt)  # apiscan: ignore[DS101]") + 1
    assert (line, "DS101") not in rules
    assert any(r == "DS103" for _, r in rules)
