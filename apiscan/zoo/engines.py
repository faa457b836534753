"""Where the tasks run: this machine's process pool (the default) or Ray.

Both engines run the same function on each repository (:func:`apiscan.zoo.task.run_limited`:
a forked child under the task's memory and time limits) and have the same contract: every
spec comes back exactly once as an :class:`Outcome`, as soon as it is final, in whatever order
the tasks finish. A failed attempt (crash, time-out, memory, exception) is retried once, queued
behind the tasks not yet started so the rest go on; the reasons of both attempts are kept. The
database sorts what it stores, so the finishing order never shows in it.

Tasks start largest first (the repositories' sizes in bytes of Python, when known): the long
ones begin early and the small ones fill the other slots around them, so neither waits for
the other at the end of the run.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from apiscan.zoo.task import (
    POLL_S,
    LimitedTask,
    TaskFailure,
    TaskRecord,
    TaskSpec,
    run_limited,
    warm,
)

#: How many attempts a task gets (the first and one retry).
ATTEMPTS = 2


@dataclass
class Outcome:
    spec: TaskSpec
    record: TaskRecord | None
    failures: list[str] = field(default_factory=list)  # the reasons, by attempt
    engine: str = "local"


def run_local(specs: list[TaskSpec], jobs: int | None = None) -> Iterator[Outcome]:
    """The default engine: up to ``jobs`` tasks at once on this machine, each a forked child
    (:class:`LimitedTask`), all watched from this one thread."""
    from multiprocessing.connection import wait

    jobs = max(1, jobs or os.cpu_count() or 1)
    queue: deque[tuple[TaskSpec, list[str]]] = deque((s, []) for s in specs)
    running: list[tuple[LimitedTask, list[str]]] = []
    try:
        while queue or running:
            while queue and len(running) < jobs:
                spec, failures = queue.popleft()
                running.append((LimitedTask(spec), failures))
            wait([w for task, _ in running for w in task.waitables()], timeout=POLL_S)
            still, finals = [], []
            for task, failures in running:
                result = task.poll()
                if result is None:
                    still.append((task, failures))
                    continue
                final = _settle(task.spec, failures, result, queue)
                if final is not None:
                    finals.append(final)
            running = still
            # Refill the free slots before handing the outcomes over: storing a large
            # repository's rows takes a while, and the next tasks run meanwhile.
            while queue and len(running) < jobs:
                spec, failures = queue.popleft()
                running.append((LimitedTask(spec), failures))
            yield from finals
    finally:
        for task, _ in running:  # interrupted: the tasks in flight are lost, nothing else
            task.kill()


def _settle(
    spec: TaskSpec,
    failures: list[str],
    result: TaskRecord | TaskFailure,
    queue: deque[tuple[TaskSpec, list[str]]],
    engine: str = "local",
) -> Outcome | None:
    """The outcome when final; a first failure goes back in the queue (at its end)."""
    if isinstance(result, TaskRecord):
        return Outcome(spec, result, failures, engine)
    failures = [*failures, result.reason]
    if len(failures) < ATTEMPTS:
        queue.append((spec, failures))
        return None
    return Outcome(spec, None, failures, engine)


def run_ray(
    specs: list[TaskSpec],
    address: str | None = None,
    jobs: int | None = None,
) -> Iterator[Outcome]:
    """The same tasks on Ray: one task per repository (one CPU, and the task's memory limit
    as its memory request, so a node takes only the tasks that fit), on the cluster at
    ``address`` or a local Ray instance of ``jobs`` CPUs started for this run.

    The limits are enforced inside the task (:func:`run_limited`); a worker or node lost
    under a task (a Ray error) counts as a failed attempt like a crash, and a task that
    outlives its time limit by a margin is cancelled from here."""
    import ray

    started_here = False
    if not ray.is_initialized():
        kwargs: dict[str, object] = {
            "include_dashboard": False,
            "logging_level": "ERROR",
            "log_to_driver": False,
        }
        if address:
            ray.init(address=address, **kwargs)
        else:
            ray.init(
                num_cpus=max(1, jobs or os.cpu_count() or 1),
                object_store_memory=RAY_OBJECT_STORE_MB * 2**20,
                **kwargs,
            )
        started_here = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(_ray_task)
        queue: deque[tuple[TaskSpec, list[str]]] = deque((s, []) for s in specs)
        running: dict[object, tuple[TaskSpec, list[str], float]] = {}
        # Submitting everything at once lets Ray place tasks as slots free; Ray's own queue
        # keeps submission order, which is largest first.
        while queue or running:
            while queue:
                spec, failures = queue.popleft()
                ref = remote.options(
                    memory=spec.memory_mb * 2**20, name=f"apiscan-zoo:{spec.name}"
                ).remote(spec)
                running[ref] = (spec, failures, time.monotonic())
            ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
            for ref in ready:
                spec, failures, _t = running.pop(ref)
                try:
                    result = ray.get(ref)
                except Exception as exc:  # ray.exceptions.RayError: worker or node lost
                    result = TaskFailure(f"the Ray task failed: {type(exc).__name__}")
                final = _settle(spec, failures, result, queue, "ray")
                if final is not None:
                    yield final
            yield from _cancel_overdue(ray, running, queue)
    finally:
        if started_here:
            ray.shutdown()


#: A local Ray instance's object store: the records are rows of text, megabytes at most.
RAY_OBJECT_STORE_MB = 512
#: Seconds a Ray task may outlive its own time limit (queueing, worker start) before the
#: driver cancels it.
RAY_GRACE_S = 60.0


def _cancel_overdue(
    ray: object,
    running: dict[object, tuple[TaskSpec, list[str], float]],
    queue: deque[tuple[TaskSpec, list[str]]],
) -> Iterator[Outcome]:
    """A task stuck past its limit and the grace (a hung worker): cancel it, count it failed.
    Only a task that has been *running* that long would be fair to cancel; a queued one's
    clock is counted too, so the grace is generous."""
    now = time.monotonic()
    for ref, (spec, failures, since) in list(running.items()):
        if now - since > spec.timeout_s + RAY_GRACE_S * (1 + len(running)):
            ray.cancel(ref, force=True)  # type: ignore[attr-defined]
            running.pop(ref)
            reason = TaskFailure(f"timed out after {spec.timeout_s:g} s (cancelled by Ray)")
            final = _settle(spec, failures, reason, queue, "ray")
            if final is not None:
                yield final


def _ray_task(spec: TaskSpec) -> TaskRecord | TaskFailure:
    warm(spec.ms_version)  # once per Ray worker (cached), before its first fork
    return run_limited(spec)
