"""Environment faults met by a hostile workspace: each is one line (exit 2 where the run
cannot go on), and the rest of the report is still there."""

from __future__ import annotations

import errno
import json
import os
import pathlib
import subprocess
import sys
from pathlib import Path

import pytest

from apiscan import ignorefiles
from apiscan.cli.main import main
from apiscan.discovery import discover, safe_name

REPO = Path(__file__).resolve().parents[2]
SRC = "import torch\n\nx = torch.zeros(3)\n"


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "a.py").write_text(SRC)
    return root


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


@pytest.mark.parametrize("command", ["scan", "check", "review"])
def test_a_cache_path_that_is_a_file_is_one_warning(
    tmp_path: Path,
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = _project(tmp_path / "p")
    cache = tmp_path / "cache"
    cache.write_text("not a directory")
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(cache))
    target = [str(root / "a.py")] if command == "check" else [str(root)]
    assert main([command, *target]) == 0
    out, err = capsys.readouterr()
    assert ("Feasibility review" if command == "review" else "torch.zeros") in out
    assert _warnings(err) == [
        f"apiscan: warning: cannot create the cache directory {cache}: File exists;"
        " scanning without a cache"
    ]


def test_an_unreadable_cache_directory_is_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cache directory of mode 000 seen by a non-root user (tests run as root, where the
    mode is no obstacle): every look inside it is refused, exists() included."""
    root = _project(tmp_path / "p")
    cache = tmp_path / "cache"
    cache.mkdir()
    refused = str(cache) + os.sep
    real_stat, real_open, real_scandir = os.stat, pathlib.Path.open, os.scandir

    def deny(path: object) -> None:
        if os.fspath(path).startswith(refused):  # type: ignore[call-overload]
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))  # type: ignore[call-overload]

    def stat(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        deny(path)
        return real_stat(path, *args, **kwargs)

    def open_(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        deny(self)
        return real_open(self, *args, **kwargs)

    def scandir(path="."):  # type: ignore[no-untyped-def]
        deny(str(path) + os.sep)
        return real_scandir(path)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(pathlib.Path, "open", open_)
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(cache))
    assert main(["scan", str(root), "-f", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summary"]
    lines = _warnings(err)
    assert len(lines) <= 2 and all(line.startswith("apiscan: warning: ") for line in lines)
    assert "Permission denied" in lines[0]


@pytest.mark.parametrize("command", [["scan"], ["check"], ["review"]])
def test_a_closed_stdout_exits_2_with_one_line(tmp_path: Path, command: list[str]) -> None:
    root = _project(tmp_path / "p")
    target = str(root / "a.py") if command == ["check"] else str(root)
    env = {**os.environ, "PYTHONPATH": str(REPO), "APISCAN_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-m", "apiscan", *command, target],
        stdout=None,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: os.close(1),  # started with standard output closed (>&-)
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"apiscan {command[0]}: error: cannot write the report to standard output:"
        " standard output is closed"
    ]


def test_a_pathological_ignore_pattern_is_skipped_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path / "p")
    (root / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*b\n*.tmp.py\n")
    (root / ("a" * 60 + ".py")).write_text(SRC)
    (root / "x.tmp.py").write_text(SRC)
    _, files, _ = discover(root)  # would take minutes with the pattern applied
    assert [f.relpath for f in files] == ["a.py", "a" * 60 + ".py"]
    err = capsys.readouterr().err
    assert "has more than 3 '*' wildcards" in err and err.count("\n") == 1


def test_ignore_matching_has_a_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path / "p")
    (root / ".gitignore").write_text("*.tmp.py\n")
    (root / "x.tmp.py").write_text(SRC)
    monkeypatch.setattr(ignorefiles, "MATCH_BUDGET_S", -1.0)  # spent at the first match
    _, files, _ = discover(root)
    assert "x.tmp.py" in [f.relpath for f in files]  # the rules stopped applying
    assert "the rest of the walk does not apply them" in capsys.readouterr().err


def test_two_file_names_never_print_the_same(tmp_path: Path) -> None:
    raw = os.fsdecode(b"a\xff.py")
    spelled = "a\\xff.py"  # a backslash, an x, f, f
    assert safe_name(raw) != safe_name(spelled)
    (tmp_path / raw).write_text(SRC)
    (tmp_path / spelled).write_text(SRC)
    _, files, _ = discover(tmp_path)
    assert len({f.relpath for f in files}) == 2


@pytest.mark.parametrize(
    "command",
    [["scan", "."], ["check", "model.py"], ["review", "."], ["fix", "."], ["scan", "-j", "2", "."]],
)
def test_cli_commands_import_nothing_from_the_workspace(tmp_path: Path, command: list[str]) -> None:
    """Run with the working directory inside a project of stdlib-named modules (as
    ``python -m apiscan``, which puts the working directory first on sys.path)."""
    from tests.lsp.test_lsp_hostile import hostile_project

    root, markers = tmp_path / "evil", tmp_path / "markers"
    root.mkdir()
    hostile_project(root, markers)
    for i in range(40):  # enough bytes for a pool of workers
        (root / f"m{i}.py").write_text("import torch\n" + "y = torch.ones(2)\n" * 300)
    env = {**os.environ, "PYTHONPATH": str(REPO), "APISCAN_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-m", "apiscan", *command],
        cwd=root,
        capture_output=True,
        env=env,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert os.listdir(markers) == []
