"""The language server (``apiscan lsp``): diagnostics, hovers and quick fixes for editors.

pygls is an optional dependency (the ``lsp`` extra), imported only when the server starts.
"""

from __future__ import annotations

import argparse
import sys


def import_error_message(exc: ImportError) -> str:
    """What an ImportError at start-up really means: only a missing pygls is a missing
    extra; any other missing module or failed import is named as it is (a broken pygls
    install, an apiscan install without one of its packages...)."""
    missing = exc.name or ""
    top = missing.partition(".")[0]
    if isinstance(exc, ModuleNotFoundError) and top == "pygls":
        return (
            f"the language server needs pygls, which this Python ({sys.executable}) lacks; "
            "install it with: pip install 'apiscan[lsp]'"
        )
    if isinstance(exc, ModuleNotFoundError) and top == "apiscan":
        return f"this apiscan installation lacks its module {missing} ({exc}); reinstall apiscan"
    if isinstance(exc, ModuleNotFoundError) and missing:
        return f"the language server cannot start: the module {missing} is missing ({exc})"
    return f"the language server cannot start: {type(exc).__name__}: {exc}"


def run_lsp(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="apiscan lsp",
        description="Run the apiscan language server over stdio (for editors).",
    )
    p.add_argument("--stdio", action="store_true", help="talk over stdio (the default)")
    p.add_argument("--log-file", metavar="FILE", help="write the server's log to FILE")
    args = p.parse_args(argv)
    from apiscan.isolation import isolate

    isolate()  # editors start the server inside the project: never import its modules
    try:
        from apiscan.lsp.server import server
    except ImportError as exc:
        print(f"apiscan lsp: error: {import_error_message(exc)}", file=sys.stderr)
        return 2
    if args.log_file:
        import logging

        logging.basicConfig(filename=args.log_file, level=logging.INFO)
        # pygls logs every message body at INFO: that would be most of the log and its cost.
        logging.getLogger("pygls").setLevel(logging.WARNING)
    from apiscan.lsp.framing import FramedInput, LockedOutput

    out = LockedOutput(sys.stdout.buffer)
    server.start_io(FramedInput(sys.stdin.fileno(), out), out)  # type: ignore[arg-type]
    # The session is over and the client has closed (or pygls has closed) the stream the
    # protocol ran on: nothing more may be written to stdout, not even a final flush. A scan
    # may still be running (its thread would hold the exit for as long as it takes): stop
    # its processes and leave now.
    import logging
    import os

    from apiscan.lifetime import exit_now

    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (stays open until the process exits)
    logging.shutdown()
    exit_now(0)
    return 0


def main() -> None:
    """The ``apiscan-lsp`` console script (for clients that take one executable path)."""
    sys.exit(run_lsp(sys.argv[1:]))
