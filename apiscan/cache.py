"""The on-disk cache of per-file analyses, keyed on everything an analysis depends on.

A warm re-scan of an unchanged repository must not parse anything. The key of a file's entry is
a hash over the tool version, the torch API index version, the file's names (relative path and
module names, which relative imports depend on), the repository's local package roots, the
re-exports and whole-program facts (parameters, returns, attributes) the file was analysed
with, and the file's bytes. The mapping table is applied after the join, on every run (it is
cheap), so a different ``--ms-version`` reuses the same entries.

One SQLite file holds all entries: a single file opens faster than thousands of small ones, and
SQLite handles concurrent scans of different repositories sharing the cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from apiscan import __version__
from apiscan.extract import FileTask
from apiscan.extract.records import FileAnalysis
from apiscan.model import ScanResult

#: How many whole scan results the cache keeps (most recently used first).
KEPT_SCANS = 8

#: Bump when the records or the extraction logic change in a way the version does not show.
CACHE_FORMAT = 6


def default_cache_dir() -> Path:
    base = os.environ.get("APISCAN_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    if base and "APISCAN_CACHE_DIR" in os.environ:
        return Path(base)
    return Path(base or Path.home() / ".cache") / "apiscan"


def task_key(task: FileTask, context: str) -> str:
    h = hashlib.sha256()
    h.update(context.encode())
    h.update(b"\0")
    h.update(task.relpath.encode())
    h.update(b"\0")
    h.update("|".join(task.modules).encode())
    h.update(b"\1" if task.is_package else b"\0")
    h.update(repr((task.reexports, task.dynamic_shape, task.env)).encode())
    h.update(b"\0")
    h.update(task.data)
    return h.hexdigest()


def scan_key(ctx: str, keys: list[str], *parts: object) -> str:
    """Key of a whole scan's result: every file's key plus the options that shape the join."""
    h = hashlib.sha256(ctx.encode())
    for k in keys:
        h.update(k.encode())
    h.update(repr(parts).encode())
    return h.hexdigest()


def context_key(local_roots: frozenset[str], torch_version: str, max_file_size: int) -> str:
    return "|".join(
        [__version__, str(CACHE_FORMAT), torch_version, str(max_file_size), *sorted(local_roots)]
    )


class AnalysisCache:
    """get/put of FileAnalysis by key; every failure degrades to a cache miss."""

    def __init__(self, directory: Path | None) -> None:
        self.conn: sqlite3.Connection | None = None
        if directory is None:
            return
        try:
            directory.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(directory / "analyses.sqlite3", timeout=10)
            # A cache may lose its last writes in a crash; it must not make every scan wait
            # for the disk. A damaged database reads as misses (sqlite3.Error below).
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=OFF")
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS analysis (key TEXT PRIMARY KEY, value BLOB)"
            )
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS scan (key TEXT PRIMARY KEY, value BLOB, used REAL)"
            )
        except (OSError, sqlite3.Error):
            self.conn = None

    def get_many(self, keys: Iterable[str]) -> dict[str, FileAnalysis]:
        if self.conn is None:
            return {}
        out: dict[str, FileAnalysis] = {}
        keys = list(keys)
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                marks = ",".join("?" * len(chunk))
                rows = self.conn.execute(
                    f"SELECT key, value FROM analysis WHERE key IN ({marks})", chunk
                )
                for key, blob in rows:
                    try:
                        out[key] = pickle.loads(blob)
                    except Exception:  # stale or corrupt entry: recompute
                        continue
        except sqlite3.Error:
            return out
        return out

    def put_many(self, items: Iterable[tuple[str, FileAnalysis]]) -> None:
        if self.conn is None:
            return
        try:
            with self.conn:
                self.conn.executemany(
                    "INSERT OR REPLACE INTO analysis (key, value) VALUES (?, ?)",
                    ((k, pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)) for k, v in items),
                )
        except sqlite3.Error:
            return

    def get_scan(self, key: str) -> ScanResult | None:
        """A whole previous result for exactly these inputs, or None."""
        if self.conn is None:
            return None
        try:
            row = self.conn.execute("SELECT value FROM scan WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            result = pickle.loads(row[0])
            with self.conn:
                self.conn.execute("UPDATE scan SET used = ? WHERE key = ?", (time.time(), key))
        except Exception:  # stale or corrupt: scan again
            return None
        return result if isinstance(result, ScanResult) else None

    def put_scan(self, key: str, result: ScanResult) -> None:
        """Keep the result; only the most recently used few whole results are kept."""
        if self.conn is None:
            return
        try:
            blob = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
            with self.conn:
                self.conn.execute(
                    "INSERT OR REPLACE INTO scan (key, value, used) VALUES (?, ?, ?)",
                    (key, blob, time.time()),
                )
                self.conn.execute(
                    "DELETE FROM scan WHERE key NOT IN "
                    "(SELECT key FROM scan ORDER BY used DESC LIMIT ?)",
                    (KEPT_SCANS,),
                )
        except sqlite3.Error:
            return

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
