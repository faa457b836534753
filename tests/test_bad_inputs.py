"""Files the scanner must survive: each becomes one clear error finding, and nothing else is lost.

``fixtures/bad_inputs`` holds the cases that can be stored in git (its README is the contract
checked here); symlinks, huge, deep, unreadable and crashing files are generated in tmp_path.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from scan_helpers import scan_repo, write_repo

import apiscan.pipeline
import apiscan.source
from apiscan.errors import ERROR_CODES
from apiscan.extract import FileTask
from apiscan.extract.records import FileAnalysis
from apiscan.model import ApiFinding, ErrorFinding, ScanResult
from apiscan.report import get_reporter
from apiscan.report.markdown import cell as markdown_cell
from apiscan.report.schema import validate_json

BAD_INPUTS = Path(__file__).resolve().parents[1] / "fixtures" / "bad_inputs"

#: (path, line, code, words of the message) for every file the README calls an error record.
README_ERRORS: set[tuple[str, int, str, str]] = {
    ("py2_print.py", 4, "E003", "Python 2"),
    ("syntax_error.py", 5, "E003", "syntax error"),
    ("latin1.py", 4, "E002", "offset 106"),
    ("nullbytes.py", 4, "E004", "null bytes"),
    ("tabs_mixed.py", 7, "E003", "tabs and spaces"),
}

#: (path, line or None when the README gives none, api) the README promises.
README_APIS: set[tuple[str, int | None, str]] = {
    ("cookie_latin1.py", None, "torch.zeros"),
    ("cookie_latin1.py", None, "torch.Tensor.sum"),
    ("bom_utf8.py", None, "torch.randn"),
    ("bom_utf8.py", 5, "torch.nn.functional.relu"),
    ("crlf.py", 6, "torch.Tensor.mul"),
    ("crlf.py", 9, "torch.nn.Linear"),
    ("ok_module.py", None, "torch.nn.Module"),
    ("ok_module.py", None, "torch.nn.Linear"),
    ("ok_module.py", None, "torch.relu"),
    ("ok_module.py", None, "torch.Tensor"),
    ("nested/deep.py", 6, "torch.nn.functional.cross_entropy"),
}

NORMAL_FILES = (
    "bom_utf8.py",
    "cookie_latin1.py",
    "crlf.py",
    "empty.py",
    "nested/deep.py",
    "ok_module.py",
)

#: The well-behaved neighbour of every generated bad file.
OK_SRC = (
    "import torch\nfrom torch import nn\n\nlayer = nn.Linear(4, 2)\n"
    "y = torch.relu(torch.zeros(3))\n"
)


def _api_key(f: ApiFinding) -> tuple[str, int, str]:
    return (f.path, f.span.line, f.api)


# ------------------------------------------------------------------- the stored fixtures
@pytest.fixture(scope="module")
def bad_result() -> ScanResult:
    return scan_repo(BAD_INPUTS)


def test_readme_error_records(bad_result: ScanResult) -> None:
    got = {(e.path, e.span.line, e.code) for e in bad_result.error_findings}
    assert got == {(p, line, code) for p, line, code, _ in README_ERRORS}
    for path, _, _, words in README_ERRORS:
        (err,) = [e for e in bad_result.error_findings if e.path == path]
        assert words in err.message, err.message


def test_readme_api_findings(bad_result: ScanResult) -> None:
    found = {_api_key(f) for f in bad_result.api_findings}
    for path, line, api in README_APIS:
        if line is None:
            assert any(p == path and a == api for p, _, a in found), (path, api)
        else:
            assert (path, line, api) in found, (path, line, api)


def test_discovery_of_the_fixture(bad_result: ScanResult) -> None:
    paths = {s.path for s in bad_result.files}
    assert "notes.txt" not in paths
    assert paths == {*NORMAL_FILES, *(p for p, _, _, _ in README_ERRORS)}
    (empty,) = [s for s in bad_result.files if s.path == "empty.py"]
    assert (empty.lines, empty.api_uses, empty.errors) == (0, 0, 0)
    assert not [f for f in bad_result.findings if f.path == "notes.txt"]


def test_bad_files_lose_nothing_of_the_normal_ones(bad_result: ScanResult, tmp_path: Path) -> None:
    """The normal files alone give exactly the findings they give next to the bad ones."""
    for rel in NORMAL_FILES:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(BAD_INPUTS / rel, tmp_path / rel)
    alone = scan_repo(tmp_path)
    assert not alone.error_findings
    assert alone.api_findings == bad_result.api_findings
    assert len(alone.api_findings) >= len(README_APIS)


@pytest.mark.parametrize(
    ("name", "convert"),
    [
        ("bom_utf8.py", lambda b: b.removeprefix(b"\xef\xbb\xbf")),
        ("crlf.py", lambda b: b.replace(b"\r\n", b"\n")),
    ],
)
def test_bom_and_crlf_do_not_shift_positions(
    tmp_path: Path, name: str, convert: Callable[[bytes], bytes]
) -> None:
    data = (BAD_INPUTS / name).read_bytes()
    plain = convert(data)
    assert plain != data, "the fixture lost its BOM or CRLF line endings"
    (tmp_path / "orig").mkdir()
    (tmp_path / "plain").mkdir()
    (tmp_path / "orig" / name).write_bytes(data)
    (tmp_path / "plain" / name).write_bytes(plain)
    orig = scan_repo(tmp_path / "orig").api_findings
    assert orig
    assert orig == scan_repo(tmp_path / "plain").api_findings


# --------------------------------------------------------------------- generated cases
@dataclass(frozen=True)
class Expected:
    path: str
    code: str | None  # None: any error code will do
    words: str  # must appear in the message


@dataclass(frozen=True)
class Case:
    """Writes one kind of bad input next to ok.py; returns the error findings it must cause."""

    build: Callable[[Path, pytest.MonkeyPatch], list[Expected]]
    max_file_size: int = 1_000_000


def _symlink_loop(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "a.py").symlink_to("b.py")
    (root / "b.py").symlink_to("a.py")
    return [Expected("a.py", "E006", "symlink loop"), Expected("b.py", "E006", "symlink loop")]


def _dir_symlink_to_dot(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "again").symlink_to(".", target_is_directory=True)
    return [Expected("again", "E006", "symlink loop")]


def _broken_symlink(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "dangling.py").symlink_to("gone.py")
    return [Expected("dangling.py", "E006", "broken symlink")]


def _too_large(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "big.py").write_text("import torch\n" + "x = torch.zeros(1)\n" * 15_000)
    return [Expected("big.py", "E007", "--max-file-size")]


def _long_chain(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "chain.py").write_text("x = " + " + ".join(["a"] * 20_000) + "\n")
    return [Expected("chain.py", "E008", "too deeply nested")]


def _nested_calls(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "nest.py").write_text("y = " + "f(" * 300 + "1" + ")" * 300 + "\n")
    return [Expected("nest.py", None, "nested")]


def _unreadable(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[Expected]:
    """chmod means nothing to root, so the read itself is made to fail for this one path."""
    locked = root / "locked.py"
    locked.write_text(OK_SRC)
    real = apiscan.source.read_source_file

    def read_source_file(path: str) -> bytes:
        if path.endswith("locked.py"):
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(apiscan.source, "read_source_file", read_source_file)
    return [Expected("locked.py", "E001", "Permission denied")]


_REAL_ANALYSE_ONE = apiscan.pipeline._analyse_one


def _dying_analyse_one(task: FileTask, local_roots: frozenset[str], max_size: int) -> FileAnalysis:
    """Kills its worker process on crash.py, as a native parser segfault would.

    Module-level so the pool can pickle it; the pool forks, so the patch reaches the workers.
    """
    if task.relpath == "crash.py":
        os._exit(1)
    return _REAL_ANALYSE_ONE(task, local_roots, max_size)


def _worker_dies(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[Expected]:
    (root / "crash.py").write_text(OK_SRC)
    monkeypatch.setattr(apiscan.pipeline, "_analyse_one", _dying_analyse_one)
    return [Expected("crash.py", "E009", "crashed")]


def _undecodable(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "undecodable.py").write_bytes(b"import torch\nx = torch.ones(2)\ns = '\x81'\n")
    return [Expected("undecodable.py", "E002", "cannot decode byte 0x81")]


def _bad_cookie(root: Path, _: pytest.MonkeyPatch) -> list[Expected]:
    (root / "cookie.py").write_text("# -*- coding: nope -*-\nimport torch\nx = torch.ones(2)\n")
    return [Expected("cookie.py", "E002", "nope")]


CASES: dict[str, Case] = {
    "symlink loop": Case(_symlink_loop),
    "dir symlink to .": Case(_dir_symlink_to_dot),
    "broken symlink": Case(_broken_symlink),
    "too large": Case(_too_large, max_file_size=100_000),
    "20k-term chain": Case(_long_chain),
    "300 nested calls": Case(_nested_calls),
    "unreadable": Case(_unreadable),
    "worker dies": Case(_worker_dies),
    "undecodable": Case(_undecodable),
    "bad coding cookie": Case(_bad_cookie),
}


@pytest.fixture(scope="module")
def ok_alone(tmp_path_factory: pytest.TempPathFactory) -> tuple[ApiFinding, ...]:
    root = write_repo(tmp_path_factory.mktemp("ok"), {"ok.py": OK_SRC})
    found = scan_repo(root).api_findings
    assert len(found) == 3  # nn.Linear, torch.relu, torch.zeros
    return found


def _check_errors(result: ScanResult, expected: list[Expected]) -> None:
    errors = {e.path: e for e in result.error_findings}
    assert sorted(errors) == sorted(x.path for x in expected), result.error_findings
    for x in expected:
        err = errors[x.path]
        if x.code is not None:
            assert err.code == x.code, err
        assert err.code in ERROR_CODES
        assert x.words in err.message, err.message
        assert "\n" not in err.message and "Traceback" not in err.message


def _check_reports(result: ScanResult, errors: tuple[ErrorFinding, ...]) -> None:
    """Every error reaches every format, next to the API findings."""
    apis = result.api_findings
    doc = json.loads(get_reporter("json").render(result))
    validate_json(doc)
    got = {
        (f["path"], f["line"], f["code"], f["message"])
        for f in doc["findings"]
        if f["kind"] == "error"
    }
    assert got == {(e.path, e.span.line, e.code, e.message) for e in errors}
    assert sum(f["kind"] == "api" for f in doc["findings"]) == len(apis)

    rows = list(csv.DictReader(io.StringIO(get_reporter("csv").render(result))))
    in_csv = {(r["path"], r["rule"], r["message"]) for r in rows if r["kind"] == "error"}
    assert in_csv == {(e.path, e.code, e.message) for e in errors}
    assert sum(r["kind"] == "api" for r in rows) == len(apis)

    for fmt in ("text", "markdown"):
        lines = get_reporter(fmt).render(result).splitlines()
        shown = markdown_cell if fmt == "markdown" else str  # Markdown escapes [ ] < > * ...
        for e in errors:
            head, path = shown(" ".join(e.message.split()[:3])), shown(e.path)
            assert any(path in ln and e.code in ln and head in ln for ln in lines), (fmt, e)


@pytest.mark.parametrize("name", list(CASES))
def test_generated_bad_input(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ok_alone: tuple[ApiFinding, ...],
    name: str,
) -> None:
    case = CASES[name]
    root = write_repo(tmp_path / "repo", {"ok.py": OK_SRC})
    expected = case.build(root, monkeypatch)
    result = scan_repo(root, max_file_size=case.max_file_size)
    _check_errors(result, expected)
    assert result.api_findings == ok_alone, "the good neighbour lost findings"
    _check_reports(result, result.error_findings)


def test_all_bad_inputs_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ok_alone: tuple[ApiFinding, ...]
) -> None:
    root = write_repo(tmp_path / "repo", {"ok.py": OK_SRC})
    expected = [x for case in CASES.values() for x in case.build(root, monkeypatch)]
    result = scan_repo(root, max_file_size=100_000)
    _check_errors(result, expected)
    assert result.api_findings == ok_alone
    assert "again/ok.py" not in {s.path for s in result.files}, "the loop was followed"
    _check_reports(result, result.error_findings)


def test_worker_death_spares_the_other_files_in_a_real_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several workers and files, only crash.py is lost, every other file is analysed."""
    files = {f"m{i:02}.py": OK_SRC for i in range(12)}
    root = write_repo(tmp_path / "repo", files)
    expected = _worker_dies(root, monkeypatch)
    monkeypatch.setattr(apiscan.pipeline, "POOL_MIN_BYTES", 0)  # really use 2 workers
    result = apiscan.pipeline.scan(apiscan.pipeline.ScanOptions(str(root), jobs=2, cache_dir=None))
    _check_errors(result, expected)
    by_file: dict[str, int] = {}
    for f in result.api_findings:
        by_file[f.path] = by_file.get(f.path, 0) + 1
    assert by_file == dict.fromkeys(files, 3)


@pytest.mark.parametrize(
    "separator",
    [
        "",
        "\x0c\n",
    ],
    ids=["plain", "form feed"],
)
def test_python2_hint_survives_page_breaks(tmp_path: Path, separator: str) -> None:
    write_repo(tmp_path, {"old.py": f'"""Old module."""\n{separator}import os\n\nprint "hello"\n'})
    (err,) = scan_repo(tmp_path).error_findings
    assert err.code == "E003"
    assert err.span.line == 4 + (1 if separator else 0)
    assert "looks like Python 2 code" in err.message


def test_empty_modules_are_analysed_not_errors(tmp_path: Path) -> None:
    """An empty module was analysed; it just holds nothing (E010 is retired)."""
    files = {"pkg/__init__.py": "", "pkg/placeholder.py": "\n\n", "empty.py": "", "ok.py": OK_SRC}
    write_repo(tmp_path, files)
    result = scan_repo(tmp_path)
    assert result.error_findings == ()
    assert [s.path for s in result.files] == sorted(files)
    assert {f.path for f in result.api_findings} == {"ok.py"}
