"""``apiscan lsp`` driven over stdio by pytest-lsp, as an editor would drive it."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from apiscan.lsp import convert
from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "tinydet"
HEAD = FIXTURE / "tinydet" / "head.py"
CROSSFN = REPO / "fixtures" / "crossfn"
CACHE = tempfile.mkdtemp(prefix="apiscan-lsp-test-")
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)
ENV = {**os.environ, "APISCAN_CACHE_DIR": CACHE, "PYTHONPATH": str(REPO)}
SERVER = [sys.executable, "-m", "apiscan", "lsp"]


async def _start(client: LanguageClient, options: dict | None = None, root: Path = FIXTURE) -> None:
    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        """The server asks to watch Python files (an editor would accept)."""

    await client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), root.name)],
            initialization_options=options or {"debounceMs": 10},
        )
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def client(lsp_client: LanguageClient):
    await _start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def broken_client(lsp_client: LanguageClient):
    await _start(lsp_client, {"msVersion": "0.1"})  # no such mapping table: the scan fails
    yield
    await lsp_client.shutdown_session()


async def _diagnostics(
    client: LanguageClient,
    uri: str,
    ready: Callable[[Sequence[types.Diagnostic]], bool] = lambda d: True,
    timeout: float = 30.0,
) -> Sequence[types.Diagnostic]:
    """The diagnostics of ``uri`` once they satisfy ``ready`` (they may come in twice: a fast
    check while typing, then an exact one)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        found = client.diagnostics.get(uri)
        if found is not None and ready(found):
            return found
        await asyncio.sleep(0.05)
    found = client.diagnostics.get(uri)
    raise AssertionError(f"no diagnostics for {uri} in {timeout} s: {found}")


def _open(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", version, text))
    )
    return uri


def _change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def crossfn_client(lsp_client: LanguageClient):
    await _start(lsp_client, root=CROSSFN)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def cli_result() -> ScanResult:
    """The CLI's scan of the fixture, made before any server starts (the scan forks worker
    processes, which must not happen while the test's event loop runs threads)."""
    return scan(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))


@pytest.fixture(scope="module")
def crossfn_result() -> ScanResult:
    return scan(ScanOptions(str(CROSSFN), cache_dir=None, jobs=1))


def _cli_diagnostics(
    result: ScanResult, path: Path, text: str, root: Path = FIXTURE
) -> list[types.Diagnostic]:
    """What the CLI finds for ``path`` (a scan of the whole fixture), as diagnostics."""
    rel = path.relative_to(root).as_posix()
    mine = replace(result, findings=tuple(f for f in result.findings if f.path == rel))
    return convert.diagnostics(mine, text.splitlines(keepends=True))


@pytest.mark.asyncio
async def test_open_hover_action_change_and_syntax_error(
    cli_result: ScanResult, client: LanguageClient
) -> None:
    text = HEAD.read_text("utf-8")
    uri = _open(client, HEAD, text)
    want = _cli_diagnostics(cli_result, HEAD, text)
    assert want, "the fixture file should have findings"
    # The first answer may come before the project scan is done (the buffer on its own);
    # then the project's context makes them the CLI's findings for this file, one for one.
    got = await _diagnostics(client, uri, lambda d: list(d) == want)
    assert list(got) == want

    # Hover on an API the file uses: status, target, table version, substitutions.
    target = next(d for d in got if str(d.code).startswith("API"))
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), target.range.start)
    )
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert "torch." in hover.contents.value and "Mapping table" in hover.contents.value

    # The quick fix inserts the ignore comment; applied, the diagnostic goes away.
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            target.range,
            types.CodeActionContext(diagnostics=[target]),
        )
    )
    assert actions
    action = actions[0]
    assert isinstance(action, types.CodeAction) and action.edit and action.edit.changes
    (edit,) = action.edit.changes[uri]
    assert edit.new_text == f"  # apiscan: ignore[{target.code}]"
    lines = text.splitlines(keepends=True)
    row = edit.range.start.line
    line = lines[row]
    stripped = line.rstrip("\r\n")
    lines[row] = stripped[: edit.range.start.character] + edit.new_text + line[len(stripped) :]
    fixed = "".join(lines)
    _change(client, uri, fixed, 2)

    def silenced(diags: Sequence[types.Diagnostic]) -> bool:
        return not any(d.code == target.code and d.range.start.line == row for d in diags)

    after = await _diagnostics(client, uri, silenced)
    assert len(after) < len(got)

    # An edit that moves everything down: the diagnostics follow.
    _change(client, uri, "\n\n" + fixed, 3)
    shifted = [d.range.start.line + 2 for d in after]
    moved = await _diagnostics(client, uri, lambda d: [x.range.start.line for x in d] == shifted)
    assert [d.code for d in moved] == [d.code for d in after]

    # A syntax error: one diagnostic, and the server keeps going.
    _change(client, uri, fixed + "\ndef broken(:\n", 4)
    (error,) = await _diagnostics(client, uri, lambda d: len(d) == 1)
    assert error.code == "E003" and error.severity == types.DiagnosticSeverity.Error
    _change(client, uri, text, 5)
    again = await _diagnostics(client, uri, lambda d: len(d) == len(want))
    assert list(again) == want


@pytest.mark.asyncio
async def test_a_failed_project_scan_is_shown_and_the_server_goes_on(
    broken_client: LanguageClient,
) -> None:
    text = "import torch\n\nx = torch.nonzero(torch.ones(3))\n"
    uri = _open(broken_client, FIXTURE / "scratch.py", text)
    diags = await _diagnostics(broken_client, uri, lambda d: len(d) > 0)
    assert any(d.code == "DS103" for d in diags)
    assert any(
        m.type == types.MessageType.Error and "project scan" in m.message
        for m in broken_client.messages
    )


@pytest.mark.asyncio
async def test_dynamic_shape_chains_are_related_information(
    crossfn_result: ScanResult, crossfn_client: LanguageClient
) -> None:
    """A helper's finding whose size comes from its caller points at the caller's host read
    and at the call that passed it on (the finding's chain, origin first)."""
    ops, head = CROSSFN / "crossfn" / "ops.py", CROSSFN / "crossfn" / "head.py"
    text = ops.read_text("utf-8")
    uri = _open(crossfn_client, ops, text)
    want = _cli_diagnostics(crossfn_result, ops, text, CROSSFN)
    got = await _diagnostics(crossfn_client, uri, lambda d: list(d) == want)
    assert list(got) == want
    # first_rows(x, k) slices with k = counts.sum().item() from Head.forward in head.py
    lines = head.read_text("utf-8").splitlines()
    read = next(i for i, line in enumerate(lines) if "counts.sum().item()" in line)
    call = next(i for i, line in enumerate(lines) if "first_rows(" in line and i > read)
    (sliced,) = [
        d
        for d in got
        if d.code == "DS109" and any("first_rows" in r.message for r in d.related_information or ())
    ]
    assert sliced.related_information is not None
    steps = [
        (r.location.uri, r.location.range.start.line, r.message) for r in sliced.related_information
    ]
    assert [(u, line) for u, line, _ in steps] == [(head.as_uri(), read), (head.as_uri(), call)]
    assert "read from tensor data" in steps[0][2]
    assert "passed as `k` to `first_rows`" in steps[1][2]
    # the chain's positions within head.py are the CLI's (1-based line and column → 0-based)
    first = sliced.related_information[0].location.range.start
    assert lines[read][first.character :].startswith("counts.sum().item()")
