"""Markdown specifics: links to lines, and cells that cannot break a table."""

from __future__ import annotations

import re

from apiscan.model import ScanResult
from apiscan.report import get_reporter
from apiscan.report.markdown import cell

# A cell separator: a "|" not preceded by a backslash.
_SEPARATOR = re.compile(r"(?<!\\)\|")


def test_cell_escapes_pipes_line_breaks_and_tags() -> None:
    assert cell("a | b\nc  <d>") == "a \\| b c &lt;d>"


def test_every_table_row_has_as_many_cells_as_its_header(mixed_result: ScanResult) -> None:
    text = get_reporter("markdown").render(mixed_result)
    tables = [block for block in text.split("\n\n") if block.startswith("|")]
    assert len(tables) == 7
    for table in tables:
        widths = {len(_SEPARATOR.findall(row)) for row in table.splitlines()}
        assert len(widths) == 1, table


def test_locations_link_to_lines(mixed_result: ScanResult) -> None:
    text = get_reporter("markdown").render(mixed_result)
    assert "[tinydet/head.py:30](tinydet/head.py#L30)" in text
    assert "[tinydet/módulo_ß.py:7](tinydet/m%C3%B3dulo_%C3%9F.py#L7)" in text
    assert "[tinydet/legacy\\|old.py:9:1](tinydet/legacy%7Cold.py#L9)" in text
