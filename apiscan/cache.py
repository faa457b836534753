"""The on-disk cache of per-file analyses, keyed on everything an analysis depends on.

A warm re-scan of an unchanged repository must not parse anything. The key of a file's entry is
a hash over the tool version, the torch API index version, the file's names (relative path and
module names, which relative imports depend on), the repository's local package roots, the
re-exports and whole-program facts (parameters, returns, attributes) the file was analysed
with, and the file's bytes. The mapping table is applied after the join, on every run (it is
cheap), so a different ``--ms-version`` reuses the same entries.

One SQLite file holds all entries: a single file opens faster than thousands of small ones, and
SQLite handles concurrent scans of different repositories sharing the cache.

The cache heals and tells. Its format is checked on open (SQLite ``application_id`` and
``user_version``, table layout); a damaged, foreign or older database is moved aside as
``analyses.sqlite3.broken`` and rebuilt, with one warning line on stderr. An entry that no
longer unpickles into the current record layout is a miss (and is overwritten). A database
locked by another process is waited for briefly, then the scan goes on uncached, saying so. A
read-only cache is read and not updated. Entries' keys include the record layout, so an entry
written by an older layout of the records is never even looked at.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import sqlite3
import time
import zlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from apiscan import __version__
from apiscan.errors import warn

if TYPE_CHECKING:  # imported where used: the command line reads default_cache_dir alone
    from apiscan.extract import FileTask
    from apiscan.extract.records import FileAnalysis
    from apiscan.model import ScanResult

#: How many whole scan results the cache keeps (most recently used first), and as many
#: rendered reports.
KEPT_SCANS = 8
#: Rendered reports live in the ``scan`` table under keys with this prefix.
REPORT_PREFIX = "report:"

#: Bump when the records or the extraction logic change in a way the version does not show.
CACHE_FORMAT = 30


def default_cache_dir() -> Path:
    base = os.environ.get("APISCAN_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    if base and "APISCAN_CACHE_DIR" in os.environ:
        return Path(base)
    return Path(base or Path.home() / ".cache") / "apiscan"


def task_key(task: FileTask, context: str) -> str:
    h = hashlib.sha256()
    h.update(context.encode())
    h.update(b"\0")
    h.update(task.relpath.encode("utf-8", "surrogateescape"))
    h.update(b"\0")
    h.update("|".join(task.modules).encode("utf-8", "surrogateescape"))
    h.update(b"\1" if task.is_package else b"\0")
    h.update(repr((task.reexports, task.dynamic_shape, task.env)).encode())
    h.update(b"\0" if task.syntax else b"\0nosyntax\0")
    h.update(task.data)
    return h.hexdigest()


def scan_key(ctx: str, keys: list[str], *parts: object) -> str:
    """Key of a whole scan's result: every file's key plus the options that shape the join."""
    h = hashlib.sha256(ctx.encode())
    for k in keys:
        h.update(k.encode())
    h.update(repr(parts).encode())
    return h.hexdigest()


def report_cache_key(whole: str, fmt: str, linked: str) -> str:
    """Key of a rendered report: the whole scan's key, the format, and a fingerprint of what
    the link step reads after the scan (the verification results)."""
    return REPORT_PREFIX + hashlib.sha256(f"{whole}|{fmt}|{linked}".encode()).hexdigest()


def context_key(local_roots: frozenset[str], torch_version: str, max_file_size: int) -> str:
    return "|".join(
        [
            __version__,
            str(CACHE_FORMAT),
            record_layout(),
            code_fingerprint(),
            torch_version,
            str(max_file_size),
            *sorted(local_roots),
        ]
    )


@cache
def code_fingerprint() -> str:
    """A fingerprint of apiscan's own code and shipped data as installed (each file's path,
    size and modification time): results computed by another build (an upgrade that kept the
    version number, an edited checkout, a branch switch) get other keys instead of being served
    stale. A bumped CACHE_FORMAT alone relied on every change remembering to bump it. Stat
    calls, not reads: this runs on every scan, an empty one included."""
    package = Path(__file__).resolve().parent
    beside = package.parent / "mapping_data"  # a checkout keeps the tables beside the package
    return tree_fingerprint([package, *([beside] if beside.is_dir() else [])])


def tree_fingerprint(roots: list[Path]) -> str:
    """Path, size and modification time of every code or data file below ``roots``."""
    return stat_digest(roots, _CODE_SUFFIXES, frozenset({"__pycache__"}))[:16]


_CODE_SUFFIXES = (".py", ".csv", ".json")


def stat_digest(
    roots: list[Path],
    suffixes: tuple[str, ...] | None = None,
    skip_dirs: frozenset[str] = frozenset(),
) -> str:
    """A change detector that reads no file: the sha256 (hex) of each file's relative path,
    size and modification time below every root, in path order, leaving out the directories
    named in ``skip_dirs`` and, given ``suffixes``, files without one of them. The code
    fingerprint and ``apiscan zoo``'s fingerprint of a local repository both use it."""
    h = hashlib.sha256()
    for root in roots:
        entries = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in skip_dirs]
            for name in filenames:
                if suffixes is not None and not name.endswith(suffixes):
                    continue
                full = os.path.join(dirpath, name)
                try:
                    st = os.stat(full)
                except OSError:
                    continue
                entries.append((os.path.relpath(full, root), st.st_size, st.st_mtime_ns))
        for rel, size, mtime in sorted(entries):
            h.update(f"{rel}\0{size}\0{mtime}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def record_layout() -> str:
    """A fingerprint of the cached records' fields: an entry pickled by an older layout
    (a field added since) gets another key instead of unpickling into a half-filled record."""
    from apiscan import model
    from apiscan.extract import models, records
    from apiscan.program import values

    parts = []
    for module in (records, model, values, models):
        for name in sorted(vars(module)):
            obj = getattr(module, name)
            if isinstance(obj, type) and dataclasses.is_dataclass(obj):
                parts.append(f"{name}:{','.join(f.name for f in dataclasses.fields(obj))}")
    return hashlib.sha256(";".join(parts).encode()).hexdigest()[:12]


def complete(value: object, cls: type) -> bool:
    """Whether an unpickled ``value`` is a ``cls`` with every field of the current layout."""
    return isinstance(value, cls) and all(
        hasattr(value, f.name)
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
    )


#: Marks a SQLite file as this cache ("apis"); ``user_version`` holds CACHE_FORMAT.
APPLICATION_ID = 0x61706973
DB_NAME = "analyses.sqlite3"
#: How long to wait for another process's lock before going on uncached.
LOCK_WAIT_S = 2.0
_TABLES = {"analysis": ["key", "value"], "scan": ["key", "value", "used"]}


class _Unusable(Exception):
    """The database is damaged, foreign or of another format: move it aside."""


def _locked(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class AnalysisCache:
    """get/put of FileAnalysis by key; every failure degrades to a cache miss, and a broken
    cache is rebuilt (see the module docstring)."""

    def __init__(self, directory: Path | None) -> None:
        self.conn: sqlite3.Connection | None = None
        self.readonly = False
        self.bad_entries = 0
        self.path = directory / DB_NAME if directory is not None else None
        if directory is None:
            return
        try:
            self.conn = self._open(directory)
        except _Unusable as exc:
            self._rebuild(str(exc))
        except sqlite3.DatabaseError as exc:
            self._failed(exc)
        except OSError as exc:  # e.g. a directory of mode 000: even exists() is refused
            warn(
                f"cannot use the cache directory {directory}: {exc.strerror or exc}; "
                "scanning without a cache"
            )

    # ------------------------------------------------------------------ opening, healing
    def _open(self, directory: Path) -> sqlite3.Connection | None:
        assert self.path is not None
        path = self.path
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            warn(
                f"cannot create the cache directory {directory}: {exc.strerror or exc}; "
                "scanning without a cache"
            )
            return None
        if path.exists() and not path.is_file():
            raise _Unusable("it is not a file")
        if path.exists() and not (os.access(path, os.W_OK) and os.access(directory, os.W_OK)):
            return self._open_readonly(path)
        if not os.access(directory, os.W_OK):
            warn(f"the cache directory {directory} is not writable; scanning without a cache")
            return None
        conn = sqlite3.connect(path, timeout=LOCK_WAIT_S)
        try:
            # A cache may lose its last writes in a crash; it must not make every scan wait
            # for the disk, not even the first one, which creates it (its tables were
            # committed with two waits for the disk: ~0.13 s of a cold scan's wall time).
            conn.execute("PRAGMA synchronous=OFF")
            self._check(conn, create=True)
            conn.execute("PRAGMA journal_mode=WAL")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_readonly(self, path: Path) -> sqlite3.Connection | None:
        """A cache we may not write: read it as it stands (``immutable``: no lock or WAL
        files needed in a read-only directory)."""
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True)
        try:
            self._check(conn, create=False)
        except BaseException:
            conn.close()
            raise
        self.readonly = True
        warn(f"the cache {path} is read-only: reading it, not updating it")
        return conn

    def _check(self, conn: sqlite3.Connection, create: bool) -> None:
        """Raise _Unusable unless ``conn`` is this cache's format; create it when empty."""
        tables = {
            name: [c[1] for c in conn.execute(f"PRAGMA table_info({name})")]
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if not tables and create:
            with conn:
                conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version={CACHE_FORMAT}")
                conn.execute("CREATE TABLE analysis (key TEXT PRIMARY KEY, value BLOB)")
                conn.execute("CREATE TABLE scan (key TEXT PRIMARY KEY, value BLOB, used REAL)")
            return
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app != APPLICATION_ID:
            raise _Unusable("it is not an apiscan cache, or one of an older layout")
        if version != CACHE_FORMAT:
            raise _Unusable(f"it has cache format {version}, this apiscan uses {CACHE_FORMAT}")
        if tables != _TABLES:
            raise _Unusable("its tables are not the ones this apiscan writes")

    def _rebuild(self, why: str) -> None:
        """Move the unusable database aside and start a new one (once per run)."""
        assert self.path is not None
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        aside = self.path.with_name(DB_NAME + ".broken")
        try:
            _remove(aside)
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                companion = self.path.with_name(DB_NAME + suffix)
                if companion.exists():
                    os.replace(companion, aside.with_name(aside.name + suffix))
            self.conn = self._open(self.path.parent)
        except (OSError, sqlite3.Error, _Unusable) as exc:
            warn(
                f"the cache {self.path} is unusable ({why}) and could not be rebuilt"
                f" ({exc}); scanning without a cache"
            )
            self.conn = None
            return
        warn(f"the cache {self.path} was unusable ({why}); moved aside to {aside.name} and rebuilt")

    def _failed(self, exc: sqlite3.Error) -> None:
        """An error while using the database: wait no more for a lock, rebuild a damaged
        file, go on uncached otherwise; say which, once."""
        if _locked(exc):
            warn(f"the cache {self.path} is locked by another process; scanning without it")
        elif isinstance(exc, sqlite3.OperationalError) or self.readonly:
            warn(f"the cache {self.path} failed ({exc}); scanning without it")
        else:  # DatabaseError proper: "file is not a database", "disk image is malformed"
            self._rebuild(str(exc))
            return
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    # ------------------------------------------------------------------ entries
    def get_many(self, keys: Iterable[str]) -> dict[str, FileAnalysis]:
        if self.conn is None:
            return {}
        from apiscan.extract.records import FileAnalysis

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
                    value = _unpickle(blob)
                    if complete(value, FileAnalysis):
                        out[key] = value  # type: ignore[assignment]
                    else:  # stale or corrupt entry: a miss, overwritten by this scan
                        self.bad_entries += 1
        except sqlite3.Error as exc:
            self._failed(exc)
        return out

    def put_many(self, items: Iterable[tuple[str, FileAnalysis]]) -> None:
        self.put_many_pickled(
            (k, pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)) for k, v in items
        )

    def put_many_pickled(self, items: Iterable[tuple[str, bytes]]) -> None:
        """:meth:`put_many` of analyses already pickled (as workers send them), in one
        transaction."""
        if self.conn is None or self.readonly:
            return
        rows = list(items)
        try:
            with self.conn:
                self.conn.executemany(
                    "INSERT OR REPLACE INTO analysis (key, value) VALUES (?, ?)", rows
                )
        except sqlite3.Error as exc:
            self._failed(exc)

    def _scan_row(self, key: str) -> bytes | None:
        """The ``scan`` table's value under ``key``, marked as just used (the least recently
        used entries are pruned), or None."""
        if self.conn is None:
            return None
        try:
            row = self.conn.execute("SELECT value FROM scan WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            if not self.readonly:
                with self.conn:
                    self.conn.execute("UPDATE scan SET used = ? WHERE key = ?", (time.time(), key))
        except sqlite3.Error as exc:
            self._failed(exc)
            return None
        return row[0]

    def get_scan(self, key: str) -> ScanResult | None:
        """A whole previous result for exactly these inputs, or None."""
        from apiscan.model import ScanResult

        blob = self._scan_row(key)
        if blob is None:
            return None
        result = _unpickle(blob)
        if complete(result, ScanResult):
            return result  # type: ignore[return-value]
        self.bad_entries += 1
        return None

    def put_scan(self, key: str, result: ScanResult) -> None:
        """Keep the result; only the most recently used few whole results are kept."""
        self._put_scan_row(key, result, report=False)

    def _put_scan_row(self, key: str, value: object, report: bool) -> None:
        """Pickle ``value`` into the ``scan`` table under ``key`` and prune that kind."""
        if self.conn is None or self.readonly:
            return
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            with self.conn:
                self.conn.execute(
                    "INSERT OR REPLACE INTO scan (key, value, used) VALUES (?, ?, ?)",
                    (key, blob, time.time()),
                )
                self._prune(report=report)
        except sqlite3.Error as exc:
            self._failed(exc)

    def _prune(self, report: bool) -> None:
        """Keep the most recently used KEPT_SCANS entries of one kind (results or reports)."""
        assert self.conn is not None
        kind = "LIKE" if report else "NOT LIKE"
        self.conn.execute(
            f"DELETE FROM scan WHERE key {kind} ? AND key NOT IN "
            f"(SELECT key FROM scan WHERE key {kind} ? ORDER BY used DESC LIMIT ?)",
            (REPORT_PREFIX + "%", REPORT_PREFIX + "%", KEPT_SCANS),
        )

    def get_report(self, key: str) -> tuple[str, frozenset[str]] | None:
        """A rendered report (text, statuses of its API findings) kept under ``key``."""
        blob = self._scan_row(key)
        if blob is None:
            return None
        value = _unpickle(blob)
        if (
            isinstance(value, tuple)
            and len(value) == 2
            and isinstance(value[0], bytes)
            and isinstance(value[1], frozenset)
        ):
            try:
                return zlib.decompress(value[0]).decode("utf-8"), value[1]
            except (zlib.error, UnicodeDecodeError):
                pass
        self.bad_entries += 1
        return None

    def put_report(self, key: str, text: str, statuses: frozenset[str]) -> None:
        if self.conn is None or self.readonly:
            return  # nothing would keep it: do not compress it
        # compressed: a JSON report of timm is 21 MB as text, about a tenth of that here, and
        # several formats and versions are kept
        packed = zlib.compress(text.encode("utf-8"), 1)
        self._put_scan_row(key, (packed, statuses), report=True)

    def close(self) -> None:
        if self.bad_entries:
            warn(
                f"{self.bad_entries} cache entries could not be read (written by another"
                " version?); they were recomputed"
            )
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _unpickle(blob: bytes) -> object:
    try:
        return pickle.loads(blob)
    except Exception:  # any failure of a stale or corrupt entry is a miss
        return None


def _remove(path: Path) -> None:
    """Delete a file or a whole directory (a previous broken cache)."""
    import shutil

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
