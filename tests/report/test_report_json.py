"""The JSON document: its layout, and the schema that describes it (strictly)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any, get_args

import pytest
from jsonschema import Draft202012Validator

from apiscan.errors import ERROR_CODES
from apiscan.model import API_RULES, STATUS_ORDER, Confidence, ScanResult, Status, Usage
from apiscan.report import get_reporter
from apiscan.report.schema import ReportSchemaError, load_schema, validate_json


def _doc(result: ScanResult) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(get_reporter("json").render(result))
    return doc


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_result_validates(case: tuple[str, ScanResult]) -> None:
    _, result = case
    validate_json(_doc(result))


def test_document_layout_and_key_order(mixed_result: ScanResult) -> None:
    text = get_reporter("json").render(mixed_result)
    assert text.endswith("}\n") and "módulo_ß" in text  # UTF-8, not \u escapes
    doc = _doc(mixed_result)
    assert list(doc) == [
        "schema_version", "tool", "mapping", "root", "summary", "files", "findings"
    ]  # fmt: skip
    assert doc["tool"] == {"name": "apiscan", "version": "0.1.0"}
    assert doc["summary"] == mixed_result.summary()
    assert len(doc["findings"]) == len(mixed_result.findings)
    api = next(f for f in doc["findings"] if f["kind"] == "api")
    assert list(api)[:7] == ["kind", "rule", "path", "line", "column", "end_line", "end_column"]
    err = next(f for f in doc["findings"] if f["kind"] == "error")
    assert list(err) == [
        "kind", "rule", "path", "line", "column", "end_line", "end_column", "code", "message"
    ]  # fmt: skip
    assert err["rule"] == err["code"]
    conv = [f for f in doc["findings"] if f.get("api") == "torch.nn.Conv2d"]
    assert ["device", "padding_mode"] in [f["unsupported_params"] for f in conv]
    assert any(f["mindspore_api"] is None for f in doc["findings"] if f["kind"] == "api")


def test_schema_enums_follow_the_model() -> None:
    """The schema is hand-written JSON; this keeps it in step with the model's literals."""
    api = load_schema()["$defs"]["api_finding"]["properties"]
    assert set(api["status"]["enum"]) == set(get_args(Status)) == set(STATUS_ORDER)
    assert set(api["confidence"]["enum"]) == set(get_args(Confidence))
    assert set(api["usage"]["enum"]) == set(get_args(Usage))
    assert set(api["rule"]["enum"]) == set(API_RULES.values())
    pattern = load_schema()["$defs"]["error_code"]["pattern"]
    assert all(re.fullmatch(pattern, code) for code in ERROR_CODES)


def _api_finding(doc: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in doc["findings"] if f["kind"] == "api")


def _error_finding(doc: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in doc["findings"] if f["kind"] == "error")


BREAKAGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "unknown status": lambda d: _api_finding(d).update(status="partial"),
    "extra key on a finding": lambda d: _api_finding(d).update(severity="high"),
    "error field on an api finding": lambda d: _api_finding(d).update(code="E001"),
    "missing key": lambda d: _api_finding(d).pop("confidence"),
    "line 0": lambda d: _api_finding(d).update(line=0),
    "column as string": lambda d: _error_finding(d).update(column="1"),
    "bad error code": lambda d: _error_finding(d).update(code="X1"),
    "unknown kind": lambda d: _error_finding(d).update(kind="warning"),
    "missing summary status": lambda d: d["summary"]["by_status"].pop("unknown"),
    "wrong schema version": lambda d: d.update(schema_version="0.9"),
    "extra top-level key": lambda d: d.update(stats={"seconds": 1.0}),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_broken_documents_fail_validation(breakage: str, mixed_result: ScanResult) -> None:
    doc = _doc(mixed_result)
    broken = copy.deepcopy(doc)
    BREAKAGES[breakage](broken)
    assert broken != doc
    with pytest.raises(ReportSchemaError) as raised:
        validate_json(broken)
    assert raised.value.problems
    assert str(raised.value).startswith("document does not match scan.schema.json")


def test_validation_error_names_the_field_that_is_wrong(mixed_result: ScanResult) -> None:
    doc = _doc(mixed_result)
    index = doc["findings"].index(_api_finding(doc))
    _api_finding(doc)["status"] = "partial"
    with pytest.raises(ReportSchemaError) as raised:
        validate_json(doc)
    assert raised.value.problems == [
        f"$.findings[{index}].status: 'partial' is not one of "
        "['missing', 'different', 'consistent', 'unknown']"
    ]
