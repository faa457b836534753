"""One repository's task: check it out, scan it exactly as ``apiscan PATH`` would, and return
plain rows; run in a child process under memory and time limits.

The scan is the pipeline's, with the settings the CLI would use for that path (the
repository's own ``[tool.apiscan]``/``apiscan.toml``, the zoo's flags on top) and the shared
content cache; only ``jobs`` is 1, since the zoo's parallelism is across repositories. What
comes back is a :class:`TaskRecord` of tuples, never a :class:`~apiscan.model.ScanResult`:
that is what the engines move between processes (and Ray between machines).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import multiprocessing
import os
import resource
import signal
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

from apiscan.model import ApiFinding, ErrorFinding, ScanResult, ShapeFinding

#: Columns of a findings row (see :mod:`apiscan.zoo.database`), in order.
FINDING_COLUMNS = (
    "ordinal",
    "kind",
    "path",
    "cell",
    "line",
    "col",
    "end_line",
    "end_col",
    "rule",
    "api",
    "canonical",
    "status",
    "scope",
    "severity",
    "usage",
    "confidence",
    "namespace",
    "mindspore_api",
    "disposition",
    "mindtorch",
    "function",
    "message",
)
#: How often a running task's memory and time are checked.
POLL_S = 0.2


@dataclass(frozen=True)
class TaskSpec:
    """Everything a task needs, picklable: the repository and the zoo-wide options."""

    repo_id: str
    name: str
    source: str  # an absolute path, or a git URL
    commit: str  # git: the commit to check out; local: the HEAD commit if any (informative)
    is_git: bool
    clone_cache: str
    cache_dir: str | None
    ms_version: str | None = None
    dynamic_shape: bool = True
    target: str | None = None
    memory_mb: int = 4096
    timeout_s: float = 1800.0


@dataclass
class TaskRecord:
    """What a finished scan sends back: rows for the database, plus how long it took
    (``wall_s``/``cpu_s``, kept apart from the compared tables: they differ run to run)."""

    repo_id: str
    config_hash: str
    mapping_version: str
    files: list[tuple[str, int, int, int]]
    findings: list[tuple[object, ...]]
    summary: dict[str, object]
    wall_s: float = 0.0
    cpu_s: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class TaskFailure:
    """Why one attempt produced nothing (the reason is what the failures table records)."""

    reason: str


def checkout_path(spec: TaskSpec) -> Path:
    from apiscan.zoo.checkout import clone

    if spec.is_git:
        return clone(spec.source, spec.commit, Path(spec.clone_cache))
    return Path(spec.source)


def settings_for(path: Path, spec: TaskSpec) -> tuple[object, str]:
    """The settings ``apiscan PATH --ms-version ...`` would use, and their hash."""
    from apiscan.config import resolve

    settings = resolve(str(path), {"ms-version": spec.ms_version})
    values = {k: settings.values[k] for k in sorted(settings.values)}
    text = json.dumps(
        {"settings": values, "dynamic_shape": spec.dynamic_shape, "target": spec.target},
        sort_keys=True,
        default=str,
    )
    return settings, hashlib.sha256(text.encode()).hexdigest()[:16]


def scan_repository(spec: TaskSpec) -> TaskRecord:
    """Check out and scan one repository (in this process); raises on failure."""
    from apiscan.pipeline import ScanOptions, scan

    started = time.perf_counter()
    path = checkout_path(spec)
    settings, config_hash = settings_for(path, spec)
    options = ScanOptions(
        path=str(path),
        ms_version=settings["ms-version"],  # type: ignore[index]
        excludes=settings.excludes(path),  # type: ignore[attr-defined]
        jobs=1,
        cache_dir=Path(spec.cache_dir) if spec.cache_dir else None,
        max_file_size=settings["max-file-size"],  # type: ignore[index]
        dynamic_shape=spec.dynamic_shape,
        progress=False,
        verify_device=settings["verify-device"],  # type: ignore[index]
        verify_dtype=settings["verify-dtype"],  # type: ignore[index]
        ignores=settings.ignores(path),  # type: ignore[attr-defined]
        respect_ignore=settings["respect-ignore-files"],  # type: ignore[index]
        target_platform=spec.target,
    )
    result = scan(options)
    record = to_record(spec.repo_id, result, config_hash)
    record.wall_s = time.perf_counter() - started
    return record


def mapping_version(result: ScanResult) -> str:
    """The table's version and the documentation commits it was built from."""
    commits = sorted({str(s.get("commit", "")) for s in result.mapping.sources})
    merged = "+older" if result.mapping.merged else ""
    return f"{result.mapping.ms_version}{merged}@{','.join(c[:12] for c in commits if c)}"


def to_record(repo_id: str, result: ScanResult, config_hash: str) -> TaskRecord:
    """The result as rows, findings in the results model's own sorted order."""
    files = [(f.path, f.lines, f.api_uses, f.errors) for f in result.files]
    rows: list[tuple[object, ...]] = []
    for ordinal, f in enumerate(sorted(result.findings, key=lambda f: f.sort_key())):
        s = f.span
        if isinstance(f, ApiFinding):
            rows.append(
                (ordinal, "api", f.path, f.cell, s.line, s.column, s.end_line, s.end_column,
                 f.rule, f.api, f.canonical, f.status, f.scope, None, f.usage, f.confidence,
                 f.namespace, f.mindspore_api, f.disposition, f.mindtorch, f.function, f.note)
            )  # fmt: skip
        elif isinstance(f, ShapeFinding):
            rows.append(
                (ordinal, "dynamic_shape", f.path, f.cell, s.line, s.column, s.end_line,
                 s.end_column, f.rule, f.api, "", None, f.scope, f.severity, None, None, None,
                 f.mindspore_api, None, None, f.function, f.message)
            )  # fmt: skip
        elif isinstance(f, ErrorFinding):
            rows.append(
                (ordinal, "error", f.path, f.cell, s.line, s.column, s.end_line, s.end_column,
                 f.code, "", "", None, None, None, None, None, None, None, None, None, "",
                 f.message)
            )  # fmt: skip
    return TaskRecord(repo_id, config_hash, mapping_version(result), files, rows, summarize(result))


#: Statuses that block a network API: nothing to call, an unproven name, or a difference hit.
BLOCKING = ("missing", "candidate", "different")
#: Uses that never block, whatever their status: a base class or an annotation whose difference
#: is a MindSpore idiom (``class Net(nn.Cell)`` with ``construct``) is a mechanical rewrite of
#: every repository, not an operator MindSpore lacks; counted, it would block every repository
#: and head every ranking.
IDIOM_USAGES = ("base_class", "annotation")
#: The same test in SQL, over the ``findings`` table as ``f``.
BLOCKS_SQL = (
    f"f.status IN {BLOCKING} AND NOT (f.usage IN {IDIOM_USAGES} AND f.disposition = 'idiom')"
)


def blocks(status: str, usage: str, disposition: str) -> bool:
    """Whether one network use blocks its repository (see ``BLOCKING``, ``IDIOM_USAGES``)."""
    return status in BLOCKING and not (usage in IDIOM_USAGES and disposition == "idiom")


def summarize(result: ScanResult) -> dict[str, object]:
    """The per-repository numbers the zoo report reads (network scope: what MindSpore
    compiles). Coverage counts distinct APIs: an API is blocking when any of its network uses
    blocks (``database.blocks``: missing, a candidate or different, except a base class or
    annotation rewritten by an idiom), covered otherwise."""
    network: dict[str, set[str]] = {}
    blocked: dict[str, set[str]] = {}
    for f in result.api_findings:
        if f.scope == "network" and f.status != "unknown":
            network.setdefault(f.api, set()).add(f.status)
            if blocks(f.status, f.usage, f.disposition):
                blocked.setdefault(f.api, set()).add(f.status)
    blocking = sorted(blocked)
    covered = len(network) - len(blocking)
    mt_known = [f for f in result.api_findings if f.scope == "network" and f.mindtorch is not None]
    mt_apis = {f.api for f in mt_known}
    mt_yes = {f.api for f in mt_known if f.mindtorch}
    shapes = result.shape_findings
    effort = {
        d: sum(1 for f in result.api_findings if f.scope == "network" and f.disposition == d)
        for d in ("delete", "idiom", "rewrite", "custom-op", "gap")
    }
    return {
        "files": len(result.files),
        "lines": sum(f.lines for f in result.files),
        "call_sites": len(result.api_findings),
        "distinct_apis": len({f.api for f in result.api_findings}),
        "network_apis": len(network),
        "network_covered": covered,
        "network_blocking": len(blocking),
        "network_coverage_pct": round(100.0 * covered / len(network), 1) if network else 100.0,
        "network_missing": sum(1 for a in blocking if "missing" in blocked[a]),
        "dynamic_shape": len(shapes),
        "dynamic_shape_network": sum(1 for f in shapes if f.scope == "network"),
        "dynamic_shape_high": sum(1 for f in shapes if f.severity == "high"),
        "errors": len(result.error_findings),
        "effort_network_sites": effort,
        "mindtorch_network_apis": len(mt_apis),
        "mindtorch_network_covered": len(mt_yes),
    }


def run_limited(spec: TaskSpec) -> TaskRecord | TaskFailure:
    """:func:`scan_repository` in a forked child under the spec's limits (see
    :class:`LimitedTask`); a crash, a time-out or an exception comes back as a
    :class:`TaskFailure` with its reason, never raised."""
    task = LimitedTask(spec)
    while True:
        wait(task.waitables(), timeout=POLL_S)
        outcome = task.poll()
        if outcome is not None:
            return outcome


class LimitedTask:
    """One attempt at a repository in a forked child, killed past ``spec.timeout_s`` seconds
    or when its processes' resident memory passes ``spec.memory_mb``. The caller waits on
    :meth:`waitables` (several tasks at once, from one thread: no fork ever happens while
    another thread of ours runs) and calls :meth:`poll` until it gives the outcome."""

    def __init__(self, spec: TaskSpec) -> None:
        ctx = multiprocessing.get_context("fork")
        self.spec = spec
        self.receive, send = ctx.Pipe(duplex=False)
        self.child = ctx.Process(target=_child, args=(spec, send, os.getpid()))
        self.child.start()
        send.close()
        self.deadline = time.monotonic() + spec.timeout_s
        self.next_memory_check = 0.0

    def waitables(self) -> list[object]:
        return [self.receive, self.child.sentinel]

    def poll(self) -> TaskRecord | TaskFailure | None:
        spec, child = self.spec, self.child
        outcome: TaskRecord | TaskFailure | None = None
        if self.receive.poll():
            try:
                outcome = self.receive.recv()
            except EOFError:
                outcome = _died(child)
        elif not child.is_alive():
            outcome = _died(child)
        elif time.monotonic() > self.deadline:
            _kill_tree(child.pid)
            outcome = TaskFailure(f"timed out after {spec.timeout_s:g} s")
        elif time.monotonic() >= self.next_memory_check:
            self.next_memory_check = time.monotonic() + POLL_S
            if _tree_rss_mb(child.pid) > spec.memory_mb:
                _kill_tree(child.pid)
                outcome = TaskFailure(memory_reason(spec.memory_mb))
        if outcome is not None:
            self.receive.close()
            child.join(timeout=5)
            if child.is_alive():
                _kill_tree(child.pid)
                child.join()
        return outcome

    def kill(self) -> None:
        """Stop the attempt (the run is interrupted)."""
        _kill_tree(self.child.pid)
        self.child.join(timeout=5)


def memory_reason(limit_mb: int) -> str:
    return f"exceeded its memory limit of {limit_mb} MB (resident memory of the task's processes)"


def _died(child: multiprocessing.process.BaseProcess) -> TaskFailure:
    child.join(timeout=5)
    code = child.exitcode
    if code is not None and code < 0:
        how = f"killed by signal {signal.Signals(-code).name}"
    else:
        how = f"exited with status {code}"
    return TaskFailure(f"the task's process {how} before returning a result")


def _child(spec: TaskSpec, send: Connection, parent: int) -> None:
    from apiscan.lifetime import die_with_parent

    die_with_parent(parent)
    # What the parent holds (the mapping table, the torch index, the run's own objects) is
    # never garbage here: keep the collector from walking it on every collection.
    gc.freeze()
    outcome: TaskRecord | TaskFailure
    try:
        outcome = scan_repository(spec)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        outcome.cpu_s = usage.ru_utime + usage.ru_stime + kids.ru_utime + kids.ru_stime
        # The parent samples memory while the task runs; a task quicker than a sample is
        # held to its limit by its peak here, so the verdict never depends on timing.
        if max(usage.ru_maxrss, kids.ru_maxrss) / 1024 > spec.memory_mb:
            outcome = TaskFailure(memory_reason(spec.memory_mb))
    except Exception as exc:  # any error of this repository is its failure, not the zoo's
        outcome = TaskFailure(_reason(exc))
    send.send(outcome)
    send.close()


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as fh:
                kids.extend(int(p) for p in fh.read().split())
    return kids


def _tree(pid: int) -> list[int]:
    seen, todo = [], [pid]
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(_children(p))
    return seen


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants (the scan's worker), in MB."""
    total = 0
    for p in _tree(pid):
        with contextlib.suppress(OSError, ValueError), open(f"/proc/{p}/statm") as fh:
            total += int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return total / 2**20


def _kill_tree(pid: int) -> None:
    for p in reversed(_tree(pid)):
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)


def warm(ms_version: str | None) -> None:
    """Load what every scan needs (the mapping table, the torch index, the walkers) once in
    the process that forks the tasks, so that each child inherits it instead of loading it."""
    import apiscan.extract.api_uses
    import apiscan.pipeline  # noqa: F401
    from apiscan.mapping.store import load_table
    from apiscan.resolve.torch_api import load_torch_api

    load_table(ms_version)
    load_torch_api()
