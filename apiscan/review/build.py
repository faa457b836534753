"""Builds the feasibility review of a repository: one scan, then each section from its facts.

The scan runs once (``scan_with_facts``: findings plus the per-file classes and calls), the
source files are parsed once with ``ast`` for what the facts do not carry (class lines, import
lists, recipe values), and every section reads from those. No section re-runs name resolution:
a torch API is whatever the scan's findings say it is.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from apiscan import __version__
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review import effort, gaps, structure
from apiscan.review.model import Review


def scan_root(path: str | Path) -> Path:
    """The directory findings are relative to (a single file's parent), as discovery has it."""
    root = Path(path).resolve()
    return root.parent if root.is_file() else root


def parse_sources(root: Path, paths: Iterable[str]) -> dict[str, ast.Module]:
    """Each file that Python can parse, by its report path; the others are already error
    findings of the scan, so they are skipped here without a second report."""
    from apiscan.parsing import parse_python
    from apiscan.source import DecodedSource, decode_source, read_source_file

    trees: dict[str, ast.Module] = {}
    for path in paths:
        try:
            decoded = decode_source(read_source_file(str(root / path)))
        except OSError:
            continue
        if not isinstance(decoded, DecodedSource):
            continue
        # The scan's own guarded parse (pinned recursion limit, MemoryError caught): a file
        # nested too deeply for it must not kill the review.
        tree = parse_python(decoded.text, path)
        if isinstance(tree, ast.Module):
            trees[path] = tree
    return trees


def build_review(
    path: str,
    ms_version: str | None = None,
    excludes: tuple[str, ...] = (),
    jobs: int | None = None,
    progress: bool = False,
) -> Review:
    """Scan ``path`` and assemble its review (raises what the scan raises for usage errors:
    ``DiscoveryError``, ``UnknownVersionError``). ``excludes``, ``jobs`` and ``progress``
    mean what they mean for the scan."""
    from apiscan.review.recipe import extract_recipe  # the one section with its own module

    options = ScanOptions(
        path,
        ms_version=ms_version,
        cache_dir=None,
        excludes=excludes,
        jobs=jobs,
        progress=progress,
    )
    result, analyses = scan_with_facts(options)
    root = scan_root(path)
    trees = parse_sources(root, (fa.path for fa in analyses if not fa.errors))
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    network_gaps = gaps.network_gaps(result, gaps.load_suggester())
    return Review(
        root=result.root,
        tool_version=__version__,
        recipe=tuple(extract_recipe(result, analyses, root)),
        modules=structure.module_nodes(result, analyses, trees, hierarchy, api),
        coverage=gaps.coverage(result),
        gaps=network_gaps,
        dynamic_shape=gaps.dynamic_shape(result),
        sparse=gaps.sparse_uses(result),
        extensions=gaps.extensions(root, result, analyses, trees, hierarchy),
        third_party=gaps.third_party(analyses, trees),
        effort=effort.estimate(result, network_gaps),
        errors=tuple(
            (f.path, f"{f.code} line {f.span.line}: {f.message}") for f in result.error_findings
        ),
    )
