"""Score the scanner's dynamic-shape findings on a fixture written with ``# expect:`` marks.

Usage, from the project root::

    python scripts/score_marks.py fixtures/heldout_like [--list]

A fixture line that must be reported ends with ``# expect: DS104`` (several rules: ``DS113,
DS118``); every other line must stay quiet. The score is per line, the way a person judges a
report line by line: recall on the marked lines (and separately on the lines marked DS116, the
data-dependent branches and loops), precision over the distinct flagged lines; and the exact
(line, rule) agreement. ``--list`` prints every miss and every unexpected finding.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from scan_helpers import marked_findings, scan_repo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixture", type=Path)
    ap.add_argument("--list", action="store_true", help="print misses and unexpected findings")
    args = ap.parse_args(argv)
    result = scan_repo(args.fixture)
    found = {(f.path, f.span.line, f.rule): f.message for f in result.shape_findings}
    want = marked_findings(args.fixture)
    lines_found = {(p, n) for p, n, _ in found}
    lines_want = {(p, n) for p, n, _ in want}
    branch_want = {(p, n) for p, n, r in want if r == "DS116"}
    source_want = {(p, n) for p, n, r in want if r != "DS116"}
    hit = lines_found & lines_want

    def ratio(a: set, b: set) -> str:
        return f"{len(a & b)}/{len(b)} = {len(a & b) / max(len(b), 1):.2f}"

    print(f"source lines recall:  {ratio(lines_found, source_want)}")
    print(f"branch lines recall:  {ratio(lines_found, branch_want)}")
    print(f"line precision:       {len(hit)}/{len(lines_found)}")
    print(f"exact (line, rule):   {len(set(found) & want)}/{len(want)} marked, {len(found)} found")
    if args.list:
        for key in sorted(want - set(found)):
            print("MISSED    ", *key)
        for key in sorted(set(found) - want):
            print("UNEXPECTED", *key, "-", found[key])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
