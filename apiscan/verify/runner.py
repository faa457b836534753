"""Runs verification cases in a child process, with a result cache.

Isolation is the point: in PyNative mode a MindSpore failure can stay pending and surface at
a later, unrelated call (a missing ``ArgMaxExt`` kernel was seen raising inside the next
case's ``transpose``). So one child serves a stream of cases while they pass or fail, and is
replaced after any error, skip or timeout, so that the next case starts in a clean process.
The parent never imports torch or MindSpore.

The child never runs code from the scanned repository or the working directory: it is a
fresh interpreter started with ``-I`` (no current directory, no ``PYTHONPATH``, no user site)
in a temporary working directory of its own, told explicitly where the running apiscan
package lives. A ``signal.py`` or ``pickle.py`` in the directory where ``verify`` runs is
never imported (multiprocessing's ``spawn`` child put ``''`` on ``sys.path`` and imported it).

Nothing the frameworks write reaches the user's terminal: MindSpore's C++ logging (``[ERROR]
KERNEL ...``, ``[WARNING] ME ...``) writes straight to file descriptor 2, below anything Python
could redirect, so the child's stdout and stderr are a file in its private directory. After
each case the child reads what was written meanwhile and attaches it to that case's result
(:attr:`CaseResult.log`, shown by ``verify``'s reports); when a child dies or hangs, the parent
attaches the file's last lines to the error instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import apiscan
from apiscan.verify.cases import Case, InputSpec
from apiscan.verify.results import (
    CaseResult,
    ResultCache,
    cache_in,
    framework_versions,
)

DEFAULT_TIMEOUT = 120.0
#: Details of results whose failure came from torch (see :func:`harness.classify_side_error`).
_TORCH_SIDE = ("torch:", "not a PyTorch form: ", "no torch ")
#: Statuses after which the child is replaced (see the module docstring) — only when the
#: health probe that follows it fails.
_RESTART_AFTER = frozenset({"error", "skipped"})
#: MindSpore errors of its kernel set-up rather than of the call: ``KernelMod Init Failed:
#: FloorDiv`` for a float32 floor division that runs in a fresh process, seen only after
#: other cases ran in the same child and not every time, so the case is run again in a
#: fresh child and that verdict is kept. (A kernel's resize or a copy failing, the other
#: set-up errors of a full run, came back the same in a fresh child, 11 of 11: verdicts.)
_STATE_ERROR = re.compile(r"^mindspore: RuntimeError: KernelMod Init Failed")
#: A cheap case run after a skip: if the child still computes an add and a matmul right, the
#: missing kernel left nothing pending and the child is kept (starting one costs seconds).
HEALTH_PROBE = Case(
    "torch.add",
    "torch.matmul(x, x.T) + x.sum()",
    "mint.matmul(x, x.T) + x.sum()",
    "mapped",
    (InputSpec("x", (3, 3)),),
    pattern="health probe",
)


def default_cache() -> ResultCache:
    from apiscan.cache import default_cache_dir

    return cache_in(default_cache_dir())


#: The child's whole command line program: only the standard library and apiscan, found at
#: the location the parent passes (``-I`` ignores ``PYTHONPATH``, so nothing else would).
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); from apiscan.verify.runner import _child_main; "
    "_child_main(int(sys.argv[2]), sys.argv[3], sys.argv[4])"
)
#: The file in a child's private directory that holds its stdout and stderr.
LOG_NAME = "output.log"
#: At most this many distinct log lines are kept per case, each at most LOG_LINE_CHARS long.
LOG_LINES = 20
LOG_LINE_CHARS = 300
#: MindSpore's line header: process and thread ids and a timestamp, which differ on every run
#: (``[ERROR] KERNEL(26647,7f73e0a526c0,python):2026-11-26-20:00:51.879.892 [file.cc:100] ...``).
_LOG_HEADER = re.compile(r"^(\[[A-Z]+\] \w+)\([^)]*\):\d{4}-\d\d-\d\d-[\d:.]+ ")


def _package_root() -> str:
    """The directory holding the running ``apiscan`` package (what the child must import)."""
    return str(Path(apiscan.__file__).resolve().parent.parent)


def _child_main(fd: int, device: str, log_path: str) -> None:
    """Entry point of the child started by :func:`spawn_child`."""
    from apiscan.lifetime import die_with_parent

    die_with_parent()
    with open(log_path, "rb") as log:
        _serve(Connection(fd), device, log)


def _serve(conn: Connection, device: str, log: BinaryIO | None = None) -> None:
    """The child's loop: receive (case, dtype), send back its result with the lines written
    to its stdout and stderr meanwhile (``log``: a reader of the file they go to); ``None`` or
    a closed pipe (the parent is gone) stops it."""
    from apiscan.verify.harness import run_case, set_device

    set_device(device)
    _written(log)  # start-up chatter (deprecation warnings on import) belongs to no case
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        case, dtype = job
        result = run_case(case, device, dtype)
        lines = log_lines(_written(log))
        conn.send(dataclasses.replace(result, log=lines) if lines else result)


def _written(log: BinaryIO | None) -> str:
    """What the process wrote to its stdout and stderr since the last call (Python's own
    buffers flushed first; MindSpore's C++ logging writes unbuffered)."""
    if log is None:
        return ""
    sys.stdout.flush()
    sys.stderr.flush()
    return log.read().decode("utf-8", "replace")


def log_lines(text: str) -> str:
    """The log lines worth attaching to a result: each distinct line once, in order, without
    MindSpore's per-run process ids and timestamps, at most :data:`LOG_LINES` of them; a line
    that repeats says how often (``(x7)``)."""
    counts: dict[str, int] = {}
    for raw in text.splitlines():
        line = _LOG_HEADER.sub(r"\1 ", raw.rstrip())
        if line.strip():
            counts[line] = counts.get(line, 0) + 1
    shown = [
        (line if len(line) <= LOG_LINE_CHARS else line[: LOG_LINE_CHARS - 1] + "…")
        + (f" (x{n})" if n > 1 else "")
        for line, n in counts.items()
    ]
    if len(shown) > LOG_LINES:
        shown = [*shown[:LOG_LINES], f"... {len(shown) - LOG_LINES} more lines"]
    return "\n".join(shown)


@dataclass
class Child:
    """One isolated child process, its end of the pipe and its private working directory."""

    process: subprocess.Popen[bytes]
    conn: Connection
    workdir: str

    @property
    def log_path(self) -> str:
        return os.path.join(self.workdir, LOG_NAME)

    def log_tail(self, lines: int = LOG_LINES) -> str:
        """The last lines the child wrote (why it died or where it hung), read before its
        directory goes."""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(max(0, log.seek(0, os.SEEK_END) - 64 * 1024))
                text = log.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return log_lines("\n".join(text.splitlines()[-lines:]))

    def is_alive(self) -> bool:
        return self.process.poll() is None

    @property
    def exitcode(self) -> int | None:
        return self.process.poll()

    def join(self, timeout: float | None = None) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout)

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()

    def cleanup(self) -> None:
        self.conn.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


def spawn_child(device: str) -> Child:
    """Start one verification child: isolated interpreter (``-I``: no current directory or
    script directory on ``sys.path``, environment variables such as ``PYTHONPATH`` ignored),
    its own temporary working directory, stdin closed, stdout and stderr to a file there (see
    the module docstring), and a duplex pipe to the parent."""
    parent, child = multiprocessing.Pipe(duplex=True)
    workdir = tempfile.mkdtemp(prefix="apiscan-verify-")
    log_path = os.path.join(workdir, LOG_NAME)
    argv = [_package_root(), str(child.fileno()), device, log_path]
    try:
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-I", "-c", _BOOTSTRAP, *argv],
                cwd=workdir,
                stdin=subprocess.DEVNULL,
                stdout=log,  # never into a report on stdout, nor onto the user's terminal
                stderr=log,
                pass_fds=(child.fileno(),),
            )
    except BaseException:
        parent.close()
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    finally:
        child.close()
    return Child(process, parent, workdir)


class Runner:
    """Runs cases in a reused child process; use as a context manager so the child ends."""

    def __init__(
        self,
        device: str = "CPU",
        dtype: str = "float32",
        timeout: float = DEFAULT_TIMEOUT,
        cache: ResultCache | None = None,
    ) -> None:
        self.device = device
        self.dtype = dtype
        self.timeout = timeout
        self.cache = cache
        self.children_started = 0
        self.probes_passed = 0
        #: probes that failed (the child is then replaced by a fresh one)
        self.probes_failed = 0
        self.isolated_reruns = 0
        self.cases_run = 0  # by the current child
        self._child: Child | None = None
        self._conn: Connection | None = None

    def __enter__(self) -> Runner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def run(self, cases: Iterable[Case]) -> list[CaseResult]:
        return list(self.iter_results(cases))

    def iter_results(self, cases: Iterable[Case]) -> Iterator[CaseResult]:
        """Results in case order, each from the cache when it holds one."""
        for case in cases:
            cached = self.cache.get(case, self.device, self.dtype) if self.cache else None
            if cached is not None:
                yield cached
                continue
            result, reusable = self._run_one(case)
            if reusable and _STATE_ERROR.search(result.detail) and self.cases_run > 1:
                # an error of MindSpore's kernel set-up in a child that ran other cases
                # before: the verdict of this case alone is the one of a fresh child
                self.close()
                result, reusable = self._run_one(case)
                self.isolated_reruns += 1
            if self.cache is not None and reusable:
                self.cache.put(case, result)
            # A failure on the torch side happened before MindSpore ran anything for the
            # failing variant (earlier variants synced): nothing can be pending, no probe.
            torch_side = result.detail.startswith(_TORCH_SIDE)
            restart = (result.status in _RESTART_AFTER and not torch_side) or not reusable
            # A child whose failure left nothing pending still computes the probe right (the
            # harness syncs MindSpore's queue after each case, so a pending error raises in
            # the probe): keep it. Starting a child costs seconds; the generated documented
            # forms error by the hundred.
            kept = restart and reusable and self._healthy()
            if restart and not kept:
                self.close()
            yield result

    def _healthy(self) -> bool:
        """Whether the child still computes right after a skip (see :data:`HEALTH_PROBE`)."""
        probe, reusable = self._run_one(HEALTH_PROBE)
        ok = reusable and probe.status == "pass"
        self.probes_passed += ok
        self.probes_failed += not ok
        return ok

    def close(self) -> None:
        """Stop the child: politely when it is idle, by force when it does not answer."""
        if self._child is None or self._conn is None:
            return
        with contextlib.suppress(OSError, ValueError):
            self._conn.send(None)
        self._child.join(timeout=5)
        if self._child.is_alive():
            self._child.kill()
            self._child.join()
        self._child.cleanup()
        self._child = None
        self._conn = None

    def _start(self) -> Connection:
        self.cases_run = 0
        self._child = spawn_child(self.device)
        self._conn = self._child.conn
        self.children_started += 1
        return self._conn

    def _run_one(self, case: Case) -> tuple[CaseResult, bool]:
        """The case's result and whether it came from the harness (cacheable) rather than
        from a timeout or a dead child."""
        conn = self._conn or self._start()
        self.cases_run += 1
        try:
            conn.send((case, self.dtype))
            if conn.poll(self.timeout):
                result: CaseResult = conn.recv()
                return result, True
            why = f"timeout: no result within {self.timeout:g} s"
        except (EOFError, OSError):
            if self._child is not None:
                self._child.join(timeout=5)  # the pipe closes a moment before the exit status
            code = self._child.exitcode if self._child else None
            why = f"the child process died (exit code {code})"
        log = ""
        if self._child is not None:
            self._child.kill()
            self._child.join()
            log = self._child.log_tail()
        self.close()
        return self._failed(case, why, log), False

    def _failed(self, case: Case, why: str, log: str = "") -> CaseResult:
        torch_version, ms_version = framework_versions()
        return CaseResult(
            case_id=case.case_id,
            api=case.api,
            strategy=case.strategy,
            ms_expr=case.ms_expr,
            status="error",
            max_abs=None,
            mean_abs=None,
            rel_diff=None,
            threshold=case.threshold_for(self.dtype),
            device=self.device,
            dtype=self.dtype,
            torch_version=torch_version,
            mindspore_version=ms_version,
            grad_checked=case.grad,
            detail=why,
            log=log,
        )


def run_parallel(
    cases: Sequence[Case],
    jobs: int,
    device: str = "CPU",
    dtype: str = "float32",
    timeout: float = DEFAULT_TIMEOUT,
    cache: ResultCache | None = None,
) -> list[CaseResult]:
    """Results in case order, from ``jobs`` isolated children working through one queue (a
    thread per child: the parent only waits on pipes). Cached results are served first,
    without a child."""
    results: list[CaseResult | None] = [None] * len(cases)
    todo: queue.Queue[int] = queue.Queue()
    for index, case in enumerate(cases):
        cached = cache.get(case, device, dtype) if cache is not None else None
        if cached is not None:
            results[index] = cached
        else:
            todo.put(index)
    workers = max(1, min(jobs, todo.qsize()))
    errors: list[BaseException] = []

    def work() -> None:
        try:
            with Runner(device, dtype, timeout, cache) as runner:
                while True:
                    try:
                        index = todo.get_nowait()
                    except queue.Empty:
                        return
                    [results[index]] = runner.run([cases[index]])
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [r for r in results if r is not None]
