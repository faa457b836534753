"""Compile the default mapping table into ``mapping_data/compiled_table.pickle.z``.

    python scripts/compile_mapping.py           # write it
    python scripts/compile_mapping.py --check   # exit 1 if it is missing or stale

Every scan without ``--ms-version`` reads the default table merged with the older ones; parsing
its CSVs and building its rows costs more than unpickling the finished table, so the table is
shipped compiled. It is fingerprinted by the bytes of its CSVs and of the code that reads them
(:func:`apiscan.mapping.store.table_fingerprint`): after ``scripts/build_mapping.py`` or an edit
of ``apiscan/mapping/store.py`` or ``schema.py``, a stale file is ignored (the CSVs are read) and
``tests/mapping/test_compiled_table.py`` fails until this script runs again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apiscan.mapping.store import (
    COMPILED_FILE,
    _compiled_table,
    compile_table,
    mapping_data_dir,
)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if the file is missing or stale")
    args = p.parse_args()
    data_dir = mapping_data_dir()
    target = data_dir / COMPILED_FILE
    if args.check:
        if _compiled_table(data_dir) is None:
            print(f"{target} is missing or stale: run scripts/compile_mapping.py", file=sys.stderr)
            return 1
        print(f"{target} is up to date")
        return 0
    target.write_bytes(compile_table(data_dir))
    print(f"wrote {target} ({target.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
