"""Every path and file-system object is accounted for (issue 13, item 3): nothing crashes
the walk, nothing vanishes from the report, nothing blocks the read."""

from __future__ import annotations

import json
import os
import pathlib
import socket
import threading
from pathlib import Path

import pytest

import apiscan.discovery
import apiscan.pipeline
from apiscan.cache import task_key
from apiscan.discovery import discover, safe_name
from apiscan.extract import FileTask
from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan
from apiscan.report import get_reporter
from apiscan.source import NotRegularFile, read_source_file

SRC = "import torch\n\ny = torch.relu(torch.ones(2))\n"


def render(result: ScanResult, fmt: str) -> str:
    return get_reporter(fmt).render(result)


def _scan(root: Path) -> ScanResult:
    return scan(ScanOptions(str(root), cache_dir=None, jobs=1))


def _errors(result: ScanResult) -> dict[str, tuple[str, str]]:
    return {e.path: (e.code, e.message) for e in result.error_findings}


def test_unreadable_directory_is_e005_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """chmod means nothing to root: the directory's probes and listing are made to fail."""
    (tmp_path / "ok.py").write_text(SRC)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden.py").write_text(SRC)
    real_exists, real_scandir = pathlib.Path.exists, os.scandir

    def exists(self: pathlib.Path) -> bool:
        if self.parent == locked:
            raise PermissionError(13, "Permission denied", str(self))  # the pyvenv.cfg probe
        return real_exists(self)

    def scandir(path: object) -> object:
        if Path(str(path)) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(pathlib.Path, "exists", exists)
    monkeypatch.setattr(apiscan.discovery.os, "scandir", scandir)
    result = _scan(tmp_path)
    assert _errors(result) == {"locked": ("E005", "cannot read directory: Permission denied")}
    assert [f.path for f in result.files] == ["ok.py"]


def test_path_longer_than_path_max_is_e005(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(SRC)
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(25):  # 25 x 200 characters: beyond Linux's PATH_MAX of 4096
            os.mkdir("d" * 200, dir_fd=fd)
            child = os.open("d" * 200, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        leaf = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(leaf, SRC.encode())
        os.close(leaf)
    finally:
        os.close(fd)
    result = _scan(tmp_path)
    errors = _errors(result)
    assert len(errors) == 1
    [(code, message)] = errors.values()
    assert code in {"E005", "E001"} and "too long" in message.lower()
    assert "ok.py" in [f.path for f in result.files]


def test_non_utf8_and_newline_file_names_are_reported_escaped(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text(SRC)
    (tmp_path / "two\nlines.py").write_text(SRC)
    result = _scan(tmp_path)
    assert sorted(f.path for f in result.files) == ["caf\\xe9.py", "two\\nlines.py"]
    assert {f.path for f in result.api_findings} == {"caf\\xe9.py", "two\\nlines.py"}
    for fmt in ("text", "json", "csv", "markdown"):
        out = render(result, fmt)
        out.encode("utf-8")  # no lone surrogate anywhere
    assert "two\nlines" not in render(result, "text")
    json.loads(render(result, "json"))
    # the cache key of a raw (unescaped) name does not fail to encode either
    task_key(FileTask(os.fsdecode(b"caf\xe9.py"), (), False, b""), "ctx")


def test_safe_name() -> None:
    assert safe_name("plain/ok.py") == "plain/ok.py"
    assert safe_name(os.fsdecode(b"a\xff.py")) == "a\\xff.py"
    assert safe_name("a\tb\x1b.py") == "a\\tb\\x1b.py"
    assert safe_name("é.py") == "é.py"


def test_special_files_named_py_are_error_findings(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(SRC)
    os.mkfifo(tmp_path / "fifo.py")
    os.symlink("/dev/null", tmp_path / "dev.py")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "sock.py"))
        result = _scan(tmp_path)
    finally:
        sock.close()
    errors = _errors(result)
    assert errors == {
        "dev.py": (
            "E006",
            "symlink to a file outside the scanned directory, not followed"
            " (--follow-symlinks follows it)",
        ),
        "fifo.py": ("E001", "not a regular file (a FIFO), skipped"),
        "sock.py": ("E001", "not a regular file (a socket), skipped"),
    }
    assert [f.path for f in result.files] == ["ok.py"]


def test_read_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.py")
    outcome: list[object] = []

    def read() -> None:
        try:
            outcome.append(read_source_file(str(tmp_path / "x.py")))
        except OSError as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert outcome and isinstance(outcome[0], NotRegularFile)


def test_file_swapped_for_a_fifo_after_discovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.py").write_text(SRC)
    (tmp_path / "b.py").write_text(SRC)
    real = discover

    def discover_then_swap(*args: object, **kw: object) -> object:
        found = real(*args, **kw)  # type: ignore[arg-type]
        (tmp_path / "a.py").unlink()
        os.mkfifo(tmp_path / "a.py")
        return found

    monkeypatch.setattr(apiscan.pipeline, "discover", discover_then_swap)
    result = _scan(tmp_path)
    [(code, message)] = [v for k, v in _errors(result).items() if k == "a.py"]
    assert code == "E001" and "not a regular file" in message
    assert {f.path for f in result.api_findings} == {"b.py"}
