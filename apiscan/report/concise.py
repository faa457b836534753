"""``-f concise``: one line per finding, for pre-commit hooks and CI logs.

``path:line:col: CODE message`` — the form compilers and linters print, which editors and CI
log viewers turn into links — followed by one summary line. Only findings that ask for work are
listed (every one except a consistent API use, like SARIF's results), and files that could not
be analysed, whose uses are not counted. A notebook's line counts within its cell, named at the
end of the line so that the location stays parseable.
"""

from __future__ import annotations

from collections import Counter

from apiscan.model import STATUS_ORDER, ApiFinding, Finding, ScanResult, ShapeFinding
from apiscan.report.base import register


def line_of(finding: Finding) -> str:
    """The one line of a finding."""
    where = f"{finding.path}:{finding.span.line}:{finding.span.column}"
    if isinstance(finding, ApiFinding):
        target = f" → {finding.mindspore_api}" if finding.mindspore_api else ""
        text = f"{finding.api}: {finding.status}{target}"
        if finding.unsupported_params:
            text += f" (MindSpore lacks {', '.join(finding.unsupported_params)})"
    elif isinstance(finding, ShapeFinding):
        text = f"{finding.message} [{finding.scope}, {finding.severity}]"
    else:
        text = finding.message
    cell = f" (cell {finding.cell})" if finding.cell else ""
    one_line = " ".join(text.splitlines())  # a message never spills onto a second line
    return f"{where}: {finding.rule} {one_line}{cell}"


def listed(finding: Finding) -> bool:
    """Whether the concise report lists a finding (a consistent use needs no work)."""
    return not (isinstance(finding, ApiFinding) and finding.status == "consistent")


def summary_line(result: ScanResult, shown: list[Finding]) -> str:
    """``Found 3 findings in 2 of 5 files: 1 missing, 1 different, 1 dynamic-shape.``"""
    n_files = len(result.files)
    files = f"{n_files} file{'s' if n_files != 1 else ''}"
    if not shown:
        return f"No findings in {files}."
    statuses = Counter(f.status for f in shown if isinstance(f, ApiFinding))
    parts = [f"{statuses[s]} {s}" for s in STATUS_ORDER if statuses[s]]
    shapes = sum(1 for f in shown if isinstance(f, ShapeFinding))
    errors = sum(1 for f in shown if not isinstance(f, ApiFinding | ShapeFinding))
    if shapes:
        parts.append(f"{shapes} dynamic-shape")
    if errors:
        parts.append(f"{errors} not analysed")
    with_findings = len({f.path for f in shown})
    noun = "finding" if len(shown) == 1 else "findings"
    return f"Found {len(shown)} {noun} in {with_findings} of {files}: {', '.join(parts)}."


class ConciseReporter:
    """One ``path:line:col: CODE message`` line per finding, then a summary line."""

    name = "concise"
    suffix = ".log"

    def render(self, result: ScanResult) -> str:
        shown = sorted((f for f in result.findings if listed(f)), key=lambda f: f.sort_key())
        return "".join(f"{line_of(f)}\n" for f in shown) + summary_line(result, shown) + "\n"


register(ConciseReporter())
