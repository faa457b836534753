"""A re-walk budget never changes findings silently: the files whose whole-program facts it
cut are named in the results, the summary, the reports and the stats (fixtures/persample,
whose DS120 in ``ps/box.py`` needs the facts of two other files)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import scan_repo

from apiscan import pipeline
from apiscan.report.markdown import MarkdownReporter
from apiscan.report.text import TextReporter

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "persample"


def test_a_scan_within_its_budget_cuts_nothing() -> None:
    result = scan_repo(FIXTURE)
    assert result.facts_cut == ()
    assert result.stats["files_facts_cut"] == 0
    assert "facts_cut" not in result.summary()["dynamic_shape"]  # type: ignore[operator]
    found = {(f.path, f.span.line, f.rule) for f in result.shape_findings}
    assert ("ps/box.py", 7, "DS120") in found


def test_cut_facts_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "REWALK_MIN_BYTES", 0)
    monkeypatch.setattr(pipeline, "REWALK_SHARE", 0.0)
    result = scan_repo(FIXTURE)
    found = {(f.path, f.span.line, f.rule) for f in result.shape_findings}
    assert ("ps/box.py", 7, "DS120") not in found  # the finding the cut facts would give
    # the first file of the chain (the training loop handing the collate's samples on) is
    # cut, and the facts never reach the files after it
    assert result.facts_cut == ("train.py",)
    assert list(result.facts_cut) == sorted(result.facts_cut)
    assert result.stats["files_facts_cut"] == len(result.facts_cut)
    summary = result.summary()["dynamic_shape"]
    assert summary["facts_cut"] == list(result.facts_cut)  # type: ignore[index]
    text = TextReporter().render(result)
    assert f"Facts cut: {len(result.facts_cut)} file" in text
    markdown = MarkdownReporter().render(result)
    assert "dynamic-shape findings in them, or in the code they pass values to" in markdown
