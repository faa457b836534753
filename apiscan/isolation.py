"""Keep the scanned workspace's code out of every Python process apiscan runs.

apiscan reads repositories it must never execute. Python puts a "potentially unsafe" directory
first on ``sys.path``: the working directory for ``python -m`` and ``python -c`` (which is how
:mod:`multiprocessing` starts its spawn and forkserver children and its resource tracker), the
script's directory otherwise. An editor that starts ``apiscan lsp`` inside a project (Helix and
Eglot do) would then import a ``multiprocessing.py`` or ``json.py`` lying at the project root.

:func:`isolate` runs first thing in every entry point: it drops the working directory from this
process's ``sys.path`` (unless apiscan itself is imported from there: a source checkout) and sets
``PYTHONSAFEPATH`` so that every child interpreter starts as with ``-P`` (Python 3.11+), whatever
its working directory. Imports only ``os`` and ``sys``: nothing may be imported before it runs.
"""

from __future__ import annotations

import os
import sys


def isolate() -> None:
    """Make this process and every Python process it starts blind to the working directory."""
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        cwd = os.path.realpath(os.getcwd())
    except OSError:  # the working directory was removed: nothing can be imported from it
        return
    home = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # holds apiscan/
    sys.path[:] = [p for p in sys.path if not _unsafe(p, cwd, home)]


def _unsafe(entry: str, cwd: str, home: str) -> bool:
    """Whether ``entry`` of ``sys.path`` names the working directory (``""`` does too), and it
    is not where apiscan itself is imported from."""
    if entry in ("", "."):
        return cwd != home
    try:
        real = os.path.realpath(entry)
    except (OSError, ValueError):
        return False
    return real == cwd and real != home
