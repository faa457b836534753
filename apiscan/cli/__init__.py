"""Command-line entry points."""

from __future__ import annotations

import argparse
import sys


def error(prog: str, message: str) -> int:
    """One ``apiscan SUB: error: message`` line on stderr (argparse's own form, so every
    usage or environment fault reads alike) and exit code 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def add_cache_options(p: argparse.ArgumentParser) -> None:
    """``-j/--jobs``, ``--no-cache`` and ``--cache-dir``, worded alike on every subcommand
    that runs a scan."""
    p.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)"
    )
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument(
        "--cache-dir",
        default=None,
        help="cache directory (default: $APISCAN_CACHE_DIR or ~/.cache/apiscan)",
    )
