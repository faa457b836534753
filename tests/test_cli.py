"""The command line as users and CI scripts see it: exit codes, stderr, formats and options.

Most cases call :func:`apiscan.cli.main.main` in-process (fast); a few run the real
``python -m apiscan`` so that the process exit code and streams are checked end to end.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scan_helpers import scan_repo, write_repo

from apiscan.cli.main import main
from apiscan.report import formats
from apiscan.report.schema import validate_json

REPO = Path(__file__).resolve().parents[1]
TINYDET = REPO / "fixtures" / "tinydet"
BAD_INPUTS = REPO / "fixtures" / "bad_inputs"

#: One missing API (torch.set_num_threads) next to a consistent one (torch.zeros).
MISSING_SRC = "import torch\n\ntorch.set_num_threads(2)\ny = torch.zeros(3)\n"
#: torch.nanmean is not in the mapping table (nor a twin of it), but mindspore.ops.nanmean
#: has its name. (torch.relu was the example until it was matched through its
#: torch.nn.functional twin.)
CANDIDATE_SRC = "import torch\n\ny = torch.nanmean(torch.zeros(3))\n"
#: One API whose mapping is "different" (r2.4.0: nn.GRU → nn.GRU, a diff page).
DIFFERENT_SRC = "from torch import nn\n\nlayer = nn.GRU(4, 2)\n"
#: Only a consistent API.
CONSISTENT_SRC = "import torch\n\nx = torch.zeros(3)\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the user's ~/.cache: every run (also subprocesses) caches under tmp_path."""
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _repo(tmp_path: Path, src: str, expected: set[str]) -> Path:
    """A one-file repository; checks the statuses the exit-code tests rely on."""
    root = write_repo(tmp_path / "repo", {"m.py": src})
    statuses = {f.status for f in scan_repo(root).api_findings}
    assert statuses == expected, f"mapping data changed: {statuses}"
    return root


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apiscan", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _statuses(doc: dict[str, object]) -> dict[tuple[str, int, int, str], str]:
    findings = doc["findings"]
    assert isinstance(findings, list)
    return {
        (f["path"], f["line"], f["column"], f["api"]): f["status"]
        for f in findings
        if f["kind"] == "api"
    }


# ------------------------------------------------------------------------------- exit codes
def test_exit_0_without_fail_on_even_with_missing_apis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, MISSING_SRC, {"missing", "consistent"})
    code, out, _ = _cli(capsys, str(root))
    assert code == 0
    assert "torch.set_num_threads" in out


@pytest.mark.parametrize(
    ("src", "statuses", "fail_on", "expected"),
    [
        (MISSING_SRC, {"missing", "consistent"}, "missing", 1),
        (CONSISTENT_SRC, {"consistent"}, "missing", 0),
        (DIFFERENT_SRC, {"different"}, "missing", 0),
        (DIFFERENT_SRC, {"different"}, "different", 1),
        (MISSING_SRC, {"missing", "consistent"}, "different", 1),  # different counts missing
        (CANDIDATE_SRC, {"candidate", "consistent"}, "missing", 0),
        (CANDIDATE_SRC, {"candidate", "consistent"}, "different", 1),  # and unproven candidates
        (CONSISTENT_SRC, {"consistent"}, "different", 0),
    ],
)
def test_fail_on(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    src: str,
    statuses: set[str],
    fail_on: str,
    expected: int,
) -> None:
    root = _repo(tmp_path, src, statuses)
    code, out, _ = _cli(capsys, str(root), "--fail-on", fail_on)
    assert code == expected
    assert out, "the report is printed whatever the exit code"


def test_fail_on_missing_exit_1_in_a_real_process(tmp_path: Path) -> None:
    root = _repo(tmp_path, MISSING_SRC, {"missing", "consistent"})
    proc = _run(str(root), "--fail-on", "missing")
    assert proc.returncode == 1, proc.stderr
    assert "torch.set_num_threads" in proc.stdout
    assert proc.stderr == ""


def _usage_cases(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    root = write_repo(tmp_path / "repo", {"m.py": CONSISTENT_SRC})
    missing = str(tmp_path / "no" / "such" / "dir")
    return {
        "missing path": ([missing], missing),
        "unknown ms version": ([str(root), "--ms-version", "3.0"], "'3.0'"),
        "unknown format": ([str(root), "--format", "xml"], "'xml'"),
        "jobs 0": ([str(root), "--jobs", "0"], "--jobs"),
    }


@pytest.mark.parametrize("case", ["missing path", "unknown ms version", "unknown format", "jobs 0"])
def test_usage_error_exit_2_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    argv, mentioned = _usage_cases(tmp_path)[case]
    code, out, err = _cli(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("apiscan: error: ")
    assert mentioned in lines[0]


@pytest.mark.parametrize("case", ["missing path", "unknown ms version"])
def test_usage_error_exit_2_in_a_real_process(tmp_path: Path, case: str) -> None:
    argv, mentioned = _usage_cases(tmp_path)[case]
    proc = _run(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("apiscan: error: ") and mentioned in lines[0]


def test_known_versions_are_listed_in_the_ms_version_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, _ = _usage_cases(tmp_path)["unknown ms version"]
    _, _, err = _cli(capsys, *argv)
    for version in ("2.6", "2.4", "2.3", "2.0", "1.10"):
        assert version in err


# ---------------------------------------------------------------------------------- formats
@pytest.mark.parametrize("fmt", ["text", "json", "csv", "markdown", "sarif"])
def test_output_file_per_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    root = _repo(tmp_path, MISSING_SRC, {"missing", "consistent"})
    code, to_stdout, _ = _cli(capsys, str(root), "-f", fmt)
    assert code == 0
    target = tmp_path / f"report.{fmt}"
    code, out, err = _cli(capsys, str(root), "-f", fmt, "-o", str(target))
    assert code == 0
    assert out == ""
    assert err == ""
    written = target.read_text(encoding="utf-8")
    assert "torch.set_num_threads" in written
    assert written == to_stdout


def test_every_registered_format_is_tested() -> None:
    assert set(formats()) == {"text", "json", "csv", "markdown", "sarif", "concise"}


def test_output_file_in_a_real_process(tmp_path: Path) -> None:
    root = _repo(tmp_path, MISSING_SRC, {"missing", "consistent"})
    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    proc = _run(str(root), "-f", "json", "-o", str(target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    doc = json.loads(target.read_text(encoding="utf-8"))
    validate_json(doc)
    assert {f["api"] for f in doc["findings"]} == {"torch.set_num_threads", "torch.zeros"}


def test_unwritable_output_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, CONSISTENT_SRC, {"consistent"})
    code, out, err = _cli(capsys, str(root), "-o", str(tmp_path / "no-dir" / "r.txt"))
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and "cannot write" in err


# ---------------------------------------------------------------------------- subcommands
def test_scan_subcommand_equals_bare_path(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("text", "json"):
        code_a, bare, _ = _cli(capsys, str(TINYDET), "-f", fmt)
        code_b, sub, _ = _cli(capsys, "scan", str(TINYDET), "-f", fmt)
        assert code_a == code_b == 0
        assert bare == sub
        assert "backbone.py" in bare  # the per-file breakdown (text) or findings (json)


def test_mapping_lists_the_five_versions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "mapping")
    assert code == 0
    lines = out.splitlines()
    assert [line.split(":")[0].split()[0] for line in lines] == ["2.6", "2.4", "2.3", "2.0", "1.10"]
    assert lines[0].startswith("2.6 (default):")
    assert all("APIs in its own table" in line for line in lines)


# --------------------------------------------------------------------------------- content
@pytest.mark.parametrize("fixture", [TINYDET, BAD_INPUTS], ids=["tinydet", "bad_inputs"])
def test_json_output_validates(capsys: pytest.CaptureFixture[str], fixture: Path) -> None:
    code, out, _ = _cli(capsys, str(fixture), "-f", "json")
    assert code == 0
    doc = json.loads(out)
    validate_json(doc)
    assert doc["findings"], "a real scan must find something"


def test_ms_version_changes_mapping_and_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    docs = {}
    for version in (None, "2.4", "1.10"):
        extra = ["--ms-version", version] if version else []
        code, out, _ = _cli(capsys, str(TINYDET), "-f", "json", *extra)
        assert code == 0
        docs[version] = json.loads(out)
    assert docs[None]["mapping"]["ms_version"] == "2.6"
    default = _statuses(docs[None])
    for version in ("2.4", "1.10"):
        doc = docs[version]
        assert doc["mapping"]["ms_version"] == version
        assert doc["mapping"]["sources"][0]["version"] == version
        statuses = _statuses(doc)
        assert statuses.keys() == default.keys(), "the version changes verdicts, not uses"
        changed = [k for k in default if default[k] != statuses[k]]
        assert changed, f"--ms-version {version} changed no status"
    # 1.10 is the oldest table: nothing can be filled in from an older one.
    assert docs["1.10"]["mapping"]["sources"] == docs[None]["mapping"]["sources"][-1:]


def test_exclude_skips_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "keep.py": CONSISTENT_SRC,
            "skip_me.py": MISSING_SRC,
            "vendor/lib.py": DIFFERENT_SRC,
            "pkg/keep_too.py": DIFFERENT_SRC,
        },
    )
    code, out, _ = _cli(capsys, str(root), "-f", "json")
    assert code == 0
    assert {f["path"] for f in json.loads(out)["files"]} == {
        "keep.py",
        "skip_me.py",
        "vendor/lib.py",
        "pkg/keep_too.py",
    }
    code, out, _ = _cli(
        capsys, str(root), "-f", "json", "--exclude", "vendor", "--exclude", "skip_*.py"
    )
    assert code == 0
    doc = json.loads(out)
    assert {f["path"] for f in doc["files"]} == {"keep.py", "pkg/keep_too.py"}
    assert {f["path"] for f in doc["findings"]} == {"keep.py", "pkg/keep_too.py"}


def test_target_platform_counts_a_target_it_lacks_as_a_gap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """mindspore.mint.clone documents Ascend only (r2.6.0 maps torch.clone to it, and no
    older table maps torch.clone)."""
    root = write_repo(tmp_path / "repo", {"m.py": "import torch\n\ny = torch.clone(x)\n"})
    docs = {}
    for target in (None, "Ascend", "CPU"):
        extra = ["--target", target] if target else []
        code, out, _ = _cli(capsys, str(root), "-f", "json", "--no-cache", *extra)
        assert code == 0
        docs[target] = json.loads(out)
        validate_json(docs[target])
    (clone,) = [f for f in docs[None]["findings"] if f["kind"] == "api"]
    assert (clone["status"], clone["backends"], clone["backend_gap"]) == (
        "consistent",
        ["Ascend"],
        False,
    )
    (ascend,) = [f for f in docs["Ascend"]["findings"] if f["kind"] == "api"]
    assert (ascend["status"], ascend["backend_gap"]) == ("consistent", False)
    (cpu,) = [f for f in docs["CPU"]["findings"] if f["kind"] == "api"]
    assert (cpu["status"], cpu["backend_gap"]) == ("different", True)
    with pytest.raises(SystemExit) as exit_info:
        main([str(root), "--target", "TPU"])
    assert exit_info.value.code == 2
    assert "--target" in capsys.readouterr().err


def test_stats_prints_the_stage_timings_and_counters_after_an_unchanged_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": MISSING_SRC, "n.py": CONSISTENT_SRC})
    plain = _cli(capsys, str(root), "-f", "json", "--no-cache")
    code, out, err = _cli(capsys, str(root), "-f", "json", "--no-cache", "--stats")
    assert (code, out) == plain[:2]  # the report is the same
    lines = err.splitlines()
    assert lines[0] == "apiscan: stats"
    values = dict(line.split() for line in lines[1:])
    assert values["files_analysed"] == "2" and values["files_cached"] == "0"
    for stage in ("discover_s", "load_table_s", "analyse_s", "render_s", "total_s"):
        assert float(values[stage]) >= 0
    # a warm re-scan says where its report came from
    _cli(capsys, str(root), "-f", "json")
    code, out, err = _cli(capsys, str(root), "-f", "json", "--stats")
    assert out == plain[1]
    assert "report_cached" in err
