"""Properties of the text report the golden files alone would not explain."""

from __future__ import annotations

from report_cases import SHAPE_RULES

from apiscan.model import ScanResult
from apiscan.report import get_reporter
from apiscan.report.text import WIDTH, TextReporter


def test_plain_and_within_width_except_for_long_paths(mixed_result: ScanResult) -> None:
    text = get_reporter("text").render(mixed_result)
    assert "\x1b" not in text
    for line in text.splitlines():
        # A difference page's URL ends its line and is never cut (it must stay copyable).
        head, _, url = line.rpartition(" ")
        if url.startswith("https://"):
            assert len(head) <= WIDTH, line
            continue
        assert len(line) <= WIDTH, line


def test_every_section_is_present_even_when_empty(empty_result: ScanResult) -> None:
    text = get_reporter("text").render(empty_result)
    for title in (
        "Summary",
        "By namespace",
        "Top missing APIs (0 of 0)",
        "Top different APIs (0 of 0)",
        "Dynamic shape (0 findings)",
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


def test_dynamic_shape_section_groups_by_file_then_function(mixed_result: ScanResult) -> None:
    text = get_reporter("text").render(mixed_result)
    section = text.split("Dynamic shape (10 findings: 5 high, 2 medium, 3 low)\n")[1]
    section = section.split("\n\nFiles\n")[0]
    outline = [line for line in section.splitlines() if line and not line.startswith(" " * 8)]
    assert outline[1:16] == [
        "tinydet/data.py (2 findings)",
        "  CocoDataset.__getitem__",
        "    14:18    DS101 data-dependent-output  low  data",
        "  collate",
        "    30:12    DS131 unpadded-batches  low  data",
        "tinydet/head.py (3 findings)",
        "  Head.forward",
        "    33:18    DS101 data-dependent-output  high  network",
        "    35:16    DS104 boolean-mask-index  high  network",
        "    36:12    DS105 variable-topk-k  medium  network",
        "tinydet/loss.py (2 findings)",
        "  loss",
        "    20:15    DS101 data-dependent-output  high  network",
        "    22:5     DS111 data-dependent-branch  high  network",
        "tinydet/módulo_ß.py (1 finding)",
    ]
    assert "  <module level>\n    4:8      DS104 boolean-mask-index  low  host" in section
    assert "torch.unique -> mindspore.mint.unique (dynamic shape on Ascend)" in section
    assert "torch.stack -> mindspore.ops.stack (no dynamic-shape support listed)" in section
    rewrites = section.split("Suggested rewrites\n------------------\n")[1]
    assert rewrites.startswith("DS101 data-dependent-output (3 findings)\n    Give the output")
    # Each rule's suggestion once, after the findings, not repeated per finding.
    for rule, (name, suggestion) in SHAPE_RULES.items():
        assert section.count(f"{rule} {name} (") == 1
        assert section.count(suggestion.split(":")[0][:30]) == 1


def test_summary_counts_by_scope_and_severity(mixed_result: ScanResult) -> None:
    summary = get_reporter("text").render(mixed_result).split("\nBy namespace\n")[0]
    assert "Dynamic shape: 10 findings\n" in summary
    rows = [line.split() for line in summary.splitlines()]
    assert ["network", "11", "6"] in rows and ["data", "2", "2"] in rows
    assert ["host", "7", "2"] in rows
    assert ["high", "5"] in rows and ["medium", "2"] in rows and ["low", "3"] in rows


def test_older_tables_that_disagreed_are_shown_briefly(mixed_result: ScanResult) -> None:
    # r2.4.0/r2.3.1 called F.relu different; the 1.10 row agrees with today's verdict.
    text = get_reporter("text").render(mixed_result)
    section = text.split("Consistent APIs older tables disagreed on (1 of 1)")[1]
    assert "torch.nn.functional.relu -> mindspore.ops.relu" in section
    assert "older tables: 2.4, 2.3: different → mindspore.ops.relu" in section
    assert "1.10" not in section.split("\n\n")[0]
    markdown = get_reporter("markdown").render(mixed_result)
    assert "older tables: 2.4, 2.3: different → mindspore.ops.relu" in markdown
