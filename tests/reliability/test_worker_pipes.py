"""The scan's worker pool never deadlocks on large files and large results."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from apiscan.workers import StickyPool

SIZE = 4_000_000  # far above a socket's buffer


@dataclass(frozen=True)
class _Task:
    relpath: str
    data: bytes


def _echo_large(task: _Task) -> bytes:
    return task.data[:1] * SIZE


def _nothing() -> None:
    return None


def test_large_tasks_and_large_results_do_not_deadlock() -> None:
    """The parent sends a worker its next file while the worker sends its last result: each
    larger than a pipe holds. The worker reads what it is sent as it arrives, so neither
    side waits for the other."""
    tasks = [_Task(f"f{i}.py", bytes([65 + i]) * SIZE) for i in range(6)]
    pool = StickyPool(1, _echo_large, (), _nothing, ())
    pool.start(len(tasks))  # forked here, before the thread that runs the pool
    results: list[bytes | None] = []
    runner = threading.Thread(target=lambda: results.extend(pool.run(tasks)), daemon=True)
    runner.start()
    runner.join(timeout=60)
    finished = not runner.is_alive()
    if finished:
        pool.close()
    else:
        pool.kill()
    assert finished, "the worker pool deadlocked"
    assert len(results) == len(tasks) and all(r is not None for r in results)
