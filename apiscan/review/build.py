"""Builds the feasibility review of a repository: one scan, then each section from its facts.

The scan runs once (``scan_with_facts``: findings, with the verification results the cache
holds linked to them, plus the per-file records: classes and their lines, calls, functions),
through the same cache as ``apiscan scan``, so a review after a scan re-analyses nothing. No
section re-runs name resolution: a torch API is whatever the scan's findings say it is, a repo
call reaches whatever the solver's call edges say. The source files are parsed once with
``ast`` (:class:`~apiscan.review.sources.Sources`), shared by the sections that read what no
record carries (the recipe's argument expressions and loops, the attribute a child module is
stored in, import statements).
"""

from __future__ import annotations

from pathlib import Path

from apiscan import __version__
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review import effort, gaps, structure
from apiscan.review.model import Review
from apiscan.review.sources import Sources


def scan_root(path: str | Path) -> Path:
    """The directory findings are relative to (a single file's parent), as discovery has it."""
    root = Path(path).resolve()
    return root.parent if root.is_file() else root


def build_review(
    path: str,
    ms_version: str | None = None,
    excludes: tuple[str, ...] = (),
    jobs: int | None = None,
    progress: bool = False,
) -> Review:
    """Scan ``path`` without the cache and assemble its review (raises what the scan raises
    for usage errors: ``DiscoveryError``, ``UnknownVersionError``). ``excludes``, ``jobs``
    and ``progress`` mean what they mean for the scan; :func:`review` takes every option."""
    options = ScanOptions(
        path,
        ms_version=ms_version,
        cache_dir=None,
        excludes=excludes,
        jobs=jobs,
        progress=progress,
    )
    return review(options)


def review(options: ScanOptions) -> Review:
    """Scan with ``options`` (cache, configuration, verification results included) and
    assemble the review of what it found."""
    from apiscan.review.recipe import extract_recipe  # the one section with its own module

    result, analyses = scan_with_facts(options)
    root = scan_root(options.path)
    sources = Sources(root, analyses)
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    network_gaps = gaps.network_gaps(result, gaps.load_suggester())
    return Review(
        root=result.root,
        tool_version=__version__,
        recipe=extract_recipe(result, analyses, root, sources, hierarchy),
        modules=structure.module_nodes(result, analyses, sources, hierarchy, api),
        coverage=gaps.coverage(result),
        gaps=network_gaps,
        dynamic_shape=gaps.dynamic_shape(result),
        sparse=gaps.sparse_uses(result),
        extensions=gaps.extensions(root, result, analyses, hierarchy),
        third_party=gaps.third_party(analyses, sources),
        effort=effort.estimate(result, network_gaps),
        errors=tuple(
            (f.path, f"{f.code} {_line(f.span.line, f.cell)}: {f.message}")
            for f in result.error_findings
        ),
    )


def _line(line: int, cell: int) -> str:
    return f"cell {cell} line {line}" if cell else f"line {line}"
