"""The CSV format: one row per finding, readable back by the standard library."""

from __future__ import annotations

import csv
import io

from apiscan.model import ScanResult
from apiscan.report import get_reporter
from apiscan.report.csv import COLUMNS


def _rows(result: ScanResult) -> tuple[list[str], list[dict[str, str]]]:
    text = get_reporter("csv").render(result)
    assert "\r" not in text and text.endswith("\n")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = list(reader)
    return list(reader.fieldnames or []), rows


def test_round_trip_has_one_row_per_finding(case: tuple[str, ScanResult]) -> None:
    _, result = case
    header, rows = _rows(result)
    assert header == list(COLUMNS)
    assert len(rows) == len(result.findings)
    assert [(r["path"], int(r["line"]), int(r["column"])) for r in rows] == [
        (f.path, f.span.line, f.span.column) for f in result.findings
    ]


def test_cells_of_api_and_error_rows(mixed_result: ScanResult) -> None:
    _, rows = _rows(mixed_result)
    conv = [r for r in rows if r["api"] == "torch.nn.Conv2d"]
    assert {r["unsupported_params"] for r in conv} == {"", "padding_mode", "device;padding_mode"}
    assert all(r["rule"] == "API002" and r["mindspore_api"] == "mindspore.nn.Conv2d" for r in conv)
    missing = next(r for r in rows if r["status"] == "missing")
    assert missing["mindspore_api"] == ""
    errors = [r for r in rows if r["kind"] == "error"]
    assert [r["rule"] for r in errors] == ["E003", "E002", "E009"]
    assert errors[0]["message"] == "invalid syntax (<unknown>, line 4) | print x"
    assert all(r["api"] == r["status"] == r["note"] == "" for r in errors)
    assert any(r["path"] == "tinydet/módulo_ß.py" for r in rows)
    assert any("参数初始化不同" in r["note"] for r in rows)


def test_empty_result_is_just_the_header(empty_result: ScanResult) -> None:
    assert get_reporter("csv").render(empty_result) == ",".join(COLUMNS) + "\n"
