"""The ``apiscan`` command line.

``apiscan PATH`` (or ``apiscan scan PATH``) scans a repository. Exit codes follow sqlfluff:
0 done, 1 findings at or above ``--fail-on``, 2 usage or fatal error (one clear line on stderr).
Rendering goes through the reporter registry: the CLI never branches on the format.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from apiscan import __version__

SUBCOMMANDS = ("scan", "mapping", "rules", "explain", "review", "verify")
#: ``--fail-on`` thresholds: a candidate is not proven, so "different" counts it too.
FAIL_ON = {"missing": ("missing",), "different": ("missing", "candidate", "different")}


def _scan_parser() -> argparse.ArgumentParser:
    from apiscan.mapping.store import DEFAULT_VERSION, KNOWN_VERSIONS

    p = argparse.ArgumentParser(
        prog="apiscan",
        description="Scan a PyTorch repository and report how its PyTorch API uses map to "
        "MindSpore.",
        epilog="Other commands: 'apiscan mapping' lists the mapping tables; 'apiscan rules' "
        "lists the dynamic-shape rules and 'apiscan explain DS101' explains one. "
        "Exit codes: 0 done, 1 findings at or above --fail-on, 2 usage error.",
    )
    p.add_argument("path", help="repository directory or Python file to scan")
    p.add_argument(
        "-f", "--format", default="text", help="report format: text (default), json, csv, markdown"
    )
    p.add_argument("-o", "--output", help="write the report to this file instead of stdout")
    p.add_argument(
        "--ms-version",
        default=None,
        metavar="VERSION",
        help=f"MindSpore mapping table: {'|'.join(KNOWN_VERSIONS)} "
        f"(default {DEFAULT_VERSION}, older tables filling in rows it lacks)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip paths matching GLOB (relative to PATH; repeatable)",
    )
    p.add_argument(
        "--fail-on",
        choices=sorted(FAIL_ON),
        default=None,
        help="exit 1 if any finding has this status (different includes missing)",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)"
    )
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument(
        "--cache-dir",
        default=None,
        help="cache directory (default: $APISCAN_CACHE_DIR or ~/.cache/apiscan)",
    )
    p.add_argument(
        "--max-file-size",
        type=int,
        default=1_000_000,
        metavar="BYTES",
        help="skip (and report) files larger than this: LibCST needs ~10 s per MB "
        "(default 1000000)",
    )
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument(
        "--no-dynamic-shape",
        action="store_true",
        help="skip the dynamic-shape rules (API coverage only)",
    )
    p.add_argument("--version", action="version", version=f"apiscan {__version__}")
    return p


def _usage_error(message: str) -> int:
    print(f"apiscan: error: {message}", file=sys.stderr)
    return 2


def run_scan(argv: list[str]) -> int:
    args = _scan_parser().parse_args(argv)
    from apiscan.discovery import DiscoveryError
    from apiscan.mapping.store import UnknownVersionError
    from apiscan.pipeline import ScanOptions, scan
    from apiscan.report import formats, get_reporter
    from apiscan.report.base import prepare_hook

    try:
        reporter = get_reporter(args.format)
    except KeyError:
        return _usage_error(
            f"unknown format {args.format!r}; choose one of: {', '.join(formats())}"
        )
    if args.jobs is not None and args.jobs < 1:
        return _usage_error("--jobs must be at least 1")
    if not os.path.lexists(args.path):
        return _usage_error(f"path does not exist: {args.path}")
    from apiscan.cache import default_cache_dir

    cache_dir = None if args.no_cache else Path(args.cache_dir or default_cache_dir())
    options = ScanOptions(
        path=args.path,
        ms_version=args.ms_version,
        excludes=tuple(args.exclude),
        jobs=args.jobs,
        cache_dir=cache_dir,
        max_file_size=args.max_file_size,
        dynamic_shape=not args.no_dynamic_shape,
        progress=not args.no_progress and sys.stderr.isatty(),
        warmup=prepare_hook(reporter),
    )
    try:
        result = scan(options)
    except (DiscoveryError, UnknownVersionError) as exc:
        return _usage_error(str(exc))
    text = reporter.render(result)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            return _usage_error(f"cannot write {args.output}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
    if args.fail_on:
        bad = FAIL_ON[args.fail_on]
        if any(f.status in bad for f in result.api_findings):
            return 1
    return 0


def run_mapping(argv: list[str]) -> int:
    """``apiscan mapping``: the mapping tables shipped, and which one is the default."""
    p = argparse.ArgumentParser(
        prog="apiscan mapping", description="List the PyTorch→MindSpore mapping tables."
    )
    p.parse_args(argv)
    from apiscan.mapping.store import DEFAULT_VERSION, KNOWN_VERSIONS, load_table

    for v in KNOWN_VERSIONS:
        only = load_table(v, merge=False)
        merged = load_table(v)
        src = only.sources[0] if only.sources else {}
        mark = " (default)" if v == DEFAULT_VERSION else ""
        print(
            f"{v}{mark}: {len(only)} APIs in its own table, {len(merged)} with older tables "
            f"filling in; docs {src.get('branch', '?')} @ {str(src.get('commit', '?'))[:12]}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "mapping":
        return run_mapping(argv[1:])
    if argv and argv[0] == "verify":
        from apiscan.cli.verify import run_verify

        return run_verify(argv[1:])
    if argv and argv[0] == "review":
        from apiscan.cli.review import run_review

        return run_review(argv[1:])
    if argv and argv[0] in ("rules", "explain"):
        from apiscan.cli import rules

        return (rules.run_rules if argv[0] == "rules" else rules.run_explain)(argv[1:])
    if argv and argv[0] == "scan":
        argv = argv[1:]
    try:
        return run_scan(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
