"""The only module that knows the order of the stages.

discover → read → per-file analysis (cached, in a process pool) → join (re-exports through the
repo's own modules, classes whose bases live in other files) → mapping match → ScanResult.

Heavy imports (libcst, the torch index) happen only when some file actually needs analysing,
so a warm re-scan of an unchanged repository costs little more than hashing its files.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan import __version__
from apiscan.cache import AnalysisCache, context_key, default_cache_dir, scan_key, task_key
from apiscan.config import Ignores
from apiscan.discovery import discover, discover_many
from apiscan.extract import FileTask, analyse, reexport_subset
from apiscan.extract.records import RETURNS, ClassFact, FileAnalysis, ShapeHit
from apiscan.lifetime import die_with_parent, signals_deferred
from apiscan.model import (
    ApiFinding,
    ApiUse,
    ErrorFinding,
    FileError,
    FileSummary,
    Finding,
    MappingInfo,
    ScanResult,
    ShapeFinding,
    Span,
    namespace_of,
)
from apiscan.source import read_source_file

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from apiscan.mapping.match import Match
    from apiscan.mapping.store import MappingTable
    from apiscan.resolve.torch_api import TorchApi
    from apiscan.scope.classify import ScopeMap

TORCH_INDEX_VERSION = "2.13.0"
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
    #: Several paths scanned as one (``apiscan a.py b.py``, a pre-commit hook): ``path`` is
    #: then their common directory and only these are scanned.
    paths: tuple[str, ...] = ()
    #: Slow imports to run in a background thread once the workers are forked (the text
    #: report's pandas): they then cost nothing on a cold scan's wall time.
    warmup: Callable[[], None] | None = None


ProgressHook = Callable[[int, int], None]


def scan(options: ScanOptions) -> ScanResult:
    """Run every stage; raises DiscoveryError / UnknownVersionError for usage errors."""
    return _scan(options, keep_facts=False)[0]


def scan_with_facts(options: ScanOptions) -> tuple[ScanResult, list[FileAnalysis]]:
    """The scan plus the per-file facts it was built from (classes, calls, functions), for
    features on top of the results model such as the feasibility review."""
    result, analyses, _reexports = _scan(options, keep_facts=True)
    assert analyses is not None
    return result, analyses


def scan_for_context(
    options: ScanOptions,
) -> tuple[ScanResult, list[FileAnalysis], dict[str, str]]:
    """:func:`scan_with_facts` plus the re-exports the second round used (found from the
    first round's analyses, which the final ones cannot stand in for): what checking one
    buffer as the CLI would needs (``apiscan.buffer``)."""
    result, analyses, reexports = _scan(options, keep_facts=True)
    assert analyses is not None
    return result, analyses, reexports


def _scan(
    options: ScanOptions, keep_facts: bool
) -> tuple[ScanResult, list[FileAnalysis] | None, dict[str, str]]:
    from apiscan.mapping.store import load_table

    stats: dict[str, float] = {}
    t0 = time.perf_counter()
    table = load_table(options.ms_version)  # fail fast on an unknown version
    if len(options.paths) > 1:
        _root, files, walk_errors = discover_many(
            list(options.paths), options.excludes, options.respect_ignore
        )
    else:
        _root, files, walk_errors = discover(options.path, options.excludes, options.respect_ignore)
    stats["discover_s"] = time.perf_counter() - t0

    local_roots = frozenset(m.partition(".")[0] for f in files for m in f.modules)
    tasks: list[FileTask] = []
    read_errors: list[ErrorFinding] = []
    for f in files:
        try:
            data = read_source_file(f.abspath)
        except OSError as exc:
            read_errors.append(
                ErrorFinding(
                    f.relpath, Span(1, 1, 1, 1), "E001", f"cannot read file: {exc.strerror or exc}"
                )
            )
            continue
        tasks.append(FileTask(f.relpath, f.modules, f.is_package, data, (), options.dynamic_shape))
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
        table.version,
        table.merged,
        repr((walk_errors, read_errors)),
        _candidate_index_version(),
        options.ignores,
        options.target_platform or "",
    )
    previous = None if keep_facts else cache.get_scan(whole)
    if previous is not None:
        cache.close()
        stats["files_cached"] = len(tasks)
        stats["files_analysed"] = 0
        stats["whole_result_cached"] = 1
        stats["total_s"] = time.perf_counter() - t0
        if options.warmup is not None:
            options.warmup()
        return _link_verification(replace(previous, stats=stats), options), None, {}
    runner = _Runner(cache, ctx, local_roots, options)
    analyses = runner.run(tasks)

    # Round 2: files that imported torch names through the repo's own modules.
    reexports = resolve_reexports(analyses)
    redo = []
    for task, fa in zip(tasks, analyses, strict=True):
        subset = reexport_subset(fa.local_refs, reexports)
        if subset:
            redo.append(replace(task, reexports=subset))
    if redo:
        again = dict(zip((t.relpath for t in redo), runner.run(redo), strict=True))
        analyses = [again.get(fa.path, fa) for fa in analyses]
    stats["analyse_s"] = time.perf_counter() - t0
    stats["files_analysed"] = runner.analysed
    stats["files_cached"] = runner.cached
    stats["position_fallbacks"] = sum(1 for fa in analyses if fa.position_fallback)

    result = join(
        str(options.path),
        analyses,
        [*walk_errors, *read_errors],
        table,
        stats,
        options.ignores,
        target_platform=options.target_platform,
    )
    cache.put_scan(whole, replace(result, stats={}))
    cache.close()
    result = _link_verification(result, options)
    stats["total_s"] = time.perf_counter() - t0
    return result, (analyses if keep_facts else None), reexports


def _candidate_index_version() -> str:
    """Which MindSpore name index made the candidates (part of the whole-result key)."""
    from apiscan.mapping.candidates import FORMAT_VERSION, load_candidates

    index = load_candidates()
    return f"{index.mindspore_version}/{FORMAT_VERSION}" if index else "none"


def _link_verification(result: ScanResult, options: ScanOptions) -> ScanResult:
    """Substitutions and micro-test results for what the scan found (after the scan cache:
    they change when ``apiscan verify`` runs, not when the code does)."""
    from apiscan.rewrite import apply
    from apiscan.verify.lookup import check_forms, link
    from apiscan.verify.results import cache_in

    cache = cache_in(options.cache_dir) if options.cache_dir else None
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
        self.warm: threading.Thread | None = None
        self.analysed = 0
        self.cached = 0

    def run(self, tasks: list[FileTask]) -> list[FileAnalysis]:
        keys = [task_key(t, self.ctx) for t in tasks]
        hits = self.cache.get_many(keys)
        self.cached += len(hits)
        todo = [(k, t) for k, t in zip(keys, tasks, strict=True) if k not in hits]
        if not todo and self.warm is None:
            # Nothing to parse: no worker will be forked, so the reporter's slow imports can
            # start now, in a thread (joined before any fork, see _analyse).
            self.warm = self._start_warmup()
        fresh = self._analyse([t for _, t in todo])
        self.analysed += len(todo)
        self.cache.put_many(zip((k for k, _ in todo), fresh, strict=True))
        results = dict(hits)
        results.update(zip((k for k, _ in todo), fresh, strict=True))
        return [results[k] for k in keys]

    def _analyse(self, tasks: list[FileTask]) -> list[FileAnalysis]:
        """Analyse in worker processes, always: a parser crash (LibCST's native parser can
        segfault on pathological input) then costs one file, not the scan."""
        if not tasks:
            return []
        if self.warm is not None:  # never fork while a thread may hold an import lock
            self.warm.join()
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        # Load what every worker needs once, before forking, so workers inherit it.
        import apiscan.extract.api_uses  # noqa: F401
        from apiscan.resolve.torch_api import load_torch_api

        load_torch_api()
        jobs = self.options.jobs or os.cpu_count() or 1
        size = sum(len(t.data) for t in tasks)
        if size < POOL_MIN_BYTES:
            jobs = 1  # one worker: isolation without the cost of starting several
        jobs = min(jobs, len(tasks))
        order = sorted(range(len(tasks)), key=lambda i: -len(tasks[i].data))
        results: list[FileAnalysis | None] = [None] * len(tasks)
        ctx = multiprocessing.get_context("fork")
        chunk = max(1, min(16, len(tasks) // (jobs * 8)))
        progress = None
        warm = None
        try:
            with (
                ProcessPoolExecutor(
                    max_workers=jobs,
                    mp_context=ctx,
                    initializer=die_with_parent,
                    initargs=(os.getpid(),),
                ) as pool,
                _stopped_on_interrupt(pool),
            ):
                with signals_deferred():  # map() forks the workers
                    mapped = pool.map(
                        _analyse_one,
                        (tasks[i] for i in order),
                        [self.local_roots] * len(order),
                        [self.options.max_file_size] * len(order),
                        chunksize=chunk,
                    )
                # Threads start only now that the workers are forked.
                warm = self._start_warmup()
                self.warm = self.warm or warm
                progress = _progress(len(tasks)) if self.options.progress else None
                for done, (i, fa) in enumerate(zip(order, mapped, strict=True), 1):
                    results[i] = fa
                    if progress:
                        progress(done)
        except BrokenProcessPool:
            for i in order:
                if results[i] is None:
                    results[i] = self._isolated(tasks[i], ctx)
        finally:
            if progress:
                progress(-1)
            if warm is not None:
                warm.join()
        return [r for r in results if r is not None]

    def _isolated(self, task: FileTask, ctx: object) -> FileAnalysis:
        """Re-run one file alone after a worker died, so a crash is pinned on its file."""
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        try:
            with (
                ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=ctx,  # type: ignore[arg-type]
                    initializer=die_with_parent,
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

    def _start_warmup(self) -> threading.Thread | None:
        hook, self.options_warmup = self.options_warmup, None
        if hook is None:
            return None
        thread = threading.Thread(target=hook, name="apiscan-warmup", daemon=True)
        thread.start()
        return thread


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


def _analyse_one(task: FileTask, local_roots: frozenset[str], max_size: int) -> FileAnalysis:
    return analyse(task, local_roots, max_size)


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


# ---------------------------------------------------------------------------- the join
def _module_aliases(analyses: Iterable[FileAnalysis]) -> dict[str, str]:
    """Every ``module.name`` bound at module level to a qualified name, across the repo."""
    aliases: dict[str, str] = {}
    for fa in analyses:
        for module in fa.modules:
            for name, target in fa.exports:
                key = f"{module}.{name}"
                if key != target and not name.endswith(RETURNS):
                    aliases[key] = target
    return aliases


def _module_names(analyses: Iterable[FileAnalysis]) -> frozenset[str]:
    """The dotted names of the repository's own modules (files)."""
    return frozenset(module for fa in analyses for module in fa.modules)


def _follow(
    q: str,
    aliases: Mapping[str, str],
    stop: Callable[[str], bool],
    modules: frozenset[str] = frozenset(),
) -> str | None:
    """Rewrite ``q`` through the alias table until ``stop(q)`` holds (or give up).

    A name inside one of the repository's ``modules`` is that module's own unless an alias
    of the module rewrites it: ``pkg.layers.nms.batched_nms`` is the function nms.py defines
    even when ``pkg/layers/__init__.py`` binds ``nms`` to ``torchvision.ops.nms`` (``from
    .nms import batched_nms`` imports the submodule, never the package attribute).
    """
    for _ in range(20):
        if stop(q):
            return q
        parts = q.split(".")
        for cut in range(len(parts), 0, -1):
            prefix = ".".join(parts[:cut])
            if cut < len(parts) and prefix in modules:
                return None
            target = aliases.get(prefix)
            if target is not None:
                q = ".".join([target, *parts[cut:]])
                break
        else:
            return None
    return None


def _is_torch(q: str) -> bool:
    from apiscan.resolve.torch_api import is_torch_name

    return is_torch_name(q)


def resolve_reexports(analyses: Iterable[FileAnalysis]) -> dict[str, str]:
    """Cross-file facts a file's analysis can use, found after the first round.

    ``tinydet.layers.nn`` → ``torch.nn``: repo names that are torch names in disguise; and
    ``tinydet.build_model()`` → ``inst:tinydet.model.Detector``: what repo functions return
    (keys ending in ``()``), followed through the modules that re-export the function.
    """
    analyses = list(analyses)
    aliases = _module_aliases(analyses)
    modules = _module_names(analyses)
    returns = {}
    for fa in analyses:
        for module in fa.modules:
            for name, target in fa.exports:
                if name.endswith(RETURNS):
                    returns[f"{module}.{name}"] = target
    out = {}
    for key in aliases:
        target = _follow(key, aliases, _is_torch, modules)
        if target is not None:
            out[key] = target
        func = _follow(key, aliases, lambda q: q + RETURNS in returns, modules)
        if func is not None:
            out[key + RETURNS] = returns[func + RETURNS]
    out.update(returns)
    return out


class ClassTable:
    """Classes of the whole repository, to resolve ``obj.attr`` on instances of repo classes."""

    def __init__(self, analyses: Iterable[FileAnalysis], api: TorchApi) -> None:
        self.api = api
        self.facts: dict[str, ClassFact] = {}
        analyses = list(analyses)
        for fa in analyses:
            for module in fa.modules:
                for fact in fa.classes:
                    self.facts[f"{module}.{fact.qualname}"] = fact
        self.aliases = _module_aliases(analyses)
        self.modules = _module_names(analyses)
        self._resolved: dict[str, str | None] = {}

    def _find(self, cls: str) -> ClassFact | str | None:
        """The repo class ``cls`` names, or the torch class it aliases, or None."""
        if _is_torch(cls):
            return cls
        q = self.resolve(cls)
        if q is None:
            return None
        return q if _is_torch(q) else self.facts[q]

    def resolve(self, name: str) -> str | None:
        """``name`` followed through the repo's re-exports to a class or a torch name
        (memoised: the join asks for the same few classes thousands of times)."""
        if name in self._resolved:
            return self._resolved[name]
        q = _follow(name, self.aliases, lambda n: n in self.facts or _is_torch(n), self.modules)
        self._resolved[name] = q
        return q

    def member(self, cls: str, attr: str, depth: int = 0) -> tuple[str, str | None]:
        """What ``cls().attr`` is: ("torch", api), ("user", None) or ("unknown", None).

        "user" means the attribute is the repository's own (a method it defines, or an
        attribute of a class with no torch ancestor); "unknown" that some ancestor lies
        outside the repository and torch, so only a name-based guess is left.
        """
        found = self._find(cls)
        if found is None or depth > 30:
            return "unknown", None
        if isinstance(found, str):
            api = self.api.member(self.api.canonical(found) or found, attr)
            return ("torch", api) if api else ("user", None)
        if attr in found.methods:
            return "user", None
        for base in found.bases:
            if not base:
                return "unknown", None
            kind, api = self.member(base, attr, depth + 1)
            if kind == "unknown" or api:
                return kind, api
        return "user", None


class JoinContext:
    """What the join knows about the whole repository (classes, call-graph scopes, the
    mapping), so that one file's findings can be computed without redoing the others'.

    ``join`` runs :meth:`file_findings` for every file; an editor checking one buffer keeps a
    context of the project and runs it for that buffer alone (``apiscan.buffer``), so a
    buffer's findings come from the very code that makes the CLI's.
    """

    def __init__(
        self,
        analyses: Sequence[FileAnalysis],
        table: MappingTable,
        classes: ClassTable | None = None,
        scopes: ScopeMap | None = None,
        ignores: Ignores | None = None,
        *,
        target_platform: str | None = None,
    ) -> None:
        from apiscan.resolve.torch_api import load_torch_api
        from apiscan.scope.classify import ScopeMap

        self.api = load_torch_api()
        self.table = table
        self.classes = classes or ClassTable(analyses, self.api)
        self.matcher = _Matcher(table, self.api, target_platform)
        self.scopes = scopes or ScopeMap.build(analyses, self.classes)
        self.shapes = _ShapeFindings(table, self.api)
        self.ignores = ignores or Ignores()

    def file_findings(self, fa: FileAnalysis) -> tuple[list[Finding], FileSummary]:
        """One file's findings (unsorted) and its summary row."""
        classes, matcher, scopes, shapes = self.classes, self.matcher, self.scopes, self.shapes
        ignores = self.ignores
        findings: list[Finding] = []
        suppressed = dict(fa.suppressions)
        for hit in fa.shape_hits:
            if not _is_suppressed(suppressed, hit.span.line, hit.rule) and not (
                ignores and ignores.ignored(fa.path, hit.rule)
            ):
                findings.append(
                    shapes.finding(fa.path, hit, scopes.scope_of(fa.path, hit.function))
                )
        uses = list(fa.uses)
        for p in fa.pending:
            kind, name = classes.member(p.cls, p.attr)
            if kind == "torch" and name:
                uses.append(_with_api(p.use, name, "certain"))
            elif kind == "unknown" and p.fallback:
                uses.append(_with_api(p.use, p.fallback, "probable"))
        n = 0
        for use in uses:
            finding = matcher.finding(fa.path, use)
            if (
                finding is not None
                and not _is_suppressed(suppressed, use.span.line, finding.rule)
                and not (ignores and ignores.ignored(fa.path, finding.rule))
            ):
                findings.append(replace(finding, scope=scopes.scope_of(fa.path, use.function)))
                n += 1
        for err in fa.errors:
            findings.append(ErrorFinding(fa.path, err.span, err.code, err.message))
        if fa.cells:  # a notebook: positions in the joined code → cell and line in the cell
            findings = [in_cell(f, fa.cells) for f in findings]
        return findings, FileSummary(fa.path, fa.lines, n, len(fa.errors))


def join(
    root: str,
    analyses: list[FileAnalysis],
    extra_errors: list[ErrorFinding],
    table: MappingTable,
    stats: dict[str, float],
    ignores: Ignores | None = None,
    *,
    target_platform: str | None = None,
) -> ScanResult:
    context = JoinContext(analyses, table, ignores=ignores, target_platform=target_platform)
    findings: list[Finding] = list(extra_errors)
    summaries = []
    for fa in analyses:
        file_findings, summary = context.file_findings(fa)
        findings.extend(file_findings)
        summaries.append(summary)
    return assemble(root, findings, summaries, table, context.api.version, stats)


def assemble(
    root: str,
    findings: list[Finding],
    summaries: list[FileSummary],
    table: MappingTable,
    torch_api_version: str,
    stats: dict[str, float],
) -> ScanResult:
    """The results model from findings and file rows, sorted (the join's last step)."""
    findings.sort(key=lambda f: f.sort_key())
    summaries.sort(key=lambda s: s.path)
    mapping = MappingInfo(table.version, table.merged, tuple(table.sources))
    return ScanResult(
        root=Path(root).as_posix(),
        tool_version=__version__,
        mapping=mapping,
        files=tuple(summaries),
        findings=tuple(findings),
        torch_api_version=torch_api_version,
        stats=stats,
    )


def in_cell(finding: Finding, cells: tuple[tuple[int, int], ...]) -> Finding:
    """A finding on a notebook's joined code, placed in its cell (a span reaching into a
    later cell, only possible for a syntax error, is cut at the end of its first line)."""
    span = finding.span
    cell, line = cells[min(max(span.line, 1), len(cells)) - 1]
    end_cell, end_line = cells[min(max(span.end_line, 1), len(cells)) - 1]
    if end_cell == cell:
        new = Span(line, span.column, end_line, span.end_column)
    else:
        new = Span(line, span.column, line, span.column)
    return replace(finding, span=new, cell=cell)


def _is_suppressed(suppressed: Mapping[int, tuple[str, ...]], line: int, rule: str) -> bool:
    """``# apiscan: ignore[DS101]`` (or a bare ``# apiscan: ignore``) on the finding's line."""
    ids = suppressed.get(line)
    return ids is not None and (not ids or rule in ids)


class _ShapeFindings:
    """Dynamic-shape hits → findings: the rule's words, severity by scope, backend support."""

    def __init__(self, table: MappingTable, api: TorchApi) -> None:
        from apiscan.mapping.dynamic_shape import is_listed, supported_backends
        from apiscan.rules.registry import get_rule

        self.table, self.api = table, api
        self.get_rule, self.is_listed, self.backends = get_rule, is_listed, supported_backends

    def _target(self, torch_api: str, rule_targets: tuple[str, ...]) -> str | None:
        """The MindSpore counterpart: the mapping table's, else the rule's first listed one."""
        row = self.table.lookup(torch_api) if torch_api else None
        candidates = [*(row.ms_apis if row else ()), *rule_targets]
        for target in candidates:
            if self.is_listed(target):
                return target
        return candidates[0] if candidates else None

    def finding(self, path: str, hit: ShapeHit, scope: str) -> ShapeFinding:
        rule = self.get_rule(hit.rule)
        target = self._target(hit.api, tuple(rule.mindspore_apis))
        message = (
            rule.message.format(detail=hit.detail)
            if "{detail}" in rule.message
            else (f"{rule.message} ({hit.detail})" if hit.detail else rule.message)
        )
        return ShapeFinding(
            path=path,
            span=hit.span,
            rule=rule.id,
            name=rule.name,
            message=message,
            severity=rule.severity_by_scope[scope],
            scope=scope,
            function=hit.function,
            api=hit.api,
            suggestion=rule.suggestion,
            mindspore_api=target,
            backends=self.backends(target) if target else (),
        )


def _with_api(use: ApiUse, api: str, confidence: str) -> ApiUse:
    return ApiUse(
        api,
        use.span,
        use.usage,
        confidence,
        use.function,
        use.positional,
        use.keywords,
        use.star_args,
        api,
        use.args,
    )


class _Matcher:
    """Mapping verdicts, memoised per (api, parameters passed)."""

    def __init__(
        self, table: MappingTable, api: TorchApi, target_platform: str | None = None
    ) -> None:
        self.table = table
        self.api = api
        self.target_platform = target_platform
        self.memo: dict[tuple[str, tuple[str, ...], tuple[str, ...], str], Match | None] = {}
        self._by_object: dict[str, tuple[str, ...]] | None = None

    def same_object(self, name: str, canonical: str = "") -> tuple[str, ...]:
        """Every name the tables list ``name``'s torch object under, other than ``name``
        (r2.4.0 lists ``torch.nn.parameter.Parameter``, r1.10 ``torch.nn.Parameter``)."""
        if self._by_object is None:
            grouped: dict[str, list[str]] = {}
            for listed in dict.fromkeys(row.torch_api for row in self.table):
                key = self.api.canonical(listed)
                if key:
                    grouped.setdefault(key, []).append(listed)
            self._by_object = {key: tuple(names) for key, names in grouped.items()}
        key = canonical or self.api.canonical(name) or ""
        return tuple(n for n in self._by_object.get(key, ()) if n != name)

    def candidate(self, api: str, missing: Match) -> Match:
        """A missing API with a same-name MindSpore API becomes a (unverified) candidate."""
        from apiscan.mapping.candidates import load_candidates

        index = load_candidates()
        if index is None:
            return missing
        # Only a counterpart of the same kind and a compatible arity (torch.Size, a class, is
        # not ops.Size, a primitive).
        kind, params = self.api.kind(api), self.api.params(api)
        spellings = [api, *(s for s in self.api.spellings(api) if s != api)]
        found = next(
            (hit for hit in (index.lookup(s, kind, params) for s in spellings) if hit), None
        )
        if found is None:
            return missing
        target, why = found
        if why == "same-name":
            note = (
                f"not in the mapping table; MindSpore {index.mindspore_version} has {target} "
                "of the same name and kind (unverified: a same name does not prove the same "
                "behaviour)"
            )
        else:
            note = (
                f"not in the mapping table; namespace move: {why}, where MindSpore "
                f"{index.mindspore_version} has {target} (unverified)"
            )
        return replace(
            missing, status="candidate", mindspore_api=target, note=note, target_exists=True
        )

    def passed_params(self, use: ApiUse) -> tuple[str, ...]:
        names = list(use.keywords)
        if use.positional:
            params = self.api.params(use.api) or ()
            for i, (pname, pkind, _default) in enumerate(params):
                if i >= use.positional or pkind in ("var_pos", "kw_only", "var_kw"):
                    break
                names.append(pname)
        return tuple(names)

    def aliases(self, name: str) -> tuple[str, ...]:
        """Other names the table may list ``name``'s object under, best first: its other
        spellings (canonical first), then its method/function twin (``torch.Tensor.x`` ↔
        ``torch.x``) when torch has both."""
        spellings = [s for s in self.api.spellings(name) if s != name]
        twins = []
        for spelled in (name, *spellings):
            if spelled.startswith("torch.Tensor."):
                twin = "torch." + spelled.removeprefix("torch.Tensor.")
            elif spelled.count(".") == 1 and spelled.startswith("torch."):
                twin = "torch.Tensor." + spelled.removeprefix("torch.")
            else:
                continue
            kinds = {self.api.kind(spelled), self.api.kind(twin)}
            if kinds == {"function", "method"} and twin not in twins:
                twins.append(twin)
        return tuple(dict.fromkeys([*spellings, *twins]))

    def match(
        self, name: str, passed: tuple[str, ...], keywords: tuple[str, ...], canonical: str = ""
    ) -> Match:
        """The verdict for ``name`` as written; the table may list it under the canonical
        object's name or another spelling, which are tried next."""
        from apiscan.mapping.match import match_api

        aliases = tuple(dict.fromkeys(a for a in (canonical, *self.aliases(name)) if a != name))
        return match_api(
            name,
            self.table,
            passed_params=passed,
            keywords=keywords,
            aliases=tuple(a for a in aliases if a),
            same_object=self.same_object(name, canonical),
            target_platform=self.target_platform,
        )

    def finding(self, path: str, use: ApiUse) -> ApiFinding | None:
        api = self.api
        passed = self.passed_params(use)
        key = (use.api, passed, use.keywords, use.canonical)
        if key in self.memo:
            m = self.memo[key]
        else:
            m = None
            if api.is_public(use.api) or (
                # torchaudio/torchtext are not indexed: a table row is proof enough
                not use.api.startswith(("torch.", "torchvision."))
                and self.table.lookup(use.api) is not None
            ):
                m = self.match(use.api, passed, use.keywords, use.canonical)
            if m is not None and m.status == "missing":
                m = self.candidate(use.api, m)
            self.memo[key] = m
        if m is None:
            return ApiFinding(
                path,
                use.span,
                use.api,
                "unknown",
                None,
                use.confidence,
                (
                    f"not a public API of torch {api.version} (private, removed or misspelt)"
                    if use.api.startswith("torch.")
                    else f"not in apiscan's index of {use.api.partition('.')[0]} nor in the "
                    "mapping tables"
                ),
                use.usage,
                namespace_of(use.api),
                use.function,
            )
        canonical = use.canonical or api.canonical(use.api) or ""
        return ApiFinding(
            path=path,
            span=use.span,
            api=use.api,
            status=m.status,
            mindspore_api=m.mindspore_api,
            confidence=use.confidence,
            note=m.note,
            usage=use.usage,
            namespace=namespace_of(use.api),
            function=use.function,
            diff_url=m.diff_url,
            mapping_version=m.source_version,
            unsupported_params=m.unsupported_params,
            target_exists=m.target_exists,
            canonical=canonical,
            mindspore_apis=m.mindspore_apis,
            param_changes=m.param_changes,
            backends=m.backends,
            backend_gap=m.backend_gap,
            history=m.history,
            args=use.args,
        )
