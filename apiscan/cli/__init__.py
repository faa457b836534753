"""Command-line entry points."""

from __future__ import annotations

import argparse


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
