"""The machine-readable report: one JSON document, described by ``schemas/scan.schema.json``.

Keys come out in a fixed order (not sorted) so that a human reading the file sees what a
finding is before its details; the document is a pure function of the result, and
:func:`document` is public so other outputs and the tests can reuse the same records.
"""

from __future__ import annotations

import json
from json.encoder import INFINITY, encode_basestring

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
        return dumps_indented(document(result)) + "\n"


class _NotPlain(Exception):
    """A value :func:`dumps_indented` leaves to :func:`json.dumps`."""


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value == INFINITY:
        return "Infinity"
    if value == -INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def dumps_indented(obj: object) -> str:
    """``json.dumps(obj, indent=2, ensure_ascii=False)``, character for character, in about
    half its CPU time.

    Python's own encoder indents in Python, through one generator per nesting level: every
    value of a report's ~40k findings went up through three of them (the 405k-line corpus:
    ~1.0 s of the main process's CPU for a 55 MB report). Here one recursive function writes
    plain data (dicts with string keys, lists, tuples, strings, numbers, booleans, None)
    with each level's key prefixes made once; anything else (other key types, other
    objects) goes to :func:`json.dumps` whole, which then says what it says for it.
    """
    out: list[str] = []
    push = out.append
    esc = encode_basestring
    newline = ["\n"]  # newline[level]: a line break and that level's indentation
    heads: list[dict[object, str]] = []  # per level: key -> its line start, key and colon

    def enc(o: object, level: int) -> None:
        while len(newline) <= level + 1:
            newline.append(newline[-1] + "  ")
            heads.append({})
        t = type(o)
        if t is dict:
            if not o:
                push("{}")
                return
            known = heads[level]
            inner = newline[level + 1]
            push("{")
            sep = ""
            for k, v in o.items():  # type: ignore[attr-defined]
                head = known.get(k)
                if head is None:
                    if type(k) is not str:
                        raise _NotPlain
                    head = known[k] = inner + esc(k) + ": "
                vt = type(v)
                if vt is str:
                    push(sep + head + esc(v))
                elif v is None:
                    push(sep + head + "null")
                elif vt is int:
                    push(sep + head + int.__repr__(v))
                elif vt is bool:
                    push(sep + head + ("true" if v else "false"))
                elif vt is dict or vt is list or vt is tuple:
                    push(sep + head)
                    enc(v, level + 1)
                elif vt is float:
                    push(sep + head + _float_text(v))
                else:
                    raise _NotPlain
                sep = ","
            push(newline[level] + "}")
        elif t is list or t is tuple:
            if not o:
                push("[]")
                return
            inner = newline[level + 1]
            sep = "[" + inner
            for v in o:  # type: ignore[attr-defined]
                vt = type(v)
                if vt is str:
                    push(sep + esc(v))
                elif vt is dict or vt is list or vt is tuple:
                    push(sep)
                    enc(v, level + 1)
                elif v is None:
                    push(sep + "null")
                elif vt is int:
                    push(sep + int.__repr__(v))
                elif vt is bool:
                    push(sep + ("true" if v else "false"))
                elif vt is float:
                    push(sep + _float_text(v))
                else:
                    raise _NotPlain
                sep = "," + inner
            push(newline[level] + "]")
        elif t is str:
            push(esc(o))
        elif o is None:
            push("null")
        elif t is int:
            push(int.__repr__(o))  # type: ignore[arg-type]
        elif t is bool:
            push("true" if o else "false")
        elif t is float:
            push(_float_text(o))  # type: ignore[arg-type]
        else:
            raise _NotPlain

    try:
        enc(obj, 0)
    except (_NotPlain, RecursionError):
        return json.dumps(obj, indent=2, ensure_ascii=False)
    return "".join(out)


register(JsonReporter())
