"""``apiscan review PATH``: the pre-migration feasibility review of a repository.

Exit codes as the scan's: 0 done, 2 usage or fatal error (one clear line on stderr). The format
is checked before the scan runs, so a format that is unavailable costs nothing. The scan under
the review is the one ``apiscan scan`` runs: the same project configuration (``[tool.apiscan]``
in ``pyproject.toml`` or ``apiscan.toml``: excludes, ignores, mapping version, file size,
verification device and dtype), the same cache, and the micro-test results ``apiscan verify``
left in that cache, so a verified candidate is no gap in the review either.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from apiscan import __version__
from apiscan.cli import add_cache_options, error
from apiscan.review import RENDERERS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="apiscan review",
        description="Pre-migration feasibility review of a PyTorch repository: training "
        "recipe, network structure, API gaps, dynamic shapes, extensions, third-party "
        "packages and an explained effort estimate.",
        epilog="Exit codes: 0 done, 2 usage error. Settings come from the project "
        "configuration as for 'apiscan scan' (see 'apiscan config'); flags override it.",
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
        default=None,
        metavar="GLOB",
        help="skip paths matching this glob (repeatable; replaces the configuration's "
        "exclude, not its extend-exclude), as for the scan",
    )
    add_cache_options(p)
    p.add_argument(
        "--no-ignore", action="store_true", help="also review what .gitignore / .ignore ignore"
    )
    p.add_argument(
        "--target",
        choices=("Ascend", "GPU", "CPU"),
        default=None,
        help="the platform you migrate to: a MindSpore API not documented for it is a gap",
    )
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--version", action="version", version=f"apiscan {__version__}")
    return p


def _error(message: str) -> int:
    return error("apiscan review", message)


def run_review(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from apiscan.cli.main import scan_settings
    from apiscan.config import ConfigError
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
    try:
        settings = scan_settings(args.path, args)
    except ConfigError as exc:
        return _error(str(exc))
    from apiscan.cache import default_cache_dir
    from apiscan.pipeline import ScanOptions
    from apiscan.review.build import review

    base = Path(args.path) if Path(args.path).is_dir() else Path(args.path).parent
    options = ScanOptions(
        args.path,
        ms_version=settings["ms-version"],
        excludes=settings.excludes(base),
        jobs=args.jobs,
        cache_dir=None if args.no_cache else Path(args.cache_dir or default_cache_dir()),
        max_file_size=settings["max-file-size"],
        progress=not args.no_progress and sys.stderr.isatty(),
        verify_device=settings["verify-device"],
        verify_dtype=settings["verify-dtype"],
        ignores=settings.ignores(base),
        respect_ignore=settings["respect-ignore-files"],
        target_platform=args.target,
        require_files=True,
    )
    try:
        result = review(options)
    except (DiscoveryError, UnknownVersionError) as exc:
        return _error(str(exc))
    from apiscan.lifetime import write_output

    write_output(render(result), args.output)
    return 0
