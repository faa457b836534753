"""The join: per-file records and whole-program facts become one :class:`ScanResult`.

Owners that needed another file (members of classes defined elsewhere) are settled here, every
API use meets the mapping table, every dynamic-shape hit gets its rule's words, its scope and
severity, and suppression comments and configured ignores are honoured. Nothing here parses or
re-analyses code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan import __version__
from apiscan.config import Ignores
from apiscan.extract.records import FileAnalysis
from apiscan.mapping.findings import Matcher
from apiscan.model import (
    ApiUse,
    ErrorFinding,
    FileSummary,
    Finding,
    MappingInfo,
    ScanResult,
    ShapeFinding,
    Span,
)
from apiscan.program.index import ClassTable
from apiscan.rules.findings import ShapeFindings
from apiscan.slotinit import replace

if TYPE_CHECKING:
    from apiscan.mapping.store import MappingTable
    from apiscan.scope.classify import ScopeMap


class JoinContext:
    """What the join knows about the whole repository (classes, call-graph scopes, the
    mapping), so that one file's findings can be computed without redoing the others'.

    ``join`` runs :meth:`file_findings` for every file; an editor checking one buffer keeps a
    context of the project and runs it for that buffer alone (``apiscan.buffer``), so a
    buffer's findings come from the very code that makes the CLI's.
    """

    def __init__(
        self,
        analyses: Sequence[FileAnalysis],
        table: MappingTable,
        classes: ClassTable | None = None,
        scopes: ScopeMap | None = None,
        ignores: Ignores | None = None,
        *,
        target_platform: str | None = None,
    ) -> None:
        from apiscan.resolve.torch_api import load_torch_api
        from apiscan.scope.classify import ScopeMap

        self.api = load_torch_api()
        self.table = table
        self.classes = classes or ClassTable(analyses, self.api)
        self.matcher = Matcher(table, self.api, target_platform)
        self.scopes = scopes or ScopeMap.build(analyses, self.classes)
        self.shapes = ShapeFindings(table, self.api)
        self.ignores = ignores or Ignores()
        #: attribute names some file of the repository stores on its objects
        self.stored_attrs = frozenset(a for fa in analyses for a in fa.stored_attrs)

    def file_findings(self, fa: FileAnalysis) -> tuple[list[Finding], FileSummary]:
        """One file's findings (unsorted) and its summary row."""
        from apiscan.scope.classify import use_scope

        classes, matcher, scopes, shapes = self.classes, self.matcher, self.scopes, self.shapes
        ignores = self.ignores
        findings: list[Finding] = []
        suppressed = dict(fa.suppressions)
        for hit in fa.shape_hits:
            if hit.path:
                continue  # in another file: placed by :meth:`placed_elsewhere`
            if not _is_suppressed(suppressed, hit.span.line, hit.rule) and not (
                ignores and ignores.ignored(fa.path, hit.rule)
            ):
                scope = scopes.scope_of(fa.path, hit.function, True)
                if (hit.network_only and scope != "network") or (hit.data_only and scope != "data"):
                    continue
                findings.append(shapes.finding(fa.path, hit, scope))
        uses = list(fa.uses)
        for p in fa.pending:
            kind, name = classes.member(p.cls, p.attr)
            if (
                kind == "torch"
                and name
                and p.use.usage == "reference"
                and self.api.kind(name) != "method"
            ):
                # a data attribute of a layer of a repository subclass (``conv.weight`` of a
                # ``class GConv2d(nn.Conv2d)``): it follows from the object, whose API is
                # what migrates, as for a torch class's own instance (``_torch_member``)
                continue
            if kind == "torch" and name:
                uses.append(with_api(p.use, name, "certain"))
            elif kind == "unknown" and p.fallback:
                uses.append(with_api(p.use, p.fallback, "probable"))
        n = 0
        for use in uses:
            if self.repository_attribute(use):
                continue
            finding = matcher.finding(fa.path, use)
            if (
                finding is not None
                and not _is_suppressed(suppressed, use.span.line, finding.rule)
                and not (ignores and ignores.ignored(fa.path, finding.rule))
            ):
                scope = use_scope(
                    scopes.scope_of(fa.path, use.function, line=use.span.line, api=finding.api),
                    finding.api,
                    use.usage,
                    fa.path,
                )
                findings.append(replace(finding, scope=scope))
                n += finding.is_call_site  # the per-file count every report shows
        for err in fa.errors:
            findings.append(ErrorFinding(fa.path, err.span, err.code, err.message))
        if fa.cells:  # a notebook: positions in the joined code → cell and line in the cell
            findings = [in_cell(f, fa.cells) for f in findings]
        return findings, FileSummary(fa.path, fa.lines, n, len(fa.errors))

    def repository_attribute(self, use: ApiUse) -> bool:
        """``m.type`` read without a call where the repository itself stores ``.type`` on its
        objects (``m_.i, m_.type = i, t``): the value is the repository's attribute, which
        shadows the torch method of that name on the instance; the method is what a call
        (``m.type(torch.half)``) or a read of a name the repository never stores is."""
        if use.usage != "reference" or not self.stored_attrs:
            return False
        owner, _, attr = use.api.rpartition(".")
        return bool(owner) and attr in self.stored_attrs and self.api.kind(use.api) == "method"

    def placed_elsewhere(
        self, analyses: Sequence[FileAnalysis], findings: Sequence[Finding]
    ) -> list[Finding]:
        """Hits one file's walk found in another file (a host sync in a helper whose number
        the walked file uses as a size: DS118 at the sync), unless that file already has
        the same rule on that line; the target file's suppressions and ignores apply."""
        by_path = {fa.path: fa for fa in analyses}
        have = {(f.path, f.span.line, f.rule) for f in findings if isinstance(f, ShapeFinding)}
        placed: list[Finding] = []
        remote = sorted(
            (hit.path, hit.span, hit.rule, hit.function, hit.detail, hit)
            for fa in analyses
            for hit in fa.shape_hits
            if hit.path
        )
        for path, span, rule, function, _detail, hit in remote:
            target = by_path.get(path)
            key = (path, span.line, rule)
            if target is None or key in have:
                continue
            have.add(key)
            if _is_suppressed(dict(target.suppressions), span.line, rule) or (
                self.ignores and self.ignores.ignored(path, rule)
            ):
                continue
            finding = self.shapes.finding(
                path, replace(hit, path=""), self.scopes.scope_of(path, function, True)
            )
            placed.append(in_cell(finding, target.cells) if target.cells else finding)
        return placed


def join(
    root: str,
    analyses: list[FileAnalysis],
    extra_errors: list[ErrorFinding],
    table: MappingTable,
    stats: dict[str, float],
    ignores: Ignores | None = None,
    *,
    target_platform: str | None = None,
) -> ScanResult:
    context = JoinContext(analyses, table, ignores=ignores, target_platform=target_platform)
    findings: list[Finding] = list(extra_errors)
    summaries = []
    for fa in analyses:
        file_findings, summary = context.file_findings(fa)
        findings.extend(file_findings)
        summaries.append(summary)
    findings.extend(context.placed_elsewhere(analyses, findings))
    return assemble(root, findings, summaries, table, context.api.version, stats)


def assemble(
    root: str,
    findings: list[Finding],
    summaries: list[FileSummary],
    table: MappingTable,
    torch_api_version: str,
    stats: dict[str, float],
) -> ScanResult:
    """The results model from findings and file rows, sorted (the join's last step)."""
    findings.sort(key=lambda f: f.sort_key())
    summaries.sort(key=lambda s: s.path)
    mapping = MappingInfo(table.version, table.merged, tuple(table.sources))
    return ScanResult(
        root=Path(root).as_posix(),
        tool_version=__version__,
        mapping=mapping,
        files=tuple(summaries),
        findings=tuple(findings),
        torch_api_version=torch_api_version,
        stats=stats,
    )


def in_cell(finding: Finding, cells: tuple[tuple[int, int], ...]) -> Finding:
    """A finding on a notebook's joined code, placed in its cell (a span reaching into a
    later cell, only possible for a syntax error, is cut at the end of its first line)."""
    span = finding.span
    cell, line = cells[min(max(span.line, 1), len(cells)) - 1]
    end_cell, end_line = cells[min(max(span.end_line, 1), len(cells)) - 1]
    if end_cell == cell:
        new = Span(line, span.column, end_line, span.end_column)
    else:
        new = Span(line, span.column, line, span.column)
    placed = replace(finding, span=new, cell=cell)
    if isinstance(placed, ShapeFinding) and placed.chain:
        return _chain_in_cells(placed, cells)
    return placed


def _chain_in_cells(finding: ShapeFinding, cells: tuple[tuple[int, int], ...]) -> ShapeFinding:
    """The steps of a finding's chain in its own notebook, placed in their cells, in the steps
    and in the words (the walk names the origin ``nb.ipynb:<line of the joined code>``). A
    notebook is never imported, so its chains cross no other notebook."""
    steps = []
    message = finding.message
    name = finding.path.rpartition("/")[2]
    for step in finding.chain:
        if step.path == finding.path and not step.cell:
            cell, line = cells[min(max(step.line, 1), len(cells)) - 1]
            message = re.sub(
                rf"\bat {re.escape(name)}:{step.line}(?!\d)",
                f"at {name}:cell {cell}:{line}",
                message,
            )
            step = replace(step, line=line, cell=cell)
        steps.append(step)
    return replace(finding, chain=tuple(steps), message=message)


def _is_suppressed(suppressed: Mapping[int, tuple[str, ...]], line: int, rule: str) -> bool:
    """``# apiscan: ignore[DS101]`` (or a bare ``# apiscan: ignore``) on the finding's line."""
    ids = suppressed.get(line)
    return ids is not None and (not ids or rule in ids)


def with_api(use: ApiUse, api: str, confidence: str) -> ApiUse:
    return ApiUse(
        api,
        use.span,
        use.usage,
        confidence,
        use.function,
        use.positional,
        use.keywords,
        use.star_args,
        api,
        use.args,
    )
