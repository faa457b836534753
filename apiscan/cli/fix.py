"""``apiscan fix PATH``: apply the proven rewrites and mechanical idioms (a unified diff by
default; files change only with ``--write``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from apiscan import __version__
from apiscan.cli import error


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="apiscan fix",
        description="Apply, as a LibCST codemod, the rewrites whose micro-test passed for "
        "the call's own form and the mechanical idioms (deleted device moves and cache "
        "flushes, set_train, cells_and_names, stop_gradient, imports). Prints a unified "
        "diff; writes the files only with --write.",
        epilog="Exit codes: 0 done, 2 usage error.",
    )
    p.add_argument("path", help="repository directory or Python file")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--diff", action="store_true", help="print a unified diff (default)")
    group.add_argument("--write", action="store_true", help="rewrite the files in place")
    p.add_argument(
        "--annotate",
        action="store_true",
        help="add '# TODO(apiscan): ...' above each site without an exact rewrite",
    )
    p.add_argument(
        "--verify",
        action="store_true",
        help="first run the micro-tests of the call forms found (needs torch and mindspore)",
    )
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB")
    p.add_argument("-j", "--jobs", type=int, default=None)
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument("--version", action="version", version=f"apiscan {__version__}")
    return p


def run_fix(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from apiscan.cache import default_cache_dir
    from apiscan.cli.main import _verify_forms
    from apiscan.discovery import DiscoveryError
    from apiscan.fix import fix, unified_diff
    from apiscan.pipeline import ScanOptions, scan

    if not os.path.lexists(args.path):
        return error("apiscan fix", f"path does not exist: {args.path}")
    cache_dir = None if args.no_cache else default_cache_dir()
    options = ScanOptions(
        path=args.path,
        excludes=tuple(args.exclude),
        jobs=args.jobs,
        cache_dir=cache_dir,
        progress=not args.no_progress and sys.stderr.isatty(),
    )
    try:
        result = scan(options)
    except DiscoveryError as exc:
        return error("apiscan fix", str(exc))
    if args.verify:
        result = _verify_forms(result, cache_dir, options.verify_device, options.verify_dtype)
    fixes = fix(result, annotate=args.annotate)
    root = Path(result.root)
    root = root.parent if root.is_file() else root
    refused = 0
    if args.write:
        real_root = os.path.realpath(root)
        for f in fixes:
            if f.after != f.before:
                target = root / f.path
                real = os.path.realpath(target)
                if os.path.commonpath([real_root, real]) != real_root:
                    # reached through a symlink: never write outside the scanned directory
                    print(
                        f"apiscan fix: {f.path}: not written: its real location is outside {root}",
                        file=sys.stderr,
                    )
                    refused += 1
                    continue
                target = Path(real)  # rewrite the file a symlink inside the root names
                tmp = target.with_name(f".{target.name}.apiscan-fix")
                tmp.write_text(f.after, encoding="utf-8")
                tmp.replace(target)
    else:
        sys.stdout.write(unified_diff(fixes))
    applied = sum(f.applied for f in fixes)
    annotated = sum(f.annotated for f in fixes)
    changed = sum(1 for f in fixes if f.after != f.before)
    for f in fixes:
        if f.error:
            print(f"apiscan fix: {f.path}: {f.error}", file=sys.stderr)
    print(
        f"apiscan fix: {applied} rewrites in {changed} files"
        + (f", {annotated} TODO comments" if args.annotate else "")
        + ("" if args.write else " (diff only; --write applies it)"),
        file=sys.stderr,
    )
    return 2 if refused else 0
