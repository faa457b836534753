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


def test_cells_of_dynamic_shape_rows(mixed_result: ScanResult) -> None:
    _, rows = _rows(mixed_result)
    shapes = [r for r in rows if r["kind"] == "dynamic_shape"]
    assert len(shapes) == 10
    unique = next(r for r in shapes if r["path"] == "tinydet/loss.py" and r["rule"] == "DS101")
    assert {k: unique[k] for k in ("name", "severity", "scope", "api", "mindspore_api")} == {
        "name": "data-dependent-output",
        "severity": "high",
        "scope": "network",
        "api": "torch.unique",
        "mindspore_api": "mindspore.ops.unique",
    }
    assert unique["backends"] == "Ascend;GPU;CPU"
    assert unique["suggestion"].startswith("Give the output a fixed size")
    assert unique["message"].startswith("torch.unique returns one element")
    assert unique["function"] == "loss"
    assert all(r["status"] == r["confidence"] == r["note"] == "" for r in shapes)
    assert {r["backends"] for r in shapes} == {"", "Ascend", "Ascend;GPU;CPU"}
    masked = next(r for r in shapes if r["rule"] == "DS104")
    assert masked["chain"] == (
        "tinydet/assign.py:12:16 returned by `match`;"
        "tinydet/head.py:34:16 stored in `self.keep` by `Head.forward`"
    )
    assert unique["chain"] == ""
    assert {(r["scope"], r["severity"]) for r in shapes} == {
        ("network", "high"),
        ("network", "medium"),
        ("data", "low"),
        ("host", "low"),
        ("host", "medium"),
    }
    apis = [r for r in rows if r["kind"] == "api"]
    assert {r["scope"] for r in apis} == {"network", "data", "host"}
    assert all(r["name"] == r["severity"] == r["suggestion"] == "" for r in apis)
    # API rows carry their target's documented platforms and what to change.
    assert {r["backends"] for r in apis} >= {"", "Ascend", "Ascend;GPU;CPU"}
    conv = next(r for r in apis if r["param_changes"])
    assert conv["param_changes"].split(";")[1] == (
        "bias= → has_bias= (PyTorch bias=True, MindSpore has_bias=False): Default differs."
    )
    assert conv["mindspore_apis"] == "mindspore.nn.Conv2d;mindspore.mint.nn.Conv2d"
