"""Findings → LSP values, without a server: positions, severities, hovers, the ignore edit."""

from __future__ import annotations

from dataclasses import replace

from lsprotocol import types

from apiscan.lsp import convert
from apiscan.model import (
    ApiFinding,
    ChainStep,
    MappingInfo,
    ScanResult,
    ShapeFinding,
    Span,
    Substitution,
    namespace_of,
)

MAPPING = MappingInfo("2.6", True, ({"version": "2.6", "branch": "r2.6.0"},))
DIFF = "https://www.mindspore.cn/docs/en/r2.6.0/note/api_mapping/pytorch_diff/arange.html"


def _api(line: int, api: str, status: str, scope: str, **kw: object) -> ApiFinding:
    return ApiFinding(
        "m.py", Span(line, 5, line, 20), api, status, kw.pop("target", None), "certain",
        "", "call", namespace_of(api), "f", scope=scope, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def _shape(line: int, severity: str, scope: str) -> ShapeFinding:
    return ShapeFinding(
        "m.py", Span(line, 1, line, 9), "DS101", "unique", "unique is dynamic", severity, scope
    )


def _result() -> ScanResult:
    findings = (
        _api(1, "torch.cdist", "missing", "network"),
        _api(2, "torch.cdist", "missing", "host"),
        _api(3, "torch.arange", "different", "network", target="mindspore.mint.arange",
             unsupported_params=("device",), diff_url=DIFF, mapping_version="2.6"),
        _api(4, "torch.add", "consistent", "network", target="mindspore.mint.add"),
        _shape(5, "high", "network"),
        _shape(6, "low", "data"),
    )  # fmt: skip
    return ScanResult("p", "0", MAPPING, (), findings)


def test_positions_count_utf16_units_and_round_trip() -> None:
    lines = ["x = '😀😀' + torch.nonzero(y)\n"]
    # "torch" starts at code point 13 (1-based), after two astral characters (2 units each).
    pos = convert.to_client(lines, 1, 13)
    assert pos == types.Position(0, 14)
    assert convert.from_client(lines, pos) == (1, 13)


def test_severity_follows_status_scope_and_rule_severity() -> None:
    result = _result()
    lines: list[str] = []
    for f in result.findings:
        if not convert.is_diagnosed(f):
            assert isinstance(f, ApiFinding) and f.status not in convert.DIAGNOSED_STATUSES
            continue
        d = convert.diagnostic(f, result, lines)
        assert d.code == f.rule and d.source == "apiscan"
        if isinstance(f, ApiFinding) and f.status == "missing":
            want = (
                types.DiagnosticSeverity.Warning
                if f.scope == "host"
                else types.DiagnosticSeverity.Error
            )
            assert d.severity == want
        if isinstance(f, ShapeFinding):
            assert (
                d.severity
                == {
                    "high": types.DiagnosticSeverity.Error,
                    "medium": types.DiagnosticSeverity.Warning,
                    "low": types.DiagnosticSeverity.Information,
                }[f.severity]
            )
            assert d.code_description is not None
        if isinstance(f, ApiFinding) and f.diff_url:
            assert d.code_description is not None and d.code_description.href == f.diff_url


def test_hover_shows_target_params_table_and_verification() -> None:
    result = _result()
    f = next(f for f in result.api_findings if f.status == "different" and f.unsupported_params)
    sub = Substitution(f.api, "case-1", "mapped", "ms.x(a)", "", "pass", 1e-7, 1e-5, "CPU",
                       "float32", "2.10.0")  # fmt: skip
    other = Substitution(f.api, "case-2", "composed", "ms.y(a)", "", "not run")
    result = replace(result, substitutions=(sub, other))
    text = convert.hover_markdown(result, f.span.line, f.span.column)
    assert text is not None
    assert f.api in text and str(f.mindspore_api) in text
    assert all(p in text for p in f.unsupported_params)
    assert "Mapping table" in text
    assert "ms.x(a)" in text and "pass: max abs" in text and "CPU float32" in text
    assert "ms.y(a)" in text and "not verified" in text
    assert convert.hover_markdown(result, 10_000, 1) is None


def test_ignore_edit_adds_a_comment_or_extends_a_directive() -> None:
    lines = ["y = torch.unique(x)\n", "z = torch.nonzero(x)  # apiscan: ignore[DS101]\n"]
    first = convert.ignore_edit(lines, 1, "DS101")
    assert first is not None and first.new_text == "  # apiscan: ignore[DS101]"
    assert first.range.start == first.range.end == types.Position(0, 19)
    second = convert.ignore_edit(lines, 2, "DS103")
    assert second is not None and second.new_text == "[DS101, DS103]"
    assert convert.ignore_edit(lines, 2, "DS101") is None  # already there
    assert convert.ignore_edit(["a = 1  # apiscan: ignore\n"], 1, "DS101") is None


def test_code_actions_only_for_apiscan_diagnostics() -> None:
    lines = ["y = torch.unique(x)\n"]
    span = Span(1, 5, 1, 20)
    mine = types.Diagnostic(
        convert.span_range(lines, span), "m", code="DS101", source="apiscan",
        data={"rule": "DS101", "line": 1},
    )  # fmt: skip
    other = types.Diagnostic(convert.span_range(lines, span), "m", code="E501", source="ruff")
    actions = convert.code_actions("file:///x.py", lines, [mine, other])
    assert [a.title for a in actions] == ["Ignore DS101 on this line (# apiscan: ignore[DS101])"]


def test_a_verified_rewrite_of_this_call_is_offered_and_others_are_not() -> None:
    lines = ["import torch\n", "act = torch.nn.LeakyReLU(0.1)\n"]
    base = _api(2, "torch.nn.LeakyReLU", "different", "network", target="mindspore.nn.LeakyReLU")
    base = replace(base, span=Span(2, 7, 2, 30))
    verified = replace(
        base,
        disposition="rewrite",
        rewrite="mindspore.nn.LeakyReLU(alpha=0.1)",
        form_check="verified for the form used at m.py:2 (CPU float32)",
    )
    untested = replace(verified, form_check="")
    failed = replace(verified, form_check="fails for this form: max abs 3 > 1e-05")
    result = ScanResult("p", "0", MAPPING, (), (verified,))
    (diag,) = convert.diagnostics(result, lines)
    actions = convert.code_actions("file:///m.py", lines, [diag])
    replace_action = actions[0]
    assert replace_action.title.startswith("Replace with mindspore.nn.LeakyReLU(alpha=0.1)")
    assert replace_action.edit is not None and replace_action.edit.changes is not None
    imported, call = replace_action.edit.changes["file:///m.py"]
    assert imported.new_text == "import mindspore\n" and imported.range.start.line == 0
    assert call.new_text == "mindspore.nn.LeakyReLU(alpha=0.1)"
    assert call.range == convert.span_range(lines, base.span)
    assert actions[1].title.startswith("Ignore API002")
    for other in (untested, failed, base):
        result = ScanResult("p", "0", MAPPING, (), (other,))
        (d,) = convert.diagnostics(result, lines)
        titles = [a.title for a in convert.code_actions("file:///m.py", lines, [d])]
        assert titles == ["Ignore API002 on this line (# apiscan: ignore[API002])"]


def test_chain_steps_become_related_locations_origin_first() -> None:
    here = ChainStep("m.py", 2, 8, "Head.forward", "`n` read from tensor data")
    there = ChainStep("pkg/other.py", 7, 3, "call", "passed as `n` to `f`")
    finding = replace(_shape(3, "high", "network"), chain=(here, there))
    result = ScanResult("/proj", "0", MAPPING, (), (finding,))
    lines = ["x = 1\n", "\U0001d465 = 2; n = int(t)\n", "y = f(n)\n"]
    (diag,) = convert.diagnostics(result, lines)
    assert diag.related_information is not None
    first, second = diag.related_information
    assert first.location.uri == "file:///proj/m.py" and first.message == here.message
    # column 8 counts code points (7 before `n`); the first is two UTF-16 units
    assert (first.location.range.start.line, first.location.range.start.character) == (1, 8)
    assert second.location.uri == "file:///proj/pkg/other.py"
    assert (second.location.range.start.line, second.location.range.start.character) == (6, 2)
    # a notebook places its steps in cells
    moved = convert.diagnostics(result, lines, locate=lambda s: ("cell:1", 1, 1, ()))
    assert moved[0].related_information is not None
    assert {r.location.uri for r in moved[0].related_information} == {"cell:1"}
    # API findings have no chain
    assert (
        convert.related_information(_api(1, "torch.cdist", "missing", "network"), result, lines)
        == []
    )
