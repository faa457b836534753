"""A Markdown report to paste into a pull request or a wiki page.

Same sections as the text report, as GitHub-flavoured tables. Locations link to
``path#Lline`` relative to the page, which is how GitHub anchors a line of a file, so the report
works when committed at the scanned repository's root. Cell text is escaped so a ``|`` in a note
or path cannot break a table.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast
from urllib.parse import quote

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

#: Notes longer than this are shortened (a table cell is no place for a paragraph).
NOTE_WIDTH = 160


class MarkdownReporter:
    """Summary, namespaces, top missing/different APIs, dynamic shapes, files and errors."""

    name = "markdown"
    suffix = ".md"

    def __init__(self, top: int = 15, locations: int = 3) -> None:
        self.top = top
        self.locations = locations

    def prepare(self) -> None:
        """Load the roll-ups ahead of time; the pipeline calls this while workers parse."""
        from apiscan.report import aggregation  # noqa: F401

    def render(self, result: ScanResult) -> str:
        # the roll-ups load here, not at import, so that the JSON and CSV formats never pay.
        from apiscan.report import aggregation

        summary = result.summary()
        frame = aggregation.api_frame(result)
        sections = [
            _header(result),
            _summary(summary),
            _backends(aggregation.backend_summary(result)),
            _dispositions(result),
            _namespaces(summary),
            _top_missing(aggregation.top_apis(frame, "missing", self.top, self.locations), result),
            _top_candidates(
                aggregation.top_apis(frame, "verified", self.top, self.locations),
                aggregation.top_apis(frame, "candidate", self.top, self.locations),
                result,
            ),
            _top_different(
                aggregation.top_apis(frame, "different", self.top, self.locations), result
            ),
            _revised(aggregation.revised_consistent(frame, self.top)),
            _substitutions(result),
            _dynamic_shape(
                summary, aggregation.shape_files(result), aggregation.rule_advice(result)
            ),
            _files(aggregation.file_table(result, frame)),
            _errors(result),
        ]
        return "\n\n".join(sections) + "\n"


def cell(text: str) -> str:
    """Text from scanned code made safe for Markdown prose and table cells: one line, ``|``
    escaped, Markdown punctuation backslash-escaped (no emphasis, links or code spans from a
    value), and ``<``, ``>``, ``&`` as entities so that no HTML reaches a renderer."""
    return _one_line(escape(text))


#: Punctuation that starts Markdown syntax anywhere in a line (``_`` is handled apart: GFM
#: never reads an underscore between two letters or digits as emphasis, so ``zeros_like``
#: stays readable).
_MD_PUNCT = re.compile(r"([\\`*\[\]~])")
_FLANKING_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")


def escape(text: str) -> str:
    """Markdown- and HTML-safe inline text (see :func:`cell`); ``|`` is left to callers."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_PUNCT.sub(r"\\\1", text)
    return _FLANKING_UNDERSCORE.sub(r"\\_", text)


def _one_line(text: str) -> str:
    """No line breaks and ``|`` escaped: GFM splits cells on ``|`` even inside code spans."""
    return " ".join(text.split()).replace("|", "\\|")


def _code(text: str) -> str:
    """A code span (HTML is not read inside one): its fence is one backtick longer than the
    longest run of backticks in the text, padded with spaces where the text starts or ends
    with a backtick or a space, so no value can close the span early."""
    if not text:
        return ""
    text = _one_line(text)
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    if text[0] in "` " or text[-1] in "` ":
        text = f" {text} "
    return f"{fence}{text}{fence}"


def _link(path: str, line: int | None = None, column: int | None = None, in_cell: int = 0) -> str:
    """``[path:line](path#Lline)``; the target is percent-encoded so spaces or ``)`` are safe.
    In a notebook the label names the cell (``nb.ipynb:cell 3:12``) and the link the file."""
    label = path
    if line is not None:
        label += f":{position(line, column, in_cell)}"
    anchor = "" if line is None or in_cell else f"#L{line}"
    target = quote(path, safe="/") + anchor
    return f"[{cell(label)}]({target})"


def _table(headers: Sequence[str], align: str, rows: Iterable[Sequence[str]]) -> str:
    """A GFM table; ``align`` holds one ``l`` or ``r`` per column."""
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = [_row(headers), _row(rule)]
    lines.extend(_row(r) for r in rows)
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _header(result: ScanResult) -> str:
    mapping = result.mapping
    merged = f" (merged from {len(mapping.sources)} tables)" if mapping.merged else ""
    lines = [
        "# apiscan report: PyTorch → MindSpore",
        "",
        f"- **Tool:** apiscan {result.tool_version}",
        f"- **Root:** {_code(result.root)}",
        f"- **Mapping:** MindSpore {mapping.ms_version}{merged}",
    ]
    lines.extend(
        "  - " + ", ".join(f"{key}: {_code(str(value))}" for key, value in source.items())
        for source in mapping.sources
    )
    if result.torch_api_version:
        lines.append(f"- **PyTorch:** {result.torch_api_version}")
    return "\n".join(lines)


def _summary(summary: dict[str, object]) -> str:
    by_status = cast(dict[str, dict[str, float]], summary["by_status"])
    facts = _table(
        ["", "count"],
        "lr",
        [
            ["files", f"{summary['files']:,}"],
            ["files with errors", f"{summary['files_with_errors']:,}"],
            ["lines", f"{summary['lines']:,}"],
            ["call sites", f"{summary['call_sites']:,}"],
            ["call sites of probable confidence", f"{summary['probable_sites']:,}"],
            ["distinct APIs", f"{summary['distinct_apis']:,}"],
            ["dynamic-shape findings", f"{shape_total(summary):,}"],
            ["errors", f"{summary['errors']:,}"],
        ],
    )
    coverage = _table(
        ["status", "call sites", "%", "APIs", "%"],
        "lrrrr",
        [
            [
                status,
                f"{int(by_status[status]['call_sites']):,}",
                f"{by_status[status]['call_sites_pct']:.1f}%",
                f"{int(by_status[status]['apis']):,}",
                f"{by_status[status]['apis_pct']:.1f}%",
            ]
            for status in STATUS_ORDER
        ],
    )
    by_scope = cast(dict[str, dict[str, int]], summary["by_scope"])
    scopes = _table(
        ["scope", "API call sites", "dynamic-shape findings"],
        "lrr",
        (
            [scope, f"{by_scope[scope]['call_sites']:,}", f"{by_scope[scope]['dynamic_shape']:,}"]
            for scope in SCOPES
        ),
    )
    by_severity = shape_severities(summary)
    severities = _table(
        ["severity", "dynamic-shape findings"],
        "lr",
        ([severity, f"{by_severity[severity]:,}"] for severity in SEVERITIES),
    )
    return f"## Summary\n\n{facts}\n\n{coverage}\n\n{scopes}\n\n{severities}"


def _dynamic_shape(
    summary: dict[str, object],
    files: tuple[aggregation.ShapeFile, ...],
    advice: tuple[aggregation.RuleAdvice, ...],
) -> str:
    """A heading per file, a table per function; each rule's suggested rewrite once, at the end."""
    severities = shape_severities(summary)
    counted = ", ".join(f"{severities[s]:,} {s}" for s in SEVERITIES if severities[s])
    n = shape_total(summary)
    title = f"## Dynamic shape ({n:,} finding{'' if n == 1 else 's'}"
    title += f": {counted})" if counted else ")"
    note = facts_cut_note(summary)
    if note:
        title += f"\n\n{note}"
    if not files:
        return f"{title}\n\nNo dynamic-shape findings."
    blocks = [title]
    for group in files:
        n = group.findings
        blocks.append(f"### {_link(group.path)} ({n:,} finding{'' if n == 1 else 's'})")
        for function in group.functions:
            label = _code(function.function) if function.function else "module level"
            table = _table(
                [
                    "line",
                    "rule",
                    "severity",
                    "scope",
                    "message",
                    "API → MindSpore",
                    "dynamic shape on",
                ],
                "rllllll",
                (_shape_row(finding) for finding in function.findings),
            )
            blocks.append(f"#### {label}\n\n{table}")
    if advice:
        table = _table(
            ["rule", "findings", "suggested rewrite"],
            "lrl",
            ([f"{r.rule} {_code(r.name)}", f"{r.findings:,}", cell(r.suggestion)] for r in advice),
        )
        blocks.append(f"### Suggested rewrites\n\n{table}")
    return "\n\n".join(blocks)


def _shape_row(finding: ShapeFinding) -> list[str]:
    line = finding.span.line
    anchor = "" if finding.cell else f"#L{line}"
    label = position(line, finding.span.column, finding.cell)
    where = f"[{label}]({quote(finding.path, safe='/')}{anchor})"
    apis = _code(finding.api)
    if finding.mindspore_api:
        apis += f" → {_code(finding.mindspore_api)}"
    if not finding.api:
        support = ""
    elif finding.backends:
        support = ", ".join(finding.backends)
    else:
        support = "none listed" if finding.mindspore_api else ""
    return [
        where,
        f"{finding.rule} {_code(finding.name)}",
        finding.severity,
        finding.scope,
        cell(finding.message),
        apis,
        support,
    ]


def _namespaces(summary: dict[str, object]) -> str:
    by_ns = cast(dict[str, dict[str, int]], summary["by_namespace"])
    if not by_ns:
        return "## By namespace\n\nNo API uses found."
    columns = [*STATUS_ORDER, "total"]
    table = _table(
        ["namespace", *columns],
        "l" + "r" * len(columns),
        ([_code(ns), *(f"{counts[c]:,}" for c in columns)] for ns, counts in by_ns.items()),
    )
    return f"## By namespace\n\n{table}"


def _locations(row: aggregation.ApiRollup) -> str:
    places = [_link(path, line, in_cell=in_cell) for path, line, in_cell in row.locations]
    if row.more_locations:
        places.append(f"+{row.more_locations} more")
    return ", ".join(places)


def _top_missing(top: aggregation.TopApis, result: ScanResult) -> str:
    title = f"## Top missing APIs ({len(top.rows)} of {top.total})"
    if not top.rows:
        return f"{title}\n\nNo missing APIs."
    table = _table(
        ["API", "scope", "call sites", "probable", "files", "first locations", "substitution"],
        "llrrrll",
        (
            [
                _code(r.api),
                r.scope,
                f"{r.sites:,}",
                f"{r.probable:,}",
                f"{r.files:,}",
                _locations(r),
                _substitution_cell(result, r.api),
            ]
            for r in top.rows
        ),
    )
    return f"{title}\n\n{table}"


def _top_candidates(
    verified: aggregation.TopApis, candidates: aggregation.TopApis, result: ScanResult
) -> str:
    shown = len(verified.rows) + len(candidates.rows)
    title = f"## Unverified candidates ({shown} of {verified.total + candidates.total})"
    if not shown:
        return f"{title}\n\nNo APIs that only an unverified MindSpore counterpart covers."
    intro = (
        "Not in the mapping table, but MindSpore has an API of the same name, or a table "
        "names a counterpart without describing the mapping: *verified* once its micro-test "
        "passed (`apiscan verify`), *candidate* until then."
    )
    table = _table(
        [
            "API",
            "MindSpore",
            "status",
            "scope",
            "call sites",
            "files",
            "first locations",
            "verification",
        ],
        "llllrrll",
        (
            [
                _code(r.api),
                _code(r.mindspore_api),
                status,
                r.scope,
                f"{r.sites:,}",
                f"{r.files:,}",
                _locations(r),
                _substitution_cell(result, r.api),
            ]
            for status, top in (("verified", verified), ("candidate", candidates))
            for r in top.rows
        ),
    )
    return f"{title}\n\n{intro}\n\n{table}"


def _substitution_cell(result: ScanResult, api: str) -> str:
    """What to do about the API: the rewrite of its first call site (rendered from that
    call's arguments), an idiom with its page, a deletion, or why there is none."""
    parts = []
    for label, text in proposal(result, api):
        shown = textwrap.shorten(text, width=NOTE_WIDTH * 2, placeholder="…")
        code = label.startswith(("use", "idiom (", "delete (")) and not text.startswith("the ")
        parts.append(f"{cell(label)}: {_code(shown) if code else cell(shown)}")
    return "<br>".join(parts)


def _dispositions(result: ScanResult) -> str:
    """Call sites and APIs per disposition: what the work is, not just what is missing."""
    rows = disposition_rows(result)
    title = "## By disposition"
    if not rows:
        return f"{title}\n\nNothing to change beyond renames."
    table = _table(
        ["disposition", "call sites", "network", "APIs"],
        "lrrr",
        ([label, f"{n:,}", f"{net:,}", f"{apis:,}"] for label, n, net, apis in rows),
    )
    return f"{title}\n\n{table}"


def _substitutions(result: ScanResult) -> str:
    """Every catalogue case of the missing, candidate and different APIs found."""
    subs = result.substitutions
    title = f"## Substitutions and verification ({len({s.api for s in subs})} APIs)"
    if not subs:
        return f"{title}\n\nThe catalogue has no substitution for the APIs this scan flagged."
    table = _table(
        ["case", "strategy", "MindSpore", "verification", "note"],
        "lllll",
        (
            [
                _code(s.case_id),
                s.strategy,
                _code(s.ms_expr),
                cell(s.describe()),
                cell(textwrap.shorten(s.note, width=NOTE_WIDTH, placeholder="…")),
            ]
            for s in subs
        ),
    )
    tally = substitution_tally(subs)
    return f"{title}\n\n{table}\n\nMicro-tests: {tally}. Run them with `apiscan verify API ...`."


def _top_different(top: aggregation.TopApis, result: ScanResult) -> str:
    title = f"## Top different APIs ({len(top.rows)} of {top.total})"
    if not top.rows:
        return f"{title}\n\nNo APIs with differences."
    table = _table(
        [
            "API",
            "MindSpore",
            "scope",
            "call sites",
            "files",
            "what to change",
            "runs on",
            "note",
            "source",
            "first locations",
            "substitution",
        ],
        "lllrrllllll",
        (
            [
                _code(r.api),
                _targets_cell(r),
                r.scope,
                f"{r.sites:,}",
                f"{r.files:,}",
                _changes_cell(r),
                _runs_on_cell(r),
                cell(textwrap.shorten(r.note, width=NOTE_WIDTH, placeholder="…")) if r.note else "",
                _source_cell(r),
                _locations(r),
                _substitution_cell(result, r.api),
            ]
            for r in top.rows
        ),
    )
    return f"{title}\n\n{table}"


def _revised(top: aggregation.TopApis) -> str:
    title = f"## Consistent APIs older tables disagreed on ({len(top.rows)} of {top.total})"
    if not top.rows:
        return f"{title}\n\nNo consistent API had another verdict in an older table."
    table = _table(
        ["API", "MindSpore", "scope", "call sites", "source"],
        "lllrl",
        (
            [_code(r.api), _targets_cell(r), r.scope, f"{r.sites:,}", _source_cell(r)]
            for r in top.rows
        ),
    )
    return f"{title}\n\n{table}"


def _targets_cell(row: aggregation.ApiRollup) -> str:
    """The suggested target; other targets the table lists follow as "or ..."."""
    others = [t for t in row.targets.split(" / ") if t and t != row.mindspore_api]
    return " or ".join(_code(t) for t in [row.mindspore_api, *others] if t)


def _changes_cell(row: aggregation.ApiRollup) -> str:
    """Unsupported parameters and every parameter difference the calls hit, one per line."""
    items = []
    for headline, words in row.changes:
        text = cell(headline)
        if words:
            text += " — " + cell(textwrap.shorten(words, width=NOTE_WIDTH, placeholder="…"))
        items.append(text)
    listed = {headline.split("=", 1)[0] for headline, _ in row.changes}
    items.extend(
        f"{_code(p)}: no MindSpore counterpart" for p in row.unsupported_params if p not in listed
    )
    return "<br>".join(items)


def _runs_on_cell(row: aggregation.ApiRollup) -> str:
    if not row.backends:
        return "not documented"
    gap = " **(lacks --target)**" if row.backend_gap else ""
    return ", ".join(row.backends.split()) + gap


def _source_cell(row: aggregation.ApiRollup) -> str:
    """A link to the difference page, labelled with the table version it came from."""
    table = f"table {row.mapping_version}" if row.mapping_version else "table"
    if row.diff_url:
        source = f"[diff page ({table})]({row.diff_url})"
    else:
        source = table if row.mapping_version else ""
    if row.history:
        older = "; ".join(row.history[:2]) + (
            f"; +{len(row.history) - 2} more" if len(row.history) > 2 else ""
        )
        source += f"<br>older tables: {cell(older)}"
    return source


def _backends(rows: tuple[aggregation.BackendSummary, ...]) -> str:
    """Where the suggested targets run, per scope, from their Supported Platforms."""
    from apiscan.report.aggregation import describe_backends

    title = "## Backends (documented Supported Platforms of the targets)"
    if not rows:
        return f"{title}\n\nNo API with a MindSpore target."
    return "\n".join([title, "", *(f"- {cell(line)}" for line in describe_backends(rows))])


def _files(files: aggregation.FileTable) -> str:
    title = "## Files"
    n = files.quiet_files
    quiet = f"Not listed: {n:,} file{'' if n == 1 else 's'} without PyTorch API uses or errors."
    if not files.rows:
        return f"{title}\n\nNo files with PyTorch API uses or errors." + (
            f" {quiet}" if files.quiet_files else ""
        )
    table = _table(
        ["file", "lines", "uses", *STATUS_ORDER, "errors"],
        "l" + "r" * (len(STATUS_ORDER) + 3),
        (
            [
                _link(r.path),
                "-" if r.lines is None else f"{r.lines:,}",
                f"{r.uses:,}",
                *(f"{n:,}" for n in r.counts),
                f"{r.errors:,}",
            ]
            for r in files.rows
        ),
    )
    return f"{title}\n\n{table}" + (f"\n\n{quiet}" if files.quiet_files else "")


def _errors(result: ScanResult) -> str:
    title = "## Files that could not be analysed"
    errors = result.error_findings
    if not errors:
        return f"{title}\n\nNone."
    table = _table(
        ["location", "code", "message"],
        "lll",
        (
            [_link(e.path, e.span.line, e.span.column, e.cell), _code(e.code), cell(e.message)]
            for e in errors
        ),
    )
    return f"{title}\n\n{table}"


register(MarkdownReporter())
