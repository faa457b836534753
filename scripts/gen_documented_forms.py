"""Regenerate apiscan/verify/catalogue/documented_forms.csv from the shipped mapping data.

Usage: python scripts/gen_documented_forms.py [--check]

The forms come from the PyTorch signatures of every consistent or different row (see
apiscan.verify.documented); --check exits 1 when the shipped table is out of date. Prints how
many rows got forms and why the others got none.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from apiscan.verify.documented import generate, to_csv

TABLE = Path(__file__).resolve().parent.parent / "apiscan/verify/catalogue/documented_forms.csv"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the table is current")
    args = parser.parse_args()
    forms, skips = generate()
    text = to_csv(forms)
    if args.check:
        current = TABLE.read_text(encoding="utf-8") if TABLE.exists() else ""
        if current != text:
            print(f"{TABLE.name} is out of date: run scripts/gen_documented_forms.py")
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    apis = {f.api for f in forms}
    print(f"{len(forms)} forms of {len(apis)} APIs; {len(skips)} rows without forms:")
    for reason, n in Counter(s.reason for s in skips).most_common():
        print(f"  {n:4d}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
