"""Every format of every hand-made result, compared byte for byte with a reviewed snapshot.

``UPDATE_GOLDEN=1 pytest tests/report`` rewrites the snapshots; read the diff before keeping it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apiscan.model import ScanResult
from apiscan.report import formats, get_reporter

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("fmt", ["concise", "csv", "json", "markdown", "sarif", "text"])
def test_output_matches_golden(fmt: str, case: tuple[str, ScanResult]) -> None:
    name, result = case
    reporter = get_reporter(fmt)
    golden = GOLDEN / f"{name}{reporter.suffix}"
    rendered = reporter.render(result)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_bytes(rendered.encode("utf-8"))
    assert rendered.encode("utf-8") == golden.read_bytes()


def test_every_format_has_golden_files(case: tuple[str, ScanResult]) -> None:
    name, _ = case
    suffixes = {get_reporter(fmt).suffix for fmt in formats()}
    assert {p.suffix for p in GOLDEN.glob(f"{name}.*")} == suffixes


@pytest.mark.parametrize("fmt", ["concise", "csv", "json", "markdown", "sarif", "text"])
def test_rendering_is_repeatable_and_ignores_stats(fmt: str, mixed_result: ScanResult) -> None:
    """Timings in ``stats`` differ run to run; they must not leak into any report."""
    first = get_reporter(fmt).render(mixed_result)
    mixed_result.stats["seconds"] = 99.0
    assert get_reporter(fmt).render(mixed_result) == first
    assert "99.0" not in first and "1.25" not in first
