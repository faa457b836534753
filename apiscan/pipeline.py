"""The only module that knows the order of the stages.

discover → read → per-file analysis (cached, in a process pool) → re-exports through the repo's
own modules (a second walk of the files that use them) → whole-program facts (the solver of
:mod:`apiscan.program`, and walks of the files whose facts changed) → the join of
:mod:`apiscan.results` (mapping match, scopes, findings) → ScanResult.

Heavy imports (libcst, the torch index) happen only when some file actually needs analysing,
so a warm re-scan of an unchanged repository costs little more than hashing its files.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan.cache import default_cache_dir
from apiscan.config import Ignores
from apiscan.discovery import DiscoveryError, discover, discover_many, with_sys_path_names

# The stages past discovery are imported where they run: a scan that finds nothing to do
# (an empty directory, a mistyped path) never loads the records, the extractor or the join.
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from apiscan.cache import AnalysisCache
    from apiscan.extract import FileTask
    from apiscan.extract.records import FileAnalysis
    from apiscan.model import ScanResult
    from apiscan.verify.results import ResultCache
    from apiscan.workers import StickyPool

TORCH_INDEX_VERSION = "2.13.0"
#: Walk-and-solve rounds at most (YOLOX's SimOTA needs 4: a mask built in one method,
#: returned in a tuple, passed to a second, whose results a third one uses; a criterion
#: built by a builder whose tuple the training script unpacks, its matcher injected, its
#: losses run through a dict of bound methods and gathering with a helper's indices, needs
#: 5). The byte budgets below bound what the rounds re-walk together.
MAX_ROUNDS = 5
#: Re-walks cost at most this share of the bytes of a cold scan's first walk (a cold scan stays
#: within ~15% of one walk per file), but never less than REWALK_MIN_BYTES: a small or
#: medium repository gets every re-walk its facts ask for. Files left out keep their previous
#: walk (``files_rewalk_skipped`` in the stats; the files, ``ScanResult.facts_cut``, are named in
#: the reports). The floor fits the whole detectron2 repository, whose index tuples,
#: per-sample values and round trips ask for ~1.74 MB of re-walks in four rounds (its package
#: alone ~0.9 MB, the floor before: the projects' files then lost the facts of the later
#: rounds, ~30 findings, PointRend's mask head among them). It cost detectron2 ~1 s of CPU
#: (~+11%); a larger repository's budget is its share.
REWALK_SHARE = 0.10
REWALK_MIN_BYTES = 1_800_000
#: Re-walks that only add call edges (:func:`~apiscan.program.solver.shows_calls`: a value
#: newly known to be an instance of a repository class, called later) keep the file's
#: findings and facts and hand on its calls alone, on a budget of their own, so that they
#: never cut a re-walk for facts: this share of the first walk's bytes, never
#: less than the floor (maskrcnn-benchmark's RPN, its proposal selector built by a factory in
#: another file, asks for ~30 such files).
EDGE_REWALK_SHARE = 0.05
EDGE_REWALK_MIN_BYTES = 600_000
#: Below this many bytes to analyse, a process pool costs more than it saves.
POOL_MIN_BYTES = 150_000


@dataclass(frozen=True)
class ScanOptions:
    path: str
    ms_version: str | None = None
    excludes: tuple[str, ...] = ()
    jobs: int | None = None  # None: all cores
    cache_dir: Path | None = field(default_factory=default_cache_dir)  # None: no cache
    max_file_size: int = 1_000_000
    dynamic_shape: bool = True
    progress: bool = False
    #: Which cached micro-test results (``apiscan verify``) the report links to.
    verify_device: str = "CPU"
    verify_dtype: str = "float32"
    #: ``Ascend``/``GPU``/``CPU``: a MindSpore target not documented for this platform
    #: counts as a gap (``--target``); None: no platform is assumed.
    target_platform: str | None = None
    #: Findings the configuration drops (``ignore`` / ``per-file-ignores``).
    ignores: Ignores = field(default_factory=Ignores)
    #: Skip what ``.gitignore`` / ``.ignore`` files ignore (``--no-ignore``: False).
    respect_ignore: bool = True
    #: Follow symlinks whose real location is outside the scanned directory (``--follow-
    #: symlinks``); by default the walk never leaves it.
    follow_symlinks: bool = False
    #: Several paths scanned as one (``apiscan a.py b.py``, a pre-commit hook): ``path`` is
    #: then their common directory and only these are scanned.
    paths: tuple[str, ...] = ()
    #: Slow imports to run in a background thread once the workers are forked (the text
    #: report's tabulate): they then cost nothing on a cold scan's wall time.
    warmup: Callable[[], None] | None = None
    #: A directory without a single Python file to scan is a usage error (the command line:
    #: a mistyped path must not look like a finished migration), not an empty result.
    require_files: bool = False


ProgressHook = Callable[[int, int], None]


@dataclass(frozen=True)
class Rendered:
    """A finished report: its text, and the statuses of its API findings (``--fail-on``)."""

    text: str
    statuses: frozenset[str]
    #: The scan's stage timings and counters (``--stats``); not part of the report.
    stats: dict[str, float] = field(default_factory=dict, compare=False)


def scan(options: ScanOptions) -> ScanResult:
    """Run every stage; raises DiscoveryError / UnknownVersionError for usage errors."""
    result = _scan(options, keep_facts=False)[0]
    assert result is not None
    return result


def scan_rendered(options: ScanOptions, name: str, render: Callable[[ScanResult], str]) -> Rendered:
    """:func:`scan`, then the report ``render`` makes of it (format ``name``), cached too.

    A report is a function of the result alone, and the result of the whole-scan key and of
    the verification results the link step reads; a warm re-scan of an unchanged tree then
    costs discovery, hashing and one lookup (no unpickling of the result, no link step, no
    reporter imports such as tabulate).
    """
    result, _analyses, _reexports, rendered = _scan(
        options, keep_facts=False, render=(name, render)
    )
    if rendered is not None:
        return rendered
    assert result is not None
    t0 = time.perf_counter()
    text = render(result)
    result.stats["render_s"] = time.perf_counter() - t0
    return Rendered(text, _statuses(result), result.stats)


def _statuses(result: ScanResult) -> frozenset[str]:
    return frozenset(f.status for f in result.api_findings)


def scan_with_facts(options: ScanOptions) -> tuple[ScanResult, list[FileAnalysis]]:
    """The scan plus the per-file facts it was built from (classes, calls, functions), for
    features on top of the results model such as the feasibility review."""
    result, analyses, _reexports, _ = _scan(options, keep_facts=True)
    assert result is not None and analyses is not None
    return result, analyses


def scan_for_context(
    options: ScanOptions,
) -> tuple[ScanResult, list[FileAnalysis], dict[str, str]]:
    """:func:`scan_with_facts` plus the re-exports the second round used (found from the
    first round's analyses, which the final ones cannot stand in for): what checking one
    buffer as the CLI would needs (``apiscan.buffer``)."""
    result, analyses, reexports, _ = _scan(options, keep_facts=True)
    assert result is not None and analyses is not None
    return result, analyses, reexports


def _scan(
    options: ScanOptions,
    keep_facts: bool,
    render: tuple[str, Callable[[ScanResult], str]] | None = None,
) -> tuple[ScanResult | None, list[FileAnalysis] | None, dict[str, str], Rendered | None]:
    """The stages in order. With ``render`` (a format name and its renderer), the report is
    looked up in the cache first and returned alone (no result) when found, else made from the
    result and kept."""
    with _fewer_collections():
        return _stages(options, keep_facts, render)


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run this process's scan without the cyclic garbage collector: the workers' records,
    the solver's facts and the join's findings are millions of small objects and almost no
    cycles (fairseq: ~69k objects of cyclic garbage over a whole scan), and every collection
    walked the young ones again (~0.6 s of the main process's 5.5 s of CPU on fairseq, at
    thresholds already raised to :data:`WORKER_GC_THRESHOLD`). Workers collect as before
    (:func:`_worker_start`). Whether it was enabled, and its thresholds, come back after (the
    language server scans in a long-lived process; its next collection frees those cycles)."""
    import gc

    before, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(*WORKER_GC_THRESHOLD)
    gc.disable()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        if enabled:
            gc.enable()


def _nothing_to_scan(options: ScanOptions) -> None:
    """Raise the usage error of a scan that found no file to analyse in the directories it
    was given (files named one by one, as a pre-commit hook passes them, may all be excluded:
    no error). Whether there were Python files that the exclude patterns or ignore files
    dropped is worth a second walk here, which only this failure pays for."""
    named = options.paths or (options.path,)
    if any(Path(p).is_file() for p in named):
        return
    if any(discover(p, (), respect_ignore=False, sys_path_names=False)[1] for p in named):
        raise DiscoveryError(
            f"every Python file in {options.path} is excluded (exclude patterns or ignore "
            "files): nothing to scan"
        )
    raise DiscoveryError(f"no Python files found in {options.path}")


def _stages(
    options: ScanOptions,
    keep_facts: bool,
    render: tuple[str, Callable[[ScanResult], str]] | None,
) -> tuple[ScanResult | None, list[FileAnalysis] | None, dict[str, str], Rendered | None]:
    from apiscan.mapping.versions import normalize_version

    stats: dict[str, float] = {}
    t0 = time.perf_counter()
    if len(options.paths) > 1:
        _root, files, walk_errors = discover_many(
            list(options.paths), options.excludes, options.respect_ignore, options.follow_symlinks
        )
    else:
        _root, files, walk_errors = discover(
            options.path,
            options.excludes,
            options.respect_ignore,
            options.follow_symlinks,
            sys_path_names=False,  # added below from the bytes read for the workers
        )
    stats["discover_s"] = time.perf_counter() - t0
    if options.require_files and not files and not walk_errors:
        _nothing_to_scan(options)
    # The table itself is read only when the result is not cached: its version names it.
    version = normalize_version(options.ms_version)  # raises on an unknown version

    from apiscan.cache import AnalysisCache, context_key, report_cache_key, scan_key, task_key
    from apiscan.extract import FileTask
    from apiscan.mapping.store import load_table
    from apiscan.model import ErrorFinding, Span
    from apiscan.results import join
    from apiscan.source import read_source_file

    sources: dict[str, bytes] = {}
    read_errors: list[ErrorFinding] = []
    for f in files:
        try:
            sources[f.abspath] = read_source_file(f.abspath)
        except OSError as exc:
            read_errors.append(
                ErrorFinding(
                    f.relpath, Span(1, 1, 1, 1), "E001", f"cannot read file: {exc.strerror or exc}"
                )
            )
    if len(options.paths) <= 1:  # each file read once: its sys.path entries from these bytes
        files = with_sys_path_names(_root, files, sources)
    local_roots = frozenset(m.partition(".")[0] for f in files for m in f.modules)
    tasks: list[FileTask] = []
    for f in files:
        data = sources.get(f.abspath)
        if data is None:
            continue
        task = FileTask(f.relpath, f.modules, f.is_package, data, (), options.dynamic_shape)
        # the review's syntax facts only for a caller that reads the records (the review)
        tasks.append(task if keep_facts else replace(task, syntax=False))
    stats["read_s"] = time.perf_counter() - t0

    cache = AnalysisCache(options.cache_dir)
    ctx = context_key(local_roots, TORCH_INDEX_VERSION, options.max_file_size)
    # A re-scan of an unchanged tree reuses the whole result: same files, same bytes, same
    # options, same mapping table.
    whole = scan_key(
        ctx,
        [task_key(t, ctx) for t in tasks],
        str(options.path),
        options.paths,
        version,
        True,  # the table merged with the older ones (load_table's default)
        repr((walk_errors, read_errors)),
        _candidate_index_version(),
        options.ignores,
        options.target_platform or "",
    )
    report_key = None
    if render is not None and cache.conn is not None and not keep_facts:
        report_key = report_cache_key(whole, render[0], _verify_fingerprint(options))
        hit = cache.get_report(report_key)
        if hit is not None:
            cache.close()
            text, statuses = hit
            stats["report_cached"] = 1
            stats["total_s"] = time.perf_counter() - t0
            return None, None, {}, Rendered(text, statuses, stats)
    previous = None if keep_facts else cache.get_scan(whole)
    if previous is not None:
        stats["files_cached"] = len(tasks)
        stats["files_analysed"] = 0
        stats["whole_result_cached"] = 1
        stats["total_s"] = time.perf_counter() - t0
        if options.warmup is not None:
            options.warmup()
        result = _link_verification(replace(previous, stats=stats), options)
        rendered = _keep_report(cache, report_key, render, result)
        cache.close()
        return result, None, {}, rendered
    runner = _Runner(cache, ctx, local_roots, options)
    try:
        analyses, reexports, cut = _rounds(tasks, runner, stats, options)
        _cpu_since(stats, "workers_cpu_s", 0.0, runner)
    finally:
        runner.close()
    stats["analyse_s"] = time.perf_counter() - t0
    stats["files_analysed"] = runner.analysed
    stats["files_cached"] = runner.cached
    stats["position_fallbacks"] = sum(1 for fa in analyses if fa.position_fallback)

    t1, c1 = time.perf_counter(), time.process_time()
    table = load_table(options.ms_version)
    stats["load_table_s"] = time.perf_counter() - t1
    t1 = time.perf_counter()
    result = join(
        str(options.path),
        analyses,
        [*walk_errors, *read_errors],
        table,
        stats,
        options.ignores,
        target_platform=options.target_platform,
    )
    if cut:
        result = replace(result, facts_cut=cut)
    stats["join_s"] = time.perf_counter() - t1
    stats["join_cpu_s"] = time.process_time() - c1
    t1 = time.perf_counter()
    cache.put_scan(whole, replace(result, stats={}))
    stats["put_scan_s"] = time.perf_counter() - t1
    t1, c1 = time.perf_counter(), time.process_time()
    result = _link_verification(result, options)
    stats["link_s"] = time.perf_counter() - t1
    stats["link_cpu_s"] = time.process_time() - c1
    stats["total_s"] = time.perf_counter() - t0
    stats["main_cpu_s"] = time.process_time()
    rendered = _keep_report(cache, report_key, render, result)
    cache.close()
    return result, (analyses if keep_facts else None), reexports, rendered


def _rounds(
    tasks: list[FileTask], runner: _Runner, stats: dict[str, float], options: ScanOptions
) -> tuple[list[FileAnalysis], dict[str, str], tuple[str, ...]]:
    """Every walk of the files: the first, the re-exports round, the whole-program rounds
    (and the files whose facts the re-walk budget cut, see :func:`_whole_program`)."""
    from apiscan.extract import reexport_members, reexport_subset
    from apiscan.program.index import resolve_reexports

    t0 = time.perf_counter()
    analyses = runner.run(tasks)
    stats["walk_s"] = time.perf_counter() - t0
    _cpu_since(stats, "walk_cpu_s", 0.0, runner)

    # Round 2: files that imported torch names through the repo's own modules.
    reexports = resolve_reexports(analyses)
    members = reexport_members(reexports)
    redo, walk = [], []
    known: dict[str, FileAnalysis] = {}
    for task, fa in zip(tasks, analyses, strict=True):
        subset = reexport_subset(fa.local_refs, reexports, members)
        if subset:
            redo.append(replace(task, reexports=subset))
            same = _walked_with_own_names(fa, subset)
            if same is None:
                walk.append(redo[-1])
            else:
                known[fa.path] = same
    if walk:
        t0, c0 = time.perf_counter(), _workers_cpu(runner)
        known.update(zip((t.relpath for t in walk), runner.run(walk), strict=True))
        stats["reexport_walk_s"] = time.perf_counter() - t0
        _cpu_since(stats, "reexport_walk_cpu_s", c0, runner)
    if known:
        analyses = [known.get(fa.path, fa) for fa in analyses]
    stats["files_reexport_walked"] = len(walk)
    stats["files_reexport_unwalked"] = len(redo) - len(walk)
    current = {t.relpath: t for t in [*tasks, *redo]}  # the redo entries win

    # Rounds 3+: whole-program facts (parameters, returns, attributes) back into the walks.
    analyses, cut = _whole_program(analyses, current, runner, stats, rewalk=options.dynamic_shape)
    if runner.pool is not None:
        stats["files_same_worker"] = runner.pool.sticky_hits
    return analyses, reexports, cut


def _walked_with_own_names(
    fa: FileAnalysis, subset: tuple[tuple[str, str], ...]
) -> FileAnalysis | None:
    """What the walk of ``fa``'s file with re-exports ``subset`` gives, when it is known
    without walking: every re-export is a repository name that stands for itself (a module's
    own class, found by :func:`apiscan.program.stars.star_bindings`: ``pkg.hooks.EvalHook`` →
    ``pkg.hooks.EvalHook``), and the file star-imports no module of the repository. Such a
    name then resolves to the same name as without it; the one difference is that the walk
    no longer lists it among the names it looked up (``local_refs``: only a name the
    re-exports do not know is listed, see ``ScopesMixin._local_qual``). None otherwise (a
    torch alias, a function's return, or a star import, whose bindings the re-exports make):
    the file is walked again. On the 405k-line corpus 135 of the 367 files of this round
    (2.7 of its 6.8 MB) were such files."""
    from apiscan.extract.records import RETURNS

    if any(key != target or key.endswith(RETURNS) for key, target in subset):
        return None
    if any(ref.endswith(".*") for ref in fa.local_refs):
        return None
    own = {key for key, _ in subset}
    return replace(fa, local_refs=tuple(r for r in fa.local_refs if r not in own))


def _keep_report(
    cache: AnalysisCache,
    key: str | None,
    render: tuple[str, Callable[[ScanResult], str]] | None,
    result: ScanResult,
) -> Rendered | None:
    """Render ``result`` and keep the report under ``key`` (when the report is cached)."""
    if render is None or key is None:
        return None
    t0, c0 = time.perf_counter(), time.process_time()
    rendered = Rendered(render[1](result), _statuses(result), result.stats)
    result.stats["render_s"] = time.perf_counter() - t0
    result.stats["render_cpu_s"] = time.process_time() - c0
    cache.put_report(key, rendered.text, rendered.statuses)
    return rendered


def _verify_fingerprint(options: ScanOptions) -> str:
    """What the link step reads besides the result: the verification results on disk (any
    file added, removed or rewritten by ``apiscan verify`` changes it), device and dtype."""
    from apiscan.verify.results import cache_in

    assert options.cache_dir is not None
    h = hashlib.sha256(f"{options.verify_device}|{options.verify_dtype}".encode())
    try:
        entries = sorted(
            (e.name, e.stat().st_size, e.stat().st_mtime_ns)
            for e in os.scandir(cache_in(options.cache_dir).directory)
        )
    except OSError:
        entries = []
    h.update(repr(entries).encode())
    return h.hexdigest()


def _whole_program(
    analyses: list[FileAnalysis],
    current: dict[str, FileTask],
    runner: _Runner,
    stats: dict[str, float],
    rewalk: bool = True,
) -> tuple[list[FileAnalysis], tuple[str, ...]]:
    """Solve on the workers' records, re-walk the files whose facts changed, repeat.

    Each round is one solver run in this process and one (parallel, cached) walk of the files
    whose environment changed; it stops when no environment changes or after
    :data:`MAX_ROUNDS` (the facts then stand as found: a widening of the outer loop). Without
    ``rewalk`` (no dynamic-shape rules) the solver runs once, for the owners it proves.
    Also returns the files whose last asked re-walk the byte budget left out, sorted: they
    keep an earlier walk, so a finding the new facts would give them is missing (the results
    say so: ``ScanResult.facts_cut``, ``files_facts_cut`` in the stats). The set depends on
    what else is scanned: a scan of a sub-directory may give them their findings.
    """
    from apiscan.program.index import ClassTable
    from apiscan.program.solver import (
        Reuse,
        needs_walk,
        shows_calls,
        solve,
        widen_env,
        with_owners,
    )
    from apiscan.resolve.torch_api import load_torch_api

    classes = ClassTable(analyses, load_torch_api())
    reuse = Reuse()  # the rounds re-walk files for new facts; names resolve as before
    rounds = iterations = rewalked = 0
    total = sum(len(t.data) for t in current.values())
    budget = max(REWALK_MIN_BYTES, int(total * REWALK_SHARE))
    edge_budget = max(EDGE_REWALK_MIN_BYTES, int(total * EDGE_REWALK_SHARE))
    solve_s = rewalk_s = solve_cpu_s = 0.0
    cut: set[str] = set()
    for _ in range(MAX_ROUNDS):
        t0, c0 = time.perf_counter(), time.process_time()
        sol = solve(analyses, classes, reuse, envs=rewalk)
        solve_s += time.perf_counter() - t0
        solve_cpu_s += time.process_time() - c0
        iterations += sol.iterations
        redo, edges = [], []
        for fa in analyses if rewalk else ():
            task = current.get(fa.path)
            if task is None:
                continue
            env = widen_env(task.env, sol.envs.get(fa.path, ()))
            if needs_walk(task.env, env, fa.sensitive):
                redo.append(replace(task, env=env))
            elif shows_calls(task.env, env):
                edges.append(replace(task, env=env))
        asked = {t.relpath for t in redo}
        redo, skipped = _within_budget(redo, budget)
        budget -= sum(len(t.data) for t in redo)
        walked = {t.relpath for t in redo}
        cut = (cut - walked) | (asked - walked)
        stats["files_rewalk_skipped"] = stats.get("files_rewalk_skipped", 0) + skipped
        edges, _ = _within_budget(edges, edge_budget)
        edge_budget -= sum(len(t.data) for t in edges)
        redo = sorted(redo + edges, key=lambda t: t.relpath)
        if not redo:
            break
        rounds += 1
        rewalked += len(redo)
        t0, c0 = time.perf_counter(), _workers_cpu(runner)
        again = dict(zip((t.relpath for t in redo), runner.run(redo), strict=True))
        rewalk_s += time.perf_counter() - t0
        _cpu_since(stats, "rewalk_cpu_s", c0, runner)
        current.update((t.relpath, t) for t in redo)
        # a walk for call edges only hands on its calls, the arguments of its calls of the
        # repository's functions and what its functions return (an instance it now knows,
        # passed on to a helper or returned by a builder, whose calls land on its class):
        # the file's findings stay those of its walk for facts (whose env changed nothing
        # that can change a finding)
        if edges:
            walked_for = {fa.path: fa for fa in analyses}
            for t in edges:
                got = again[t.relpath]
                again[t.relpath] = replace(
                    walked_for[t.relpath],
                    calls=got.calls,
                    sites=got.sites,
                    summaries=got.summaries,
                )
        analyses = [again.get(fa.path, fa) for fa in analyses]
    else:
        t0, c0 = time.perf_counter(), time.process_time()
        # the facts of the last walks, for the owners (no file is walked again)
        sol = solve(analyses, classes, reuse, envs=False)
        solve_s += time.perf_counter() - t0
        solve_cpu_s += time.process_time() - c0
        iterations += sol.iterations
    stats["solve_s"] = solve_s
    stats["solve_cpu_s"] = solve_cpu_s
    stats["rewalk_s"] = rewalk_s
    stats["solver_rounds"] = rounds
    stats["solver_iterations"] = iterations
    stats["files_rewalked"] = rewalked
    stats["files_facts_cut"] = len(cut)
    return [with_owners(fa, sol, classes.api, classes) for fa in analyses], tuple(sorted(cut))


def _workers_cpu(runner: _Runner) -> float | None:
    """The CPU seconds the scan's workers have used so far (0 before any was started;
    None where the system cannot tell)."""
    return 0.0 if runner.pool is None else runner.pool.cpu_seconds()


def _cpu_since(stats: dict[str, float], key: str, before: float | None, runner: _Runner) -> None:
    """Add the workers' CPU seconds since ``before`` (:func:`_workers_cpu`) to ``stats[key]``
    (``--stats``: how a cold scan's CPU splits between its rounds); nothing where the system
    cannot tell."""
    after = _workers_cpu(runner)
    if before is not None and after is not None:
        stats[key] = stats.get(key, 0.0) + after - before


def _within_budget(redo: list[FileTask], budget: int) -> tuple[list[FileTask], int]:
    """The re-walks that fit in what is left of the byte budget, smallest files first (most
    files for the cost; deterministic), and how many were left out."""
    kept, used = [], 0
    for task in sorted(redo, key=lambda t: (len(t.data), t.relpath)):
        if used + len(task.data) <= budget:
            kept.append(task)
            used += len(task.data)
    kept.sort(key=lambda t: t.relpath)
    return kept, len(redo) - len(kept)


def _candidate_index_version() -> str:
    """Which MindSpore name index made the candidates (part of the whole-result key)."""
    from apiscan.mapping.candidates import FORMAT_VERSION, load_candidates

    index = load_candidates()
    return f"{index.mindspore_version}/{FORMAT_VERSION}" if index else "none"


def _link_verification(
    result: ScanResult, options: ScanOptions, cache: ResultCache | None = None
) -> ScanResult:
    """Substitutions and micro-test results for what the scan found (after the scan cache:
    they change when ``apiscan verify`` runs, not when the code does). ``cache``: the
    verification results to read (default: those under ``options.cache_dir``); an editor
    passes the same one for every buffer check."""
    from apiscan.rewrite import apply
    from apiscan.verify.lookup import check_forms, link
    from apiscan.verify.results import cache_in

    if cache is None and options.cache_dir:
        cache = cache_in(options.cache_dir)
    # Dispositions and per-call rewrites come after the link: a candidate promoted to
    # verified is rewritten with that proof.
    device, dtype = options.verify_device, options.verify_dtype
    return check_forms(apply(link(result, cache, device, dtype)), cache, device, dtype)


class _Runner:
    """Cache lookups, then the misses in-process or in a process pool."""

    def __init__(
        self, cache: AnalysisCache, ctx: str, local_roots: frozenset[str], options: ScanOptions
    ) -> None:
        self.cache, self.ctx, self.local_roots, self.options = cache, ctx, local_roots, options
        self.options_warmup = options.warmup  # run at most once
        #: the tail's imports and data (:func:`_prepare_tail`) ride on the first warm-up
        #: started while workers walk: then the main process only waits
        self.tail_pending = True
        self.warm: threading.Thread | None = None
        self.analysed = 0
        self.cached = 0
        self.pool: StickyPool | None = None

    def run(self, tasks: list[FileTask]) -> list[FileAnalysis]:
        import pickle

        from apiscan.cache import task_key

        keys = [task_key(t, self.ctx) for t in tasks]
        hits = self.cache.get_many(keys)
        self.cached += len(hits)
        todo = [(k, t) for k, t in zip(keys, tasks, strict=True) if k not in hits]
        if not todo and self.warm is None:
            # Nothing to parse: no worker will be forked, so the reporter's slow imports can
            # start now, in a thread (joined before any fork, see _analyse).
            self.warm = self._start_warmup(tail=False)
        fresh = self._analyse([t for _, t in todo])
        self.analysed += len(todo)
        self.cache.put_many_pickled(
            (k, blob if blob is not None else pickle.dumps(fa, pickle.HIGHEST_PROTOCOL))
            for (k, _), (fa, blob) in zip(todo, fresh, strict=True)
        )
        results = dict(hits)
        results.update((k, fa) for (k, _), (fa, _b) in zip(todo, fresh, strict=True))
        return [results[k] for k in keys]

    def _analyse(self, tasks: list[FileTask]) -> list[tuple[FileAnalysis, bytes | None]]:
        """Analyse in worker processes, always: a parser crash (LibCST's native parser can
        segfault on pathological input) then costs one file, not the scan. Each analysis
        comes with its pickle (None when it was made here), which the cache stores as is.
        The workers are forked on the first call and serve every round (see
        :mod:`apiscan.workers`)."""
        if not tasks:
            return []
        if self.warm is not None:  # never fork while a thread may hold an import lock
            self.warm.join()
        import multiprocessing
        import pickle

        # Load what every worker needs once, before forking, so workers inherit it.
        import apiscan.extract.api_uses  # noqa: F401
        from apiscan.resolve.torch_api import load_torch_api
        from apiscan.workers import StickyPool

        load_torch_api()
        if self.pool is None:
            _before_fork()
            jobs = self.options.jobs or os.cpu_count() or 1
            if sum(len(t.data) for t in tasks) < POOL_MIN_BYTES:
                jobs = 1  # one worker: isolation without the cost of starting several
            self.pool = StickyPool(
                min(jobs, len(tasks)),
                _analyse_one,
                (self.local_roots, self.options.max_file_size),
                _worker_start,
                (os.getpid(),),
            )
        progress = None
        warm = None
        try:
            self.pool.start(len(tasks))
            # Threads start only now that the workers are forked.
            warm = self._start_warmup(tail=True)
            self.warm = self.warm or warm
            progress = _progress(len(tasks)) if self.options.progress else None
            pickled = self.pool.run(tasks, progress)
        finally:
            if progress:
                progress(-1)
            if warm is not None:
                warm.join()
        ctx = multiprocessing.get_context("fork")
        out: list[tuple[FileAnalysis, bytes | None]] = []
        for task, blob in zip(tasks, pickled, strict=True):
            if blob is None:  # its worker died: alone, so a crash is pinned on its file
                out.append((self._isolated(task, ctx), None))
            else:
                out.append((pickle.loads(blob), blob))
        return out

    def close(self) -> None:
        """Stop the workers (the scan's last round is done)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def _isolated(self, task: FileTask, ctx: object) -> FileAnalysis:
        """Re-run one file alone after a worker died, so a crash is pinned on its file."""
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        from apiscan.extract.records import FileAnalysis
        from apiscan.lifetime import signals_deferred
        from apiscan.model import FileError

        try:
            with (
                ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=ctx,  # type: ignore[arg-type]
                    initializer=_worker_start,
                    initargs=(os.getpid(),),
                ) as pool,
                _stopped_on_interrupt(pool),
            ):
                with signals_deferred():  # submit() forks the worker
                    future = pool.submit(
                        _analyse_one, task, self.local_roots, self.options.max_file_size
                    )
                return future.result()
        except BrokenProcessPool:
            err = FileError(
                "E009",
                "the parser crashed on this file (the worker process died);"
                " it was skipped and the rest of the scan went on",
            )
            return FileAnalysis(task.relpath, task.modules, "", 0, errors=(err,))

    def _start_warmup(self, tail: bool) -> threading.Thread | None:
        """The warm-up thread: the options' hook (at most once) and, with ``tail`` (workers
        are walking: this process has nothing else to do), the tail's share."""
        hook, self.options_warmup = self.options_warmup, None
        if tail and self.tail_pending:
            self.tail_pending = False
            hook = _with_tail(hook, self.options.ms_version)
        if hook is None:
            return None
        thread = threading.Thread(target=hook, name="apiscan-warmup", daemon=True)
        thread.start()
        return thread


def _with_tail(hook: Callable[[], None] | None, ms_version: str | None) -> Callable[[], None]:
    """``hook``, then :func:`_prepare_tail`: what the warm-up thread runs while the workers
    walk (the main process only waits for their results then)."""

    def both() -> None:
        if hook is not None:
            hook()
        _prepare_tail(ms_version)

    return both


def _prepare_tail(ms_version: str | None) -> None:
    """Import the stages after the walks and read the data they load once per process (the
    mapping table, the verification catalogue's documented forms, the rewrite recipes), so
    that a cold scan's serial tail after its last walk is the work on its own results alone
    (YOLOX: ~0.2 s of its wall). Only caches are filled: results are the same whether this
    ran or not, and a failure here is met again, and reported, where the stage itself runs."""
    try:
        # the graph library, which the solver and the scopes import only where they build
        # graphs (a pool's workers never do), is imported here while the workers walk
        import networkx  # noqa: F401

        import apiscan.program.solver
        import apiscan.results
        import apiscan.scope.classify  # noqa: F401
        from apiscan.mapping.store import load_table
        from apiscan.rewrite import apply  # noqa: F401
        from apiscan.rewrite.substitutions import recipes_for
        from apiscan.verify.catalogue import documented
        from apiscan.verify.lookup import link  # noqa: F401

        load_table(ms_version)
        recipes_for("")
        documented.apis()
    except Exception:  # the stage that needs it meets it again and says what went wrong
        pass


@contextlib.contextmanager
def _stopped_on_interrupt(pool: ProcessPoolExecutor) -> Iterator[None]:
    """On Ctrl-C or SIGTERM, kill the workers at once: leaving the ``with`` block would
    otherwise wait for every queued file to be analysed."""
    try:
        yield
    except BaseException as exc:
        if not isinstance(exc, Exception):  # KeyboardInterrupt, Terminated, SystemExit
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                with contextlib.suppress(OSError):
                    process.kill()
            pool.shutdown(wait=False, cancel_futures=True)
        raise


#: A worker's garbage collector: the first generation is collected every this many net
#: allocations (Python's default, 700, runs it thousands of times per file of LibCST nodes).
WORKER_GC_THRESHOLD = (50_000, 20, 100)


def _before_fork() -> None:
    """What each worker would otherwise import or make for itself, done once here: the
    modules a walk imports late (positions, the degraded path, the parser's set-up, ctypes for
    the parent-death signal, LibCST's native parser), LibCST's faster node constructors and
    the whitespace-sharing factories, which the workers install (:func:`apiscan.parsing.
    for_workers`) while this process's classes are left as they were, and the walks' memo
    tables that every worker's first file filled for itself."""
    import ctypes  # noqa: F401
    import queue  # noqa: F401

    import libcst.native  # noqa: F401

    import apiscan.extract.degraded
    import apiscan.extract.positions
    import apiscan.parsing
    from apiscan.extract import prepare_walks

    apiscan.parsing.node_inits()
    # and the tables every worker's first file would build (~12 ms a worker on YOLOX)
    apiscan.parsing.prepare_shared_nodes()
    prepare_walks()


def _worker_start(parent: int) -> None:
    """A worker process's set-up: it dies with the scan, and its garbage collector skips what
    it inherited from the parent (the torch index, the mapping table: frozen, never traversed,
    so never copied on write either) and runs less often. A file's walk makes millions of
    short-lived objects and few cycles; this cut the walk's CPU time by 10-15% on detectron2
    at the same peak memory."""
    import gc

    import apiscan.parsing
    from apiscan.lifetime import die_with_parent

    die_with_parent(parent)
    apiscan.parsing.for_workers()  # no node validation, one parse thread (see there)
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLD)
    gc.enable()  # forked from a scan that runs without it (:func:`_fewer_collections`)


def _analyse_one(task: FileTask, local_roots: frozenset[str], max_size: int) -> FileAnalysis:
    from apiscan.extract import analyse
    from apiscan.workers import forget, keep_facts, kept_parse

    fa = analyse(task, local_roots, max_size, kept_parse, keep_facts)
    if not (fa.summaries or fa.sites or fa.classes or fa.local_refs):
        forget(task.relpath)  # no later round can walk it again: its parse is not kept
    return fa


def _progress(total: int) -> Callable[[int], None]:
    """A progress bar on stderr (only used when stderr is a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress(
        "scanning", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    )
    bar.start()
    task_id = bar.add_task("scan", total=total)

    def update(done: int) -> None:
        if done < 0:
            bar.stop()
        else:
            bar.update(task_id, completed=done)

    return update
