"""Notebooks over LSP (``notebookDocument/*``): each Python cell gets the diagnostics the CLI
reports for it, positioned in that cell; edits of a cell are followed; closing clears them."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
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
CACHE = tempfile.mkdtemp(prefix="apiscan-lsp-nb-cache-")
PROJECT = Path(tempfile.mkdtemp(prefix="apiscan-lsp-nb-"))
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)
atexit.register(shutil.rmtree, PROJECT, ignore_errors=True)
ENV = {**os.environ, "APISCAN_CACHE_DIR": CACHE, "PYTHONPATH": str(REPO)}
SERVER = [sys.executable, "-m", "apiscan", "lsp"]

#: (cell type, source): a Markdown cell (counted, not read), IPython syntax, findings in
#: three cells (an API the table lacks, dynamic shapes), a cell without any.
CELLS = [
    ("markdown", "# Training\ntorch.unique(x) in prose is not code"),
    ("code", "%matplotlib inline\nimport torch\n\nx = torch.randn(3)"),
    ("code", "!pip install torch\ny = torch.unique(x)\ntorch.set_num_threads(2)"),
    ("code", "print('no findings here')"),
    ("code", "mask = x > 0\nz = x[mask]"),
]
NOTEBOOK = PROJECT / "train.ipynb"
NOTEBOOK.write_text(
    json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {},
            "cells": [
                {"cell_type": kind, "metadata": {}, "source": source}
                | ({"outputs": [], "execution_count": None} if kind == "code" else {})
                for kind, source in CELLS
            ],
        },
        indent=1,
    ),
    encoding="utf-8",
)
(PROJECT / "pyproject.toml").write_text('[project]\nname = "nbproject"\n', encoding="utf-8")
CELL_URIS = [f"vscode-notebook-cell:{NOTEBOOK.as_posix()}#cell{i}" for i in range(len(CELLS))]


@pytest.fixture(scope="module")
def cli_result() -> ScanResult:
    """The CLI's scan of the project, made before any server starts."""
    return scan(ScanOptions(str(PROJECT), cache_dir=None, jobs=1))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        """The server asks to watch Python files (an editor would accept)."""

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            root_uri=PROJECT.as_uri(),
            workspace_folders=[types.WorkspaceFolder(PROJECT.as_uri(), PROJECT.name)],
            initialization_options={},
        )
    )
    yield
    await lsp_client.shutdown_session()


def _cell_diagnostics(result: ScanResult, cell: int, text: str) -> list[types.Diagnostic]:
    """What the CLI finds in ``cell`` (1-based, every cell counted), as diagnostics."""
    mine = tuple(f for f in result.findings if f.path == "train.ipynb" and f.cell == cell)
    return convert.diagnostics(replace(result, findings=mine), text.splitlines(keepends=True))


async def _wait(
    client: LanguageClient,
    ready: Callable[[dict[str, list[types.Diagnostic]]], bool],
    timeout: float = 60.0,
) -> dict[str, list[types.Diagnostic]]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        got = {uri: list(client.diagnostics[uri]) for uri in CELL_URIS if uri in client.diagnostics}
        if ready(got):
            return got
        await asyncio.sleep(0.05)
    raise AssertionError(f"diagnostics never became ready: {client.diagnostics}")


@pytest.mark.asyncio
async def test_cells_get_the_clis_diagnostics_and_follow_edits(
    cli_result: ScanResult, client: LanguageClient
) -> None:
    want = {
        uri: _cell_diagnostics(cli_result, number, source)
        for number, (uri, (_, source)) in enumerate(zip(CELL_URIS, CELLS, strict=True), 1)
    }
    # The CLI's own findings are where the test expects them: an API the table lacks in
    # cell 3 line 3, dynamic shapes in cells 3 and 5, nothing in the others.
    assert [d.range.start.line for d in want[CELL_URIS[2]]] == [1, 2]
    assert any(d.code == "DS104" for d in want[CELL_URIS[4]])
    assert not want[CELL_URIS[0]] and not want[CELL_URIS[3]]

    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=NOTEBOOK.as_uri(),
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(
                        kind=types.NotebookCellKind.Code
                        if kind == "code"
                        else types.NotebookCellKind.Markup,
                        document=uri,
                    )
                    for uri, (kind, _) in zip(CELL_URIS, CELLS, strict=True)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri, "python" if kind == "code" else "markdown", 1, source)
                for uri, (kind, source) in zip(CELL_URIS, CELLS, strict=True)
            ],
        )
    )
    got = await _wait(client, lambda got: got == want)
    assert got == want

    # Hover on the API finding in cell 3: the hover reads that cell's results.
    api = next(d for d in got[CELL_URIS[2]] if str(d.code).startswith("API"))
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(CELL_URIS[2]), api.range.start)
    )
    assert hover is not None and "torch.set_num_threads" in str(hover.contents)

    # Edit cell 4: a dynamic shape appears there, positioned in that cell; others unchanged.
    edited = "print('no findings here')\nidx = torch.nonzero(x)"
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(2, NOTEBOOK.as_uri()),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(2, CELL_URIS[3]),
                            changes=[types.TextDocumentContentChangeWholeDocument(edited)],
                        )
                    ]
                )
            ),
        )
    )
    got = await _wait(client, lambda got: bool(got.get(CELL_URIS[3])))
    (new,) = got[CELL_URIS[3]]
    assert new.code == "DS103" and new.range.start.line == 1
    assert got[CELL_URIS[2]] == want[CELL_URIS[2]]

    # Closing the notebook clears every cell's diagnostics.
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(NOTEBOOK.as_uri()),
            cell_text_documents=[types.TextDocumentIdentifier(uri) for uri in CELL_URIS],
        )
    )
    await _wait(client, lambda got: not any(got.values()))
