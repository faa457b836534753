"""Latency of ``apiscan lsp`` as an editor sees it (a real server over stdio).

    python scripts/bench_lsp.py --edit-file REPO/path/to/1000_line_file.py --edits 15
    python scripts/bench_lsp.py --cold-file REPO/path/to/largest.py
    python scripts/bench_lsp.py --in-process REPO/path/to/file.py --edits 15

``--edit-file``: the server is started on the file's project with a warm cache, the file is
opened, then it is edited ``--edits`` times (one line changes each time, as when typing) and
the time from each ``didChange`` to the ``publishDiagnostics`` of that version is measured;
the median is the figure (target: at most 150 ms, debounce included). The server's own log of
each check (``--log-file``) gives the median of each stage: CPU time of the checking thread
per stage (analyse, join, link), the hop back to the event loop, conversion to LSP values,
serialisation and write.

``--in-process``: the same edits checked by :class:`apiscan.buffer.ProjectContext` in this
process, no server: the CPU time of each stage, which the machine's load disturbs less than
wall-clock latency. The load average is printed with every figure.

``--cold-file``: an empty cache directory, then the time from starting the server process to
the first diagnostics of the file opened right after ``initialize`` (target: at most 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from apiscan.buffer import find_project_root  # noqa: E402


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("apiscan-bench", "1")
        self.published: dict[int | None, float] = {}
        self.event = asyncio.Event()
        self.ready = asyncio.Event()

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            if "project context ready" in params.message:
                self.ready.set()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.version, time.perf_counter())
            self.event.set()

        @self.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[object]:
            return [None for _ in params.items]

        @self.feature(types.WINDOW_SHOW_MESSAGE)
        def show(params: types.ShowMessageParams) -> None:
            print(f"server: {params.message}", file=sys.stderr)

    async def wait_version(self, version: int | None, timeout: float = 120.0) -> float:
        deadline = time.perf_counter() + timeout
        while version not in self.published:
            self.event.clear()
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no diagnostics for version {version}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.event.wait(), 1.0)
        return self.published[version]


async def _session(
    root: Path, env: dict[str, str], options: dict[str, object], log_file: str | None = None
) -> Client:
    client = Client()
    logging = ["--log-file", log_file] if log_file else []
    await client.start_io(sys.executable, "-m", "apiscan", "lsp", *logging, env=env)
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), root.name)],
            initialization_options=options,
        )
    )
    client.initialized(types.InitializedParams())
    return client


async def _close(client: Client) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def _open(client: Client, path: Path, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(path.as_uri(), "python", 1, text))
    )


def _edited(text: str, edits: int) -> list[str]:
    """The buffer after each edit: a line in the middle gets a different comment each time
    (as when typing)."""
    lines = text.splitlines(keepends=True)
    target = next(
        i for i in range(len(lines) // 2, len(lines)) if lines[i].strip() and "=" in lines[i]
    )
    out = []
    for n in range(edits):
        lines[target] = lines[target].rstrip("\n") + f"  # edit {n}\n"
        out.append("".join(lines))
    return out


async def bench_edits(
    path: Path, edits: int, env: dict[str, str], debounce: int, log_file: str | None = None
) -> list[float]:
    root = find_project_root(path)
    client = await _session(root, env, {"debounceMs": debounce}, log_file)
    text = path.read_text("utf-8")
    _open(client, path, text)
    await client.wait_version(1, timeout=600)
    # Warm means the project's context is loaded (the first answer may come before it, from
    # the buffer alone), and the re-check of the open file that follows it is done.
    await asyncio.wait_for(client.ready.wait(), 600)
    await asyncio.sleep(1.0)
    times = []
    for n, new in enumerate(_edited(text, edits)):
        version = n + 2
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=path.as_uri()),
                [types.TextDocumentContentChangeWholeDocument(text=new)],
            )
        )
        times.append(await client.wait_version(version) - sent)
        await asyncio.sleep(0.3)  # a pause between keystrokes
    await _close(client)
    return times


async def bench_cold(path: Path, env: dict[str, str]) -> float:
    root = find_project_root(path)
    start = time.perf_counter()
    client = await _session(root, env, {})
    _open(client, path, path.read_text("utf-8"))
    got = await client.wait_version(1, timeout=600)
    await _close(client)
    return got - start


_LOGGED = re.compile(
    r"v(?P<version>\d+): in the thread (?P<thread>[\d.]+) ms wall \(cpu ms: (?P<cpu>[^;]*); "
    r"whole process (?P<process>[\d.]+)\), back on the loop (?P<hop>[\d.]+) ms later, "
    r"convert (?P<convert>[\d.]+) ms, serialise\+write (?P<write>[\d.]+) ms"
)


def _server_stages(log_file: str) -> dict[str, float]:
    """Median of each stage over the edits' checks (version > 1) in the server's log."""
    stages: dict[str, list[float]] = {}
    for line in Path(log_file).read_text("utf-8").splitlines():
        m = _LOGGED.search(line)
        if m is None or int(m["version"]) < 2:
            continue
        for key in ("thread", "process", "hop", "convert", "write"):
            stages.setdefault(key, []).append(float(m[key]))
        words = m["cpu"].split()
        for name, value in zip(words[::2], words[1::2], strict=True):
            stages.setdefault(f"cpu {name}", []).append(float(value))
    return {k: statistics.median(v) for k, v in stages.items()}


def bench_in_process(path: Path, edits: int) -> dict[str, list[float]]:
    """CPU seconds per stage of :meth:`ProjectContext.check` for each edit, and conversion."""
    import gc

    from apiscan.buffer import ProjectContext, options_for
    from apiscan.cache import default_cache_dir
    from apiscan.lsp import convert

    root = find_project_root(path)
    context = ProjectContext.load(
        options_for(root, {}, cache_dir=default_cache_dir(), jobs=None, dynamic_shape=True)
    )
    gc.collect()
    gc.freeze()  # as the server does after loading a project
    rel = context.relpath(path)
    out: dict[str, list[float]] = {}
    for new in _edited(path.read_text("utf-8"), edits):
        start = time.thread_time()
        checked = context.check(rel, new.encode("utf-8"), exact=False)
        total = time.thread_time() - start
        convert.diagnostics(checked.result, new.splitlines(keepends=True))
        for k, v in checked.cpu.items():
            out.setdefault(k, []).append(v)
        out.setdefault("check", []).append(total)
        out.setdefault("convert", []).append(time.thread_time() - start - total)
    return out


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--edit-file", type=Path, help="a ~1,000-line file to edit (warm server)")
    p.add_argument("--edits", type=int, default=15)
    p.add_argument("--debounce-ms", type=int, default=0, help="the server's debounceMs")
    p.add_argument("--cold-file", type=Path, help="a file to open in a cold workspace")
    p.add_argument("--in-process", type=Path, help="time the buffer check's stages in-process")
    args = p.parse_args()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if args.edit_file:
        path = args.edit_file.absolute()
        n_lines = len(path.read_text("utf-8").splitlines())
        # Warm the project cache first, as a long-running editor session would have it.
        asyncio.run(bench_edits(path, 0, env, args.debounce_ms))
        log_dir = tempfile.mkdtemp(prefix="apiscan-bench-lsp-log-")
        log_file = os.path.join(log_dir, "server.log")
        try:
            times = asyncio.run(bench_edits(path, args.edits, env, args.debounce_ms, log_file))
            stages = _server_stages(log_file)
        finally:
            shutil.rmtree(log_dir, ignore_errors=True)
        ms = sorted(t * 1000 for t in times)
        print(
            f"edit → diagnostics, {path.name} ({n_lines} lines), {len(ms)} edits, debounce "
            f"{args.debounce_ms} ms: median {statistics.median(ms):.0f} ms, "
            f"min {ms[0]:.0f}, max {ms[-1]:.0f} (target ≤ 150 ms); {_load()}"
        )
        print("  server stages, median ms: " + ", ".join(f"{k} {v:.1f}" for k, v in stages.items()))
    if args.in_process:
        path = args.in_process.absolute()
        per_stage = bench_in_process(path, args.edits)
        print(
            f"in-process buffer check, {path.name}, {args.edits} edits, median CPU ms: "
            + ", ".join(f"{k} {statistics.median(v) * 1000:.1f}" for k, v in per_stage.items())
            + f"; {_load()}"
        )
    if args.cold_file:
        path = args.cold_file.absolute()
        cache = tempfile.mkdtemp(prefix="apiscan-bench-lsp-")
        try:
            seconds = asyncio.run(bench_cold(path, {**env, "APISCAN_CACHE_DIR": cache}))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        print(
            f"cold workspace: server start → first diagnostics of {path.name}: "
            f"{seconds:.2f} s (target ≤ 2 s); {_load()}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
