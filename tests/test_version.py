"""One version: ``apiscan/__init__.py`` writes it, the package metadata reads it from there,
``apiscan --version`` prints it, and the CHANGELOG's latest released heading names it
(``## [X.Y.Z] - YYYY-MM-DD``, below an ``## [Unreleased]`` section if there is one).
CONTRIBUTING.md's release checklist says the order of the steps."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import apiscan

REPO = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^## \[(?P<name>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$")


def changelog_release() -> tuple[str, str | None]:
    """The version and date of the CHANGELOG's first heading that is not Unreleased."""
    for line in (REPO / "CHANGELOG.md").read_text(encoding="utf-8").splitlines():
        match = HEADING.match(line)
        if match and match["name"].lower() != "unreleased":
            return match["name"], match["date"]
    raise AssertionError("CHANGELOG.md has no released version heading (## [X.Y.Z] - DATE)")


def test_the_metadata_reads_the_version_from_the_package() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "apiscan.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", apiscan.__version__)


def test_version_option_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "apiscan", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout == f"apiscan {apiscan.__version__}\n"


def test_the_changelog_names_the_same_version() -> None:
    version, date = changelog_release()
    assert version == apiscan.__version__, (
        f"CHANGELOG.md's latest release is {version}, the package says {apiscan.__version__}"
    )
    assert date is not None, "the release heading carries its date: ## [X.Y.Z] - YYYY-MM-DD"


def test_the_heading_pattern() -> None:
    assert HEADING.match("## [Unreleased]")
    assert HEADING.match("## [0.1.0] - 2026-11-26")["name"] == "0.1.0"  # type: ignore[index]
    assert not HEADING.match("### Changed")
