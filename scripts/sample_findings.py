"""Draw a seeded random sample of findings from JSON reports, with their source lines, to judge
by hand (is the receiver of this "certain" Tensor method really a tensor?), and count scopes.

Usage, from the project root::

    apiscan REPO -f json -o REPO.json            # once per repository
    python scripts/sample_findings.py A.json B.json --seed 19 --count 40 \\
        --confidence certain --api-prefix torch.Tensor. --usage call
    python scripts/sample_findings.py A.json --scopes      # findings per scope and usage

The sample is drawn with ``random.Random(seed)`` from the matching findings of all reports
pooled, in report order (sorted findings), so the same reports and seed give the same sample.
Each line prints ``repository path:line api`` and the stripped source line, read from the
report's ``root``; write the verdict beside it.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any


def load(paths: list[Path]) -> list[tuple[Path, dict[str, Any]]]:
    """(root, finding) for every API finding of every report."""
    out = []
    for path in paths:
        report = json.loads(path.read_text("utf-8"))
        root = Path(report["root"])
        out.extend((root, f) for f in report["findings"] if f["kind"] == "api")
    return out


def source_line(root: Path, finding: dict[str, Any]) -> str:
    try:
        lines = (root / finding["path"]).read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return "?"
    n = finding["line"]
    return lines[n - 1].strip() if 0 < n <= len(lines) else "?"


def sample(
    found: list[tuple[Path, dict[str, Any]]],
    seed: int,
    count: int,
    confidence: str,
    prefix: str,
    usage: str,
) -> tuple[int, list[tuple[Path, dict[str, Any]]]]:
    """How many findings match, and ``count`` of them drawn with ``random.Random(seed)``."""
    pool = [
        (root, f)
        for root, f in found
        if f["confidence"] == confidence
        and f["api"].startswith(prefix)
        and (not usage or f["usage"] == usage)
    ]
    return len(pool), random.Random(seed).sample(pool, min(count, len(pool)))


def scope_counts(found: list[tuple[Path, dict[str, Any]]]) -> Counter[str]:
    return Counter(f["scope"] for _, f in found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--confidence", default="certain")
    parser.add_argument("--api-prefix", default="torch.Tensor.")
    parser.add_argument("--usage", default="call", help="'' for any usage")
    parser.add_argument("--scopes", action="store_true", help="count findings per scope")
    options = parser.parse_args(argv)
    found = load(options.reports)
    if options.scopes:
        for scope, n in sorted(scope_counts(found).items()):
            print(f"{scope:8} {n}")
        return 0
    total, picked = sample(
        found, options.seed, options.count, options.confidence, options.api_prefix, options.usage
    )
    print(f"{len(picked)} of {total} matching findings, seed {options.seed}")
    for root, f in picked:
        print(f"{root.name} {f['path']}:{f['line']} {f['api']}\n    {source_line(root, f)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
