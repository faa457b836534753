"""Regenerate the golden reports of the fixture repositories (tests/golden/<fixture>/).

Run it after a deliberate change of the scanner's output, then read the diff before committing:
the golden files are the reviewable record of what apiscan says about each fixture.

    python scripts/update_golden.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from apiscan.pipeline import ScanOptions, scan  # noqa: E402
from apiscan.report import formats, get_reporter  # noqa: E402

#: Fixture repositories with golden reports, scanned from the repository root.
GOLDEN_FIXTURES = ("tinydet", "textcls", "bad_inputs", "dynshape", "crossfn")
GOLDEN_DIR = REPO / "tests" / "golden"


def render_all(fixture: str) -> dict[str, str]:
    """Every format's report for ``fixtures/<fixture>``, as the CLI would print it."""
    result = scan(ScanOptions(f"fixtures/{fixture}", cache_dir=None, jobs=1))
    return {get_reporter(fmt).suffix: get_reporter(fmt).render(result) for fmt in formats()}


def main() -> int:
    os.chdir(REPO)
    for fixture in GOLDEN_FIXTURES:
        out = GOLDEN_DIR / fixture
        out.mkdir(parents=True, exist_ok=True)
        for suffix, text in render_all(fixture).items():
            (out / f"report{suffix}").write_text(text, encoding="utf-8")
            print(f"wrote {out.relative_to(REPO)}/report{suffix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
