"""The roll-ups the human-readable reports share (top API tables, per-file counts).

Only the text and Markdown reporters need these. They are plain dictionaries and sorts over
the findings: pandas computed them once, and its import alone (about 0.4 s of CPU with numpy)
cost more than a small repository's whole analysis. Every ordering below is explicit and ends
on a unique key, so the same :class:`~apiscan.model.ScanResult` always yields the same rows in
the same order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from apiscan.model import STATUS_ORDER, ApiFinding, ScanResult, ShapeFinding


@dataclass(frozen=True, slots=True)
class ApiRollup:
    """Every call site of one API with one status, folded into one row of a "top" table.

    ``mindspore_api`` and ``note`` are the most frequent non-empty values over the sites (ties go
    to the alphabetically first), because the matcher may word a note per call site.
    """

    api: str
    mindspore_api: str
    sites: int
    files: int
    probable: int
    locations: tuple[tuple[str, int, int], ...]  # path, line, notebook cell (0: none)
    more_locations: int
    note: str
    unsupported_params: tuple[str, ...]
    #: The most exposed scope over the sites: network, then data, then host.
    scope: str = "host"
    #: What to change: the distinct parameter differences the sites hit, in first-seen order,
    #: as (headline, the diff page's words) pairs (see ``ParamChange.headline``).
    changes: tuple[tuple[str, str], ...] = ()
    diff_url: str = ""
    #: The mapping table the verdict came from ("2.6"), "" when none.
    mapping_version: str = ""
    #: Where the suggested target runs ("Ascend GPU CPU"), "" when undocumented.
    backends: str = ""
    #: Every target the table row lists, " / "-joined.
    targets: str = ""
    #: True when some site's target lacks the scan's --target platform.
    backend_gap: bool = False
    #: What older tables said where they disagree with this verdict (status or target),
    #: newest first: ``("2.4: different → mindspore.ops.prod",)``.
    history: tuple[str, ...] = ()


#: Rank of a scope in "top" tables: what runs inside the network graph blocks a migration
#: first; data processing next; host code (training loop, tools) last.
SCOPE_RANK: dict[str, int] = {"network": 0, "data": 1, "host": 2}


@dataclass(frozen=True, slots=True)
class TopApis:
    """The first rows of a "top" table and how many distinct APIs it was cut from."""

    rows: tuple[ApiRollup, ...]
    total: int


@dataclass(frozen=True, slots=True)
class FileRow:
    """One file's counts; ``lines`` is None for a file known only from its findings."""

    path: str
    lines: int | None
    uses: int
    #: Call sites per status, in ``STATUS_ORDER``.
    counts: tuple[int, ...]
    errors: int


@dataclass(frozen=True, slots=True)
class FileTable:
    """Files with at least one API use or error, and how many files had neither."""

    rows: tuple[FileRow, ...]
    quiet_files: int


class ApiRow(NamedTuple):
    """One API finding with the columns the "top" tables fold (see :func:`api_frame`)."""

    path: str
    line: int
    cell: int
    api: str
    status: str
    mindspore_api: str
    probable: bool
    note: str
    unsupported_params: tuple[str, ...]
    scope_rank: int
    changes: tuple[tuple[str, str], ...]
    severity_rank: int
    diff_url: str
    mapping_version: str
    backends: str
    targets: str
    backend_gap: bool
    history: tuple[str, ...]


def api_frame(result: ScanResult) -> list[ApiRow]:
    """One row per call site (an API finding that is no type annotation), in the result's
    (already sorted) order."""
    return [
        ApiRow(
            f.path,
            f.span.line,
            f.cell,
            f.api,
            f.status,
            f.mindspore_api or "",
            f.confidence == "probable",
            f.note,
            f.unsupported_params,
            SCOPE_RANK.get(f.scope, 2),
            tuple((c.headline(), c.note) for c in f.param_changes),
            _severity_rank(f),
            f.diff_url,
            f.mapping_version or "",
            " ".join(f.backends),
            " / ".join(f.mindspore_apis),
            f.backend_gap,
            f.history,
        )
        for f in result.call_site_findings
    ]


def _severity_rank(finding: ApiFinding) -> int:
    """0: the call cannot run as written (a parameter without counterpart, a target missing
    on the --target platform); 1: it must be edited (renamed parameter, changed default);
    2: nothing call-specific is known."""
    kinds = {change.kind for change in finding.param_changes}
    if finding.unsupported_params or finding.backend_gap or "unsupported" in kinds:
        return 0
    if kinds & {"renamed", "default", "input"}:
        return 1
    return 2


def top_apis(frame: list[ApiRow], status: str, limit: int, locations: int = 3) -> TopApis:
    """The first ``limit`` APIs with call sites of ``status``, ranked by scope (network
    first), then severity (a call that cannot run before one that needs editing), then
    call sites, files and name: a blocker inside the network outranks a frequent host call
    (timm's 41 network ``scaled_dot_product_attention`` sites before 325 ``jit.ignore``)."""
    sites = [row for row in frame if row.status == status]
    if not sites:
        return TopApis(rows=(), total=0)
    by_api: dict[str, list[ApiRow]] = {}
    for row in sites:
        by_api.setdefault(row.api, []).append(row)
    # api, sites, files, probable, scope rank, severity rank, backend gap
    stats = sorted(
        (
            (
                api,
                len(group),
                len({r.path for r in group}),
                sum(r.probable for r in group),
                min(r.scope_rank for r in group),
                min(r.severity_rank for r in group),
                any(r.backend_gap for r in group),
            )
            for api, group in by_api.items()
        ),
        key=lambda s: (s[4], s[5], -s[1], -s[2], s[0]),
    )
    total = len(stats)
    stats = stats[:limit]
    kept = {s[0] for s in stats}
    chosen = [row for row in sites if row.api in kept]

    places: dict[str, dict[tuple[str, int, int], None]] = {}
    for row in chosen:
        places.setdefault(row.api, {})[(row.path, row.line, row.cell)] = None
    first = {api: list(found)[:locations] for api, found in places.items()}
    unsupported: dict[str, tuple[str, ...]] = {}
    for row in chosen:
        if row.unsupported_params:
            unsupported[row.api] = (*unsupported.get(row.api, ()), *row.unsupported_params)
    unsupported = {api: tuple(sorted(set(found))) for api, found in unsupported.items()}
    notes = _most_frequent(chosen, "note")
    targets = _most_frequent(chosen, "mindspore_api")
    extra = {
        column: _most_frequent(chosen, column)
        for column in ("diff_url", "mapping_version", "backends", "targets")
    }
    changes: dict[str, tuple[tuple[str, str], ...]] = {}
    for row in chosen:
        changes[row.api] = tuple(dict.fromkeys([*changes.get(row.api, ()), *row.changes]))
    history: dict[str, tuple[str, ...]] = {}
    for row in chosen:
        history[row.api] = tuple(dict.fromkeys([*history.get(row.api, ()), *row.history]))
    scope_names = {rank: name for name, rank in SCOPE_RANK.items()}

    rows = tuple(
        ApiRollup(
            api=api,
            mindspore_api=targets.get(api, ""),
            sites=n_sites,
            files=n_files,
            probable=n_probable,
            locations=tuple(first[api]),
            more_locations=len(places[api]) - len(first[api]),
            note=notes.get(api, ""),
            unsupported_params=unsupported.get(api, ()),
            scope=scope_names[scope_rank],
            changes=changes.get(api, ()),
            diff_url=extra["diff_url"].get(api, ""),
            mapping_version=extra["mapping_version"].get(api, ""),
            backends=extra["backends"].get(api, ""),
            targets=extra["targets"].get(api, ""),
            backend_gap=gap,
            history=disagreeing_history(
                history.get(api, ()), status, extra["targets"].get(api, "")
            ),
        )
        for api, n_sites, n_files, n_probable, scope_rank, _severity, gap in stats
    )
    return TopApis(rows=rows, total=total)


def revised_consistent(frame: list[ApiRow], limit: int) -> TopApis:
    """The top consistent APIs an older table disagreed on (``torch.nn.SELU`` was r1.10's
    ``ops.SeLU``, "different"): worth knowing when code or docs follow the older table."""
    everything = top_apis(frame, "consistent", max(len(frame), 1), 1)
    revised = tuple(row for row in everything.rows if row.history)
    return TopApis(rows=revised[:limit], total=len(revised))


def disagreeing_history(history: Sequence[str], status: str, targets: str) -> tuple[str, ...]:
    """The entries of ``history`` (``"1.10: different → mindspore.ops.SeLU"``) whose
    status or targets differ from the verdict's: what a reader should know an older table
    said (r2.4.0 called ``Tensor.prod`` different where r2.6.0 says consistent)."""
    current = {t for t in targets.split(" / ") if t}
    versions: dict[str, list[str]] = {}
    for entry in history:
        version, _, said = entry.partition(": ")
        old_status, _, old_targets = said.partition(" → ")
        if old_status != status or not {t for t in old_targets.split(" / ") if t} <= current:
            versions.setdefault(said, []).append(version)
    # Tables that said the same are one entry: "2.4, 2.3: consistent → mindspore.ops.arange".
    return tuple(f"{', '.join(vs)}: {said}" for said, vs in versions.items())


def _most_frequent(sites: list[ApiRow], column: str) -> dict[str, str]:
    """Per API, the most frequent non-empty value of ``column`` (ties: alphabetically first)."""
    counts: Counter[tuple[str, str]] = Counter()
    for row in sites:
        value = getattr(row, column)
        if value != "" and value is not None:
            counts[(row.api, value)] += 1
    best: dict[str, tuple[int, str]] = {}
    for (api, value), n in counts.items():
        held = best.get(api)
        if held is None or n > held[0] or (n == held[0] and value < held[1]):
            best[api] = (n, value)
    return {api: value for api, (_n, value) in sorted(best.items())}


@dataclass(frozen=True, slots=True)
class BackendSummary:
    """Distinct APIs (with a MindSpore target) whose target lacks a platform, per scope.

    ``no_cpu``/``no_gpu`` count targets documented for some platforms but not that one;
    ``ascend_only`` those documented for Ascend alone; ``gaps`` the APIs counted as gaps
    under ``--target``. Targets that document no platform are ``undocumented``.
    """

    scope: str
    apis: int
    no_cpu: int
    no_gpu: int
    ascend_only: int
    undocumented: int
    gaps: int


def backend_summary(result: ScanResult) -> tuple[BackendSummary, ...]:
    """One row per scope (network, data, host) that has APIs with a MindSpore target."""
    per_scope: dict[str, dict[str, tuple[tuple[str, ...], bool]]] = {}
    for f in result.api_findings:
        if not f.mindspore_api or f.status in ("missing", "unknown"):
            continue
        backends, gap = per_scope.setdefault(f.scope, {}).get(f.api, (f.backends, False))
        per_scope[f.scope][f.api] = (backends, gap or f.backend_gap)
    rows = []
    for scope in SCOPE_RANK:
        apis = per_scope.get(scope)
        if not apis:
            continue
        documented = [b for b, _ in apis.values() if b]
        rows.append(
            BackendSummary(
                scope=scope,
                apis=len(apis),
                no_cpu=sum("CPU" not in b for b in documented),
                no_gpu=sum("GPU" not in b for b in documented),
                ascend_only=sum(b == ("Ascend",) for b in documented),
                undocumented=len(apis) - len(documented),
                gaps=sum(gap for _, gap in apis.values()),
            )
        )
    return tuple(rows)


def describe_backends(rows: tuple[BackendSummary, ...]) -> tuple[str, ...]:
    """One sentence per scope: "14 of 60 network APIs have no CPU kernel; ...; 3 run on
    Ascend only" (kernel = a platform the target's "Supported Platforms" lists)."""
    lines = []
    for row in rows:
        noun = "API" if row.apis == 1 else "APIs"
        parts = [
            f"{row.no_cpu} of {row.apis} {row.scope} {noun} have no CPU kernel",
            f"{row.no_gpu} have no GPU kernel",
            f"{row.ascend_only} run on Ascend only",
        ]
        if row.undocumented:
            parts.append(f"{row.undocumented} document no platform")
        if row.gaps:
            parts.append(f"{row.gaps} lack the --target platform (counted as gaps)")
        lines.append("; ".join(parts) + ".")
    return tuple(lines)


def file_table(result: ScanResult, frame: list[ApiRow]) -> FileTable:
    """Per-file counts, sorted by path, leaving out files with neither API uses nor errors.

    Status and error counts come from the findings (like ``ScanResult.summary()``), lines from
    the file summaries; a path known from only one side still gets a row. Dynamic-shape
    findings have their own section, grouped by file (:func:`shape_files`).
    """
    lines: dict[str, int | None] = {f.path: f.lines for f in result.files}
    column = {status: i for i, status in enumerate(STATUS_ORDER)}
    counts: dict[str, list[int]] = {}
    for row in frame:
        per_status = counts.setdefault(row.path, [0] * len(STATUS_ORDER))
        if row.status in column:
            per_status[column[row.status]] += 1
    errors = Counter(f.path for f in result.error_findings)
    paths = {*lines, *counts, *errors}
    rows = []
    for path in sorted(paths):
        per_status = counts.get(path, [0] * len(STATUS_ORDER))
        uses = sum(per_status)
        if uses or errors[path]:
            rows.append(FileRow(path, lines.get(path), uses, tuple(per_status), errors[path]))
    return FileTable(rows=tuple(rows), quiet_files=len(paths) - len(rows))


@dataclass(frozen=True, slots=True)
class ShapeFunction:
    """The dynamic-shape findings of one function ("" for module level), by position."""

    function: str
    findings: tuple[ShapeFinding, ...]


@dataclass(frozen=True, slots=True)
class ShapeFile:
    """The dynamic-shape findings of one file, by function in the order they first occur."""

    path: str
    functions: tuple[ShapeFunction, ...]

    @property
    def findings(self) -> int:
        return sum(len(function.findings) for function in self.functions)


@dataclass(frozen=True, slots=True)
class RuleAdvice:
    """A rule's suggested rewrite, shown once however many findings share it."""

    rule: str
    name: str
    findings: int
    suggestion: str


def shape_files(result: ScanResult) -> tuple[ShapeFile, ...]:
    """Dynamic-shape findings grouped by file (sorted by path), then by function.

    Functions keep the order of their first finding, so a report reads down the file; a
    function's findings stay in the result's (path, line, column, rule) order.
    """
    by_file: dict[str, dict[str, list[ShapeFinding]]] = {}
    for finding in result.shape_findings:
        by_file.setdefault(finding.path, {}).setdefault(finding.function, []).append(finding)
    return tuple(
        ShapeFile(
            path=path,
            functions=tuple(
                ShapeFunction(function, tuple(found)) for function, found in functions.items()
            ),
        )
        for path, functions in sorted(by_file.items())
    )


def rule_advice(result: ScanResult) -> tuple[RuleAdvice, ...]:
    """One row per rule and distinct non-empty suggestion, sorted by rule then suggestion.

    A rule normally has one suggestion; should a rule word it per finding, each wording is
    kept (once) rather than one being picked silently.
    """
    counts = Counter((f.rule, f.name, f.suggestion) for f in result.shape_findings if f.suggestion)
    return tuple(
        RuleAdvice(rule=rule, name=name, findings=n, suggestion=suggestion)
        for (rule, name, suggestion), n in sorted(counts.items())
    )
