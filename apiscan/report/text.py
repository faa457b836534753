"""The default report: plain text for a terminal.

No ANSI colours, so the same text can be piped, diffed and kept as a golden file. Lines stay
within :data:`WIDTH` characters where the content allows (long paths are never cut: a path must
stay copyable); notes are shortened with an ellipsis.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from apiscan.model import SCOPES, SEVERITIES, STATUS_ORDER, ScanResult, ShapeFinding, position
from apiscan.report.base import (
    disposition_rows,
    facts_cut_note,
    proposal,
    register,
    shape_severities,
    shape_total,
    substitution_tally,
)

if TYPE_CHECKING:
    from apiscan.report import aggregation

WIDTH = 100
#: Where continuation lines of a "top" table start (under the API column).
_INDENT = " " * 15
#: Indents of the dynamic-shape section: function, finding, finding details.
_FUNCTION, _FINDING, _DETAIL = " " * 2, " " * 4, " " * 8


class TextReporter:
    """Header, summary, namespaces, top missing/different APIs, dynamic shapes, per-file table,
    errors."""

    name = "text"
    suffix = ".txt"

    def __init__(self, top: int = 15, locations: int = 3) -> None:
        self.top = top
        self.locations = locations

    def prepare(self) -> None:
        """Load tabulate and the roll-ups ahead of time; the pipeline calls this while workers
        parse."""
        import tabulate  # noqa: F401

        from apiscan.report import aggregation  # noqa: F401

    def render(self, result: ScanResult) -> str:
        # the roll-ups load here, not at import, so that other formats never pay for them.
        from apiscan.report import aggregation

        summary = result.summary()
        frame = aggregation.api_frame(result)
        sections = [
            _header(result),
            _summary(summary),
            _backends(aggregation.backend_summary(result)),
            _dispositions(result),
            _namespaces(summary),
            self._top_missing(
                aggregation.top_apis(frame, "missing", self.top, self.locations), result
            ),
            self._top_candidates(
                aggregation.top_apis(frame, "verified", self.top),
                aggregation.top_apis(frame, "candidate", self.top),
                result,
            ),
            self._top_different(aggregation.top_apis(frame, "different", self.top), result),
            _revised(aggregation.revised_consistent(frame, self.top)),
            _substitutions(result),
            _dynamic_shape(
                summary, aggregation.shape_files(result), aggregation.rule_advice(result)
            ),
            _files(aggregation.file_table(result, frame)),
            _errors(result),
        ]
        return "\n\n".join(sections) + "\n"

    def _top_missing(self, top: aggregation.TopApis, result: ScanResult) -> str:
        title = _title(f"Top missing APIs ({len(top.rows)} of {top.total})")
        if not top.rows:
            return f"{title}\nNo missing APIs."
        lines = [title, _TOP_HEADER + "API"]
        for row in top.rows:
            lines.append(_wrap(f"{_counts(row)}{row.api}{_probable(row)}"))
            places = [f"{path}:{position(line, cell=cell)}" for path, line, cell in row.locations]
            if row.more_locations:
                places.append(f"+{row.more_locations} more")
            lines.append(_wrap(_INDENT + "at " + ", ".join(places)))
            lines.extend(_substitution_line(result, row.api))
        return "\n".join(lines)

    def _top_candidates(
        self, verified: aggregation.TopApis, candidates: aggregation.TopApis, result: ScanResult
    ) -> str:
        shown = len(verified.rows) + len(candidates.rows)
        total = verified.total + candidates.total
        title = _title(f"Unverified candidates ({shown} of {total})")
        if not total:
            return f"{title}\nNo APIs that only an unverified MindSpore counterpart covers."
        lines = [
            title,
            "Not in the mapping table (MindSpore has an API of the same name), or a table names",
            "a counterpart without describing the mapping. 'verified' once its micro-test",
            "passed (apiscan verify), 'candidate' until then.",
            _TOP_HEADER + "API -> MindSpore  [status]",
        ]
        for status, top in (("verified", verified), ("candidate", candidates)):
            for row in top.rows:
                target = f" -> {row.mindspore_api}" if row.mindspore_api else ""
                line = f"{_counts(row)}{row.api}{target}  [{status}]"
                lines.append(_wrap(line + _probable(row)))
                lines.extend(_substitution_line(result, row.api))
        return "\n".join(lines)

    def _top_different(self, top: aggregation.TopApis, result: ScanResult) -> str:
        title = _title(f"Top different APIs ({len(top.rows)} of {top.total})")
        if not top.rows:
            return f"{title}\nNo APIs with differences."
        lines = [title, _TOP_HEADER + "API -> MindSpore"]
        for row in top.rows:
            target = f" -> {row.mindspore_api}" if row.mindspore_api else ""
            lines.append(_wrap(f"{_counts(row)}{row.api}{target}{_probable(row)}"))
            lines.extend(_what_to_change(row))
            lines.extend(_substitution_line(result, row.api))
        return "\n".join(lines)


#: Header of the "top" tables; :func:`_counts` fills the same columns.
_TOP_HEADER = " sites  files  scope    "
#: Parameter differences listed per API before the rest are only counted.
_MAX_CHANGES = 4


def _counts(row: aggregation.ApiRollup) -> str:
    return f"{row.sites:>6} {row.files:>6}  {row.scope:<7}  "


def _what_to_change(row: aggregation.ApiRollup) -> list[str]:
    """Under a "different" API: the parameter differences its calls hit, other targets,
    where the target runs, the note, and the difference page with its table version."""
    lines = []
    if row.unsupported_params:
        lines.append(_wrap(f"{_INDENT}unsupported params: {', '.join(row.unsupported_params)}"))
    for headline, words in row.changes[:_MAX_CHANGES]:
        lines.append(_change_line(headline, words))
    if len(row.changes) > _MAX_CHANGES:
        lines.append(f"{_INDENT}change: +{len(row.changes) - _MAX_CHANGES} more")
    if " / " in row.targets:
        lines.append(_wrap(f"{_INDENT}targets: {row.targets}"))
    lines.extend(_runs_on(row))
    if row.note:
        lines.append(_shortened("note: ", row.note))
    lines.extend(_source(row))
    lines.extend(_older(row))
    return lines


def _revised(top: aggregation.TopApis) -> str:
    """Consistent APIs whose older tables said otherwise, with what they said."""
    title = _title(f"Consistent APIs older tables disagreed on ({len(top.rows)} of {top.total})")
    if not top.rows:
        return f"{title}\nNo consistent API had another verdict in an older table."
    lines = [title, _TOP_HEADER + "API -> MindSpore"]
    for row in top.rows:
        target = f" -> {row.mindspore_api}" if row.mindspore_api else ""
        lines.append(_wrap(f"{_counts(row)}{row.api}{target}{_probable(row)}"))
        lines.extend(_older(row))
    return "\n".join(lines)


#: Older-table entries shown under a top API before the rest are only counted.
_MAX_HISTORY = 2


def _older(row: aggregation.ApiRollup) -> list[str]:
    """What older tables said where they disagree with the verdict, briefly."""
    if not row.history:
        return []
    shown = "; ".join(row.history[:_MAX_HISTORY])
    more = len(row.history) - _MAX_HISTORY
    text = f"{shown}; +{more} more" if more > 0 else shown
    return [_shortened("older tables: ", text)]


def _runs_on(row: aggregation.ApiRollup) -> list[str]:
    """Only when the target is not documented for every platform (or fails --target)."""
    if not row.backends or row.backends == "Ascend GPU CPU":
        return []
    gap = " (lacks the --target platform)" if row.backend_gap else ""
    return [f"{_INDENT}runs on: {', '.join(row.backends.split())}{gap}"]


def _source(row: aggregation.ApiRollup) -> list[str]:
    """The difference page (or the table) a verdict rests on, with the table version."""
    table = f"table {row.mapping_version}" if row.mapping_version else ""
    if row.diff_url:
        # The URL ends the line and is never wrapped: it must stay copyable, like a path.
        where = f" ({table})" if table else ""
        return [f"{_INDENT}see{where}: {row.diff_url}"]
    return [f"{_INDENT}source: mapping {table}"] if table else []


def _change_line(headline: str, words: str) -> str:
    """``change: <what to write> (<defaults>): <the page's words, shortened>``; the
    headline is never shortened (it is the instruction), only the page's words are."""
    label = f"{_INDENT}change: {headline}"
    room = WIDTH - len(label) - 2
    if not words or room < 20:
        return _wrap(label)
    return f"{label}: {textwrap.shorten(words, width=room, placeholder='…')}"


def _shortened(label: str, text: str) -> str:
    room = WIDTH - len(_INDENT) - len(label)
    return f"{_INDENT}{label}{textwrap.shorten(text, width=room, placeholder='…')}"


def _backends(rows: tuple[aggregation.BackendSummary, ...]) -> str:
    """Where the suggested MindSpore targets run, per scope (from their documentation)."""
    from apiscan.report.aggregation import describe_backends

    title = _title("Backends (documented Supported Platforms of the targets)")
    if not rows:
        return f"{title}\nNo API with a MindSpore target."
    return "\n".join([title, *(_fill(line, "") for line in describe_backends(rows))])


def _substitution_line(result: ScanResult, api: str) -> list[str]:
    """What to do about the API, under its row: the rewrite of its first call site (rendered
    from that call's arguments), an idiom and its page, a deletion, or why there is none."""
    lines = []
    for label, text in proposal(result, api):
        lines.append(_wrap(f"{_INDENT}{label}: {text}"))
    return lines


def _dispositions(result: ScanResult) -> str:
    """Call sites and APIs per disposition: what the work is, not just what is missing."""
    rows = disposition_rows(result)
    title = _title("By disposition")
    if not rows:
        return f"{title}\nNothing to change beyond renames."
    from tabulate import tabulate  # imported by the first table, not at start-up

    table = tabulate(
        rows,
        headers=["disposition", "call sites", "network", "APIs"],
        tablefmt="simple",
        colalign=("left", "right", "right", "right"),
    )
    note = (
        "delete: no counterpart needed; idiom: a MindSpore pattern (template and page in the "
        "JSON report); rewrite: an API substitution; may need a custom op: a tensor "
        "computation with no counterpart; gap: nothing known."
    )
    return f"{title}\n{table}\n{textwrap.fill(note, WIDTH)}"


def _substitutions(result: ScanResult) -> str:
    """Every catalogue case of the missing, candidate and different APIs found."""
    subs = result.substitutions
    title = _title(f"Substitutions and verification ({len({s.api for s in subs})} APIs)")
    if not subs:
        return f"{title}\nThe catalogue has no substitution for the APIs this scan flagged."
    lines = [title]
    for sub in subs:
        lines.append(_wrap(f"{sub.case_id}  [{sub.strategy}]"))
        lines.append(_wrap(f"{_INDENT}tested: {sub.ms_expr}"))
        lines.append(_wrap(f"{_INDENT}{sub.describe()}"))
    tally = substitution_tally(subs)
    lines.append(f"Micro-tests: {tally}. Run them with: apiscan verify API ...")
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _title(text: str, underline: str = "=") -> str:
    return f"{text}\n{underline * len(text)}"


def _wrap(line: str) -> str:
    """Wrap a long line under the API column, never breaking inside a path or name."""
    return textwrap.fill(
        line,
        width=WIDTH,
        subsequent_indent=_INDENT + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def _probable(row: aggregation.ApiRollup) -> str:
    return f"  ({row.probable} probable)" if row.probable else ""


def _table(rows: Iterable[Iterable[object]], headers: list[str], align: list[str]) -> str:
    """A plain table; numbers arrive pre-formatted so tabulate never re-parses them."""
    from tabulate import tabulate

    table: str = tabulate(
        [list(r) for r in rows],
        headers=headers,
        tablefmt="simple",
        colalign=align,
        disable_numparse=True,
    )
    return table


def _header(result: ScanResult) -> str:
    mapping = result.mapping
    kind = f" (merged from {len(mapping.sources)} tables)" if mapping.merged else ""
    lines = [
        f"apiscan {result.tool_version}: PyTorch -> MindSpore API report",
        f"Root:       {result.root}",
        f"Mapping:    MindSpore {mapping.ms_version}{kind}",
    ]
    for i, source in enumerate(mapping.sources):
        label = "Sources:" if i == 0 else ""
        described = ", ".join(f"{key}={value}" for key, value in source.items())
        lines.append(f"{label:<12}{described}")
    if result.torch_api_version:
        lines.append(f"PyTorch:    {result.torch_api_version}")
    return "\n".join(lines)


def _summary(summary: dict[str, object]) -> str:
    by_status = cast(dict[str, dict[str, float]], summary["by_status"])
    facts = [
        ("Files", f"{summary['files']:,} ({summary['files_with_errors']:,} with errors)"),
        ("Lines", f"{summary['lines']:,}"),
        ("Call sites", f"{summary['call_sites']:,} ({summary['probable_sites']:,} probable)"),
        ("Distinct APIs", f"{summary['distinct_apis']:,}"),
        ("Dynamic shape", _count(shape_total(summary), "finding")),
        ("Errors", f"{summary['errors']:,}"),
    ]
    head = "\n".join(f"{label + ':':<15}{value}" for label, value in facts)
    table = _table(
        (
            (
                status,
                f"{int(by_status[status]['call_sites']):,}",
                f"{by_status[status]['call_sites_pct']:.1f}%",
                f"{int(by_status[status]['apis']):,}",
                f"{by_status[status]['apis_pct']:.1f}%",
            )
            for status in STATUS_ORDER
        ),
        headers=["status", "call sites", "%", "APIs", "%"],
        align=["left", "right", "right", "right", "right"],
    )
    by_scope = cast(dict[str, dict[str, int]], summary["by_scope"])
    scopes = _table(
        (
            (scope, f"{by_scope[scope]['call_sites']:,}", f"{by_scope[scope]['dynamic_shape']:,}")
            for scope in SCOPES
        ),
        headers=["scope", "API call sites", "dynamic shape"],
        align=["left", "right", "right"],
    )
    by_severity = shape_severities(summary)
    severities = _table(
        ((severity, f"{by_severity[severity]:,}") for severity in SEVERITIES),
        headers=["severity", "dynamic shape"],
        align=["left", "right"],
    )
    return f"{_title('Summary')}\n{head}\n\n{table}\n\n{scopes}\n\n{severities}"


def _dynamic_shape(
    summary: dict[str, object],
    files: tuple[aggregation.ShapeFile, ...],
    advice: tuple[aggregation.RuleAdvice, ...],
) -> str:
    """Findings by file, then function; each rule's suggested rewrite once, at the end."""
    severities = shape_severities(summary)
    counted = ", ".join(f"{severities[s]:,} {s}" for s in SEVERITIES if severities[s])
    total = _count(shape_total(summary), "finding")
    title = _title(f"Dynamic shape ({total}{': ' + counted if counted else ''})")
    note = facts_cut_note(summary)
    if note:
        title += "\n" + _fill(note, "")
    if not files:
        return f"{title}\nNo dynamic-shape findings."
    lines = [title]
    for group in files:
        lines.append(f"{group.path} ({_count(group.findings, 'finding')})")
        for function in group.functions:
            lines.append(f"{_FUNCTION}{function.function or '<module level>'}")
            for finding in function.findings:
                lines.extend(_shape_lines(finding))
    if advice:
        lines += ["", _title("Suggested rewrites", "-")]
        for row in advice:
            lines.append(f"{row.rule} {row.name} ({_count(row.findings, 'finding')})")
            lines.append(_fill(row.suggestion, _FINDING))
    return "\n".join(lines)


def _shape_lines(finding: ShapeFinding) -> list[str]:
    """``line:column  rule name  severity  scope``, then the message and the MindSpore facts."""
    where = position(finding.span.line, finding.span.column, finding.cell)
    head = (
        f"{_FINDING}{where:<8} {finding.rule} {finding.name}  {finding.severity}  {finding.scope}"
    )
    lines = [head, _fill(finding.message, _DETAIL)]
    if finding.api:
        target = f" -> {finding.mindspore_api}" if finding.mindspore_api else ""
        support = (
            f"dynamic shape on {', '.join(finding.backends)}"
            if finding.backends
            else "no dynamic-shape support listed"
        )
        facts = f"{finding.api}{target} ({support})" if finding.mindspore_api else finding.api
        lines.append(_fill(facts, _DETAIL))
    return lines


def _fill(text: str, indent: str) -> str:
    """``text`` wrapped to :data:`WIDTH` at ``indent``, never breaking inside a name."""
    return textwrap.fill(
        text,
        width=WIDTH,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


#: Column headers of the wide per-status tables, short enough for 100 columns.
_SHORT = {
    "candidate": "candid.",
    "different": "differ.",
    "verified": "verif.",
    "consistent": "consist.",
}


#: The per-file table also has a path column: its status headers are shorter still.
_TINY = {
    "missing": "miss",
    "candidate": "cand",
    "different": "diff",
    "verified": "verif",
    "consistent": "cons",
    "unknown": "unkn",
}


def _short(columns: Iterable[str]) -> list[str]:
    return [_SHORT.get(c, c) for c in columns]


def _namespaces(summary: dict[str, object]) -> str:
    by_ns = cast(dict[str, dict[str, int]], summary["by_namespace"])
    title = _title("By namespace")
    if not by_ns:
        return f"{title}\nNo API uses found."
    columns = [*STATUS_ORDER, "total"]
    table = _table(
        ([ns, *(f"{counts[c]:,}" for c in columns)] for ns, counts in by_ns.items()),
        headers=["namespace", *_short(columns)],
        align=["left"] + ["right"] * len(columns),
    )
    return f"{title}\n{table}"


def _files(files: aggregation.FileTable) -> str:
    title = _title("Files")
    quiet = f"(not listed: {_count(files.quiet_files, 'file')} without PyTorch API uses or errors)"
    if not files.rows:
        return f"{title}\nNo files with PyTorch API uses or errors." + (
            f"\n{quiet}" if files.quiet_files else ""
        )
    table = _table(
        (
            (
                row.path,
                "-" if row.lines is None else f"{row.lines:,}",
                f"{row.uses:,}",
                *(f"{n:,}" for n in row.counts),
                f"{row.errors:,}",
            )
            for row in files.rows
        ),
        headers=["path", "lines", "uses", *(_TINY[s] for s in STATUS_ORDER), "errors"],
        align=["left"] + ["right"] * (len(STATUS_ORDER) + 3),
    )
    legend = _wrap("(" + ", ".join(f"{_TINY[s]}: {s}" for s in STATUS_ORDER) + ")")
    return f"{title}\n{table}\n{legend}" + (f"\n{quiet}" if files.quiet_files else "")


def _errors(result: ScanResult) -> str:
    errors = result.error_findings
    files = len({e.path for e in errors})
    counted = f"{_count(len(errors), 'error')} in {_count(files, 'file')}"
    title = _title(f"Files that could not be analysed ({counted})")
    if not errors:
        return f"{title}\nNone."
    lines = [title]
    for error in errors:
        where = f"{error.path}:{position(error.span.line, error.span.column, error.cell)}"
        lines.append(
            textwrap.fill(
                f"{where}  {error.code}  {error.message}",
                width=WIDTH,
                subsequent_indent="    ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(lines)


register(TextReporter())
