"""``apiscan lsp``: the language server (pygls, over stdio).

- **Project context.** Each project (a workspace folder, else the nearest ancestor of a file
  with a project marker) is scanned once in the background (:class:`apiscan.buffer.
  ProjectContext`; per-file results come from the on-disk cache, so a warm start is cheap)
  and scanned again, in the background, after a save or a watched file change. A buffer's
  findings then come from the CLI's own per-file step, so they equal the CLI's for the same
  file.
- **Buffers.** Opening a file checks it; an edit re-checks only that buffer, at once when no
  check of it is running; edits that arrive while one runs are folded into one more check of
  the newest text when it ends (so a burst of keystrokes costs at most two checks, and a
  pause in typing is answered without waiting out a timer). ``debounceMs`` > 0 adds a quiet
  period before each check instead. A fast check reuses the project's call-graph scopes when
  the edit changed the buffer's functions, calls or classes; an exact one follows once typing
  stops, and its diagnostics replace the fast ones.
- **Latency.** After a project is loaded its objects are moved out of the garbage
  collector's reach (:func:`gc.freeze`): a full collection over them took as long as the
  check itself, every few edits. Each check logs its stages' times at INFO (``--log-file``).
- **Failures.** If the project scan fails, the client gets a ``window/showMessage`` and the
  server goes on checking buffers on their own (default mapping table, no project context).

Settings (``initializationOptions`` or the ``apiscan`` section of ``workspace/configuration``
/ ``didChangeConfiguration``): ``msVersion``, ``verifyDevice``, ``verifyDtype``,
``dynamicShape``, ``exclude`` (globs), ``jobs``, ``debounceMs``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from apiscan import __version__
from apiscan.buffer import BufferResult, ProjectContext, find_project_root
from apiscan.lsp import convert
from apiscan.model import ChainStep, Finding, ScanResult

log = logging.getLogger("apiscan.lsp")

#: After typing stops this long, the fast check of a changed buffer is replaced by an exact one.
EXACT_AFTER_S = 1.0
#: Saves and file changes come in bursts (a branch switch, "save all"): rescan after a pause.
RESCAN_AFTER_S = 1.0


#: Notebooks: Python cells are checked, Markdown cells are synced too so that cells are
#: numbered as the CLI numbers them (every cell counts).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            cells=[types.NotebookCellLanguage("python"), types.NotebookCellLanguage("markdown")]
        )
    ],
    save=True,
)

#: The client's setting names → :class:`Settings` fields.
SETTING_KEYS = {
    "msVersion": "ms_version",
    "verifyDevice": "verify_device",
    "verifyDtype": "verify_dtype",
    "dynamicShape": "dynamic_shape",
    "exclude": "exclude",
    "jobs": "jobs",
    "debounceMs": "debounce_ms",
}


@dataclass(frozen=True)
class Settings:
    ms_version: str | None = None  # None: the project's configuration decides
    verify_device: str | None = None
    verify_dtype: str | None = None
    dynamic_shape: bool = True
    exclude: tuple[str, ...] = ()
    jobs: int | None = None
    #: 0: check at once, folding edits that arrive during a check into the next one.
    debounce_ms: int = 0

    def updated(self, raw: object) -> Settings:
        """These settings with the client's (camelCase keys; unknown keys are ignored)."""
        if not isinstance(raw, Mapping):
            return self
        if isinstance(raw.get("apiscan"), Mapping):
            raw = raw["apiscan"]
        changes: dict[str, Any] = {}
        for key, attr in SETTING_KEYS.items():
            if key in raw and raw[key] is not None:
                value = raw[key]
                changes[attr] = tuple(value) if attr == "exclude" else value
        return replace(self, **changes)


@dataclass
class Project:
    """One project's context, loading or loaded."""

    root: Path
    task: asyncio.Future[ProjectContext] | None = None
    context: ProjectContext | None = None
    rescan: asyncio.TimerHandle | None = None
    generation: int = 0
    failed: str = ""
    docs: set[str] = field(default_factory=set)
    #: Checks buffers on their own until the first project scan is done.
    alone: ProjectContext | None = None


class ApiscanServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("apiscan", __version__, notebook_document_sync=NOTEBOOK_SYNC)
        self.settings = Settings()
        self.projects: dict[Path, Project] = {}
        self.folders: list[Path] = []
        #: Buffer checks run one at a time, off the event loop; project scans beside them.
        self.checker = ThreadPoolExecutor(1, thread_name_prefix="apiscan-check")
        self.scanner = ThreadPoolExecutor(1, thread_name_prefix="apiscan-scan")
        self.pending: dict[str, asyncio.Task[None]] = {}
        #: Buffers whose check is running, and those edited since (uri → exact wanted).
        self.running: set[str] = set()
        self.again: dict[str, bool] = {}
        self.exact_later: dict[str, asyncio.TimerHandle] = {}
        self.results: dict[str, ScanResult] = {}
        #: The cells each open notebook's diagnostics were published on (to clear them).
        self.notebook_cells: dict[str, set[str]] = {}

    # ------------------------------------------------------------------ projects
    def options(self, root: Path, fallback: bool = False) -> Any:
        """Scan options: the project's configuration (``[tool.apiscan]``, ``apiscan.toml``)
        under the client's settings, as ``apiscan check`` makes them. ``fallback``: defaults
        only (after the configured scan failed)."""
        from apiscan.buffer import options_for
        from apiscan.cache import default_cache_dir
        from apiscan.pipeline import ScanOptions

        s = self.settings
        fixed = {"jobs": s.jobs, "cache_dir": default_cache_dir(), "dynamic_shape": s.dynamic_shape}
        if fallback:
            return ScanOptions(path=str(root), **fixed)  # type: ignore[arg-type]
        cli = {
            "ms-version": s.ms_version,
            "verify-device": s.verify_device,
            "verify-dtype": s.verify_dtype,
            "exclude": list(s.exclude) or None,
        }
        return options_for(root, cli, **fixed)

    def project_of(self, path: Path) -> Project:
        inside = [f for f in self.folders if path.is_relative_to(f)]
        root = max(inside, key=lambda f: len(f.parts)) if inside else find_project_root(path)
        project = self.projects.get(root)
        if project is None:
            project = self.projects[root] = Project(root)
        return project

    def load(self, project: Project) -> asyncio.Future[ProjectContext]:
        if project.task is None:
            loop = asyncio.get_running_loop()
            project.generation += 1
            project.task = asyncio.ensure_future(self._load(project, loop))
        return project.task

    async def _load(self, project: Project, loop: asyncio.AbstractEventLoop) -> ProjectContext:
        started = time.perf_counter()
        try:
            options = self.options(project.root)
            context = await loop.run_in_executor(self.scanner, ProjectContext.load, options, True)
            project.failed = ""
            self.window_log_message(
                types.LogMessageParams(
                    types.MessageType.Info,
                    f"apiscan: project context ready for {project.root} "
                    f"({len(context.analyses)} files, {time.perf_counter() - started:.1f} s)",
                )
            )
        except Exception as exc:  # the server keeps serving whatever went wrong
            log.exception("project scan failed")
            project.failed = f"{type(exc).__name__}: {exc}"
            self.window_show_message(
                types.ShowMessageParams(
                    types.MessageType.Error,
                    f"apiscan: the project scan of {project.root} failed ({project.failed}). "
                    "Open files are still checked, without project context.",
                )
            )
            context = await loop.run_in_executor(
                self.scanner, ProjectContext.alone, self.options(project.root, fallback=True)
            )
        project.context = context
        _freeze_heap()
        return context

    def schedule_rescan(self, project: Project) -> None:
        """Scan the project again after a pause, then re-check its open buffers."""
        loop = asyncio.get_running_loop()
        if project.rescan is not None:
            project.rescan.cancel()

        def start() -> None:
            project.rescan = None
            project.task = None
            task = self.load(project)
            task.add_done_callback(lambda _t: self._recheck(project))

        project.rescan = loop.call_later(RESCAN_AFTER_S, start)

    def _recheck(self, project: Project) -> None:
        for uri in list(project.docs):
            self.schedule(uri, delay=0.0)

    # ------------------------------------------------------------------ buffers
    def schedule(self, uri: str, delay: float | None = None, exact: bool = False) -> None:
        """Check ``uri`` after ``delay`` seconds (default ``debounceMs``), replacing a check
        of it that has not started; if one is running, check again when it ends."""
        if uri in self.running:
            self.again[uri] = self.again.get(uri, False) or exact
            return
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        wait = self.settings.debounce_ms / 1000 if delay is None else delay
        self.pending[uri] = asyncio.ensure_future(self._check_later(uri, wait, exact))

    async def _check_later(self, uri: str, delay: float, exact: bool) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        self.running.add(uri)
        try:
            await self.check(uri, exact)
        except asyncio.CancelledError:
            self.again.pop(uri, None)
            raise
        except Exception:  # one buffer's failure must not stop the server
            log.exception("checking %s failed", uri)
        finally:
            self.running.discard(uri)
        if uri in self.again:  # edited while it ran: check the newest text now
            again = self.again.pop(uri)
            self.pending.pop(uri, None)
            self.schedule(uri, delay=0.0, exact=again)

    def _buffer(self, uri: str) -> tuple[Path, int | None, bytes] | None:
        """(path, version, bytes to check) of an open file or notebook; None if not a file.
        A notebook's bytes are an ``.ipynb`` document of its synced cells, in order."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            fs_path = to_fs_path(uri) if uri.startswith("file:") else None
            if fs_path is None:
                return None
            synced = self.workspace.text_documents
            cells = []
            for cell in notebook.cells:
                doc = synced.get(unquote(cell.document))  # pygls keys them unquoted
                if doc is None:  # a cell the client does not sync (another language)
                    cells.append({"cell_type": "markdown", "metadata": {}, "source": ""})
                else:
                    kind = _cell_type(cell, doc.language_id)
                    cells.append({"cell_type": kind, "metadata": {}, "source": doc.source})
            document = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}
            return Path(fs_path), notebook.version, json.dumps(document).encode("utf-8")
        doc = self.workspace.get_text_document(uri)
        if doc.path is None or not doc.uri.startswith("file:"):
            return None
        return Path(doc.path), doc.version, doc.source.encode("utf-8")

    def _version(self, uri: str) -> int | None:
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            return notebook.version
        return self.workspace.get_text_document(uri).version

    async def check(self, uri: str, exact: bool = False) -> None:
        buffer = self._buffer(uri)
        if buffer is None:
            return
        path, version, data = buffer
        project = self.project_of(path)
        project.docs.add(uri)
        loop = asyncio.get_running_loop()
        task = self.load(project)
        if task.done() or project.context is not None:
            context, provisional = project.context or await task, False
        else:
            # The first scan is still running (a cold workspace): answer now from the buffer
            # alone, and again with the project's context when its scan is done.
            context, provisional = await self._alone(project, loop), True
        if not path.absolute().is_relative_to(context.root):
            return
        started, cpu_started = time.perf_counter(), time.process_time()
        checked: BufferResult = await loop.run_in_executor(
            self.checker, context.check, context.relpath(path), data, exact
        )
        returned = time.perf_counter()
        if provisional:
            checked = replace(checked, exact=False)
        if self._version(uri) != version:
            return  # a newer edit is on its way
        if self.workspace.get_notebook_document(notebook_uri=uri) is not None:
            converted = self.publish_cells(uri, checked.result)
        else:
            self.results[uri] = checked.result
            converted = self.publish(uri, checked.result, version)
        if log.isEnabledFor(logging.INFO):
            done = time.perf_counter()
            cpu = " ".join(f"{k} {v * 1000:.1f}" for k, v in checked.cpu.items())
            log.info(
                "check %s v%s: in the thread %.1f ms wall (cpu ms: %s; whole process %.1f), "
                "back on the loop %.1f ms later, convert %.1f ms, serialise+write %.1f ms, "
                "%d diagnostics",
                path.name,
                version,
                (checked.finished - started) * 1000,
                cpu,
                (time.process_time() - cpu_started) * 1000,
                (returned - checked.finished) * 1000,
                (converted[0] - returned) * 1000,
                (done - converted[0]) * 1000,
                converted[1],
            )
        later = self.exact_later.pop(uri, None)
        if later is not None:
            later.cancel()
        if not checked.exact:
            self.exact_later[uri] = loop.call_later(
                EXACT_AFTER_S, lambda: self.schedule(uri, delay=0.0, exact=True)
            )

    async def _alone(self, project: Project, loop: asyncio.AbstractEventLoop) -> ProjectContext:
        if project.alone is None:
            assert project.task is not None
            project.task.add_done_callback(lambda _t: self._recheck(project))
            try:
                options = self.options(project.root)
                alone = await loop.run_in_executor(self.checker, ProjectContext.alone, options)
            except Exception:  # a bad configuration: the project scan will say so
                options = self.options(project.root, fallback=True)
                alone = await loop.run_in_executor(self.checker, ProjectContext.alone, options)
            project.alone = alone
        return project.alone

    def units(self, uri: str) -> convert.Units:
        codec = self.workspace.get_text_document(uri).position_codec
        return codec.client_num_units

    def publish(self, uri: str, result: ScanResult, version: int | None) -> tuple[float, int]:
        """Send the diagnostics of ``result``; (when they were converted, how many)."""
        doc = self.workspace.get_text_document(uri)
        diagnostics = convert.diagnostics(result, doc.lines, self.units(uri))
        converted = time.perf_counter()
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )
        return converted, len(diagnostics)

    def publish_cells(self, uri: str, result: ScanResult) -> tuple[float, int]:
        """A notebook's diagnostics, each on its own cell (findings carry the cell's number,
        counting every synced cell, and a span within it; a finding of the whole file goes
        on the first synced cell; so do the steps of a dynamic-shape chain inside the
        notebook). Cells no longer in the notebook, or without findings, are cleared."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        assert notebook is not None
        cells = [c.document for c in notebook.cells]
        relpath = next((f.path for f in result.findings), "")

        def locate(step: ChainStep) -> convert.Located:
            if step.path != relpath or not step.cell or not cells:
                return (
                    (Path(result.root) / step.path).absolute().as_uri(),
                    step.line,
                    step.column,
                    (),
                )
            # the join placed the step in its cell, as it places the findings
            cell_uri = cells[min(step.cell, len(cells)) - 1]
            lines = self.workspace.get_text_document(cell_uri).lines
            return cell_uri, step.line, step.column, lines

        by_cell: dict[str, list[Finding]] = {c: [] for c in cells}
        synced = [c for c in cells if unquote(c) in self.workspace.text_documents]
        for f in result.findings:
            number = getattr(f, "cell", 0)
            if number < 1 and synced:  # about the whole notebook: on its first synced cell
                by_cell[synced[0]].append(f)
            elif cells:
                by_cell[cells[min(number, len(cells)) - 1]].append(f)
        started = time.perf_counter()
        sent = 0
        for cell_uri in self.notebook_cells.pop(uri, set()) - set(cells):
            self.results.pop(cell_uri, None)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[])
            )
        for cell_uri, found in by_cell.items():
            mine = replace(result, findings=tuple(found))
            self.results[cell_uri] = mine
            if unquote(cell_uri) not in self.workspace.text_documents:
                continue  # not synced: read as an empty cell, so it has no findings
            doc = self.workspace.get_text_document(cell_uri)
            diagnostics = convert.diagnostics(mine, doc.lines, self.units(cell_uri), locate)
            sent += len(diagnostics)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=cell_uri, diagnostics=diagnostics, version=doc.version
                )
            )
        self.notebook_cells[uri] = set(cells)
        return started, sent

    def forget(self, uri: str) -> None:
        """A closed file or notebook: no pending check, no results, no diagnostics."""
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.results.pop(uri, None)
        for project in self.projects.values():
            project.docs.discard(uri)
        for cell_uri in self.notebook_cells.pop(uri, set()):
            self.results.pop(cell_uri, None)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[])
            )


def _cell_type(cell: types.NotebookCell, language: str) -> str:
    """A synced cell as the scanner reads it: Python code cells are code; Markdown cells and
    code cells in another language are counted but not read."""
    if cell.kind == types.NotebookCellKind.Code and language in ("python", ""):
        return "code"
    return "markdown"


def _freeze_heap() -> None:
    """Keep the garbage collector off the loaded projects' objects (hundreds of thousands of
    long-lived records): after each load, collect once and freeze what survives. Freed
    contexts still go by reference counting; the next load unfreezes first."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


server = ApiscanServer()


@server.feature(types.INITIALIZE)
def initialize(ls: ApiscanServer, params: types.InitializeParams) -> None:
    ls.settings = ls.settings.updated(params.initialization_options)
    folders = [f.uri for f in params.workspace_folders or ()]
    if not folders and params.root_uri:
        folders = [params.root_uri]
    ls.folders = [Path(p) for p in (to_fs_path(u) for u in folders) if p]


@server.feature(types.INITIALIZED)
async def initialized(ls: ApiscanServer, params: types.InitializedParams) -> None:
    for folder in ls.folders:  # start scanning before the first file is opened
        ls.load(ls.project_of(folder / "__init__.py"))
    await _watch_python_files(ls)
    try:
        config = await ls.workspace_configuration_async(
            types.ConfigurationParams([types.ConfigurationItem(section="apiscan")])
        )
    except Exception:  # a client without workspace/configuration
        return
    if config and isinstance(config[0], Mapping):
        new = ls.settings.updated(config[0])
        if new != ls.settings:
            ls.settings = new
            for project in ls.projects.values():
                ls.schedule_rescan(project)


async def _watch_python_files(ls: ApiscanServer) -> None:
    """Ask the client to report changes to Python files (saved by other tools, a branch
    switch), which rescan the project; clients that cannot are left alone."""
    caps = ls.client_capabilities.workspace
    watched = caps.did_change_watched_files if caps else None
    if not (watched and watched.dynamic_registration):
        return
    registration = types.Registration(
        id="apiscan-watch-python",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern="**/*.py")]
        ),
    )
    try:
        await asyncio.wait_for(
            ls.client_register_capability_async(types.RegistrationParams([registration])), 5
        )
    except Exception:  # not supported after all: saves still trigger a rescan
        log.info("file watching not registered", exc_info=True)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: ApiscanServer, params: types.DidChangeConfigurationParams) -> None:
    new = ls.settings.updated(params.settings)
    if new != ls.settings:
        ls.settings = new
        for project in ls.projects.values():
            ls.schedule_rescan(project)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: ApiscanServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, delay=0.0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: ApiscanServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: ApiscanServer, params: types.DidSaveTextDocumentParams) -> None:
    _rescan_saved(ls, params.text_document.uri)


def _rescan_saved(ls: ApiscanServer, uri: str) -> None:
    """A saved file or notebook changes what other files see: refresh its project."""
    path = to_fs_path(uri)
    if path:
        ls.schedule_rescan(ls.project_of(Path(path)))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: ApiscanServer, params: types.DidChangeWatchedFilesParams) -> None:
    for change in params.changes:
        path = to_fs_path(change.uri)
        if path and path.endswith(".py"):
            ls.schedule_rescan(ls.project_of(Path(path)))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: ApiscanServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.forget(uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def did_open_notebook(ls: ApiscanServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.schedule(params.notebook_document.uri, delay=0.0)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def did_change_notebook(ls: ApiscanServer, params: types.DidChangeNotebookDocumentParams) -> None:
    ls.schedule(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def did_save_notebook(ls: ApiscanServer, params: types.DidSaveNotebookDocumentParams) -> None:
    _rescan_saved(ls, params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def did_close_notebook(ls: ApiscanServer, params: types.DidCloseNotebookDocumentParams) -> None:
    ls.forget(params.notebook_document.uri)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: ApiscanServer, params: types.HoverParams) -> types.Hover | None:
    result = ls.results.get(params.text_document.uri)
    if result is None:
        return None
    doc = ls.workspace.get_text_document(params.text_document.uri)
    line, column = convert.from_client(doc.lines, params.position, ls.units(doc.uri))
    text = convert.hover_markdown(result, line, column)
    if text is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def code_action(ls: ApiscanServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    return convert.code_actions(doc.uri, doc.lines, params.context.diagnostics, ls.units(doc.uri))
