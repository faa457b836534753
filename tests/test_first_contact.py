"""First contact: what a new user's mistakes get. Each is exit 2 and one line on stderr, and
every error line of every subcommand starts the same way: ``apiscan: error:`` or
``apiscan SUBCOMMAND: error:`` (argparse's own form, so its usage errors agree)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from apiscan.cli.main import main
from apiscan.lsp import import_error_message

REPO = Path(__file__).resolve().parents[1]
ERROR_LINE = re.compile(r"^apiscan( [a-z]+)?: error: \S")


def _one_error_line(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert ERROR_LINE.match(lines[0]), lines[0]
    return lines[0]


def _no_python(tmp_path: Path) -> Path:
    empty = tmp_path / "docs-only"
    empty.mkdir()
    (empty / "README.md").write_text("# nothing to migrate here\n")
    (empty / "train.txt").write_text("import torch\n")
    return empty


def test_a_directory_without_python_files_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = _no_python(tmp_path)
    line = _one_error_line(capsys, str(empty))
    assert line == f"apiscan: error: no Python files found in {empty}"
    line = _one_error_line(capsys, "scan", str(empty), "-f", "json")
    assert line == f"apiscan: error: no Python files found in {empty}"


def test_review_of_a_directory_without_python_files_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = _no_python(tmp_path)
    line = _one_error_line(capsys, "review", str(empty))
    assert line == f"apiscan review: error: no Python files found in {empty}"


def test_a_directory_whose_python_files_are_all_excluded_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "a_pb2.py").write_text("import torch\n")
    line = _one_error_line(capsys, str(tmp_path / "gen"), "--exclude", "*_pb2.py")
    assert line == (
        f"apiscan: error: every Python file in {tmp_path / 'gen'} is excluded (exclude patterns"
        " or ignore files): nothing to scan"
    )


def test_files_named_explicitly_but_all_excluded_are_no_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pre-commit hook passes the changed files; the configuration may exclude them all."""
    a, b = tmp_path / "a_pb2.py", tmp_path / "b_pb2.py"
    for f in (a, b):
        f.write_text("import torch\n")
    assert main([str(a), str(b), "--exclude", "*_pb2.py", "-f", "concise"]) == 0
    assert capsys.readouterr().out == "No findings in 0 files.\n"


def test_a_mistyped_subcommand_gets_did_you_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    line = _one_error_line(capsys, "reviw", ".")
    assert line == "apiscan: error: unknown command 'reviw' (did you mean review?)"
    assert "did you mean verify?" in _one_error_line(capsys, "verfy", "torch.sum")
    # a word like no command is still a path that does not exist
    line = _one_error_line(capsys, "models")
    assert line == "apiscan: error: path does not exist: models"
    # and a directory of that name is scanned
    (tmp_path / "reviw").mkdir()
    (tmp_path / "reviw" / "m.py").write_text("import torch\n")
    assert main(["reviw", "-f", "concise", "--no-progress"]) == 0


def test_verify_of_an_api_without_cases_names_the_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = _one_error_line(capsys, "verify", "nonsense.api")
    assert line.startswith("apiscan verify: error: no verification case for: nonsense.api")
    assert "apiscan verify --list" in line
    assert "apiscan verify --list" in _one_error_line(capsys, "verify")


def test_verify_list(capsys: pytest.CaptureFixture[str]) -> None:
    from apiscan.verify.catalogue import CASES

    assert main(["verify", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    apis = sorted({c.api for c in CASES})
    assert [line.split("  ")[0] for line in lines[:-1]] == apis
    assert lines[-1] == f"{len(apis)} APIs, {len(CASES)} cases"
    assert "torch.sum" in apis


@pytest.mark.parametrize(
    "args",
    [
        ["does/not/exist"],
        ["--jobs", "0", "."],
        ["-f", "yaml", "."],
        ["review", "does/not/exist"],
        ["config", "does/not/exist"],
        ["fix", "does/not/exist"],
        ["explain", "DS999"],
        ["check", "does/not/exist.py"],
    ],
)
def test_every_error_line_starts_the_same_way(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO / "fixtures" / "tinydet")
    _one_error_line(capsys, *args)


def test_argparse_errors_start_the_same_way() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "apiscan", "verify", "--dtype", "int3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert ERROR_LINE.match(done.stderr.splitlines()[-1]), done.stderr


def test_the_language_server_names_what_is_really_missing() -> None:
    pygls = ModuleNotFoundError("No module named 'pygls'", name="pygls")
    assert "pip install 'apiscan[lsp]'" in import_error_message(pygls)
    sub = ModuleNotFoundError("No module named 'pygls.lsp'", name="pygls.lsp")
    assert "needs pygls" in import_error_message(sub)
    ours = ModuleNotFoundError("No module named 'apiscan.program'", name="apiscan.program")
    message = import_error_message(ours)
    assert "apiscan.program" in message and "pygls" not in message
    other = ModuleNotFoundError("No module named 'lsprotocol'", name="lsprotocol")
    message = import_error_message(other)
    assert "the module lsprotocol is missing" in message and "pygls" not in message
    broken = ImportError("cannot import name 'LanguageServer' from 'pygls.lsp.server'")
    message = import_error_message(broken)
    assert "cannot import name 'LanguageServer'" in message and "apiscan[lsp]" not in message


def test_the_language_server_without_pygls(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m == "pygls" or m.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "apiscan.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls", None)
    line = _one_error_line(capsys, "lsp")
    assert line.startswith("apiscan lsp: error: the language server needs pygls")
