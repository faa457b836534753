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
GOLDEN_FIXTURES = (
    "tinydet",
    "textcls",
    "bad_inputs",
    "dynshape",
    "crossfn",
    "setloss",
    "setpred",
    "promptseg",
)
GOLDEN_DIR = REPO / "tests" / "golden"


def render_all(fixture: str) -> dict[str, str]:
    """Every format's report for ``fixtures/<fixture>``, as the CLI would print it."""
    result = scan(ScanOptions(f"fixtures/{fixture}", cache_dir=None, jobs=1))
    return {get_reporter(fmt).suffix: get_reporter(fmt).render(result) for fmt in formats()}


#: The fixture zoo (``apiscan zoo``) whose report has golden files in every format.
ZOO_MANIFEST = REPO / "fixtures" / "zoo" / "manifest.toml"
ZOO_FORMATS = {"markdown": ".md", "json": ".json", "html": ".html"}


def render_zoo(work: Path) -> dict[str, str]:
    """The zoo report of the fixture zoo in every format, its database built under ``work``."""
    from apiscan.zoo.report import build, render
    from apiscan.zoo.run import ZooOptions, run_zoo

    db = work / "zoo.duckdb"
    options = ZooOptions(ZOO_MANIFEST, db, jobs=2, cache_dir=None, clone_cache=work / "clones")
    run_zoo(options, say=lambda _line: None)
    zoo = build(db)
    return {suffix: render(zoo, fmt) for fmt, suffix in ZOO_FORMATS.items()}


def main() -> int:
    import tempfile

    os.chdir(REPO)
    with tempfile.TemporaryDirectory() as work:
        out = GOLDEN_DIR / "zoo"
        out.mkdir(parents=True, exist_ok=True)
        for suffix, text in render_zoo(Path(work)).items():
            (out / f"report{suffix}").write_text(text, encoding="utf-8")
            print(f"wrote {out.relative_to(REPO)}/report{suffix}")
    for fixture in GOLDEN_FIXTURES:
        out = GOLDEN_DIR / fixture
        out.mkdir(parents=True, exist_ok=True)
        for suffix, text in render_all(fixture).items():
            (out / f"report{suffix}").write_text(text, encoding="utf-8")
            print(f"wrote {out.relative_to(REPO)}/report{suffix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
