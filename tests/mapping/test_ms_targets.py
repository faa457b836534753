"""``mapping_data/ms_targets.csv`` says the truth about the installed MindSpore.

These tests import mindspore (in a subprocess, so the rest of the suite stays free of it)
and fail, not skip, when it is missing: the test command installs it.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from apiscan.mapping.store import KNOWN_VERSIONS, MAPPING_DATA_DIR, load_table

TARGETS_CSV = MAPPING_DATA_DIR / "ms_targets.csv"

# Resolves every target independently of scripts/gen_ms_targets.py, with the stdlib's
# module-import-then-getattr resolution, and reports what it found.
RESOLVER = """
import csv, json, pkgutil, sys
import mindspore
found = {}
with open(sys.argv[1], encoding="utf-8", newline="") as handle:
    for record in csv.DictReader(handle):
        try:
            pkgutil.resolve_name(record["target"])
        except (ImportError, AttributeError, ValueError):
            found[record["target"]] = False
        else:
            found[record["target"]] = True
print(json.dumps({"version": mindspore.__version__, "found": found}))
"""


def _records() -> list[dict[str, str]]:
    with TARGETS_CSV.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def installed() -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", RESOLVER, str(TARGETS_CSV)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"cannot import the installed mindspore:\n{result.stderr}"
    resolved: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return resolved


def test_every_shipped_target_resolves_exactly_as_recorded(installed: dict[str, object]) -> None:
    found = installed["found"]
    assert isinstance(found, dict)
    recorded = {record["target"]: record["exists"] == "true" for record in _records()}
    wrong = {target: found[target] for target in recorded if found[target] != recorded[target]}
    assert wrong == {}, "ms_targets.csv disagrees with the installed mindspore"
    assert sum(recorded.values()) > 0.95 * len(recorded)


def test_targets_were_recorded_against_the_installed_version(
    installed: dict[str, object],
) -> None:
    assert {record["mindspore_version"] for record in _records()} == {installed["version"]}


def test_records_are_sorted_with_kinds_for_existing_targets() -> None:
    records = _records()
    targets = [record["target"] for record in records]
    assert targets == sorted(set(targets))
    for record in records:
        assert record["exists"] in {"true", "false"}
        assert (record["kind"] != "") == (record["exists"] == "true"), record
    kinds = {record["target"]: record["kind"] for record in records}
    assert kinds["mindspore.mint.nn.functional.relu"] == "callable"
    assert kinds["mindspore.nn.Cell.recompute"] == "callable"
    assert kinds["mindspore.nn.Dense"] == "class"
    assert kinds["mindspore.nn.transformer.Transformer"] == ""


def test_every_target_of_every_table_is_listed_and_nothing_else() -> None:
    named = {
        target
        for version in KNOWN_VERSIONS
        for row in load_table(version, merge=False)
        for target in row.ms_apis
    }
    assert named == {record["target"] for record in _records()}


def test_generator_writes_the_shipped_file(tmp_path: Path) -> None:
    data = tmp_path / "mapping_data"
    data.mkdir()
    (data / "manifest.json").write_bytes((MAPPING_DATA_DIR / "manifest.json").read_bytes())
    for version in KNOWN_VERSIONS:
        (data / version).mkdir()
        for name in ("api_map.csv", "param_diffs.csv"):
            (data / version / name).write_bytes((MAPPING_DATA_DIR / version / name).read_bytes())
    script = Path(__file__).resolve().parents[2] / "scripts" / "gen_ms_targets.py"
    result = subprocess.run(
        [sys.executable, str(script), "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert (data / "ms_targets.csv").read_bytes() == TARGETS_CSV.read_bytes()
    signatures = MAPPING_DATA_DIR / "signatures.csv"
    assert (data / "signatures.csv").read_bytes() == signatures.read_bytes()
    # --check: fresh passes, a stale platform fails.
    check = [sys.executable, str(script), "--check", "--data-dir", str(data)]
    assert subprocess.run(check, capture_output=True, timeout=600).returncode == 0
    stale = (data / "ms_targets.csv").read_text(encoding="utf-8")
    stale = stale.replace(
        "mindspore.mint.nn.SELU,true,class,2.10.0,Ascend",
        "mindspore.mint.nn.SELU,true,class,2.10.0,CPU",
    )
    (data / "ms_targets.csv").write_text(stale, encoding="utf-8")
    again = subprocess.run(check, capture_output=True, text=True, timeout=600)
    assert again.returncode == 1 and "ms_targets.csv" in again.stderr


def test_platforms_and_signatures_are_what_the_docstrings_and_signatures_say() -> None:
    platforms = {record["target"]: record["platforms"] for record in _records()}
    assert platforms["mindspore.mint.nn.SELU"] == "Ascend"
    assert platforms["mindspore.nn.LeakyReLU"] == "Ascend GPU CPU"
    assert platforms["mindspore.ops.Fill"] == "Deprecated"
    with (MAPPING_DATA_DIR / "signatures.csv").open(encoding="utf-8", newline="") as handle:
        signatures = {record["api"]: record["params"] for record in csv.DictReader(handle)}
    assert signatures["mindspore.nn.LeakyReLU"] == "alpha=0.2"
    assert signatures["torch.nn.LeakyReLU"] == "negative_slope=0.01;inplace=False"
    # Parameter declares requires_grad in __init__ behind a generic __new__.
    assert "requires_grad=True" in signatures["mindspore.Parameter"].split(";")


def test_shipped_name_index_is_what_the_generator_writes(tmp_path: Path) -> None:
    """``mapping_data/ms_api`` (same-name candidates) is fresh for the installed MindSpore;
    ``--check`` compares without writing and fails on a stale copy."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "gen_ms_names.py"
    check = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300
    )
    assert check.returncode == 0, check.stderr
    stale = tmp_path / "data"
    (stale / "ms_api").mkdir(parents=True)
    for shipped in (MAPPING_DATA_DIR / "ms_api").glob("*.json"):
        data = json.loads(shipped.read_text(encoding="utf-8"))
        del data["namespaces"]["mindspore:Tensor"]["clone"]
        (stale / "ms_api" / shipped.name).write_text(json.dumps(data), encoding="utf-8")
    again = subprocess.run(
        [sys.executable, str(script), "--check", "--data-dir", str(stale)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 1 and "stale" in again.stderr
