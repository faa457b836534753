"""``apiscan check``: the findings of one file in the context of its project.

``apiscan check --stdin-filename PATH -`` reads a buffer from standard input and analyses it as
if it were the file PATH of its project (the ruff convention), for editors and scripts that do
not speak the language server protocol; ``apiscan check PATH`` does the same for the file on
disk. The project (the nearest ancestor of PATH with a ``pyproject.toml``, ``setup.py``,
``setup.cfg``, ``apiscan.toml`` or ``.git``, or ``--root``) is scanned for context — re-exports
through its own modules, classes defined in other files, call-graph scopes — with the usual
on-disk cache, so only the buffer is parsed once the cache is warm. The output is a report of
that one file: JSON by default, any ``--format`` of the scan.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from apiscan.cli import add_cache_options, error


def _parser() -> argparse.ArgumentParser:
    from apiscan.mapping.store import KNOWN_VERSIONS

    p = argparse.ArgumentParser(
        prog="apiscan check",
        description="Report the findings of one file (or of a buffer on stdin) in the context "
        "of its project.",
        epilog="Exit codes: 0 done, 1 findings at or above --fail-on, 2 usage error.",
    )
    p.add_argument("file", help="the file to check, or - to read it from stdin")
    p.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with -: where the buffer on stdin lives in the project (need not exist yet)",
    )
    p.add_argument(
        "--root",
        metavar="DIR",
        help="the project directory (default: nearest ancestor with pyproject.toml, setup.py, "
        "setup.cfg, apiscan.toml or .git)",
    )
    p.add_argument("-f", "--format", default="json", help="json (default), text, sarif, ...")
    p.add_argument("-o", "--output", help="write the report to this file instead of stdout")
    p.add_argument("--ms-version", metavar="VERSION", help=f"{'|'.join(KNOWN_VERSIONS)}")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB")
    p.add_argument("--fail-on", choices=("missing", "different"), default=None)
    add_cache_options(p)
    p.add_argument("--no-dynamic-shape", action="store_true")
    p.add_argument("--verify-device", choices=("CPU", "GPU", "Ascend"), default=None)
    p.add_argument("--verify-dtype", choices=("float32", "float16"), default=None)
    p.add_argument("--target", choices=("Ascend", "GPU", "CPU"), default=None)
    return p


def _error(message: str) -> int:
    return error("apiscan check", message)


def run_check(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from apiscan.buffer import ProjectContext, find_project_root, options_for
    from apiscan.cache import default_cache_dir
    from apiscan.cli.main import FAIL_ON
    from apiscan.config import ConfigError
    from apiscan.discovery import DiscoveryError
    from apiscan.mapping.store import UnknownVersionError
    from apiscan.report import formats, get_reporter

    try:
        reporter = get_reporter(args.format)
    except KeyError:
        return _error(f"unknown format {args.format!r}; choose one of: {', '.join(formats())}")
    if args.file == "-":
        if not args.stdin_filename:
            return _error("reading stdin (-) needs --stdin-filename PATH")
        path = Path(args.stdin_filename)
        data = sys.stdin.buffer.read()
    else:
        path = Path(args.file)
        if args.stdin_filename:
            return _error("--stdin-filename goes with - (read the buffer from stdin)")
        try:
            data = path.read_bytes()
        except OSError as exc:
            return _error(f"cannot read {path}: {exc.strerror or exc}")
    if path.suffix not in (".py", ".ipynb"):
        return _error(f"not a Python file or notebook: {path}")
    root = Path(args.root) if args.root else find_project_root(path)
    if not root.is_dir():
        return _error(f"not a directory: {root}")
    if not path.absolute().is_relative_to(root.absolute()):
        return _error(f"{path} is not inside the project {root}")
    cache_dir = None if args.no_cache else Path(args.cache_dir or default_cache_dir())
    cli = {
        "exclude": args.exclude or None,
        "ms-version": args.ms_version,
        "fail-on": args.fail_on,
        "verify-device": args.verify_device,
        "verify-dtype": args.verify_dtype,
    }
    try:
        options = options_for(
            root,
            cli,
            jobs=args.jobs,
            cache_dir=cache_dir,
            dynamic_shape=not args.no_dynamic_shape,
            target_platform=args.target,
        )
    except ConfigError as exc:
        return _error(str(exc))
    try:
        context = ProjectContext.load(options)
    except (DiscoveryError, UnknownVersionError) as exc:
        return _error(str(exc))
    result = context.check(context.relpath(path), data).result
    from apiscan.cli.main import write_output

    write_output(reporter.render(result), args.output)  # whole or not at all
    fail_on = cli["fail-on"] or _configured_fail_on(root)
    if fail_on and any(f.status in FAIL_ON[fail_on] for f in result.api_findings):
        return 1
    return 0


def _configured_fail_on(root: Path) -> str | None:
    from apiscan.config import resolve

    value = resolve(str(root), {})["fail-on"]
    return str(value) if value else None
