"""``apiscan stub API [API ...] [-o DIR] [--force]``: MindSpore custom-op scaffolds.

Writes, per PyTorch API, ``DIR/<name>.py`` (an ``ops.Custom`` pyfunc scaffold with the
PyTorch signature) and ``DIR/test_<name>.py`` (pytest against PyTorch). A file that differs
from what would be generated (``_compute`` implemented, samples edited) is kept unless
``--force``. Exit codes: 0 every API scaffolded (or already up to date), 2 usage error or
some API not scaffoldable (one line each on stderr; the others are still written).

torch is imported only when the command runs, so importing this module stays cheap.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

DEFAULT_DIR = "apiscan_stubs"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="apiscan stub",
        description="Write a MindSpore custom-operator scaffold (ops.Custom, pyfunc) and a "
        "test against PyTorch for each PyTorch API that MindSpore lacks.",
        epilog="Files that differ from the generated ones (edited) are kept unless --force. "
        "Exit codes: 0 done, 2 usage error or an API that cannot be scaffolded.",
    )
    p.add_argument(
        "apis", nargs="+", metavar="API", help="PyTorch API names, e.g. torch.special.i0e"
    )
    p.add_argument(
        "-o",
        "--output-dir",
        default=DEFAULT_DIR,
        metavar="DIR",
        help=f"directory for the scaffolds (default ./{DEFAULT_DIR})",
    )
    p.add_argument("--force", action="store_true", help="overwrite scaffold files that were edited")
    return p


def run_stub(argv: Sequence[str]) -> int:
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exc:  # --help (0) or a usage error (2): report, do not exit
        return int(exc.code or 0)
    out_dir = Path(args.output_dir)
    if out_dir.exists() and not out_dir.is_dir():
        print(f"apiscan stub: not a directory: {out_dir}", file=sys.stderr)
        return 2
    try:
        from apiscan.stub import write_stubs

        results = write_stubs(args.apis, out_dir, force=args.force)
    except ImportError as exc:
        print(f"apiscan stub: needs torch ({exc}); install apiscan[verify]", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"apiscan stub: cannot write to {out_dir}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    status = 0
    for result in results:
        if result.skipped:
            print(f"apiscan stub: {result.api}: {result.skipped}", file=sys.stderr)
            status = 2
            continue
        for path in result.written:
            print(f"wrote {_shown(path)}")
        for path in result.unchanged:
            print(f"unchanged {_shown(path)}")
        for path in result.kept:
            print(
                f"apiscan stub: kept {_shown(path)}: it differs from the generated file "
                "(edited?); --force overwrites it",
                file=sys.stderr,
            )
        for note in result.notes:
            print(f"  {result.api}: {note}")
    if any(r.written and not r.composed for r in results):
        print(f"next: implement _compute in each scaffold, then: python -m pytest {out_dir}")
    elif any(r.written for r in results):
        print(f"next: python -m pytest {out_dir} (compositions: nothing to implement)")
    return status


def _shown(path: Path) -> str:
    """The path as the user would type it: relative to the working directory if inside."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
