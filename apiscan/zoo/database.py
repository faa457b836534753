"""The zoo's DuckDB database: its tables, one transaction per repository, and the export.

Tables (``apiscan zoo report`` and any SQL or pandas user read the same ones):

* ``repositories``: one row per repository: name, source, commit, revision, weight, tags,
  ``status`` (scanned/failed) and what it was scanned with (apiscan and mapping versions,
  configuration and option hashes) — what an incremental run compares;
* ``files``, ``findings``, ``summaries``: the scan's rows (findings in the results model's
  order, ``ordinal`` numbering them per repository);
* ``failures``: every failed attempt of a repository's last run, with its reason;
* ``runs`` and ``timings``: each run (engine, start, end, counts) and each task's wall and CPU
  seconds. These two record *how* a run went, so they differ between runs and engines; every
  other table is identical whichever engine filled it.

A repository's rows are replaced in one transaction when its task ends: an interrupted run
leaves every finished repository complete and none half-written.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan.zoo.task import FINDING_COLUMNS

if TYPE_CHECKING:
    import duckdb

    from apiscan.zoo.engines import Outcome
    from apiscan.zoo.manifest import Entry

SCHEMA_VERSION = 1
#: The tables every engine fills alike (``runs`` and ``timings`` record how a run went).
CONTENT_TABLES = ("repositories", "files", "findings", "summaries", "failures")
ALL_TABLES = (*CONTENT_TABLES, "runs", "timings")
#: Each table's key, the order every export and comparison uses.
ORDER = {
    "repositories": "repo_id",
    "files": "repo_id, path",
    "findings": "repo_id, ordinal",
    "summaries": "repo_id",
    "failures": "repo_id, attempt",
    "runs": "run_id",
    "timings": "run_id, repo_id",
}
SUMMARY_COLUMNS = (
    "files",
    "lines",
    "call_sites",
    "distinct_apis",
    "network_apis",
    "network_covered",
    "network_blocking",
    "network_coverage_pct",
    "network_missing",
    "dynamic_shape",
    "dynamic_shape_network",
    "dynamic_shape_high",
    "errors",
    "mindtorch_network_apis",
    "mindtorch_network_covered",
)
EFFORT = ("delete", "idiom", "rewrite", "custom-op", "gap")


_DDL = f"""
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS repositories (
    repo_id VARCHAR PRIMARY KEY, name VARCHAR, source VARCHAR, ref VARCHAR, commit VARCHAR,
    revision VARCHAR, weight DOUBLE, tags VARCHAR[], status VARCHAR,
    apiscan_version VARCHAR, mapping_version VARCHAR, config_hash VARCHAR,
    options_hash VARCHAR, attempts INTEGER);
CREATE TABLE IF NOT EXISTS files (
    repo_id VARCHAR, path VARCHAR, lines INTEGER, api_uses INTEGER, errors INTEGER);
CREATE TABLE IF NOT EXISTS findings (
    repo_id VARCHAR, ordinal INTEGER, kind VARCHAR, path VARCHAR, cell INTEGER, line INTEGER,
    col INTEGER, end_line INTEGER, end_col INTEGER, rule VARCHAR, api VARCHAR,
    canonical VARCHAR, status VARCHAR, scope VARCHAR, severity VARCHAR, usage VARCHAR,
    confidence VARCHAR, namespace VARCHAR, mindspore_api VARCHAR, disposition VARCHAR,
    mindtorch BOOLEAN, function VARCHAR, message VARCHAR);
CREATE TABLE IF NOT EXISTS summaries (
    repo_id VARCHAR PRIMARY KEY,
    {", ".join(f"{c} {'DOUBLE' if c.endswith('_pct') else 'INTEGER'}" for c in SUMMARY_COLUMNS)},
    {", ".join(f'"effort_{e}" INTEGER' for e in EFFORT)});
CREATE TABLE IF NOT EXISTS failures (repo_id VARCHAR, attempt INTEGER, reason VARCHAR);
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY, engine VARCHAR, started DOUBLE, finished DOUBLE,
    apiscan_version VARCHAR, mapping_version VARCHAR, options_hash VARCHAR,
    repositories INTEGER, scanned INTEGER, skipped INTEGER, failed INTEGER);
CREATE TABLE IF NOT EXISTS timings (
    run_id INTEGER, repo_id VARCHAR, attempts INTEGER, wall_s DOUBLE, cpu_s DOUBLE);
"""


class DatabaseError(RuntimeError):
    """The database cannot be opened (in use by another run, not a zoo database...)."""


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    import duckdb

    if read_only and not path.exists():
        raise DatabaseError(f"no such database: {path}")
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatabaseError(f"cannot open {path}: {first}") from exc
    if not read_only:
        con.execute(_DDL)
        con.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)]
        )
    elif not con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'repositories'"
    ).fetchone()[0]:  # type: ignore[index]
        raise DatabaseError(f"{path} is not an apiscan zoo database")
    return con


def scanned(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, ...]]:
    """repo_id → (revision, apiscan, mapping, options hash, config hash) of each repository
    scanned successfully, what a re-run compares."""
    rows = con.execute(
        "SELECT repo_id, revision, apiscan_version, mapping_version, options_hash, config_hash"
        " FROM repositories WHERE status = 'scanned'"
    ).fetchall()
    return {r[0]: tuple(r[1:]) for r in rows}


def start_run(
    con: duckdb.DuckDBPyConnection, engine: str, apiscan: str, mapping: str, options: str, n: int
) -> int:
    row = con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM runs").fetchone()
    run_id = int(row[0])  # type: ignore[index]
    con.execute(
        "INSERT INTO runs VALUES (?, ?, ?, NULL, ?, ?, ?, ?, 0, 0, 0)",
        [run_id, engine, time.time(), apiscan, mapping, options, n],
    )
    return run_id


def finish_run(
    con: duckdb.DuckDBPyConnection, run_id: int, scanned_n: int, skipped: int, failed: int
) -> None:
    con.execute(
        "UPDATE runs SET finished = ?, scanned = ?, skipped = ?, failed = ? WHERE run_id = ?",
        [time.time(), scanned_n, skipped, failed, run_id],
    )


def store(
    con: duckdb.DuckDBPyConnection,
    run_id: int,
    entry: Entry,
    revision: str,
    commit: str,
    outcome: Outcome,
    apiscan: str,
    mapping: str,
    options: str,
) -> None:
    """Replace one repository's rows with its outcome, in one transaction."""
    import pandas as pd

    rid = entry.repo_id
    record = outcome.record
    con.execute("BEGIN TRANSACTION")
    try:
        for table in ("repositories", "files", "findings", "summaries", "failures"):
            con.execute(f"DELETE FROM {table} WHERE repo_id = ?", [rid])
        con.execute(
            "INSERT INTO repositories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                rid,
                entry.name,
                entry.source,
                entry.ref,
                commit,
                revision,
                entry.weight,
                list(entry.tags),
                "scanned" if record else "failed",
                apiscan,
                record.mapping_version if record else mapping,
                record.config_hash if record else "",
                options,
                len(outcome.failures) + (1 if record else 0),
            ],
        )
        for attempt, reason in enumerate(outcome.failures, 1):
            con.execute("INSERT INTO failures VALUES (?, ?, ?)", [rid, attempt, reason])
        if record is not None:
            if record.files:
                files = pd.DataFrame(record.files, columns=["path", "lines", "api_uses", "errors"])
                con.register("zoo_files", files)
                con.execute(f"INSERT INTO files SELECT '{rid}', * FROM zoo_files")
                con.unregister("zoo_files")
            if record.findings:
                found = pd.DataFrame(record.findings, columns=list(FINDING_COLUMNS))
                found["mindtorch"] = found["mindtorch"].astype("boolean")
                found["cell"] = found["cell"].astype("int64")
                con.register("zoo_findings", found)
                columns = ", ".join(FINDING_COLUMNS)
                con.execute(f"INSERT INTO findings SELECT '{rid}', {columns} FROM zoo_findings")
                con.unregister("zoo_findings")
            summary = record.summary
            effort = summary["effort_network_sites"]
            assert isinstance(effort, dict)
            values = [rid, *(summary[c] for c in SUMMARY_COLUMNS), *(effort[e] for e in EFFORT)]
            con.execute(f"INSERT INTO summaries VALUES ({', '.join('?' * len(values))})", values)
            con.execute(
                "INSERT INTO timings VALUES (?, ?, ?, ?, ?)",
                [run_id, rid, len(outcome.failures) + 1, record.wall_s, record.cpu_s],
            )
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def export_parquet(con: duckdb.DuckDBPyConnection, directory: Path) -> list[Path]:
    """Every table as ``DIR/<table>.parquet``, rows in key order (DuckDB's own writer)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for table in ALL_TABLES:
        target = directory / f"{table}.parquet"
        escaped = str(target).replace("'", "''")
        con.execute(
            f"COPY (SELECT * FROM {table} ORDER BY {ORDER[table]}) TO '{escaped}' (FORMAT PARQUET)"
        )
        written.append(target)
    return written


def dump(
    path: Path, tables: tuple[str, ...] = CONTENT_TABLES
) -> dict[str, list[tuple[object, ...]]]:
    """Every row of ``tables`` in key order: what two databases are compared by."""
    con = connect(path, read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY {ORDER[t]}").fetchall() for t in tables}
    finally:
        con.close()
