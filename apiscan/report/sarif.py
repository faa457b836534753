"""SARIF 2.1.0: the format code-review systems read (GitHub code scanning, Azure DevOps, IDE
SARIF viewers).

One run. ``tool.driver.rules`` lists every id a result or notification can carry, whether or
not this scan used it, so that a code-scanning service knows them all: the API statuses
(API001–API006), the dynamic-shape rules (DS1xx, from the rule catalogue) and the codes of
files that could not be analysed (E0xx, from :mod:`apiscan.errors`). Results are the findings
that ask for work: every API finding except ``consistent`` ones (which need none) and every
dynamic-shape finding. Files that could not be analysed are not results but
``invocations[0].toolExecutionNotifications``: the run is incomplete for them.

Locations are relative to the scanned directory under the ``%SRCROOT%`` base id; columns are
1-based code points with an exclusive end column, exactly the results model's convention, so
the run says ``columnKind: unicodeCodePoints``.

``partialFingerprints`` must survive unrelated edits (lines added above a finding), so they
hold no line number: a hash of the path, the rule, the API, the enclosing function and the
finding's occurrence index among its equals there. The reporter stays a pure function of the
results model (no file reads), so the source line's text is not part of it; the enclosing
function is what narrows it down instead.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable

from apiscan.errors import ERROR_CODES
from apiscan.model import API_RULES, ApiFinding, ErrorFinding, Finding, ScanResult, ShapeFinding
from apiscan.report.base import register

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "apiscan/v1"
#: The official PyTorch→MindSpore API mapping page of a docs branch.
MAPPING_PAGE = "https://www.mindspore.cn/docs/en/{branch}/note/api_mapping/pytorch_api_mapping.html"
DEFAULT_BRANCH = "r2.6.0"

#: What each API status means, for its rule's descriptions.
STATUS_TEXT: dict[str, tuple[str, str]] = {
    "missing": (
        "PyTorch API with no MindSpore counterpart",
        "The official PyTorch→MindSpore mapping tables have no row for this API and MindSpore "
        "has no API of the same name: it needs a substitution or a custom operator.",
    ),
    "different": (
        "PyTorch API whose MindSpore counterpart behaves differently",
        "The mapping table maps this API to a MindSpore API with differences (parameters, "
        "defaults, semantics): read the official difference page before rewriting the call.",
    ),
    "consistent": (
        "PyTorch API with a consistent MindSpore counterpart",
        "The mapping table says the MindSpore counterpart is consistent: rename the call. "
        "Such uses need no review, so they are not reported as results.",
    ),
    "unknown": (
        "Not a public API of the scanned torch version",
        "A private, removed or misspelt torch name: no mapping can say what replaces it.",
    ),
    "candidate": (
        "PyTorch API with an unverified MindSpore candidate",
        "Not in the mapping tables, but MindSpore has an API of the same name, or a table "
        "names a counterpart without describing the mapping. Neither proves the same "
        "behaviour: run `apiscan verify API` to test it.",
    ),
    "verified": (
        "PyTorch API whose same-name MindSpore candidate passed its micro-test",
        "Not in the mapping tables; MindSpore's API of the same name passed a numeric "
        "micro-test against PyTorch (`apiscan verify`).",
    ),
}
#: SARIF level of an API finding by status, before its scope is taken into account.
STATUS_LEVEL: dict[str, str] = {
    "missing": "error",
    "candidate": "warning",
    "different": "warning",
    "verified": "note",
    "unknown": "note",
    "consistent": "none",
}
SEVERITY_LEVEL: dict[str, str] = {"high": "error", "medium": "warning", "low": "note"}
#: Codes of files that are fine to skip: a notification, not an error.
NOTE_CODES = frozenset({"E010"})
_LOWER = {"error": "warning", "warning": "note", "note": "note", "none": "none"}


def finding_level(finding: Finding) -> str:
    """``error`` / ``warning`` / ``note`` / ``none`` for any finding (also what the language
    server's diagnostic severities derive from).

    API findings: by status, one step lower on the host (training loop, tools), where code
    stays plain Python; dynamic-shape findings: by their severity, which the rule already
    derives from the scope; files not analysed: ``error`` (``note`` for an empty module).
    """
    if isinstance(finding, ApiFinding):
        level = STATUS_LEVEL.get(finding.status, "warning")
        return _LOWER[level] if finding.scope == "host" else level
    if isinstance(finding, ShapeFinding):
        return SEVERITY_LEVEL.get(finding.severity, "warning")
    return "note" if finding.code in NOTE_CODES else "error"


def is_result(finding: Finding) -> bool:
    """Whether a finding becomes a SARIF result (consistent uses and errors do not)."""
    if isinstance(finding, ApiFinding):
        return finding.status != "consistent"
    return isinstance(finding, ShapeFinding)


def mapping_page(result: ScanResult) -> str:
    """The official mapping page of the scan's newest table."""
    sources = result.mapping.sources
    branch = sources[0].get("branch", DEFAULT_BRANCH) if sources else DEFAULT_BRANCH
    return MAPPING_PAGE.format(branch=branch)


def _text(text: str) -> dict[str, str]:
    return {"text": text}


def rule_descriptors(result: ScanResult) -> list[dict[str, object]]:
    """Every rule id apiscan can report, in id order: API statuses, DS rules, E codes."""
    from apiscan.rules.registry import all_rules

    page = mapping_page(result)
    rules: list[dict[str, object]] = []
    for status, rule_id in sorted(API_RULES.items(), key=lambda kv: kv[1]):
        short, full = STATUS_TEXT[status]
        rules.append(
            {
                "id": rule_id,
                "name": f"api-{status}",
                "shortDescription": _text(short),
                "fullDescription": _text(full),
                "helpUri": page,
                "help": _text(f"{full} The mapping tables: {page}"),
                "defaultConfiguration": {
                    "level": STATUS_LEVEL[status],
                    "enabled": status != "consistent",
                },
                "properties": {"tags": ["api-coverage", status]},
            }
        )
    for rule in all_rules():
        sections = rule.sections()
        refs = [w for w in sections.get("References", "").split() if w.startswith("http")]
        worst = min(
            rule.severity_by_scope.values(), key=lambda s: ("high", "medium", "low").index(s)
        )
        help_text = "\n\n".join(
            [rule.summary(), *(f"{title}\n{body}" for title, body in sections.items())]
        )
        descriptor: dict[str, object] = {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": _text(rule.message.replace("{detail}", "…")),
            "fullDescription": _text(" ".join(rule.summary().split())),
            "help": _text(help_text),
            "defaultConfiguration": {"level": SEVERITY_LEVEL[worst]},
            "properties": {
                "tags": ["dynamic-shape"],
                "severity_by_scope": dict(rule.severity_by_scope),
                "docs": f"docs/rules/{rule.id}.md",
            },
        }
        if refs:
            descriptor["helpUri"] = refs[0].rstrip(".,)")
        rules.append(descriptor)
    for code, text in sorted(ERROR_CODES.items()):
        rules.append(_error_descriptor(code, text))
    return rules


def _error_descriptor(code: str, text: str) -> dict[str, object]:
    return {
        "id": code,
        "name": "file-not-analysed",
        "shortDescription": _text(f"File not analysed: {text.split(' (')[0]}"),
        "fullDescription": _text(
            f"{text[0].upper()}{text[1:]}. The file was skipped and the rest of the scan "
            "went on; its API uses are not counted."
        ),
        "defaultConfiguration": {"level": "note" if code in NOTE_CODES else "error"},
        "properties": {"tags": ["analysis-error"]},
    }


def _unknown_descriptor(finding: Finding) -> dict[str, object]:
    name = getattr(finding, "name", "") or finding.rule.lower()
    text = getattr(finding, "message", "") or finding.rule
    return {"id": finding.rule, "name": name, "shortDescription": _text(text)}


def message(finding: Finding) -> str:
    """The one-paragraph text of a result or notification."""
    if isinstance(finding, ApiFinding):
        target = f" → {finding.mindspore_api}" if finding.mindspore_api else ""
        text = f"{finding.api} ({finding.status}{target})"
        if finding.unsupported_params:
            text += f"; MindSpore lacks: {', '.join(finding.unsupported_params)}"
        if finding.note:
            text += f". {finding.note}"
        if finding.diff_url:
            text += f" Difference page: {finding.diff_url}"
        return text
    if isinstance(finding, ShapeFinding):
        text = f"{finding.message} [{finding.scope}, {finding.severity}]"
        if finding.suggestion:
            text += f". Instead: {finding.suggestion}"
        return text
    return f"{finding.code}: {finding.message}"


def _region(finding: Finding) -> dict[str, int]:
    s = finding.span
    return {
        "startLine": s.line,
        "startColumn": s.column,
        "endLine": s.end_line,
        "endColumn": s.end_column,
    }


def _location(finding: Finding) -> dict[str, object]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": finding.path, "uriBaseId": SRCROOT},
            "region": _region(finding),
        }
    }


def fingerprints(findings: Iterable[Finding]) -> dict[int, str]:
    """``id(finding)`` → its partial fingerprint (see the module docstring)."""
    seen: Counter[tuple[str, ...]] = Counter()
    out: dict[int, str] = {}
    for f in sorted(findings, key=lambda f: f.sort_key()):
        api = getattr(f, "api", "") or ""
        function = getattr(f, "function", "") or ""
        key = (f.path, f.rule, api, function)
        index = seen[key]
        seen[key] += 1
        raw = "\x1f".join([*key, str(index)])
        out[id(f)] = hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]
    return out


def _properties(finding: Finding) -> dict[str, object]:
    props = _kind_properties(finding)
    if finding.cell:  # a notebook: the region's lines count within this cell
        props["cell"] = finding.cell
    return props


def _kind_properties(finding: Finding) -> dict[str, object]:
    if isinstance(finding, ApiFinding):
        props: dict[str, object] = {
            "api": finding.api,
            "status": finding.status,
            "mindspore_api": finding.mindspore_api,
            "scope": finding.scope,
            "confidence": finding.confidence,
            "usage": finding.usage,
            "mapping_version": finding.mapping_version,
            "unsupported_params": list(finding.unsupported_params),
        }
        if finding.diff_url:
            props["diff_url"] = finding.diff_url
        canonical = getattr(finding, "canonical", None)  # names as written (issue 14)
        if canonical and canonical != finding.api:
            props["canonical"] = canonical
        for key in ("disposition", "rewrite", "rewrite_note", "form_check"):
            value = getattr(finding, key, "")  # per-call proposals (issue 10)
            if value and value != "none":
                props[key] = value
        return props
    assert isinstance(finding, ShapeFinding)
    return {
        "api": finding.api,
        "scope": finding.scope,
        "severity": finding.severity,
        "mindspore_api": finding.mindspore_api,
        "backends": list(finding.backends),
    }


def _related(finding: Finding) -> list[dict[str, object]]:
    """Where a dynamic-shape finding's value came from, across functions (its chain, origin
    first): one related location per step, numbered from 1 in chain order."""
    if not isinstance(finding, ShapeFinding):
        return []
    related: list[dict[str, object]] = []
    for i, step in enumerate(finding.chain, 1):
        related.append(
            {
                "id": i,
                "physicalLocation": {
                    "artifactLocation": {"uri": step.path, "uriBaseId": SRCROOT},
                    "region": {"startLine": step.line, "startColumn": step.column},
                },
                "message": _text(step.message),
                "properties": (
                    {"function": step.function, "cell": step.cell}
                    if step.cell  # a notebook: the region's line counts within this cell
                    else {"function": step.function}
                ),
            }
        )
    return related


def verified_rewrite(finding: Finding) -> str:
    """The rewrite of this very call when its own form passed its micro-test ("" else): the
    only replacement the quick fix offers, because only it is known to be exact here."""
    if not isinstance(finding, ApiFinding) or finding.usage != "call":
        return ""
    if getattr(finding, "disposition", "") != "rewrite":
        return ""
    if not str(getattr(finding, "form_check", "")).startswith("verified"):
        return ""
    return str(getattr(finding, "rewrite", "") or "")


def _fix(finding: Finding) -> dict[str, object] | None:
    """The call's rewrite as a SARIF fix, only where its own form passed its micro-test."""
    rewrite = verified_rewrite(finding)
    if not rewrite:
        return None
    return {
        "description": _text(f"Replace with {rewrite} ({getattr(finding, 'form_check', '')})"),
        "artifactChanges": [
            {
                "artifactLocation": {"uri": finding.path, "uriBaseId": SRCROOT},
                "replacements": [
                    {"deletedRegion": _region(finding), "insertedContent": _text(rewrite)}
                ],
            }
        ],
    }


def sarif_log(result: ScanResult) -> dict[str, object]:
    """The whole SARIF log as JSON-ready data."""
    rules = rule_descriptors(result)
    index = {str(r["id"]): i for i, r in enumerate(rules)}
    results_in = [f for f in result.findings if is_result(f)]
    for f in results_in:  # a rule the catalogue does not know (a result made elsewhere)
        if f.rule not in index:
            index[f.rule] = len(rules)
            rules.append(_unknown_descriptor(f))
    prints = fingerprints(results_in)
    results = []
    for f in results_in:
        entry: dict[str, object] = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": finding_level(f),
            "message": _text(message(f)),
            "locations": [_location(f)],
            "partialFingerprints": {FINGERPRINT_KEY: prints[id(f)]},
            "properties": _properties(f),
        }
        related = _related(f)
        if related:
            entry["relatedLocations"] = related
        fix = _fix(f)
        if fix:
            entry["fixes"] = [fix]
        results.append(entry)
    descriptors = [_error_descriptor(c, t) for c, t in sorted(ERROR_CODES.items())]
    codes = {str(d["id"]): i for i, d in enumerate(descriptors)}
    notifications = []
    for f in result.findings:
        if isinstance(f, ErrorFinding):
            notifications.append(
                {
                    "level": finding_level(f),
                    "message": _text(message(f)),
                    "locations": [_location(f)],
                    "descriptor": {"id": f.code, "index": codes.get(f.code, -1)},
                }
            )
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "apiscan",
                "version": result.tool_version,
                "semanticVersion": result.tool_version,
                "informationUri": mapping_page(result),
                "rules": rules,
                "notifications": descriptors,
            }
        },
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
        "originalUriBaseIds": {
            SRCROOT: {"description": _text(f"the scanned directory ({result.root})")}
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {
            "mapping": {
                "ms_version": result.mapping.ms_version,
                "merged": result.mapping.merged,
            },
            "torch_api_version": result.torch_api_version,
        },
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


class SarifReporter:
    """SARIF 2.1.0 JSON, indented, UTF-8, with a trailing newline."""

    name = "sarif"
    suffix = ".sarif"

    def render(self, result: ScanResult) -> str:
        return json.dumps(sarif_log(result), indent=2, ensure_ascii=False) + "\n"


register(SarifReporter())
