"""Small helpers to scan snippets and tiny repositories written into a temp dir."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

from apiscan.model import ApiFinding, ScanResult
from apiscan.pipeline import ScanOptions, scan
from apiscan.review.model import Review

#: The project's root: fixture paths (``fixtures/...``) are relative to it.
REPO_ROOT = Path(__file__).resolve().parents[1]


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


#: A fixture line that must be reported carries ``# expect: DS104`` (or ``DS104, DS111``).
MARK = re.compile(r"#\s*expect:\s*(DS\d{3}(?:\s*,\s*DS\d{3})*)\s*$")


def marked_findings(root: Path) -> set[tuple[str, int, str]]:
    """(path, line, rule) of every ``# expect:`` mark in a fixture repository."""
    out = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = MARK.search(line)
            if m:
                out |= {(rel, n, rule.strip()) for rule in m.group(1).split(",")}
    return out


def assert_exactly_marked(result: ScanResult, root: Path, at_least: int) -> None:
    """The dynamic-shape findings of a fixture scan are exactly its ``# expect:`` marks (and
    there are at least ``at_least`` of them, so that an emptied fixture cannot pass)."""
    found = {(f.path, f.span.line, f.rule) for f in result.shape_findings}
    want = marked_findings(root)
    assert len(want) >= at_least
    assert found - want == set(), "reported but not marked (a static twin flagged?)"
    assert want - found == set(), "marked but not reported"


def message_on_line(result: ScanResult, root: Path, path: str, rule: str, text: str) -> str:
    """The message of the ``rule`` finding on the one line of ``root/path`` holding ``text``
    (the line is found by its text, so that editing the fixture above it moves nothing)."""
    src = (root / path).read_text().splitlines()
    lines = [n for n, line in enumerate(src, 1) if text in line]
    assert len(lines) == 1, text
    found = [
        f for f in result.shape_findings if (f.path, f.span.line, f.rule) == (path, lines[0], rule)
    ]
    assert found, (path, lines[0], rule)
    return found[0].message


def review_fixture(path: str) -> Review:
    """The review of the fixture repository ``path`` (``fixtures/...``), built from the
    project's root as a user runs it there: the review's places are relative to it."""
    from apiscan.review.build import build_review

    cwd = os.getcwd()
    os.chdir(REPO_ROOT)
    try:
        return build_review(path, jobs=1)
    finally:
        os.chdir(cwd)
