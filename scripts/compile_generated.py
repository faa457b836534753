"""Write ``apiscan/precompiled.bin``: the generated methods a scan creates, compiled.

    python scripts/compile_generated.py           # write it
    python scripts/compile_generated.py --check   # exit 1 if it lacks a text of these imports

The table holds every method text that ``dataclasses`` compiles while apiscan's modules and
LibCST are imported, and the constructors apiscan generates for LibCST's nodes before a scan's
workers fork (see :mod:`apiscan.precompiled`). A stale table is never wrong, only slower: a
text it lacks (a dataclass added or changed since, another LibCST) is compiled as before. Run
it again after changing dataclasses, or on another Python version (the table is read only by
the interpreter version that wrote it).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apiscan import precompiled

#: Imported beside every apiscan module: the parser's node classes, the metadata providers
#: the position fallback uses, and the matcher of ignore files.
THIRD_PARTY = ("libcst", "libcst.metadata", "libcst.native", "pathspec")


def texts() -> list[str]:
    """Every text ``dataclasses`` compiles while the modules are imported (in this process,
    which must not have imported them before)."""
    import apiscan

    seen: list[str] = []
    precompiled.install(table={}, seen=seen)
    names = [*THIRD_PARTY]
    for info in pkgutil.walk_packages(apiscan.__path__, "apiscan.", onerror=lambda _n: None):
        if not info.name.endswith("__main__"):
            names.append(info.name)
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # an optional extra (the language server's) not installed
            print(f"skipped {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
    from apiscan import parsing

    parsing.node_inits()  # the constructors a scan makes before its workers fork
    parsing.prepare_shared_nodes()
    return list(dict.fromkeys(seen))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if the table lacks a text")
    args = p.parse_args()
    found = texts()
    target = precompiled.TABLE_FILE
    if args.check:
        table = precompiled.read_table()
        missing = [t for t in found if t not in table]
        if missing:
            print(
                f"{target} lacks {len(missing)} of {len(found)} texts:"
                " run scripts/compile_generated.py",
                file=sys.stderr,
            )
            return 1
        print(f"{target} is up to date ({len(table)} texts)")
        return 0
    count = precompiled.write_table(found, target)
    print(f"wrote {target}: {count} texts, {target.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
