"""The fixture repositories' reports, byte for byte, in every format.

A failure here means the scanner's output changed: if the change is deliberate, run
``python scripts/update_golden.py`` and review the diff of tests/golden/.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from sarif_schema import validate_sarif

from apiscan.report.schema import validate_json

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("update_golden", REPO / "scripts/update_golden.py")
assert _spec and _spec.loader
update_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(update_golden)


@pytest.mark.parametrize("fixture", update_golden.GOLDEN_FIXTURES)
def test_golden(fixture: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    rendered = update_golden.render_all(fixture)
    assert set(rendered) == {".txt", ".json", ".csv", ".md", ".sarif", ".log"}
    for suffix, text in rendered.items():
        golden = (update_golden.GOLDEN_DIR / fixture / f"report{suffix}").read_text("utf-8")
        assert text == golden, f"{fixture} report{suffix} differs from its golden file"
    validate_json(json.loads(rendered[".json"]))
    validate_sarif(json.loads(rendered[".sarif"]))


@pytest.mark.parametrize("fixture", update_golden.GOLDEN_FIXTURES)
def test_golden_json_with_two_workers(fixture: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON report is the same when the files are spread over two workers, each keeping
    the parses of the files it walked first for the later rounds (re-exports, whole-program
    facts), as when one worker walks them all."""
    import apiscan.pipeline
    from apiscan.report import get_reporter

    monkeypatch.chdir(REPO)
    monkeypatch.setattr(apiscan.pipeline, "POOL_MIN_BYTES", 0)  # really fork two
    options = apiscan.pipeline.ScanOptions(f"fixtures/{fixture}", cache_dir=None, jobs=2)
    result = apiscan.pipeline.scan(options)
    golden = (update_golden.GOLDEN_DIR / fixture / "report.json").read_text("utf-8")
    assert get_reporter("json").render(result) == golden
    if fixture in ("tinydet", "dynshape", "crossfn", "setloss", "setpred"):  # re-walked files
        assert result.stats["files_same_worker"] > 0
