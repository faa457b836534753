"""Properties of the text report the golden files alone would not explain."""

from __future__ import annotations

from apiscan.model import ScanResult
from apiscan.report import get_reporter
from apiscan.report.text import WIDTH, TextReporter


def test_plain_and_within_width_except_for_long_paths(mixed_result: ScanResult) -> None:
    text = get_reporter("text").render(mixed_result)
    assert "\x1b" not in text
    for line in text.splitlines():
        assert len(line) <= WIDTH, line


def test_every_section_is_present_even_when_empty(empty_result: ScanResult) -> None:
    text = get_reporter("text").render(empty_result)
    for title in (
        "Summary",
        "By namespace",
        "Top missing APIs (0 of 0)",
        "Top different APIs (0 of 0)",
        "Files",
        "Files that could not be analysed (0 errors in 0 files)",
    ):
        assert f"\n{title}\n" in text


def test_long_notes_are_shortened_with_an_ellipsis(mixed_result: ScanResult) -> None:
    text = get_reporter("text").render(mixed_result)
    note_line = next(line for line in text.splitlines() if "note: MindSpore's pad_mode" in line)
    assert note_line.endswith("…")


def test_top_limits_the_lists_and_says_how_many_there_were(mixed_result: ScanResult) -> None:
    text = TextReporter(top=1, locations=1).render(mixed_result)
    assert "Top missing APIs (1 of 3)" in text
    assert "torch.nn.functional.grid_sample" in text
    assert "torch.Tensor.pin_memory" not in text.split("Top different")[0]
    assert "at tinydet/head.py:30, +1 more" in text


def test_every_error_is_listed_with_code_and_message(mixed_result: ScanResult) -> None:
    text = get_reporter("text").render(mixed_result)
    section = text.split("Files that could not be analysed")[1]
    for err in mixed_result.error_findings:
        assert f"{err.path}:{err.span.line}:{err.span.column}  {err.code}  {err.message}" in section
