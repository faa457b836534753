"""Clean process lifetime (issue 13, item 5): signals give 130/143 with one line, workers
die with their parent, reports are complete or absent, a full stdout is exit 2."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import apiscan
import apiscan.lifetime
from apiscan.cli.main import main

ROOT = str(Path(apiscan.__file__).resolve().parent.parent)
SRC = "import torch\n\ny = torch.relu(torch.ones(2))\n"
#: One file of many torch calls: slow enough for LibCST that a signal lands mid-scan.
BIG = "import torch\n\n" + "".join(
    f"def f{i}(x):\n    y = torch.relu(x).sum(dim=1)\n    return torch.cat([y, x.view(-1)])\n\n"
    for i in range(400)
)


@pytest.fixture(scope="module")
def big_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    for i in range(200):
        (root / f"m{i:03d}.py").write_text(BIG)
    return root


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Child processes inherit it: no test touches the user's cache."""
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": ROOT}


def _children(pid: int) -> set[int]:
    out = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        out |= {int(c) for c in text.split()}
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for_children(proc: subprocess.Popen[bytes], n: int) -> set[int]:
    for _ in range(600):
        if proc.poll() is not None:
            pytest.fail(f"finished before its workers were seen: {proc.communicate()}")
        kids = _children(proc.pid)
        if len(kids) >= n:
            return kids
        time.sleep(0.05)
    pytest.fail("no worker processes appeared")


def _gone(pids: set[int]) -> bool:
    for _ in range(200):  # a bounded wait for the kernel to reap, not a speed assertion
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


needs_proc = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@needs_proc
@pytest.mark.parametrize(
    ("sig", "code", "line"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
@pytest.mark.parametrize("command", ["scan", "review"])
def test_signal_exits_with_one_line_and_no_workers(
    big_repo: Path, sig: int, code: int, line: str, command: str
) -> None:
    argv = [sys.executable, "-m", "apiscan", command, str(big_repo)]
    if command == "scan":
        argv += ["--no-cache", "-j", "2", "--no-progress"]
    proc = subprocess.Popen(
        argv,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # SIGINT must not be inherited as ignored (as in a background job of a shell)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    workers = _wait_for_children(proc, 1)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=600)  # detects a hang; no speed is asserted
    assert proc.returncode == code, err
    assert err.decode().strip().splitlines() == [f"apiscan {command}: {line}"]
    assert out == b""  # no partial report
    assert _gone(workers), "pool workers outlived their parent"


@needs_proc
def test_workers_die_when_the_parent_is_killed(big_repo: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "apiscan", str(big_repo), "--no-cache", "-j", "2"],
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers = _wait_for_children(proc, 2)
    proc.kill()
    proc.wait()
    assert _gone(workers), "pool workers outlived a SIGKILLed parent"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [[], ["review"], ["rules"]])
def test_full_stdout_is_exit_2_with_one_line(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "a.py").write_text(SRC)
    argv = [sys.executable, "-m", "apiscan", *command]
    if command != ["rules"]:
        argv.append(str(tmp_path))
    with open("/dev/full", "w") as full:
        proc = subprocess.run(argv, env=_env(), stdout=full, stderr=subprocess.PIPE, timeout=300)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "No space left on device" in err, err
    assert "Traceback" not in err


def test_closed_stdout_pipe_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SRC)
    proc = subprocess.Popen(
        [sys.executable, "-m", "apiscan", str(tmp_path), "-f", "json"],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before anything is written
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, err
    assert len(err.decode().strip().splitlines()) == 1 and b"Traceback" not in err


def test_failed_output_write_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.py").write_text(SRC)
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(apiscan.lifetime.os, "fsync", full)
    report = out_dir / "report.json"
    assert main([str(tmp_path), "-f", "json", "-o", str(report), "--no-cache"]) == 2
    assert list(out_dir.iterdir()) == []  # neither the report nor a temporary file
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"apiscan: error: cannot write {report}: No space left on device"
    ]
    # an existing report stays whole when the new one cannot be written
    report.write_text("previous\n")
    assert main([str(tmp_path), "-f", "json", "-o", str(report), "--no-cache"]) == 2
    assert report.read_text() == "previous\n"
    assert [p.name for p in out_dir.iterdir()] == ["report.json"]


def test_output_is_written_whole(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SRC)
    report = tmp_path / "r.md"
    assert main([str(tmp_path / "a.py"), "-f", "markdown", "-o", str(report), "--no-cache"]) == 0
    assert "torch.relu" in report.read_text()
    assert oct(report.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def test_output_to_a_fifo_or_device_is_written_into_it(tmp_path: Path) -> None:
    """``-o /dev/null`` once renamed a regular file over the device: output to anything that
    is not a regular file is written into it, never replaced."""
    (tmp_path / "a.py").write_text(SRC)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        assert main([str(tmp_path / "a.py"), "-f", "json", "-o", str(fifo), "--no-cache"]) == 0
    finally:
        reader.join(timeout=60)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert b"torch.relu" in received[0]


def test_output_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SRC)
    (tmp_path / "reports").mkdir()
    real = tmp_path / "reports" / "r.json"
    real.write_text("old\n")
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    assert main([str(tmp_path / "a.py"), "-f", "json", "-o", str(link), "--no-cache"]) == 0
    assert link.is_symlink() and "torch.relu" in real.read_text()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_review_of_a_file_the_scan_reports_as_e008(tmp_path: Path) -> None:
    """The review re-parsed every file unguarded and died of MemoryError on it."""
    (tmp_path / "chain.py").write_text("import torch\nx = " + " + ".join(["a"] * 20_000) + "\n")
    (tmp_path / "ok.py").write_text(SRC)
    sys.setrecursionlimit(50_000)  # what an imported library may do to the process
    try:
        from apiscan.review.build import build_review

        review = build_review(str(tmp_path))
    finally:
        sys.setrecursionlimit(1000)
    assert review.root


def test_the_pool_teardown_error_of_an_interrupted_scan_is_not_printed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CPython 3.11's ProcessPoolExecutor thread may raise InvalidStateError on a future the
    interrupted main thread cancelled (seen about once in ten SIGINT/SIGTERM runs): silent.
    Any other thread error still reaches stderr."""
    import threading
    from concurrent.futures import InvalidStateError

    monkeypatch.setattr(threading, "excepthook", apiscan.lifetime._quiet_pool_teardown)

    def boom(exc: BaseException) -> None:
        raise exc

    for exc in (InvalidStateError("CANCELLED: <Future>"), ValueError("real bug")):
        t = threading.Thread(target=boom, args=(exc,))
        t.start()
        t.join()
    err = capsys.readouterr().err
    assert "InvalidStateError" not in err
    assert "ValueError: real bug" in err
