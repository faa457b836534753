"""Small helpers to scan snippets and tiny repositories written into a temp dir."""

from __future__ import annotations

import textwrap
from pathlib import Path

from apiscan.model import ApiFinding, ScanResult
from apiscan.pipeline import ScanOptions, scan


def write_repo(root: Path, files: dict[str, str]) -> Path:
    for rel, src in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(src).lstrip("\n"), encoding="utf-8")
    return root


def scan_repo(root: Path, **kw: object) -> ScanResult:
    return scan(ScanOptions(str(root), cache_dir=None, jobs=1, **kw))  # type: ignore[arg-type]


def scan_snippet(tmp_path: Path, src: str) -> list[ApiFinding]:
    write_repo(tmp_path, {"snippet.py": src})
    return list(scan_repo(tmp_path).api_findings)


def apis(findings: list[ApiFinding]) -> list[tuple[int, str, str]]:
    """(line, api, confidence) triples, sorted."""
    return sorted((f.span.line, f.api, f.confidence) for f in findings)


def api_set(findings: list[ApiFinding]) -> set[tuple[int, str]]:
    return {(f.span.line, f.api) for f in findings}
