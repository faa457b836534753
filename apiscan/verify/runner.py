"""Runs verification cases in a child process, with a result cache.

Isolation is the point: in PyNative mode a MindSpore failure can stay pending and surface at
a later, unrelated call (a missing ``ArgMaxExt`` kernel was seen raising inside the next
case's ``transpose``). So one child serves a stream of cases while they pass or fail, and is
replaced after any error, skip or timeout, so that the next case starts in a clean process.
The parent never imports torch or MindSpore.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType

from apiscan.verify.cases import Case
from apiscan.verify.results import CaseResult, ResultCache, cache_in, framework_versions

DEFAULT_TIMEOUT = 120.0
#: Statuses after which the child is replaced (see the module docstring).
_RESTART_AFTER = frozenset({"error", "skipped"})


def default_cache() -> ResultCache:
    from apiscan.cache import default_cache_dir

    return cache_in(default_cache_dir())


def _serve(conn: Connection, device: str) -> None:
    """The child's loop: receive (case, dtype), send back its result; ``None`` stops it."""
    from apiscan.verify.harness import run_case, set_device

    set_device(device)
    while True:
        job = conn.recv()
        if job is None:
            return
        case, dtype = job
        conn.send(run_case(case, device, dtype))


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
        self._context = multiprocessing.get_context("spawn")
        self._child: BaseProcess | None = None
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
            if self.cache is not None and reusable:
                self.cache.put(case, result)
            if result.status in _RESTART_AFTER or not reusable:
                self.close()
            yield result

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
        self._conn.close()
        self._child = None
        self._conn = None

    def _start(self) -> Connection:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child, self.device), daemon=True)
        process.start()
        child.close()
        self._child, self._conn = process, parent
        self.children_started += 1
        return parent

    def _run_one(self, case: Case) -> tuple[CaseResult, bool]:
        """The case's result and whether it came from the harness (cacheable) rather than
        from a timeout or a dead child."""
        conn = self._conn or self._start()
        conn.send((case, self.dtype))
        try:
            if conn.poll(self.timeout):
                result: CaseResult = conn.recv()
                return result, True
            why = f"timeout: no result within {self.timeout:g} s"
        except (EOFError, OSError):
            code = self._child.exitcode if self._child else None
            why = f"the child process died (exit code {code})"
        if self._child is not None:
            self._child.kill()
        self.close()
        return self._failed(case, why), False

    def _failed(self, case: Case, why: str) -> CaseResult:
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
        )
