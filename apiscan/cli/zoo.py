"""``apiscan zoo MANIFEST -o zoo.duckdb`` and ``apiscan zoo report zoo.duckdb``.

Exit codes as the scan's: 0 done (a repository that failed is recorded in the database, not
a fault of the run), 2 usage or environment error (a bad manifest, a database in use, Ray or
DuckDB not installed), one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from apiscan.cli import add_cache_options, error


def _usage_error(message: str) -> int:
    return error("apiscan zoo", message)


def _run_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="apiscan zoo",
        description="Scan many repositories (a model zoo) into one DuckDB database, each as "
        "'apiscan PATH' would, incrementally; then 'apiscan zoo report DB' ranks the "
        "ecosystem's gaps.",
        epilog="MANIFEST: a text file (one local path or git URL[@commit] per line, # comments), "
        "a .csv (columns source, name, commit, weight, tags, memory_mb, timeout_s) or a .toml "
        "([[repository]] tables with the same keys). Exit codes: 0 done, 2 usage error.",
    )
    p.add_argument("manifest", help="the list of repositories")
    p.add_argument("-o", "--output", required=True, help="the DuckDB database to fill")
    p.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: this machine's process pool (default); ray: Ray tasks (pip install "
        "'apiscan[zoo]')",
    )
    p.add_argument("--address", default=None, help="Ray cluster address (default: local Ray)")
    add_cache_options(p)
    p.add_argument("--clone-dir", default=None, help="where git repositories are cloned")
    p.add_argument("--ms-version", default=None, metavar="VERSION", help="mapping table")
    p.add_argument("--target", choices=("Ascend", "GPU", "CPU"), default=None)
    p.add_argument("--no-dynamic-shape", action="store_true", help="skip the DS rules")
    p.add_argument(
        "--task-memory", type=int, default=4096, metavar="MB", help="per-task memory limit"
    )
    p.add_argument(
        "--task-timeout", type=float, default=1800.0, metavar="S", help="per-task time limit"
    )
    p.add_argument("--parquet", default=None, metavar="DIR", help="also export every table")
    p.add_argument(
        "--rescan", action="store_true", help="scan every repository, even unchanged ones"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    return p


def run_zoo_command(argv: list[str]) -> int:
    if argv and argv[0] == "report":
        return run_report(argv[1:])
    args = _run_parser().parse_args(argv)
    from apiscan.cache import default_cache_dir
    from apiscan.mapping.store import UnknownVersionError, load_table
    from apiscan.zoo.manifest import ManifestError
    from apiscan.zoo.run import ZooOptions, run_zoo

    if args.jobs is not None and args.jobs < 1:
        return _usage_error("--jobs must be at least 1")
    if args.task_memory < 1 or args.task_timeout <= 0:
        return _usage_error("--task-memory and --task-timeout must be positive")
    try:
        load_table(args.ms_version)
    except UnknownVersionError as exc:
        return _usage_error(str(exc))
    for module, extra in (("duckdb", "zoo"), *((("ray", "zoo"),) if args.engine == "ray" else ())):
        try:
            __import__(module)
        except ImportError:
            return _usage_error(f"needs {module}: pip install 'apiscan[{extra}]'")
    from apiscan.zoo.database import DatabaseError

    options = ZooOptions(
        manifest=Path(args.manifest),
        database=Path(args.output),
        engine=args.engine,
        address=args.address,
        jobs=args.jobs,
        cache_dir=None if args.no_cache else Path(args.cache_dir or default_cache_dir()),
        clone_cache=Path(args.clone_dir) if args.clone_dir else None,
        ms_version=args.ms_version,
        dynamic_shape=not args.no_dynamic_shape,
        target=args.target,
        memory_mb=args.task_memory,
        timeout_s=args.task_timeout,
        parquet=Path(args.parquet) if args.parquet else None,
        rescan=args.rescan,
    )
    try:
        summary = run_zoo(options, say=(lambda _line: None) if args.quiet else None)
    except (ManifestError, DatabaseError) as exc:
        return _usage_error(str(exc))
    print(
        f"apiscan zoo: {len(summary.scanned)} scanned, {len(summary.skipped)} unchanged, "
        f"{len(summary.failed)} failed in {summary.wall_s:.1f} s -> {args.output}",
        file=sys.stderr,
    )
    return 0


def run_report(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="apiscan zoo report",
        description="The zoo's report: per repository, and across the zoo the APIs ranked by "
        "repositories blocked, the unblock curve, dynamic-shape rules by prevalence and what "
        "each MindSpore mapping table would unblock.",
    )
    p.add_argument("database", help="a database made by 'apiscan zoo'")
    p.add_argument("-f", "--format", choices=("markdown", "html", "json"), default="markdown")
    p.add_argument("-o", "--output", help="write the report to this file instead of stdout")
    p.add_argument("--top", type=int, default=30, help="rows of each ranking (default 30)")
    args = p.parse_args(argv)
    try:
        import duckdb  # noqa: F401
    except ImportError:
        return _usage_error("needs duckdb: pip install 'apiscan[zoo]'")
    from apiscan.cli.main import write_output
    from apiscan.zoo.database import DatabaseError
    from apiscan.zoo.report import build, render

    try:
        zoo = build(Path(args.database))
    except DatabaseError as exc:
        return _usage_error(str(exc))
    return write_output(render(zoo, args.format, args.top), args.output)
