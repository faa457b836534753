"""The worker processes of one scan: forked once, used by every round, each file on one worker.

A cold scan walks some files more than once: a second round gives the files that import torch
names through the repository's own modules those re-exports, and the whole-program rounds give
files the facts the solver found (:mod:`apiscan.pipeline`). A pool started per round paid the
forks every round, and every re-walk paid LibCST's parse again (two thirds of a walk). Here the
workers live for the whole scan, a file goes back to the worker that analysed it first, and
that worker keeps the file's LibCST module (:func:`kept_parse`), and what the analysis read from
Python's tree (positions, def and class lines, the review's facts: :func:`keep_facts`), within a
byte budget: a re-walk then costs the walk alone, with no parse at all.

Load still balances: the first round hands files out as workers finish them (largest first),
and an idle worker takes another's queued files rather than wait (it parses them again).

Results come back as pickled bytes (one pickle per file, made in the worker): the cache stores
them as they are and the main process unpickles each once. A worker that dies (LibCST's native
parser can crash) loses its unanswered files, which the caller analyses one by one in
isolation; the pool forks a fresh worker for that slot on the next round.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from apiscan.lifetime import signals_deferred

if TYPE_CHECKING:
    import ast
    from multiprocessing.context import ForkProcess

    import libcst as cst

    from apiscan.extract import FileTask, TreeFacts
    from apiscan.model import FileError

#: Files a worker has been sent and not yet answered: one in hand, one waiting, so a worker
#: never idles between files and a crash costs at most two files their shared process.
DEPTH = 2
#: Characters of source whose LibCST modules one worker keeps for re-walks (a module and the
#: facts kept with it grow a worker by about 26 bytes per character, measured on the 405k-line
#: corpus: ~170 MB at most per worker). The first files kept stay; files are sent largest
#: first. A re-walk of a file whose parse was not kept parses it again and costs as much as
#: its first analysis (~5 times a kept re-walk), and those were most of the re-walks' CPU on
#: that corpus: 359 of its 544 re-walks (~4 of their ~5.7 s), files of 5 KB on average that
#: came after the budget was spent. No cheap fact of a first walk tells which files the
#: rounds will walk again (about 40% of the files of every size are, whatever their walk
#: recorded), so the budget alone decides. On that corpus with two workers, 6.5M (was 5M)
#: keeps the parse of 89% of the characters re-walked (was 72%): 199 re-walks parse again
#: (were 359) and the re-walks take ~3.4 s of CPU (were ~5.7 s). The peak memory of all
#: processes (RSS summed) went from 861 to 931 MB, under the 1 GB target; it is reached in
#: the last rounds, when the main process holds every analysis and the solver's facts.
KEEP_CHARS = 6_500_000
#: An idle worker takes a file queued for another (whose owner keeps its parse) only when
#: that worker's other queued files take at least this many times as long as the file's
#: first analysis: the thief parses the file again, so a file taken from a short queue costs
#: CPU and saves no time. On YOLOX, taken files were 7 of its 38 re-walks (~4% of a cold
#: scan's CPU); a large repository's rounds keep their balance.
STEAL_RATIO = 3
#: How many times cheaper a re-walk of a file whose parse its worker kept is than the file's
#: first analysis (parse, Python's tree, walk), in the time an owner's queue is counted in
#: for :data:`STEAL_RATIO`. Measured: 5.5× on detectron2's ``modeling`` package, 5.4× on
#: fairseq's ``models``, 5.7× on YOLOX (its largest files 8-9×: ``yolo_head.py`` 81 ms
#: first, 10 ms again); 5 stays on the side of balance. Counted in bytes alone, a queue of
#: kept files looked five times longer than it was: a worker took ``boxes.py`` from the
#: queue of a worker that walked it again 2.5 ms later, after a 16 ms parse of its own.
KEPT_SPEEDUP = 5


#: ``/proc``'s unit of CPU time (:meth:`StickyPool.cpu_seconds`).
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class _Slot:
    process: ForkProcess | None = None
    conn: Connection | None = None
    #: task indexes sent and not answered, oldest first
    sent: deque[int] = field(default_factory=deque)
    #: task indexes this worker should take next (files it analysed before)
    queue: deque[int] = field(default_factory=deque)
    #: bytes of the files this worker parsed (the first :data:`KEEP_CHARS` are kept)
    parsed: int = 0


class StickyPool:
    """``jobs`` forked workers running ``fn(task, *args)``; see the module docstring.

    ``init(*init_args)`` runs first in each worker. Use as a context manager: leaving it
    stops the workers (killed at once on an interrupt)."""

    def __init__(
        self,
        jobs: int,
        fn: Callable[..., object],
        args: tuple[Any, ...],
        init: Callable[..., None],
        init_args: tuple[Any, ...],
    ) -> None:
        self.slots = [_Slot() for _ in range(max(1, jobs))]
        self.fn, self.args, self.init, self.init_args = fn, args, init, init_args
        #: relpath -> slot index of the worker that analysed it (and may keep its parse)
        self.owner: dict[str, int] = {}
        #: relpath -> slot index of the worker that keeps its parse, as far as the pool can
        #: tell (the worker's budget counts characters, this one bytes: never more files)
        self.kept: dict[str, int] = {}
        self.sticky_hits = 0

    def __enter__(self) -> StickyPool:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if exc is not None and not isinstance(exc, Exception):
            self.kill()  # Ctrl-C, SIGTERM: no waiting on queued files
        else:
            self.close()

    def run(
        self, tasks: Sequence[FileTask], done: Callable[[int], None] | None = None
    ) -> list[bytes | None]:
        """Each task's pickled result, in order; None where its worker died. ``done(n)`` is
        called after each result with the number received so far."""
        try:
            return self._run(tasks, done)
        except BaseException:
            self.kill()  # workers may hold unanswered files: no clean stop is possible
            raise

    def _run(
        self, tasks: Sequence[FileTask], done: Callable[[int], None] | None
    ) -> list[bytes | None]:
        results: list[bytes | None] = [None] * len(tasks)
        if not tasks:
            return results
        self.start(len(tasks))
        live = [i for i, s in enumerate(self.slots) if s.conn is not None]
        shared: deque[int] = deque()
        for i in sorted(range(len(tasks)), key=lambda i: (-len(tasks[i].data), i)):
            w = self.owner.get(tasks[i].relpath)
            if w is not None and w in live:
                self.slots[w].queue.append(i)
            else:
                shared.append(i)
        for w in live:
            for _ in range(DEPTH):
                self._feed(w, tasks, shared)
        received = 0
        while any(self.slots[w].sent for w in live):
            by_conn = {self.slots[w].conn: w for w in live if self.slots[w].sent}
            for conn in wait(list(by_conn)):
                w = by_conn[conn]  # type: ignore[index]
                slot = self.slots[w]
                try:
                    message = slot.conn.recv_bytes()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    self._lost(w, shared)
                    live.remove(w)
                    if not live:  # every worker died: the rest is isolated by the caller
                        return results
                    for other in live:  # the dead worker's queue went to the shared one
                        while len(self.slots[other].sent) < DEPTH and self._feed(
                            other, tasks, shared
                        ):
                            pass
                    continue
                index = int.from_bytes(message[:4], "little")
                slot.sent.remove(index)
                results[index] = message[4:]
                received += 1
                if done is not None:
                    done(received)
                self._feed(w, tasks, shared)
        return results

    def _feed(self, w: int, tasks: Sequence[FileTask], shared: deque[int]) -> bool:
        """Send worker ``w`` its next file: its own first, then a shared one, then the
        smallest waiting for another worker when that worker has enough else to do (see
        :data:`STEAL_RATIO`). False when nothing is left for ``w``."""
        slot = self.slots[w]
        if slot.queue:
            index = slot.queue.popleft()
        elif shared:
            index = shared.popleft()
        else:
            owner = max(range(len(self.slots)), key=lambda i: len(self.slots[i].queue))
            other = self.slots[owner]
            if not other.queue:
                return False
            size = len(tasks[other.queue[-1]].data)
            rest = sum(self._cost(tasks[i], owner) for i in list(other.queue)[:-1])
            if rest < STEAL_RATIO * size:
                return False  # its owner walks it sooner than this worker parses it
            index = other.queue.pop()
        relpath = tasks[index].relpath
        if self.owner.get(relpath) == w:
            self.sticky_hits += 1
        else:  # a parse: the worker keeps the first KEEP_CHARS of them
            slot.parsed += len(tasks[index].data)
            if slot.parsed <= KEEP_CHARS:
                self.kept[relpath] = w
        self.owner[relpath] = w
        slot.sent.append(index)
        slot.conn.send((index, tasks[index]))  # type: ignore[union-attr]
        return True

    def _cost(self, task: FileTask, w: int) -> float:
        """What analysing ``task`` costs worker ``w``, in bytes of a first analysis: a
        re-walk of a file whose parse ``w`` keeps costs a fraction (:data:`KEPT_SPEEDUP`)."""
        size = len(task.data)
        return size / KEPT_SPEEDUP if self.kept.get(task.relpath) == w else size

    def _lost(self, w: int, shared: deque[int]) -> None:
        """Worker ``w`` died: its queued files go to the others, its unanswered ones to the
        caller (None results)."""
        slot = self.slots[w]
        shared.extend(slot.queue)
        slot.queue.clear()
        slot.sent.clear()
        self._stop(slot, kill=True)
        for relpath in [r for r, o in self.owner.items() if o == w]:
            del self.owner[relpath]
        for relpath in [r for r, o in self.kept.items() if o == w]:
            del self.kept[relpath]
        slot.parsed = 0  # a fresh worker keeps nothing yet

    def start(self, files: int) -> None:
        """Fork the workers ``files`` files need (no more workers than files) into empty
        slots; the parent's signals are held while forking (see
        :func:`apiscan.lifetime.signals_deferred`). Call it before starting any thread."""
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        with signals_deferred():
            for slot in self.slots[: max(1, files)]:
                if slot.conn is not None:
                    continue
                parent_end, child_end = ctx.Pipe()
                process = ctx.Process(
                    target=_serve,
                    args=(child_end, self.fn, self.args, self.init, self.init_args),
                    name="apiscan-worker",
                    daemon=True,
                )
                process.start()
                child_end.close()
                slot.process, slot.conn = process, parent_end

    def close(self) -> None:
        """Ask every worker to stop and wait for it (they exit without tearing down what
        they kept)."""
        for slot in self.slots:
            if slot.conn is not None:
                with contextlib.suppress(OSError, ValueError):
                    slot.conn.send(None)
        for slot in self.slots:
            self._stop(slot, kill=False)

    def cpu_seconds(self) -> float | None:
        """The CPU seconds (user and system) the live workers have used so far, from
        ``/proc`` (for ``--stats``); None where ``/proc`` cannot tell (not Linux). A worker
        that died took its share with it."""
        total = 0.0
        for slot in self.slots:
            if slot.process is None or slot.process.pid is None:
                continue
            try:
                with open(f"/proc/{slot.process.pid}/stat", "rb") as f:
                    fields = f.read().rpartition(b")")[2].split()
                total += (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
            except (OSError, ValueError, IndexError):
                return None
        return total

    def kill(self) -> None:
        for slot in self.slots:
            self._stop(slot, kill=True)

    @staticmethod
    def _stop(slot: _Slot, kill: bool) -> None:
        if slot.process is not None:
            if kill:
                with contextlib.suppress(OSError, ValueError):
                    slot.process.kill()
            slot.process.join()
            with contextlib.suppress(ValueError):
                slot.process.close()
        if slot.conn is not None:
            slot.conn.close()
        slot.process = slot.conn = None


def _serve(
    conn: Connection,
    fn: Callable[..., object],
    args: tuple[Any, ...],
    init: Callable[..., None],
    init_args: tuple[Any, ...],
) -> None:
    """A worker's loop: ``(index, task)`` in, ``index`` (4 bytes) + pickled result out;
    ``None`` or a closed pipe ends it. It ends with ``os._exit``: freeing the kept modules
    one by one would cost as much CPU as a walk."""
    init(*init_args)
    # Tasks are read as they arrive, whatever the worker is doing: the parent may be sending
    # the next file (a large one) while this worker sends a large result (a review's value
    # records), and neither may wait for the other to read.
    incoming: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(target=_read_tasks, args=(conn, incoming), daemon=True).start()
    while True:
        message = incoming.get()
        if message is None:
            break
        index, task = message
        result = fn(task, *args)
        payload = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            conn.send_bytes(index.to_bytes(4, "little") + payload)
        except OSError:
            break
    conn.close()
    os._exit(0)


def _read_tasks(conn: Connection, incoming: queue.SimpleQueue[Any]) -> None:
    """Move the parent's messages into ``incoming`` until ``None`` or a closed pipe."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            message = None
        incoming.put(message)
        if message is None:
            return


#: This worker's kept parses: relpath -> (text, LibCST module, what Python's tree said or
#: None), and their characters.
_KEPT: dict[str, tuple[str, cst.Module, TreeFacts | None]] = {}
_KEPT_CHARS = [0]
#: relpath -> the text of it whose Python parse this worker accepted (a scan reads each file
#: once: the same text comes back in a later round).
_ACCEPTED: dict[str, str] = {}


def kept_parse(
    text: str, relpath: str
) -> tuple[ast.Module | TreeFacts | FileError, cst.Module | FileError | None]:
    """:func:`apiscan.extract.parse_both`, reusing this worker's LibCST module of the same
    text and the facts the analysis read from Python's tree (:func:`keep_facts`): a re-walk
    parses nothing. The first :data:`KEEP_CHARS` characters of modules parsed are kept."""
    import libcst as cst

    from apiscan.extract import parse_both
    from apiscan.model import FileError
    from apiscan.parsing import parse_python

    hit = _KEPT.get(relpath)
    if hit is not None and hit[0] == text:
        if hit[2] is not None:
            return hit[2], hit[1]
        tree = parse_python(text, relpath, checked=False)  # accepted when it was kept
        if not isinstance(tree, FileError):
            return tree, hit[1]
    # A text this worker parsed before (a re-walk of a file whose parse was not kept) has
    # passed the compiler's checks: Python's parse alone (a third of its cost).
    accepted = _ACCEPTED.get(relpath) == text
    tree, module = parse_both(text, relpath, checked=not accepted)
    if not isinstance(tree, FileError):
        _ACCEPTED[relpath] = text
    if (
        isinstance(module, cst.Module)
        and relpath not in _KEPT
        and _KEPT_CHARS[0] + len(text) <= KEEP_CHARS
    ):
        _KEPT[relpath] = (text, module, None)
        _KEPT_CHARS[0] += len(text)
    return tree, module


def keep_facts(relpath: str, text: str, facts: TreeFacts) -> None:
    """Keep the facts read from Python's tree beside the kept parse of the same text (the
    analysis' ``keep``): small plain tuples, where the tree itself is larger than LibCST's
    module."""
    kept = _KEPT.get(relpath)
    if kept is not None and kept[0] == text:
        _KEPT[relpath] = (text, kept[1], facts)


def forget(relpath: str) -> None:
    """Drop this worker's kept parse of ``relpath`` (no later round will walk it)."""
    _ACCEPTED.pop(relpath, None)
    kept = _KEPT.pop(relpath, None)
    if kept is not None:
        _KEPT_CHARS[0] -= len(kept[0])
