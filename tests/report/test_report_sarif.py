"""The SARIF reporter: schema-valid logs, every rule described, stable fingerprints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_cases import CASES
from sarif_schema import validate_sarif
from scan_helpers import scan_repo, write_repo

from apiscan.errors import ERROR_CODES
from apiscan.model import API_RULES, ScanResult
from apiscan.report import get_reporter
from apiscan.rules.registry import all_rules

REPO = Path(__file__).resolve().parents[2]


def _log(result: ScanResult) -> dict:
    return json.loads(get_reporter("sarif").render(result))


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_hand_made_result_validates_against_the_official_schema(name: str) -> None:
    validate_sarif(_log(CASES[name]()))


def test_a_dynamic_shape_chain_becomes_related_locations() -> None:
    results = _log(CASES["mixed"]())["runs"][0]["results"]
    masked = next(r for r in results if r["ruleId"] == "DS104")
    assert masked["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "tinydet/assign.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 12, "startColumn": 16},
            },
            "message": {"text": "returned by `match`"},
            "properties": {"function": "match"},
        },
        {
            "id": 2,
            "physicalLocation": {
                "artifactLocation": {"uri": "tinydet/head.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 34, "startColumn": 16},
            },
            "message": {"text": "stored in `self.keep` by `Head.forward`"},
            "properties": {"function": "Head.forward"},
        },
    ]
    # no chain, no related locations (an API finding never has one)
    assert all("relatedLocations" not in r for r in results if r["ruleId"] != "DS104")


def test_an_invalid_log_is_rejected_by_the_schema_check() -> None:
    """The validator is live: a log without ``runs`` does not pass."""
    import jsonschema

    with pytest.raises(jsonschema.ValidationError):
        validate_sarif({"version": "2.1.0"})


def test_rules_list_every_status_rule_and_error_code() -> None:
    run = _log(CASES["empty"]())["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    expected = {*API_RULES.values(), *(r.id for r in all_rules()), *ERROR_CODES}
    assert set(ids) == expected and len(ids) == len(expected)
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note", "none")
        if rule["id"].startswith(("API", "DS")):
            assert rule["helpUri"].startswith("https://")
    by_id = {r["id"]: r for r in rules}
    assert by_id["API001"]["helpUri"].endswith("/note/api_mapping/pytorch_api_mapping.html")
    assert by_id["DS101"]["properties"]["docs"] == "docs/rules/DS101.md"
    assert (REPO / by_id["DS101"]["properties"]["docs"]).is_file()


def test_results_point_at_their_rules_and_skip_consistent_uses() -> None:
    result = CASES["mixed"]()
    run = _log(result)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["columnKind"] == "unicodeCodePoints"
    expected = [
        f
        for f in result.findings
        if f.kind == "dynamic_shape" or getattr(f, "status", "") not in ("", "consistent")
    ]
    assert len(run["results"]) == len(expected)
    for res, finding in zip(run["results"], expected, strict=True):
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"] == finding.rule
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": finding.path, "uriBaseId": "%SRCROOT%"}
        assert loc["region"] == {
            "startLine": finding.span.line,
            "startColumn": finding.span.column,
            "endLine": finding.span.end_line,
            "endColumn": finding.span.end_column,
        }
        assert res["level"] in ("error", "warning", "note")


def test_files_not_analysed_are_tool_notifications(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    log = json.loads((REPO / "tests/golden/bad_inputs/report.sarif").read_text("utf-8"))
    golden_json = json.loads((REPO / "tests/golden/bad_inputs/report.json").read_text("utf-8"))
    errors = [f for f in golden_json["findings"] if f["kind"] == "error"]
    run = log["runs"][0]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert errors and len(notes) == len(errors)
    assert [n["descriptor"]["id"] for n in notes] == [e["code"] for e in errors]
    descriptors = run["tool"]["driver"]["notifications"]
    for n in notes:
        assert descriptors[n["descriptor"]["index"]]["id"] == n["descriptor"]["id"]
    assert not any(r["ruleId"].startswith("E") for r in run["results"])


def _fingerprints(root: Path) -> dict[str, tuple[int, str]]:
    log = _log(scan_repo(root))
    return {
        r["partialFingerprints"]["apiscan/v1"]: (
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["ruleId"],
        )
        for r in log["runs"][0]["results"]
    }


MODEL = """
import torch


def head(x):
    keep = torch.nonzero(x)
    return x[keep].cumprod(0)


def other(y):
    return torch.unique(y)
"""


def test_fingerprints_survive_unrelated_edits(tmp_path: Path) -> None:
    write_repo(tmp_path, {"model.py": MODEL})
    before = _fingerprints(tmp_path)
    assert len(before) >= 2  # nonzero, unique
    edited = MODEL.replace(
        "def other(y):", "# a comment\n\n\ndef helper():\n    return 1\n\n\ndef other(y):"
    ).replace("import torch\n", "import torch\nimport os\n\nDEBUG = os.environ.get('X')\n")
    write_repo(tmp_path, {"model.py": edited})
    after = _fingerprints(tmp_path)
    assert set(after) == set(before)  # same fingerprints...
    assert sorted(line for line, _ in after.values()) != sorted(
        line for line, _ in before.values()
    )  # ...though every line moved


def test_a_second_occurrence_gets_its_own_fingerprint(tmp_path: Path) -> None:
    # The same line twice in one function: same text, so only the occurrence index tells the
    # two findings apart (two hits of one rule on one line are one finding).
    repeated = "    a = torch.unique(y)\n    a = torch.unique(y)\n    return a"
    twice = MODEL.replace("    return torch.unique(y)", repeated)
    write_repo(tmp_path, {"model.py": twice})
    prints = _fingerprints(tmp_path)
    ds101 = [fp for fp, (_, rule) in prints.items() if rule == "DS101"]
    assert len(ds101) == 2


def test_a_call_whose_form_passed_gets_a_sarif_fix() -> None:
    from dataclasses import replace

    result = CASES["mixed"]()
    call = next(f for f in result.api_findings if f.usage == "call" and f.status != "consistent")
    verified = replace(
        call,
        disposition="rewrite",
        rewrite="mindspore.mint.x(a)",
        form_check="verified for the form used at a.py:1 (CPU float32)",
    )
    untested = replace(verified, form_check="")
    findings = tuple(verified if f is call else f for f in result.findings)
    log = _log(replace(result, findings=findings))
    validate_sarif(log)
    fixed = [r for r in log["runs"][0]["results"] if "fixes" in r]
    assert len(fixed) == 1
    change = fixed[0]["fixes"][0]["artifactChanges"][0]
    assert change["replacements"][0]["insertedContent"]["text"] == "mindspore.mint.x(a)"
    findings = tuple(untested if f is call else f for f in result.findings)
    assert not any(
        "fixes" in r for r in _log(replace(result, findings=findings))["runs"][0]["results"]
    )
