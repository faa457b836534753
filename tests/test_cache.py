"""The analysis cache: warm scans parse nothing, invalidate exactly, and never change results."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from scan_helpers import write_repo

import apiscan.pipeline
from apiscan.cli.main import main
from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan, scan_rendered
from apiscan.report import get_reporter

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

FILES = {
    "pkg/__init__.py": "",
    "pkg/layers.py": "from torch import zeros as make\nimport torch.nn as nn\n",
    "pkg/model.py": "from pkg.layers import make, nn\n\nx = make(3)\nlayer = nn.Linear(2, 3)\n",
    "train.py": (
        "import torch\n\nopt = torch.optim.SGD([], lr=0.1)\n"
        "y = torch.relu(torch.ones(2))\nopt.step()\n"
    ),
    "data.py": "import torch\n\nt = torch.tensor([1, 2])\n",
}


def _scan(root: Path, cache: Path | None, jobs: int = 1) -> ScanResult:
    return scan(ScanOptions(str(root), cache_dir=cache, jobs=jobs))


def _apis(result: ScanResult, path: str) -> list[tuple[int, str]]:
    return [(f.span.line, f.api) for f in result.api_findings if f.path == path]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_repo(tmp_path / "repo", FILES)


def test_warm_scan_analyses_nothing(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = _scan(repo, cache)
    assert cold.stats["files_analysed"] >= len(FILES)
    assert cold.stats["files_cached"] == 0
    warm = _scan(repo, cache)
    assert warm.stats["files_analysed"] == 0
    assert warm.stats["files_cached"] >= len(FILES)
    assert warm == cold
    assert warm.findings == cold.findings
    assert _apis(cold, "pkg/model.py") == [(3, "torch.zeros"), (4, "torch.nn.Linear")]


def test_a_changed_file_alone_is_reanalysed(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = _scan(repo, cache)
    (repo / "data.py").write_text("import torch\n\nt = torch.tensor([1, 2])\nu = torch.abs(t)\n")
    warm = _scan(repo, cache)
    assert warm.stats["files_analysed"] == 1
    assert _apis(warm, "data.py") == [(3, "torch.tensor"), (4, "torch.abs")]
    others = [f for f in warm.findings if f.path != "data.py"]
    assert others == [f for f in cold.findings if f.path != "data.py"]


def test_a_comment_in_a_reexporting_module_keeps_its_importers_cached(
    repo: Path, tmp_path: Path
) -> None:
    """What model.py sees through layers.py did not change, so model.py stays cached."""
    cache = tmp_path / "cache"
    cold = _scan(repo, cache)
    layers = repo / "pkg" / "layers.py"
    layers.write_text("# a comment\n" + layers.read_text())
    warm = _scan(repo, cache)
    assert warm.stats["files_analysed"] == 1
    assert warm.api_findings == cold.api_findings


def test_a_changed_reexport_reanalyses_its_importers(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _scan(repo, cache)
    layers = repo / "pkg" / "layers.py"
    layers.write_text(layers.read_text().replace("zeros", "ones"))
    warm = _scan(repo, cache)
    # layers.py itself, and model.py's second round with the new re-export.
    assert warm.stats["files_analysed"] == 2
    assert _apis(warm, "pkg/model.py") == [(3, "torch.ones"), (4, "torch.nn.Linear")]
    assert warm == _scan(repo, None)


def test_corrupt_database_file(repo: Path, tmp_path: Path) -> None:
    expected = _scan(repo, None)
    cache = tmp_path / "cache"
    cache.mkdir()
    db = cache / "analyses.sqlite3"
    db.write_bytes(b"this is not an SQLite database\x00\xff" * 200)
    assert _scan(repo, cache) == expected
    assert _scan(repo, cache) == expected


def test_garbage_inside_a_valid_database(repo: Path, tmp_path: Path) -> None:
    """A corrupt entry (or one pickled by another version) reads as a miss."""
    cache = tmp_path / "cache"
    expected = _scan(repo, cache)
    conn = sqlite3.connect(cache / "analyses.sqlite3")
    with conn:
        n = conn.execute("UPDATE analysis SET value = ?", (b"\x80\x05garbage",)).rowcount
        conn.execute("UPDATE scan SET value = ?", (b"\x80\x05garbage",))
    conn.close()
    assert n >= len(FILES)
    again = _scan(repo, cache)
    assert again.stats["files_analysed"] >= len(FILES)
    assert again == expected


def test_no_cache(repo: Path) -> None:
    first = _scan(repo, None)
    second = _scan(repo, None)
    for result in (first, second):
        assert result.stats["files_cached"] == 0
        assert result.stats["files_analysed"] >= len(FILES)
    assert first == second


@pytest.mark.parametrize("fixture", ["tinydet", "textcls"])
def test_json_is_byte_identical(
    fixture: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cold, warm, one worker or two: the same bytes."""
    render = get_reporter("json").render
    path = FIXTURES / fixture
    cache = tmp_path / "cache"
    cold = render(_scan(path, cache))
    warm_result = _scan(path, cache)
    assert warm_result.stats["files_analysed"] == 0
    assert render(warm_result) == cold
    # Small repositories normally get one worker whatever --jobs says; force a real pool.
    monkeypatch.setattr(apiscan.pipeline, "POOL_MIN_BYTES", 0)
    assert render(_scan(path, None, jobs=1)) == cold
    assert render(_scan(path, None, jobs=2)) == cold
    assert '"kind": "api"' in cold


def test_cache_dir_that_is_a_file(repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("not a directory")
    result = _scan(repo, blocker)
    assert result == _scan(repo, None)
    assert result.stats["files_cached"] == 0
    assert blocker.read_text() == "not a directory"


def test_unchanged_tree_reuses_the_whole_result(repo: Path, tmp_path: Path) -> None:
    """Same files, same options: the join is skipped too; any change scans again."""
    cache = tmp_path / "cache"
    first = _scan(repo, cache)
    second = _scan(repo, cache)
    assert second.stats.get("whole_result_cached") == 1
    assert second == first
    (repo / "train.py").write_text((repo / "train.py").read_text() + "z = torch.zeros(1)\n")
    third = _scan(repo, cache)
    assert "whole_result_cached" not in third.stats
    assert third.stats["files_analysed"] >= 1
    assert len(third.api_findings) == len(first.api_findings) + 1


def test_unchanged_tree_reuses_the_rendered_report(repo: Path, tmp_path: Path) -> None:
    """A warm re-scan serves the report itself; new verification results, another format or
    a changed file render again, and every report equals one rendered from a fresh result."""
    cache = tmp_path / "cache"
    options = ScanOptions(str(repo), cache_dir=cache, jobs=1)
    calls: list[str] = []

    def renderer(fmt: str) -> Callable[[ScanResult], str]:
        def render(result: ScanResult) -> str:
            calls.append(fmt)
            return get_reporter(fmt).render(result)

        return render

    fresh_result = _scan(repo, None)
    fresh = get_reporter("text").render(fresh_result)
    first = scan_rendered(options, "text", renderer("text"))
    assert first.text == fresh and calls == ["text"]
    assert first.statuses == {f.status for f in fresh_result.api_findings}
    second = scan_rendered(options, "text", renderer("text"))
    assert second == first and calls == ["text"]  # not rendered again
    scan_rendered(options, "json", renderer("json"))
    assert calls == ["text", "json"]
    # `apiscan verify` wrote a result: the link step may see it, so the report is remade.
    verify_dir = cache / "verify"
    verify_dir.mkdir(parents=True, exist_ok=True)
    (verify_dir / ("0" * 32 + ".json")).write_text("{}")
    third = scan_rendered(options, "text", renderer("text"))
    assert calls == ["text", "json", "text"] and third == first
    (repo / "train.py").write_text((repo / "train.py").read_text() + "z = torch.zeros(1)\n")
    fourth = scan_rendered(options, "text", renderer("text"))
    assert calls[-1] == "text" and len(calls) == 4
    assert fourth.text == get_reporter("text").render(_scan(repo, None))


def test_cli_fail_on_from_a_cached_report(repo: Path, tmp_path: Path) -> None:
    """The exit code of ``--fail-on`` is the same when the report comes from the cache."""
    argv = [str(repo), "--cache-dir", str(tmp_path / "cache"), "-o", str(tmp_path / "r.txt")]
    cold = main([*argv, "--fail-on", "different"])
    cold_text = (tmp_path / "r.txt").read_text()
    warm = main([*argv, "--fail-on", "different"])
    assert (tmp_path / "r.txt").read_text() == cold_text
    assert cold == warm == 1
    assert main(argv) == 0


def test_code_fingerprint_follows_the_installed_code(tmp_path: Path) -> None:
    """A build of apiscan whose code changed but kept its version number gets other cache
    keys: the fingerprint moves with any code or data file's size or time, not with caches."""
    import os

    from apiscan.cache import code_fingerprint, context_key, tree_fingerprint

    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "walk.py"
    module.write_text("X = 1\n")
    (tmp_path / "pkg" / "__pycache__").mkdir()
    before = tree_fingerprint([tmp_path])
    (tmp_path / "pkg" / "__pycache__" / "walk.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "pkg" / "notes.txt").write_text("not code")
    assert tree_fingerprint([tmp_path]) == before
    module.write_text("X = 2\n")
    os.utime(module, ns=(1, 1))
    assert tree_fingerprint([tmp_path]) != before
    assert code_fingerprint() in context_key(frozenset(), "t", 1)
