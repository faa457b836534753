"""An idle worker takes a file queued for another only when that saves time: the thief
parses the file again, the owner kept its parse and only walks it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from apiscan.workers import STEAL_RATIO, StickyPool


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


def test_shared_files_go_first() -> None:
    tasks = [_Task("big.py", b"x" * 1_000), _Task("small.py", b"x" * 500), _Task("new.py", b"x")]
    pool, conns = _pool([0, 1])
    assert pool._feed(0, tasks, deque([2]))  # type: ignore[arg-type]
    assert conns[0].sent == [2]
