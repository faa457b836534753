"""Time ``apiscan review`` on a repository: the scan under it, and the review's own work on top.

    python scripts/bench_review.py /path/to/repo [--runs 3] [--jobs N]

Each run reviews the repository twice with a fresh cache directory: once cold (every file
analysed) and once warm (the per-file records come from the cache, as for a review after a
scan). The review's own time is the total minus the scan's, so it measures what the review
adds: reading and parsing the sources, the recipe, the structure and the other sections. The
median of the runs is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from apiscan.pipeline import ScanOptions  # noqa: E402
from apiscan.review import build  # noqa: E402


def _timed_review(options: ScanOptions) -> tuple[float, float]:
    """(scan seconds, total seconds) of one review."""
    scan_time = 0.0
    inner = build.scan_with_facts

    def timed(opts: ScanOptions):  # type: ignore[no-untyped-def]
        nonlocal scan_time
        t = time.perf_counter()
        out = inner(opts)
        scan_time = time.perf_counter() - t
        return out

    build.scan_with_facts = timed  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        build.review(options)
        return scan_time, time.perf_counter() - t0
    finally:
        build.scan_with_facts = inner  # type: ignore[assignment]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("path")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--jobs", type=int, default=None)
    args = p.parse_args()
    rows: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            options = ScanOptions(args.path, cache_dir=Path(cache), jobs=args.jobs)
            rows["cold"].append(_timed_review(options))
            rows["warm"].append(_timed_review(options))
    for kind, found in rows.items():
        scan = statistics.median(s for s, _ in found)
        total = statistics.median(t for _, t in found)
        print(
            f"{kind}: total {total:.2f} s = scan {scan:.2f} s + review {total - scan:.2f} s "
            f"(median of {len(found)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
