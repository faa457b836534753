"""Latency of ``apiscan lsp`` as an editor sees it (a real server over stdio).

    python scripts/bench_lsp.py --edit-file REPO/path/to/1000_line_file.py --edits 15
    python scripts/bench_lsp.py --cold-file REPO/path/to/largest.py

``--edit-file``: the server is started on the file's project with a warm cache, the file is
opened, then it is edited ``--edits`` times (one line changes each time, as when typing) and
the time from each ``didChange`` to the ``publishDiagnostics`` of that version is measured;
the median is the figure (target: at most 150 ms, debounce included).

``--cold-file``: an empty cache directory, then the time from starting the server process to
the first diagnostics of the file opened right after ``initialize`` (target: at most 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
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


async def _session(root: Path, env: dict[str, str], options: dict[str, object]) -> Client:
    client = Client()
    await client.start_io(sys.executable, "-m", "apiscan", "lsp", env=env)
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


async def bench_edits(path: Path, edits: int, env: dict[str, str], debounce: int) -> list[float]:
    root = find_project_root(path)
    client = await _session(root, env, {"debounceMs": debounce})
    text = path.read_text("utf-8")
    _open(client, path, text)
    await client.wait_version(1, timeout=600)
    lines = text.splitlines(keepends=True)
    # Edit a line in the middle, a different value each time (as when typing a number).
    target = next(
        i for i in range(len(lines) // 2, len(lines)) if lines[i].strip() and "=" in lines[i]
    )
    times = []
    for n in range(edits):
        version = n + 2
        lines[target] = lines[target].rstrip("\n") + f"  # edit {n}\n"
        new = "".join(lines)
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--edit-file", type=Path, help="a ~1,000-line file to edit (warm server)")
    p.add_argument("--edits", type=int, default=15)
    p.add_argument("--debounce-ms", type=int, default=50, help="the server's debounceMs")
    p.add_argument("--cold-file", type=Path, help="a file to open in a cold workspace")
    args = p.parse_args()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if args.edit_file:
        path = args.edit_file.absolute()
        n_lines = len(path.read_text("utf-8").splitlines())
        # Warm the project cache first, as a long-running editor session would have it.
        asyncio.run(bench_edits(path, 0, env, args.debounce_ms))
        times = asyncio.run(bench_edits(path, args.edits, env, args.debounce_ms))
        ms = sorted(t * 1000 for t in times)
        print(
            f"edit → diagnostics, {path.name} ({n_lines} lines), {len(ms)} edits, debounce "
            f"{args.debounce_ms} ms: median {statistics.median(ms):.0f} ms, "
            f"min {ms[0]:.0f}, max {ms[-1]:.0f} (target ≤ 150 ms)"
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
            f"{seconds:.2f} s (target ≤ 2 s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
