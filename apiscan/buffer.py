"""One file's findings in the context of its project: for editors (``apiscan lsp``) and for
``apiscan check --stdin-filename PATH -``.

The CLI analyses every file, then joins them (re-exports through the repo's own modules,
classes defined in other files, the call graph's scopes). An editor has one changed buffer and
a project that did not change, so :class:`ProjectContext` keeps the project's scan (its per-file
analyses come from the on-disk cache, so loading it again is cheap) and the join's context, and
:meth:`ProjectContext.check` analyses only the buffer and runs the join's per-file step
(:meth:`apiscan.results.JoinContext.file_findings`) for it. For an unchanged file the result is
the CLI's, finding for finding; the tests hold that.

When an edit changes what other files' analyses depend on (the buffer's classes, exports,
functions or calls), an exact check rebuilds the join's context with the buffer in place of
the file on disk; a fast check reuses the project's call-graph scopes and says so
(``BufferResult.exact``), so that an editor can answer at once and correct itself later.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from apiscan import __version__
from apiscan.extract import FileTask, analyse, parse_both, reexport_subset
from apiscan.extract.records import FileAnalysis
from apiscan.model import FileError, MappingInfo, ScanResult
from apiscan.parsing import parse_module, parse_python, too_big_for_libcst
from apiscan.pipeline import ScanOptions, scan_for_context
from apiscan.program.index import ClassTable
from apiscan.reparse import Parsed, reparse, whole
from apiscan.results import JoinContext, assemble

#: Buffers whose last parse is kept for re-parsing only around the next edit.
KEPT_PARSES = 8
#: Files whose presence marks a project's root (nearest ancestor wins), as ruff and pytest do.
ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "apiscan.toml", ".git")


def options_for(root: Path, cli: dict[str, Any] | None = None, **fixed: Any) -> ScanOptions:
    """Scan options for the project at ``root`` as the CLI would make them: defaults < the
    configuration governing ``root`` (``[tool.apiscan]`` / ``apiscan.toml``) < ``cli`` (keys
    as in the configuration; None means not given). ``fixed``: other ScanOptions fields.
    Raises :class:`apiscan.config.ConfigError` for a bad configuration."""
    from apiscan.config import resolve

    settings = resolve(str(root), cli or {})
    return ScanOptions(
        path=str(root),
        ms_version=settings["ms-version"],
        excludes=settings.excludes(root),
        max_file_size=settings["max-file-size"],
        verify_device=settings["verify-device"],
        verify_dtype=settings["verify-dtype"],
        ignores=settings.ignores(root),
        respect_ignore=settings["respect-ignore-files"],
        **fixed,
    )


def find_project_root(path: Path) -> Path:
    """The nearest ancestor of ``path`` holding a project marker, else ``path``'s directory."""
    path = path.absolute()
    start = path.parent
    for d in (start, *start.parents):
        if any((d / marker).exists() for marker in ROOT_MARKERS):
            return d
    return start


def _structure(fa: FileAnalysis) -> tuple[object, ...]:
    """What other files' findings (and this file's scopes) depend on, without line numbers:
    an edit that leaves it alone cannot change the join's context."""
    return (
        fa.modules,
        fa.exports,
        fa.classes,
        tuple((f.qualname, f.cls) for f in fa.functions),
        tuple((c.caller, c.callee, c.role) for c in fa.calls),
    )


class _ParseOnce:
    """:func:`apiscan.extract.parse_both`, remembering its last answer: the trees are
    immutable, and each analysis walks them afresh, so the buffer's two analysis rounds can
    share one parse (LibCST's is most of an analysis' cost). With ``last`` (the buffers'
    previous LibCST parses, by path), LibCST re-parses only the statements around an edit
    (:mod:`apiscan.reparse`) and the new parse is kept there for the next edit."""

    def __init__(self, last: dict[str, Parsed] | None = None) -> None:
        self.key: tuple[str, str] | None = None
        self.trees: Any = None
        self.last = last

    def __call__(self, text: str, relpath: str) -> Any:
        if self.key != (text, relpath):
            self.trees, self.key = self._parse(text, relpath), (text, relpath)
        return self.trees

    def _parse(self, text: str, relpath: str) -> Any:
        if self.last is None:
            return parse_both(text, relpath)
        tree = parse_python(text, relpath)
        if isinstance(tree, FileError):
            return tree, None
        too_big = too_big_for_libcst(text, tree)
        if too_big is not None:
            return tree, too_big
        prev = self.last.pop(relpath, None)
        parsed = reparse(prev, text, tree) if prev is not None else None
        if parsed is None:
            module = parse_module(text, relpath)
            if isinstance(module, FileError):
                return tree, module
            parsed = whole(text, module, tree)
        if parsed is not None:
            self.last[relpath] = parsed
            while len(self.last) > KEPT_PARSES:  # the least recently checked go first
                del self.last[next(iter(self.last))]
            return tree, parsed.module
        return tree, module


@dataclass(frozen=True)
class BufferResult:
    """The buffer's findings as a one-file :class:`ScanResult`, and whether the join context
    they came from included the buffer's own structure (``exact``) or the file on disk's."""

    result: ScanResult
    exact: bool
    analysis: FileAnalysis
    #: CPU seconds of the checking thread per stage (analyse, join, link), for profiling.
    cpu: dict[str, float] = field(default_factory=dict, compare=False)
    #: ``time.perf_counter()`` when the check ended (to time what follows it).
    finished: float = field(default=0.0, compare=False)


class ProjectContext:
    """A project's scan, kept to check single buffers against (see the module docstring)."""

    def __init__(
        self,
        options: ScanOptions,
        result: ScanResult,
        analyses: list[FileAnalysis],
        reexports: dict[str, str],
    ) -> None:
        from apiscan.mapping.store import load_table

        self.options = options
        self.root = Path(options.path).absolute()
        self.result = result
        self.table = load_table(options.ms_version)
        self.analyses = {fa.path: fa for fa in analyses}
        self.local_roots = frozenset(m.partition(".")[0] for fa in analyses for m in fa.modules)
        self.reexports = reexports
        self.join = self._join(analyses)
        from apiscan.verify.results import cache_in

        #: The last LibCST parse of each recently checked buffer (see :class:`_ParseOnce`).
        self.parses: dict[str, Parsed] = {}
        #: One for every buffer check (it reads the installed frameworks' versions once).
        self.verified = cache_in(options.cache_dir) if options.cache_dir else None

    @classmethod
    def load(cls, options: ScanOptions, isolated: bool = False) -> ProjectContext:
        """Scan the project (per-file results from the cache where they are fresh).

        ``isolated``: scan in a freshly spawned process. The scan forks its workers, and a
        fork from a process running other threads (a language server's event loop and
        readers) can deadlock the child on a lock some other thread held; a spawned child has
        no other threads. Its records come back pickled.
        """
        if not isolated:
            return cls(options, *scan_for_context(options))
        from apiscan.mapping.store import load_table

        load_table(options.ms_version)  # an unknown version fails here, with its own message
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from apiscan.lifetime import die_with_parent

        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            max_workers=1, mp_context=spawn, initializer=die_with_parent, initargs=(os.getpid(),)
        ) as pool:
            return cls(options, *pool.submit(scan_for_context, options).result())

    @classmethod
    def alone(cls, options: ScanOptions) -> ProjectContext:
        """A context with no project files: buffers are checked on their own (what an editor
        falls back to when the project scan fails)."""
        from apiscan.mapping.store import load_table
        from apiscan.resolve.torch_api import load_torch_api

        table = load_table(options.ms_version)
        mapping = MappingInfo(table.version, table.merged, tuple(table.sources))
        empty = ScanResult(
            Path(options.path).as_posix(), __version__, mapping, (), (), load_torch_api().version
        )
        return cls(options, empty, [], {})

    def relpath(self, path: Path) -> str:
        """How the CLI names ``path`` when it scans this project (POSIX, relative)."""
        rel = Path(path).absolute().relative_to(self.root)
        return PurePosixPath(*rel.parts).as_posix()

    def _modules(self, relpath: str) -> tuple[tuple[str, ...], bool]:
        known = self.analyses.get(relpath)
        if known is not None:
            return known.modules, relpath.rsplit("/", 1)[-1] == "__init__.py"
        from apiscan.discovery import _module_names

        return _module_names(self.root, self.root / relpath)

    def analyse(self, relpath: str, data: bytes) -> FileAnalysis:
        """The buffer's analysis exactly as the CLI would make it: round one without the
        project's re-exports, then, if the file looks up any of them, round two with those.

        (Round two's look-ups can differ from round one's, so they cannot stand in for them;
        the two rounds share one parse of the text.)
        """
        previous = self.analyses.get(relpath)
        if previous is not None and previous.sha256 == hashlib.sha256(data).hexdigest():
            return previous  # unchanged: the project scan's own analysis
        modules, is_package = self._modules(relpath)
        roots = self.local_roots | {m.partition(".")[0] for m in modules}
        task = FileTask(relpath, modules, is_package, data, (), self.options.dynamic_shape)
        size = self.options.max_file_size
        parse = _ParseOnce(self.parses)
        first = analyse(task, roots, size, parse)
        subset = reexport_subset(first.local_refs, self.reexports)
        # the whole-program facts the project scan walked this file with (parameters,
        # returns, attributes), kept for the edited buffer
        env = previous.env if previous is not None else ()
        if subset or env:
            return analyse(replace(task, reexports=subset, env=env), roots, size, parse)
        return first

    def _join(
        self, analyses: list[FileAnalysis], classes: ClassTable | None = None, scopes: Any = None
    ) -> JoinContext:
        """The join's context over ``analyses`` with this project's options (the same
        ``ignore`` / ``per-file-ignores`` and target platform as the CLI's scan)."""
        o = self.options
        return JoinContext(
            analyses,
            self.table,
            classes=classes,
            scopes=scopes,
            ignores=o.ignores,
            target_platform=o.target_platform,
        )

    def context_for(self, fa: FileAnalysis, exact: bool) -> tuple[JoinContext, bool]:
        """The join context to check ``fa`` in, and whether it is exact for it."""
        previous = self.analyses.get(fa.path)
        if previous is not None and _structure(previous) == _structure(fa):
            return self.join, True
        others = [a for path, a in self.analyses.items() if path != fa.path]
        overlaid = [*others, fa]
        if exact:
            return self._join(overlaid), True
        # Fast: this buffer's classes are current, the scopes are the file on disk's.
        classes = ClassTable(overlaid, self.join.api)
        return self._join(overlaid, classes=classes, scopes=self.join.scopes), False

    def check(self, relpath: str, data: bytes, exact: bool = True) -> BufferResult:
        """The findings of ``data`` as the file ``relpath`` of this project."""
        t0 = time.thread_time()
        fa = self.analyse(relpath, data)
        t1 = time.thread_time()
        join, is_exact = self.context_for(fa, exact)
        findings, summary = join.file_findings(fa)
        result = assemble(
            self.options.path, list(findings), [summary], self.table, join.api.version, {}
        )
        t2 = time.thread_time()
        linked = self._link(result)
        t3 = time.thread_time()
        cpu = {"analyse": t1 - t0, "join": t2 - t1, "link": t3 - t2}
        return BufferResult(linked, is_exact, fa, cpu, time.perf_counter())

    def _link(self, result: ScanResult) -> ScanResult:
        # The scan's own post-cache stage: verification results, dispositions, rewrites.
        from apiscan.pipeline import _link_verification

        return _link_verification(result, self.options, self.verified)
