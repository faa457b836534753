"""An idle worker takes a file queued for another only when that saves time: the thief
parses the file again, the owner kept its parse and only walks it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import pytest

from apiscan import workers
from apiscan.workers import KEPT_SPEEDUP, STEAL_RATIO, StickyPool


@dataclass(frozen=True)
class _Task:
    relpath: str
    data: bytes


class _Conn:
    """Stands for a worker's pipe: records what the pool sends."""

    def __init__(self) -> None:
        self.sent: list[int] = []

    def send(self, message: tuple[int, _Task]) -> None:
        self.sent.append(message[0])


def _pool(queued: list[int]) -> tuple[StickyPool, list[_Conn]]:
    """Two workers: worker 1 owns the files at ``queued`` (largest first), worker 0 idles."""
    pool = StickyPool(2, print, (), print, ())
    conns = [_Conn(), _Conn()]
    for slot, conn in zip(pool.slots, conns, strict=True):
        slot.conn = conn  # type: ignore[assignment]
    pool.slots[1].queue = deque(queued)
    return pool, conns


def test_a_short_queue_keeps_its_files() -> None:
    # the smallest (500 bytes) behind 1,000 bytes: its owner walks it sooner than a parse
    tasks = [_Task("big.py", b"x" * 1_000), _Task("small.py", b"x" * 500)]
    pool, conns = _pool([0, 1])
    assert not pool._feed(0, tasks, deque())  # type: ignore[arg-type]
    assert conns[0].sent == [] and list(pool.slots[1].queue) == [0, 1]
    assert pool._feed(1, tasks, deque())  # type: ignore[arg-type]
    assert conns[1].sent == [0]  # the owner takes its own, largest first


def test_a_long_queue_gives_its_smallest_file() -> None:
    small = 500
    tasks = [_Task("big.py", b"x" * (STEAL_RATIO * small)), _Task("small.py", b"x" * small)]
    pool, conns = _pool([0, 1])
    assert pool._feed(0, tasks, deque())  # type: ignore[arg-type]
    assert conns[0].sent == [1] and list(pool.slots[1].queue) == [0]
    assert pool.owner == {"small.py": 0}


def _kept_by_worker_1(pool: StickyPool, tasks: list[_Task]) -> None:
    """Worker 1 analysed every task before (its first round) and keeps their parses."""
    for task in tasks:
        pool.owner[task.relpath] = 1
        pool.kept[task.relpath] = 1


def test_a_queue_of_kept_parses_counts_in_walks() -> None:
    # 3 times the smallest file's bytes, all re-walks of kept parses: the owner is done with
    # them before a thief would have parsed the smallest one again
    small = 500
    tasks = [_Task("big.py", b"x" * (STEAL_RATIO * small)), _Task("small.py", b"x" * small)]
    pool, conns = _pool([0, 1])
    _kept_by_worker_1(pool, tasks)
    assert not pool._feed(0, tasks, deque())  # type: ignore[arg-type]
    assert conns[0].sent == [] and list(pool.slots[1].queue) == [0, 1]


def test_a_long_queue_of_kept_parses_still_gives_its_smallest_file() -> None:
    small = 500
    big = b"x" * (STEAL_RATIO * KEPT_SPEEDUP * small)
    tasks = [_Task("big.py", big), _Task("small.py", b"x" * small)]
    pool, conns = _pool([0, 1])
    _kept_by_worker_1(pool, tasks)
    assert pool._feed(0, tasks, deque())  # type: ignore[arg-type]
    assert conns[0].sent == [1] and pool.owner["small.py"] == 0
    assert pool.kept["small.py"] == 0  # the thief parsed it: its parse is kept there now


def test_parses_past_the_keep_budget_are_not_counted_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "KEEP_CHARS", 1_500)
    tasks = [_Task("a.py", b"x" * 1_000), _Task("b.py", b"x" * 1_000), _Task("c.py", b"x" * 400)]
    pool, conns = _pool([])
    for _ in tasks:
        assert pool._feed(0, tasks, deque([0, 1, 2]))  # type: ignore[arg-type]
        conns[0].sent.clear()
        pool.slots[0].sent.clear()
    # the worker's budget (1,500) holds a.py; b.py does not fit after it; the pool counts
    # every parse, so it never takes c.py for kept either (the worker may have kept it)
    assert pool.kept == {"a.py": 0}
    assert pool._cost(tasks[0], 0) == 1_000 / KEPT_SPEEDUP  # type: ignore[arg-type]
    assert pool._cost(tasks[1], 0) == 1_000  # type: ignore[arg-type]
    assert pool._cost(tasks[0], 1) == 1_000  # type: ignore[arg-type]


def test_shared_files_go_first() -> None:
    tasks = [_Task("big.py", b"x" * 1_000), _Task("small.py", b"x" * 500), _Task("new.py", b"x")]
    pool, conns = _pool([0, 1])
    assert pool._feed(0, tasks, deque([2]))  # type: ignore[arg-type]
    assert conns[0].sent == [2]
