"""The machine-readable report: one JSON document, described by ``schemas/scan.schema.json``.

Keys come out in a fixed order (not sorted) so that a human reading the file sees what a
finding is before its details; the document is a pure function of the result, and
:func:`document` is public so other outputs and the tests can reuse the same records.
"""

from __future__ import annotations

import json

from apiscan.model import (
    SCHEMA_VERSION,
    ApiFinding,
    CallArgs,
    ChainStep,
    ErrorFinding,
    Finding,
    ParamChange,
    ScanResult,
)
from apiscan.report.base import register

TOOL_NAME = "apiscan"


def param_change_record(change: ParamChange) -> dict[str, object]:
    """A parameter difference with the line the human reports print for it."""
    return {
        "param": change.param,
        "kind": change.kind,
        "ms_param": change.ms_param,
        "torch_default": change.torch_default,
        "ms_default": change.ms_default,
        "note": change.note,
        "text": change.describe(),
    }


def finding_record(finding: Finding) -> dict[str, object]:
    """A finding as a flat record: identity and position first, then its kind's own fields."""
    span = finding.span
    record: dict[str, object] = {
        "kind": finding.kind,
        "rule": finding.rule,
        "path": finding.path,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }
    if finding.cell:
        record["cell"] = finding.cell  # a notebook's cell; the lines count within it
    if isinstance(finding, ApiFinding):
        record |= {
            "api": finding.api,
            "canonical": finding.canonical,
            "status": finding.status,
            "mindspore_api": finding.mindspore_api,
            "confidence": finding.confidence,
            "note": finding.note,
            "usage": finding.usage,
            "namespace": finding.namespace,
            "function": finding.function,
            "scope": finding.scope,
            "diff_url": finding.diff_url,
            "mapping_version": finding.mapping_version,
            "unsupported_params": list(finding.unsupported_params),
            "target_exists": finding.target_exists,
            "mindspore_apis": list(finding.mindspore_apis),
            "param_changes": [param_change_record(c) for c in finding.param_changes],
            "backends": list(finding.backends),
            "backend_gap": finding.backend_gap,
            "history": list(finding.history),
            "disposition": finding.disposition,
            "rewrite": finding.rewrite,
            "rewrite_note": finding.rewrite_note,
            "rewrite_source": finding.rewrite_source,
            "form_check": finding.form_check,
            "mindtorch": finding.mindtorch,
            "args": _args(finding.args),
        }
    elif isinstance(finding, ErrorFinding):
        record |= {"code": finding.code, "message": finding.message}
    else:
        record |= {
            "name": finding.name,
            "message": finding.message,
            "severity": finding.severity,
            "scope": finding.scope,
            "function": finding.function,
            "api": finding.api,
            "suggestion": finding.suggestion,
            "mindspore_api": finding.mindspore_api,
            "backends": list(finding.backends),
            "chain": [chain_step_record(step) for step in finding.chain],
        }
    return record


def chain_step_record(step: ChainStep) -> dict[str, object]:
    """One located step of a dynamic-shape finding's chain (origin first)."""
    record: dict[str, object] = {"path": step.path}
    if step.cell:
        record["cell"] = step.cell  # a notebook's cell; the line counts within it
    record.update(line=step.line, column=step.column, function=step.function)
    record["message"] = step.message
    return record


def _args(call: CallArgs | None) -> dict[str, object] | None:
    if call is None:
        return None
    return {
        "receiver": call.receiver,
        "positional": list(call.positional),
        "keywords": dict(call.keywords),
        "star": call.star,
        "truncated": call.truncated,
    }


def document(result: ScanResult) -> dict[str, object]:
    """The whole report as plain JSON-ready data (``stats`` timings are left out: not stable)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": TOOL_NAME, "version": result.tool_version},
        "mapping": {
            "ms_version": result.mapping.ms_version,
            "merged": result.mapping.merged,
            "sources": [dict(source) for source in result.mapping.sources],
        },
        "root": result.root,
        "summary": result.summary(),
        "files": [
            {"path": f.path, "lines": f.lines, "api_uses": f.api_uses, "errors": f.errors}
            for f in result.files
        ],
        "findings": [finding_record(f) for f in result.findings],
        "substitutions": [
            {
                "api": s.api,
                "case_id": s.case_id,
                "strategy": s.strategy,
                "ms_expr": s.ms_expr,
                "note": s.note,
                "verification": s.verification,
                "max_abs": s.max_abs,
                "threshold": s.threshold,
                "device": s.device,
                "dtype": s.dtype,
                "mindspore_version": s.mindspore_version,
                **({"detail": s.detail} if s.detail else {}),
            }
            for s in result.substitutions
        ],
    }


class JsonReporter:
    """Indented, UTF-8 (not ASCII-escaped) JSON with a trailing newline."""

    name = "json"
    suffix = ".json"

    def render(self, result: ScanResult) -> str:
        return json.dumps(document(result), indent=2, ensure_ascii=False) + "\n"


register(JsonReporter())
