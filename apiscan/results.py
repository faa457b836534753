"""The join: per-file records and whole-program facts become one :class:`ScanResult`.

Owners that needed another file (members of classes defined elsewhere) are settled here, every
API use meets the mapping table, every dynamic-shape hit gets its rule's words, its scope and
severity, and suppression comments are honoured. Nothing here parses or re-analyses code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan import __version__
from apiscan.extract.records import FileAnalysis
from apiscan.mapping.findings import Matcher
from apiscan.model import (
    ApiUse,
    ErrorFinding,
    FileSummary,
    Finding,
    MappingInfo,
    ScanResult,
)
from apiscan.program.index import ClassTable
from apiscan.rules.findings import ShapeFindings

if TYPE_CHECKING:
    from apiscan.mapping.store import MappingTable


def join(
    root: str,
    analyses: list[FileAnalysis],
    extra_errors: list[ErrorFinding],
    table: MappingTable,
    stats: dict[str, float],
) -> ScanResult:
    from apiscan.resolve.torch_api import load_torch_api
    from apiscan.scope.classify import ScopeMap

    api = load_torch_api()
    classes = ClassTable(analyses, api)
    matcher = Matcher(table, api)
    scopes = ScopeMap.build(analyses, classes)
    shapes = ShapeFindings(table, api)
    findings: list[Finding] = list(extra_errors)
    summaries = []
    for fa in analyses:
        suppressed = dict(fa.suppressions)
        for hit in fa.shape_hits:
            if not _is_suppressed(suppressed, hit.span.line, hit.rule):
                findings.append(
                    shapes.finding(fa.path, hit, scopes.scope_of(fa.path, hit.function))
                )
        uses = list(fa.uses)
        for p in fa.pending:
            kind, name = classes.member(p.cls, p.attr)
            if kind == "torch" and name:
                uses.append(with_api(p.use, name, "certain"))
            elif kind == "unknown" and p.fallback:
                uses.append(with_api(p.use, p.fallback, "probable"))
        n = 0
        for use in uses:
            finding = matcher.finding(fa.path, use)
            if finding is not None and not _is_suppressed(suppressed, use.span.line, finding.rule):
                findings.append(replace(finding, scope=scopes.scope_of(fa.path, use.function)))
                n += 1
        for err in fa.errors:
            findings.append(ErrorFinding(fa.path, err.span, err.code, err.message))
        summaries.append(FileSummary(fa.path, fa.lines, n, len(fa.errors)))
    findings.sort(key=lambda f: f.sort_key())
    summaries.sort(key=lambda s: s.path)
    mapping = MappingInfo(table.version, table.merged, tuple(table.sources))
    return ScanResult(
        root=Path(root).as_posix(),
        tool_version=__version__,
        mapping=mapping,
        files=tuple(summaries),
        findings=tuple(findings),
        torch_api_version=api.version,
        stats=stats,
    )


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
    )
