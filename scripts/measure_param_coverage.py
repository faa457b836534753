"""How many documented parameters of the consistent rows have a case (issue 21).

Usage: python scripts/measure_param_coverage.py [--results verify.json] [--list]

Every consistent row of the merged table, every parameter of its PyTorch signature: covered
by a case that runs the row's target passing it, cannot run on this CPU machine (with the
reason), not a claim (the table's general parameter differences such as ``out``), or
uncovered. ``--results`` takes ``apiscan verify --all -f json`` output and counts only the
cases that ran to a verdict (a form PyTorch rejects covers nothing); ``--list`` prints every
pair that is not covered, with its reason. See apiscan.verify.coverage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from apiscan.verify.catalogue import CASES
from apiscan.verify.coverage import CANNOT, COVERED, UNCOVERED, measure, summarize
from apiscan.verify.documented import generate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", help="apiscan verify --all -f json output")
    parser.add_argument("--list", action="store_true", help="print every uncovered pair")
    args = parser.parse_args()
    results = None
    if args.results:
        with open(args.results, encoding="utf-8") as handle:
            results = {r["case_id"]: r for r in json.load(handle)["results"]}
    _, skips = generate()
    pairs = measure(CASES, results, gaps={s.api: s.reason for s in skips})
    s = summarize(pairs)
    basis = "cases that ran to a verdict" if results is not None else "cases in the catalogue"
    print(f"consistent rows: {s.rows} ({basis})")
    print(f"  every documented parameter covered: {s.rows_complete}")
    print(f"  covered or cannot run here (with the reason): {s.rows_accounted}")
    pct = 100 * s.covered / s.params if s.params else 0.0
    print(f"documented parameters: {s.params}, covered {s.covered} ({pct:.1f}%),")
    print(f"  cannot run here {s.cannot}, uncovered {s.params - s.covered - s.cannot}")
    print(f"  (not claims: {s.not_claim} general differences such as out/device, private)")
    reasons = Counter(p.why for p in pairs if p.state == CANNOT)
    for why, n in reasons.most_common():
        print(f"  cannot run here {n:4d}: {why[:110]}")
    if args.list:
        for p in pairs:
            if p.state in (UNCOVERED, CANNOT):
                why = f"  ({p.why[:80]})" if p.why else ""
                print(f"{p.state:16s} {p.api} -> {p.target}: {p.param}{why}")
    return 0 if all(p.state != UNCOVERED for p in pairs if p.state != COVERED) else 1


if __name__ == "__main__":
    sys.exit(main())
