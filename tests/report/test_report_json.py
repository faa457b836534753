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
from apiscan.mapping.dynamic_shape import BACKENDS
from apiscan.model import (
    API_RULES,
    SCHEMA_VERSION,
    SCOPES,
    SEVERITIES,
    STATUS_ORDER,
    Confidence,
    ScanResult,
    Scope,
    Severity,
    Status,
    Usage,
)
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
        "schema_version", "tool", "mapping", "root", "summary", "files", "findings", "substitutions"
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
    assert {f["scope"] for f in doc["findings"] if f["kind"] == "api"} == set(SCOPES)


def test_dynamic_shape_findings_carry_every_field(mixed_result: ScanResult) -> None:
    doc = _doc(mixed_result)
    shapes = [f for f in doc["findings"] if f["kind"] == "dynamic_shape"]
    assert len(shapes) == len(mixed_result.shape_findings) == 10
    unique = next(f for f in shapes if f["path"] == "tinydet/head.py")
    assert unique == {
        "kind": "dynamic_shape",
        "rule": "DS101",
        "path": "tinydet/head.py",
        "line": 33,
        "column": 18,
        "end_line": 33,
        "end_column": 26,
        "name": "data-dependent-output",
        "message": "torch.unique returns one element per distinct value: its length depends on "
        "the data",
        "severity": "high",
        "scope": "network",
        "function": "Head.forward",
        "api": "torch.unique",
        "suggestion": "Give the output a fixed size: pad to a known maximum and carry a validity "
        "mask, or move the computation out of the network into data processing.",
        "mindspore_api": "mindspore.mint.unique",
        "backends": ["Ascend"],
        "chain": [],
    }
    masked = next(f for f in shapes if f["rule"] == "DS104")
    assert masked["chain"] == [
        {
            "path": "tinydet/assign.py",
            "line": 12,
            "column": 16,
            "function": "match",
            "message": "returned by `match`",
        },
        {
            "path": "tinydet/head.py",
            "line": 34,
            "column": 16,
            "function": "Head.forward",
            "message": "stored in `self.keep` by `Head.forward`",
        },
    ]
    assert list(unique)[:7] == list(_error_finding(doc))[:7]  # identity and position first
    assert {(f["scope"], f["severity"]) for f in shapes} >= {
        ("network", "high"),
        ("network", "medium"),
        ("data", "low"),
        ("host", "low"),
        ("host", "medium"),
    }
    mask = next(f for f in shapes if f["rule"] == "DS104")
    assert (mask["api"], mask["mindspore_api"], mask["backends"]) == ("", None, [])
    assert doc["schema_version"] == SCHEMA_VERSION == "1.7"
    assert doc["summary"]["dynamic_shape"]["by_rule"] == {
        "DS101": 3,
        "DS104": 3,
        "DS105": 1,
        "DS111": 2,
        "DS131": 1,
    }
    assert doc["summary"]["by_scope"]["data"] == {"call_sites": 2, "dynamic_shape": 2}


def test_schema_enums_follow_the_model() -> None:
    """The schema is hand-written JSON; this keeps it in step with the model's literals."""
    api = load_schema()["$defs"]["api_finding"]["properties"]
    assert set(api["status"]["enum"]) == set(get_args(Status)) == set(STATUS_ORDER)
    assert set(api["confidence"]["enum"]) == set(get_args(Confidence))
    assert set(api["usage"]["enum"]) == set(get_args(Usage))
    assert set(api["rule"]["enum"]) == set(API_RULES.values())
    pattern = load_schema()["$defs"]["error_code"]["pattern"]
    assert all(re.fullmatch(pattern, code) for code in ERROR_CODES)
    defs = load_schema()["$defs"]
    assert defs["scope"]["enum"] == list(SCOPES) == list(get_args(Scope))
    shape = defs["shape_finding"]["properties"]
    assert shape["severity"]["enum"] == list(SEVERITIES) == list(get_args(Severity))
    assert shape["backends"]["items"]["enum"] == list(BACKENDS)
    assert list(defs["summary"]["properties"]["by_scope"]["required"]) == list(SCOPES)
    severities = defs["summary"]["properties"]["dynamic_shape"]["properties"]["by_severity"]
    assert severities["required"] == list(SEVERITIES)
    assert load_schema()["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    rule = defs["shape_rule"]["pattern"]
    assert re.fullmatch(rule, "DS101") and not re.fullmatch(rule, "API001")


def _api_finding(doc: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in doc["findings"] if f["kind"] == "api")


def _error_finding(doc: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in doc["findings"] if f["kind"] == "error")


def _shape_finding(doc: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in doc["findings"] if f["kind"] == "dynamic_shape")


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
    "api finding without scope": lambda d: _api_finding(d).pop("scope"),
    "unknown scope": lambda d: _api_finding(d).update(scope="training"),
    "unknown severity": lambda d: _shape_finding(d).update(severity="critical"),
    "api rule id on a shape finding": lambda d: _shape_finding(d).update(rule="API001"),
    "rule name not kebab-case": lambda d: _shape_finding(d).update(name="Boolean Mask"),
    "unknown backend": lambda d: _shape_finding(d).update(backends=["TPU"]),
    "backends as a string": lambda d: _shape_finding(d).update(backends="Ascend;GPU"),
    "repeated backend": lambda d: _shape_finding(d).update(backends=["GPU", "GPU"]),
    "shape finding without suggestion": lambda d: _shape_finding(d).pop("suggestion"),
    "api field on a shape finding": lambda d: _shape_finding(d).update(status="missing"),
    "missing scope in summary": lambda d: d["summary"]["by_scope"].pop("data"),
    "summary without dynamic_shape": lambda d: d["summary"].pop("dynamic_shape"),
    "by_rule keyed by a non-DS id": lambda d: d["summary"]["dynamic_shape"]["by_rule"].update(
        API001=1
    ),
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
        "['missing', 'candidate', 'different', 'verified', 'consistent', 'unknown']"
    ]


def test_validation_error_names_the_shape_field_that_is_wrong(mixed_result: ScanResult) -> None:
    doc = _doc(mixed_result)
    index = doc["findings"].index(_shape_finding(doc))
    _shape_finding(doc)["severity"] = "urgent"
    with pytest.raises(ReportSchemaError) as raised:
        validate_json(doc)
    assert raised.value.problems == [
        f"$.findings[{index}].severity: 'urgent' is not one of ['high', 'medium', 'low']"
    ]


PLAIN_DOCUMENTS = [
    {},
    [],
    {"a": [], "b": {}, "c": ()},
    {"findings": [{"kind": "api", "line": 3, "args": {"keywords": {"dim": "1"}}}], "n": None},
    [1.5, -0.0, 1e300, 10**30, True, False, None, 'é"\\\n\t'],
    [[1], [2, [3, {"k": [[]]}]]],
    {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")},
    "a string alone",
    7,
]


@pytest.mark.parametrize("value", PLAIN_DOCUMENTS)
def test_dumps_indented_is_json_dumps(value: object) -> None:
    from apiscan.report.json import dumps_indented

    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_dumps_indented_leaves_other_values_to_json_dumps() -> None:
    from apiscan.report.json import dumps_indented

    # keys that are not strings: converted as json.dumps converts them
    assert (
        dumps_indented({1: "x", "a": {2.5: None}})
        == '{\n  "1": "x",\n  "a": {\n    "2.5": null\n  }\n}'
    )
    with pytest.raises(TypeError):  # not JSON at all: the same error as json.dumps
        dumps_indented({"a": {1, 2}})
