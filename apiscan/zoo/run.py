"""A zoo run: read the manifest, decide what needs scanning, run the engine, store each
repository as its task ends, and show progress across repositories.

A repository is skipped when the database already holds it scanned at the same revision (a
git commit, or a local tree's fingerprint) with the same apiscan version, the same options
(which include the shipped mapping data's fingerprint) and, where it can be read without
cloning, the same configuration. A failed repository is always tried again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from apiscan import __version__
from apiscan.zoo.checkout import CheckoutError, fingerprint, local_commit, resolve_commit
from apiscan.zoo.engines import Outcome
from apiscan.zoo.manifest import Entry, read_manifest
from apiscan.zoo.task import TaskSpec, settings_for

ENGINES = ("local", "ray")


@dataclass(frozen=True)
class ZooOptions:
    manifest: Path
    database: Path
    engine: str = "local"
    address: str | None = None
    jobs: int | None = None
    cache_dir: Path | None = None  # the shared content cache (None: none)
    clone_cache: Path | None = None  # default: <cache_dir or database's dir>/zoo-clones
    ms_version: str | None = None
    dynamic_shape: bool = True
    target: str | None = None
    memory_mb: int = 4096
    timeout_s: float = 1800.0
    parquet: Path | None = None
    rescan: bool = False  # scan every repository, even unchanged ones


@dataclass
class RunSummary:
    run_id: int
    scanned: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    wall_s: float = 0.0


def mapping_fingerprint() -> str:
    """The shipped mapping data (its manifest names every table's source commit)."""
    from apiscan.mapping.store import MANIFEST_FILE, mapping_data_dir

    try:
        data = (mapping_data_dir() / MANIFEST_FILE).read_bytes()
    except OSError:
        data = b""
    return hashlib.sha256(data).hexdigest()[:16]


def options_hash(options: ZooOptions) -> str:
    """The zoo-wide options that change a scan's rows, the mapping data and apiscan's own
    code (a build that changed but kept its version number rescans)."""
    from apiscan.cache import code_fingerprint

    text = json.dumps(
        {
            "code": code_fingerprint(),
            "ms_version": options.ms_version,
            "dynamic_shape": options.dynamic_shape,
            "target": options.target,
            "mapping_data": mapping_fingerprint(),
        },
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class _Planned:
    entry: Entry
    revision: str
    commit: str
    size: int
    failure: str = ""


def _plan(entry: Entry) -> _Planned:
    """The revision and commit of one entry, without cloning; a failure to resolve it is
    its failure (recorded), not the run's."""
    if entry.is_git:
        try:
            commit = resolve_commit(entry.source, entry.ref)
        except CheckoutError as exc:
            return _Planned(entry, "", "", 0, str(exc))
        return _Planned(entry, commit, commit, 0)
    root = Path(entry.source)
    if not root.exists():
        return _Planned(entry, "", "", 0, f"path does not exist: {root}")
    size = sum(p.stat().st_size for p in root.rglob("*.py") if p.is_file()) if root.is_dir() else 0
    return _Planned(entry, fingerprint(root), local_commit(root), size)


def run_zoo(options: ZooOptions, say: Callable[[str], None] | None = None) -> RunSummary:
    """The whole run; raises ManifestError / DatabaseError for usage faults."""
    from apiscan.zoo import database as db
    from apiscan.zoo.engines import run_local, run_ray

    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    started = time.perf_counter()
    entries = read_manifest(options.manifest)
    ohash = options_hash(options)
    cache = str(options.cache_dir) if options.cache_dir else None
    clones = options.clone_cache or (
        (options.cache_dir or options.database.resolve().parent) / "zoo-clones"
    )
    con = db.connect(options.database)
    try:
        done = {} if options.rescan else db.scanned(con)
        plans = [_plan(e) for e in entries]
        specs: list[TaskSpec] = []
        by_id: dict[str, _Planned] = {}
        summary = RunSummary(
            db.start_run(
                con, options.engine, __version__, mapping_fingerprint(), ohash, len(entries)
            )
        )
        total = len(plans)
        counter = [0]

        def report(name: str, what: str) -> None:
            counter[0] += 1
            say(f"apiscan zoo: [{counter[0]}/{total}] {name}: {what}")

        for plan in plans:
            entry = plan.entry
            by_id[entry.repo_id] = plan
            if plan.failure:
                failed = Outcome(_spec(entry, plan, options, cache, clones), None, [plan.failure])
                db.store(con, summary.run_id, entry, "", "", failed, __version__, "", ohash)
                summary.failed.append(entry.name)
                report(entry.name, f"failed: {plan.failure}")
                continue
            if _unchanged(done.get(entry.repo_id), plan, options, ohash):
                summary.skipped.append(entry.name)
                report(entry.name, "skipped (scanned already at this revision)")
                continue
            specs.append(_spec(entry, plan, options, cache, clones))
        specs.sort(key=lambda s: (-by_id[s.repo_id].size, s.name))
        if options.engine == "ray":
            outcomes = run_ray(specs, options.address, options.jobs)
        else:
            from apiscan.zoo.task import warm

            warm(options.ms_version)
            outcomes = run_local(specs, options.jobs)
        files = 0
        for outcome in outcomes:
            plan = by_id[outcome.spec.repo_id]
            db.store(
                con,
                summary.run_id,
                plan.entry,
                plan.revision,
                plan.commit,
                outcome,
                __version__,
                "",
                ohash,
            )
            if outcome.record is not None:
                summary.scanned.append(plan.entry.name)
                n = len(outcome.record.files)
                files += n
                retried = f", after a failure: {outcome.failures[0]}" if outcome.failures else ""
                report(
                    plan.entry.name,
                    f"scanned ({n} files, {outcome.record.wall_s:.1f} s{retried}; {files} files"
                    " so far)",
                )
            else:
                summary.failed.append(plan.entry.name)
                report(plan.entry.name, f"failed twice: {outcome.failures[-1]}")
        db.finish_run(
            con, summary.run_id, len(summary.scanned), len(summary.skipped), len(summary.failed)
        )
        if options.parquet is not None:
            db.export_parquet(con, options.parquet)
    finally:
        con.close()
    summary.wall_s = time.perf_counter() - started
    return summary


def _unchanged(
    stored: tuple[str, ...] | None, plan: _Planned, options: ZooOptions, ohash: str
) -> bool:
    if stored is None:
        return False
    revision, apiscan, _mapping, stored_options, config = stored
    if (revision, apiscan, stored_options) != (plan.revision, __version__, ohash):
        return False
    if plan.entry.is_git:
        return True  # the commit fixes the repository's own configuration
    probe = TaskSpec("", "", plan.entry.source, "", False, "", None, options.ms_version,
                     options.dynamic_shape, options.target)  # fmt: skip
    return settings_for(Path(plan.entry.source), probe)[1] == config


def _spec(
    entry: Entry, plan: _Planned, options: ZooOptions, cache: str | None, clones: Path
) -> TaskSpec:
    return TaskSpec(
        repo_id=entry.repo_id,
        name=entry.name,
        source=entry.source,
        commit=plan.commit,
        is_git=entry.is_git,
        clone_cache=str(clones),
        cache_dir=cache,
        ms_version=options.ms_version,
        dynamic_shape=options.dynamic_shape,
        target=options.target,
        memory_mb=entry.memory_mb or options.memory_mb,
        timeout_s=entry.timeout_s or options.timeout_s,
    )


def default_jobs() -> int:
    return os.cpu_count() or 1
