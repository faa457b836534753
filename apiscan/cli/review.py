"""``apiscan review PATH``: the pre-migration feasibility review of a repository.

Exit codes as the scan's: 0 done, 2 usage or fatal error (one clear line on stderr). The format
is checked before the scan runs, so a format that is unavailable costs nothing.
"""

from __future__ import annotations

import argparse
import os
import sys

from apiscan import __version__
from apiscan.review import RENDERERS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="apiscan review",
        description="Pre-migration feasibility review of a PyTorch repository: training "
        "recipe, network structure, API gaps, dynamic shapes, extensions, third-party "
        "packages and an explained effort estimate.",
        epilog="Exit codes: 0 done, 2 usage error.",
    )
    p.add_argument("path", help="repository directory or Python file to review")
    p.add_argument(
        "-f",
        "--format",
        default="markdown",
        choices=sorted(RENDERERS),
        help="output format (default: markdown)",
    )
    p.add_argument("-o", "--output", help="write the review to this file instead of stdout")
    p.add_argument(
        "--ms-version",
        default=None,
        metavar="VERSION",
        help="MindSpore mapping table (default: the newest, older tables filling in)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip paths matching this glob (repeatable), as for the scan",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)"
    )
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--version", action="version", version=f"apiscan {__version__}")
    return p


def _error(message: str) -> int:
    print(f"apiscan review: error: {message}", file=sys.stderr)
    return 2


def run_review(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from apiscan.discovery import DiscoveryError
    from apiscan.mapping.store import UnknownVersionError
    from apiscan.review import RendererUnavailable, get_renderer

    try:
        render = get_renderer(args.format)
    except RendererUnavailable as exc:
        return _error(str(exc))
    if not os.path.lexists(args.path):
        return _error(f"path does not exist: {args.path}")
    if args.jobs is not None and args.jobs < 1:
        return _error("--jobs must be at least 1")
    from apiscan.review.build import build_review

    try:
        review = build_review(
            args.path,
            ms_version=args.ms_version,
            excludes=tuple(args.exclude),
            jobs=args.jobs,
            progress=not args.no_progress and sys.stderr.isatty(),
        )
    except (DiscoveryError, UnknownVersionError) as exc:
        return _error(str(exc))
    from apiscan.lifetime import write_output

    write_output(render(review), args.output)
    return 0
