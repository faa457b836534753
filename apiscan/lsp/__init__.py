"""The language server (``apiscan lsp``): diagnostics, hovers and quick fixes for editors.

pygls is an optional dependency (the ``lsp`` extra), imported only when the server starts.
"""

from __future__ import annotations

import argparse
import sys


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
        print(
            f"apiscan lsp: error: the language server needs pygls ({exc}); "
            "install it with: pip install 'apiscan[lsp]'",
            file=sys.stderr,
        )
        return 2
    if args.log_file:
        import logging

        logging.basicConfig(filename=args.log_file, level=logging.INFO)
        # pygls logs every message body at INFO: that would be most of the log and its cost.
        logging.getLogger("pygls").setLevel(logging.WARNING)
    server.start_io()
    # The session is over and the client has closed (or pygls has closed) the stream the
    # protocol ran on: nothing more may be written to stdout, not even a final flush.
    import os

    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (stays open until the process exits)
    return 0


def main() -> None:
    """The ``apiscan-lsp`` console script (for clients that take one executable path)."""
    sys.exit(run_lsp(sys.argv[1:]))
