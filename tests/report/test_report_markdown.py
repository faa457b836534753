"""Markdown specifics: links to lines, and cells that cannot break a table."""

from __future__ import annotations

import re

from apiscan.model import ScanResult
from apiscan.report import get_reporter
from apiscan.report.markdown import cell

# A cell separator: a "|" not preceded by a backslash.
_SEPARATOR = re.compile(r"(?<!\\)\|")


def test_cell_escapes_pipes_line_breaks_and_tags() -> None:
    assert cell("a | b\nc  <d>") == "a \\| b c &lt;d&gt;"


def test_every_table_row_has_as_many_cells_as_its_header(mixed_result: ScanResult) -> None:
    text = get_reporter("markdown").render(mixed_result)
    tables = [block for block in text.split("\n\n") if block.startswith("|")]
    # summary 4, namespaces, top missing, top different, consistent APIs older tables
    # disagreed on, 7 functions with dynamic shapes, suggested rewrites, files, errors
    assert len(tables) == 20
    for table in tables:
        widths = {len(_SEPARATOR.findall(row)) for row in table.splitlines()}
        assert len(widths) == 1, table


def test_locations_link_to_lines(mixed_result: ScanResult) -> None:
    text = get_reporter("markdown").render(mixed_result)
    assert "[tinydet/head.py:30](tinydet/head.py#L30)" in text
    assert "[tinydet/módulo_ß.py:7](tinydet/m%C3%B3dulo_%C3%9F.py#L7)" in text
    assert "[tinydet/legacy\\|old.py:9:1](tinydet/legacy%7Cold.py#L9)" in text
    assert "| [33:18](tinydet/head.py#L33) | DS101 `data-dependent-output` |" in text
    assert "### [tinydet/módulo_ß.py](tinydet/m%C3%B3dulo_%C3%9F.py) (1 finding)" in text


def test_dynamic_shape_section_groups_by_file_then_function(mixed_result: ScanResult) -> None:
    text = get_reporter("markdown").render(mixed_result)
    section = text.split("## Dynamic shape (10 findings: 5 high, 2 medium, 3 low)\n")[1]
    section = section.split("\n## ")[0]
    headings = [line for line in section.splitlines() if line.startswith("#")]
    assert headings == [
        "### [tinydet/data.py](tinydet/data.py) (2 findings)",
        "#### `CocoDataset.__getitem__`",
        "#### `collate`",
        "### [tinydet/head.py](tinydet/head.py) (3 findings)",
        "#### `Head.forward`",
        "### [tinydet/loss.py](tinydet/loss.py) (2 findings)",
        "#### `loss`",
        "### [tinydet/módulo_ß.py](tinydet/m%C3%B3dulo_%C3%9F.py) (1 finding)",
        "#### `Módulo.forward`",
        "### [tinydet/train.py](tinydet/train.py) (2 findings)",
        "#### module level",
        "#### `main`",
        "### Suggested rewrites",
    ]
    assert "boxes\\[keep \\| forced\\] keeps a data-dependent number of rows" in section
    assert "| `torch.stack` → `mindspore.ops.stack` | none listed |" in section
    # The suggestion is given once per rule, in the last table, not in each finding's row.
    assert section.count("Give the output a fixed size") == 1
    assert "| DS101 `data-dependent-output` | 3 | Give the output a fixed size" in section


def test_summary_counts_by_scope_and_severity(mixed_result: ScanResult) -> None:
    text = get_reporter("markdown").render(mixed_result)
    assert "| network | 11 | 6 |\n| data | 2 | 2 |\n| host | 7 | 2 |" in text
    assert "| high | 5 |\n| medium | 2 |\n| low | 3 |" in text
    assert "| dynamic-shape findings | 10 |" in text
