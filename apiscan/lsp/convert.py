"""Findings → language-server protocol values: diagnostics, hovers, code actions.

Pure functions of a buffer's :class:`~apiscan.model.ScanResult` and its text, so the server
stays a thin loop and these can be tested without one. Severity comes from the same place as
SARIF's level (:func:`apiscan.report.sarif.finding_level`: status and scope for API findings,
the rule's severity in its scope for dynamic-shape findings).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types

from apiscan.model import (
    ApiFinding,
    ChainStep,
    ErrorFinding,
    Finding,
    ScanResult,
    ShapeFinding,
    Span,
)
from apiscan.report.sarif import finding_level, mapping_page, message, verified_rewrite

SOURCE = "apiscan"
#: API statuses that ask for work in the editor (consistent, verified and unknown uses do
#: not: they show on hover instead).
DIAGNOSED_STATUSES = frozenset({"missing", "different", "candidate"})
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
    "none": types.DiagnosticSeverity.Hint,
}
#: docs/rules/ beside the package (a checkout or an editable install).
RULE_DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
_IGNORE = re.compile(r"#\s*apiscan:\s*ignore\b(\[([^\]]*)\])?")


Units = Callable[[str], int]


def utf16_units(text: str) -> int:
    """LSP's default position encoding counts UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def to_client(
    lines: Sequence[str], line: int, column: int, units: Units = utf16_units
) -> types.Position:
    """A results-model position (1-based line, 1-based code-point column) as an LSP position
    (0-based line, columns in the negotiated encoding's units, UTF-16 by default)."""
    row = line - 1
    if not 0 <= row < len(lines):  # another file's position: no text to count units in
        return types.Position(max(row, 0), max(column - 1, 0))
    return types.Position(row, units(lines[row][: max(column - 1, 0)]))


def span_range(lines: Sequence[str], span: Span, units: Units = utf16_units) -> types.Range:
    return types.Range(
        to_client(lines, span.line, span.column, units),
        to_client(lines, span.end_line, span.end_column, units),
    )


def from_client(
    lines: Sequence[str], pos: types.Position, units: Units = utf16_units
) -> tuple[int, int]:
    """An LSP position as (1-based line, 1-based code-point column)."""
    text = lines[pos.line] if 0 <= pos.line < len(lines) else ""
    for i in range(len(text) + 1):
        if units(text[:i]) >= pos.character:
            return pos.line + 1, i + 1
    return pos.line + 1, len(text) + 1


def is_diagnosed(finding: Finding) -> bool:
    if isinstance(finding, ApiFinding):
        return finding.status in DIAGNOSED_STATUSES
    return True


def rule_link(finding: Finding, result: ScanResult) -> str:
    """Where to read about a finding: the official difference page of a different API, the
    rule's page (docs/rules/ where it is on disk, else its first official reference), the
    mapping table for other API findings; "" for errors."""
    if isinstance(finding, ApiFinding):
        return finding.diff_url or mapping_page(result)
    if isinstance(finding, ShapeFinding):
        page = RULE_DOCS / f"{finding.rule}.md"
        if page.is_file():
            return page.as_uri()
        from apiscan.rules.registry import get_rule

        try:
            refs = get_rule(finding.rule).sections().get("References", "")
        except KeyError:
            return ""
        return next((w for w in refs.split() if w.startswith("http")), "")
    return ""


#: Where a chain step is in the client's terms: (document URI, 1-based line, 1-based
#: code-point column, that document's lines or () when the server does not hold its text).
Located = tuple[str, int, int, Sequence[str]]
Locate = Callable[[ChainStep], Located]


def related_information(
    finding: Finding,
    result: ScanResult,
    lines: Sequence[str],
    units: Units = utf16_units,
    locate: Locate | None = None,
) -> list[types.DiagnosticRelatedInformation]:
    """A dynamic-shape finding's chain (origin first: the host read of tensor data, then each
    call, return or attribute write that carried the value) as related locations. A step in
    the finding's own file is positioned in ``lines``; a step in another file keeps its
    column as counted in code points (its text is not at hand). ``locate``: how to place a
    step otherwise (a notebook's steps go to their cells)."""
    if not isinstance(finding, ShapeFinding):
        return []
    out = []
    for step in finding.chain:
        if locate is not None:
            uri, line, column, text = locate(step)
        else:
            uri = (Path(result.root) / step.path).absolute().as_uri()
            line, column = step.line, step.column
            text = lines if step.path == finding.path else ()
        at = to_client(text, line, column, units)
        out.append(
            types.DiagnosticRelatedInformation(
                types.Location(uri, types.Range(at, at)), step.message or "from here"
            )
        )
    return out


def diagnostic(
    finding: Finding,
    result: ScanResult,
    lines: Sequence[str],
    units: Units = utf16_units,
    locate: Locate | None = None,
) -> types.Diagnostic:
    link = rule_link(finding, result)
    related = related_information(finding, result, lines, units, locate)
    return types.Diagnostic(
        range=span_range(lines, finding.span, units),
        message=message(finding),
        severity=_SEVERITY[finding_level(finding)],
        code=finding.rule,
        code_description=types.CodeDescription(href=link) if link else None,
        source=SOURCE,
        related_information=tuple(related) or None,
        data=_data(finding),
    )


def _data(finding: Finding) -> dict[str, object]:
    data: dict[str, object] = {"rule": finding.rule, "line": finding.span.line}
    rewrite = verified_rewrite(finding)
    if rewrite:
        data["rewrite"] = rewrite
        data["form_check"] = str(getattr(finding, "form_check", ""))
    return data


def diagnostics(
    result: ScanResult,
    lines: Sequence[str],
    units: Units = utf16_units,
    locate: Locate | None = None,
) -> list[types.Diagnostic]:
    """The buffer's findings that ask for work, in the results model's (sorted) order."""
    return [diagnostic(f, result, lines, units, locate) for f in result.findings if is_diagnosed(f)]


def _contains(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column) or (
        span.line == span.end_line == line and span.column == column
    )


def hover_markdown(result: ScanResult, line: int, column: int) -> str | None:
    """What apiscan knows about the PyTorch API (and dynamic shape) under the cursor."""
    found = [f for f in result.findings if _contains(f.span, line, column)]
    # The innermost span first: ``torch.nn.functional.relu`` inside a larger expression.
    found.sort(key=lambda f: (f.span.end_line - f.span.line, f.span.end_column - f.span.column))
    parts = []
    for f in found:
        if isinstance(f, ApiFinding):
            parts.append(_api_hover(f, result))
        elif isinstance(f, ShapeFinding):
            parts.append(_shape_hover(f))
        elif isinstance(f, ErrorFinding):
            parts.append(f"**{f.code}**: {f.message}")
    return "\n\n---\n\n".join(dict.fromkeys(parts)) or None


def _api_hover(f: ApiFinding, result: ScanResult) -> str:
    target = f"`{f.mindspore_api}`" if f.mindspore_api else "no MindSpore counterpart"
    out = [f"**`{f.api}`**: {f.status} → {target} ({f.rule}, {f.scope} scope)"]
    canonical = getattr(f, "canonical", None)
    if canonical and canonical != f.api:
        out.append(f"Canonical name: `{canonical}`")
    if f.unsupported_params:
        out.append(
            "Parameters MindSpore lacks: " + ", ".join(f"`{p}`" for p in f.unsupported_params)
        )
    if f.note:
        out.append(f.note)
    table = f"Mapping table: MindSpore {f.mapping_version}" if f.mapping_version else ""
    if table:
        branch = next(
            (
                s.get("branch")
                for s in result.mapping.sources
                if s.get("version") == f.mapping_version
            ),
            None,
        )
        out.append(table + (f" ({branch})" if branch else ""))
    if f.diff_url:
        out.append(f"[Official difference page]({f.diff_url})")
    rewrite = str(getattr(f, "rewrite", "") or "")
    if rewrite:
        check = str(getattr(f, "form_check", "") or "") or "this form not verified"
        out.append(f"Rewrite of this call: `{rewrite}` ({check})")
    note = str(getattr(f, "rewrite_note", "") or "")
    if note:
        out.append(note)
    subs = result.substitutions_for(f.api)
    if subs:
        out.append("Substitutions:")
        for s in subs:
            result_text = "not verified" if s.verification == "not run" else s.describe()
            out.append(f"- `{s.ms_expr}` ({s.strategy}): {result_text}")
    elif f.status in DIAGNOSED_STATUSES:
        out.append("Substitutions: none in the catalogue (not verified)")
    return "\n\n".join(out)


def _shape_hover(f: ShapeFinding) -> str:
    out = [f"**{f.rule} `{f.name}`** ({f.severity}, {f.scope} scope): {f.message}"]
    if f.suggestion:
        out.append(f"Instead: {f.suggestion}")
    if f.mindspore_api:
        where = ", ".join(f.backends) if f.backends else "not on the dynamic-shape support lists"
        out.append(f"MindSpore: `{f.mindspore_api}` (dynamic shape: {where})")
    return "\n\n".join(out)


def ignore_edit(
    lines: Sequence[str], line: int, rule: str, units: Units = utf16_units
) -> types.TextEdit | None:
    """The edit that makes line ``line`` (1-based) carry ``# apiscan: ignore[rule]``: a new
    comment at its end, or the id added to a directive already there. None if it has it."""
    row = line - 1
    if not 0 <= row < len(lines):
        return None
    text = lines[row].rstrip("\r\n")
    match = _IGNORE.search(text)
    if match is None:
        start = types.Position(row, units(text))
        return types.TextEdit(types.Range(start, start), f"  # apiscan: ignore[{rule}]")
    if match.group(1) is None:
        return None  # a bare ignore already silences every rule
    ids = [i.strip() for i in match.group(2).split(",") if i.strip()]
    if rule in ids:
        return None
    new = f"[{', '.join([*ids, rule])}]"
    a, b = match.span(1)
    return types.TextEdit(
        types.Range(
            types.Position(row, units(text[:a])),
            types.Position(row, units(text[:b])),
        ),
        new,
    )


def code_actions(
    uri: str,
    lines: Sequence[str],
    diagnostics_in_range: Sequence[types.Diagnostic],
    units: Units = utf16_units,
) -> list[types.CodeAction]:
    """For each apiscan diagnostic in the requested range: ``# apiscan: ignore[ID]``, and
    "replace with the rewrite" where the finding carries a rewrite of this very call whose
    form passed its micro-test (calls without one, or whose form failed or was not tested,
    get no replacement: it would not be known to be exact)."""
    actions = []
    seen = set()
    for d in diagnostics_in_range:
        if d.source != SOURCE or not isinstance(d.data, dict):
            continue
        rule, line = (
            str(d.data.get("rule", d.code)),
            int(d.data.get("line", d.range.start.line + 1)),
        )
        if (rule, line) in seen:
            continue
        seen.add((rule, line))
        rewrite = str(d.data.get("rewrite", ""))
        if rewrite:
            edits = [types.TextEdit(d.range, rewrite)]
            imported = _import_edit(lines)
            if imported is not None:
                edits.insert(0, imported)
            actions.append(
                types.CodeAction(
                    title=f"Replace with {rewrite} (verified for this form)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[d],
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                    is_preferred=True,
                )
            )
        edit = ignore_edit(lines, line, rule, units)
        if edit is None:
            continue
        actions.append(
            types.CodeAction(
                title=f"Ignore {rule} on this line (# apiscan: ignore[{rule}])",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[d],
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return actions


_IMPORTS_MINDSPORE = re.compile(r"^\s*(import mindspore\b|from mindspore\b)")
_TOP_IMPORT = re.compile(r"^(import|from)\s")


def _import_edit(lines: Sequence[str]) -> types.TextEdit | None:
    """``import mindspore`` before the first top-level import, unless it is there already
    (rewrites name MindSpore APIs by their full path)."""
    if any(_IMPORTS_MINDSPORE.match(line) for line in lines):
        return None
    row = next((i for i, line in enumerate(lines) if _TOP_IMPORT.match(line)), 0)
    at = types.Position(row, 0)
    return types.TextEdit(types.Range(at, at), "import mindspore\n")
