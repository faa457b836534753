"""A cache that heals and tells (issue 13, item 4): whatever state the cache file is in, the
scan gives the same result, says what happened in one line, and the next scan is warm."""

from __future__ import annotations

import dataclasses
import os
import pickle
import sqlite3
import threading
from pathlib import Path

import pytest

import apiscan.cache
from apiscan.cache import DB_NAME, AnalysisCache
from apiscan.extract.records import FileAnalysis
from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan

SRC = "import torch\n\ny = torch.relu(torch.ones(2))\n"


@pytest.fixture(autouse=True)
def _fresh_warnings() -> None:
    apiscan.errors._warned.clear()


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text(SRC)
    (root / "b.py").write_text(SRC.replace("relu", "sigmoid"))
    return root


def _scan(root: Path, cache: Path) -> ScanResult:
    return scan(ScanOptions(str(root), cache_dir=cache, jobs=1))


def _same(a: ScanResult, b: ScanResult) -> bool:
    return a.findings == b.findings and a.files == b.files


@pytest.mark.parametrize(
    "damage",
    ["truncated", "random bytes", "foreign schema", "old layout", "a directory"],
)
def test_damaged_database_is_moved_aside_and_rebuilt(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root, cache = _repo(tmp_path), tmp_path / "cache"
    reference = _scan(root, cache)
    db = cache / DB_NAME
    for suffix in ("-wal", "-shm"):
        db.with_name(DB_NAME + suffix).unlink(missing_ok=True)
    if damage == "truncated":
        db.write_bytes(db.read_bytes()[:1500])
    elif damage == "random bytes":
        db.write_bytes(os.urandom(8192))
    elif damage == "foreign schema":
        db.unlink()
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE analysis (id INTEGER, payload TEXT)")
    elif damage == "old layout":  # what apiscan wrote before the format was stamped
        db.unlink()
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE analysis (key TEXT PRIMARY KEY, value BLOB)")
            conn.execute("CREATE TABLE scan (key TEXT PRIMARY KEY, value BLOB, used REAL)")
    else:
        db.unlink()
        db.mkdir()
    capsys.readouterr()
    again = _scan(root, cache)
    err = capsys.readouterr().err
    assert _same(again, reference)
    assert err.count("apiscan: warning:") == 1 and "moved aside" in err, err
    assert (cache / (DB_NAME + ".broken")).exists()
    # rebuilt: the next scan is warm (whole result cached) and silent
    third = scan(ScanOptions(str(root), cache_dir=cache, jobs=1))
    assert _same(third, reference)
    assert third.stats.get("whole_result_cached") == 1
    assert capsys.readouterr().err == ""


def test_entry_of_an_older_record_layout_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry pickled before a field existed unpickles into a half-filled record
    ('FileAnalysis' object has no attribute 'suppressions'): it must read as a miss."""
    cache = AnalysisCache(tmp_path)
    fa = FileAnalysis("a.py", ("a",), "0" * 64, 3)
    older = [getattr(fa, f.name) for f in dataclasses.fields(FileAnalysis)][:-1]

    class Old:  # pickles as the older layout did: one value fewer
        def __reduce__(self) -> tuple[object, ...]:
            return (object.__new__, (FileAnalysis,), older)

    half = pickle.loads(pickle.dumps(Old()))
    with pytest.raises(AttributeError):  # the newest field is missing, as in the issue
        getattr(half, dataclasses.fields(FileAnalysis)[-1].name)
    assert cache.conn is not None
    with cache.conn:
        cache.conn.execute(
            "INSERT INTO analysis (key, value) VALUES (?, ?)", ("k", pickle.dumps(Old()))
        )
        cache.conn.execute("INSERT INTO analysis (key, value) VALUES (?, ?)", ("j", b"junk"))
    assert cache.get_many(["k", "j"]) == {}
    cache.close()
    assert "2 cache entries could not be read" in capsys.readouterr().err


def test_layout_is_part_of_the_key() -> None:
    layout = apiscan.cache.record_layout()
    assert layout in apiscan.cache.context_key(frozenset(), "t", 1)


def test_locked_database_waits_briefly_then_goes_on_uncached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root, cache = _repo(tmp_path), tmp_path / "cache"
    reference = _scan(root, cache)
    monkeypatch.setattr(apiscan.cache, "LOCK_WAIT_S", 0.2)
    holder = sqlite3.connect(cache / DB_NAME, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        (root / "c.py").write_text(SRC)  # a miss, so the scan must write
        capsys.readouterr()
        result = _scan(root, cache)
    finally:
        holder.rollback()
        holder.close()
    err = capsys.readouterr().err
    assert "c.py" in {f.path for f in result.files}
    assert {f.path for f in result.files} >= {f.path for f in reference.files}
    assert err.count("apiscan: warning:") == 1 and "locked by another process" in err, err


def test_read_only_cache_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``os.access`` is what the cache asks (chmod means nothing to root)."""
    root, cache = _repo(tmp_path), tmp_path / "cache"
    reference = _scan(root, cache)
    real = os.access

    def access(path: object, mode: int, *a: object, **kw: object) -> bool:
        if mode == os.W_OK and str(path).startswith(str(cache)):
            return False
        return real(path, mode, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(apiscan.cache.os, "access", access)
    db_bytes = (cache / DB_NAME).read_bytes()
    capsys.readouterr()
    (root / "b.py").write_text(SRC + "z = 1\n")  # a miss: computed, not written
    again = _scan(root, cache)
    err = capsys.readouterr().err
    assert {f.path for f in again.files} == {"a.py", "b.py"}
    assert again.stats.get("files_cached") == 1  # a.py read from the cache
    assert "read-only" in err and err.count("apiscan: warning:") == 1, err
    assert (cache / DB_NAME).read_bytes() == db_bytes
    assert reference.files[0] in again.files


def test_concurrent_scans_share_a_cache(tmp_path: Path) -> None:
    root, cache = _repo(tmp_path), tmp_path / "cache"
    reference = _scan(root, tmp_path / "other")
    results: list[ScanResult] = []
    threads = [threading.Thread(target=lambda: results.append(_scan(root, cache))) for _ in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and all(_same(r, reference) for r in results)
