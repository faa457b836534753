"""The server under protocol abuse: absurd and wrong Content-Length headers, bodies that are
not JSON, and its input closing while a scan runs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.lsp.rawclient import RawClient


def _body(message: dict) -> bytes:
    return json.dumps(message).encode()


def _frame(body: bytes, length: int | None = None) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def _request(ident: int, method: str, params: object = None) -> bytes:
    return _body({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "a.py").write_text("import torch\n\nx = torch.zeros(3)\n")
    return root


def _client(project: Path, tmp_path: Path) -> RawClient:
    client = RawClient(project, env={"APISCAN_CACHE_DIR": str(tmp_path / "cache")})
    client.initialize(project)
    return client


def _answered(client: RawClient, ident: int) -> dict:
    return client.wait(lambda m: m.get("id") == ident and "method" not in m, timeout=30)


def test_malformed_input_is_answered_and_the_server_stays_in_step(
    project: Path, tmp_path: Path
) -> None:
    client = _client(project, tmp_path)
    try:
        # a body that is not JSON: a parse error, id null
        client.send_bytes(_frame(b'{"jsonrpc": "2.0", "id": 7, "method": '))
        error = client.wait(lambda m: m.get("error", {}).get("code") == -32700, timeout=30)
        assert error["id"] is None
        # an absurd length: an error, and the next message is read as usual
        client.send_bytes(b"Content-Length: 99999999999999999999\r\n\r\n")
        client.wait(lambda m: "above the limit" in str(m.get("error")), timeout=30)
        client.send_bytes(_frame(_request(101, "textDocument/hover", _hover(project))))
        assert "result" in _answered(client, 101)
        # a length too small: the rest is skipped up to the next header
        body = _request(102, "textDocument/hover", _hover(project))
        client.send_bytes(_frame(body, len(body) - 10))
        client.send_bytes(_frame(_request(103, "textDocument/hover", _hover(project))))
        assert "result" in _answered(client, 103)
        # a length too large, with nothing after it: answered without waiting for more
        body = _request(104, "textDocument/hover", _hover(project))
        client.send_bytes(_frame(body, len(body) + 500))
        assert "result" in _answered(client, 104)
        # a length too large, followed by the next message: both are read
        body = _request(105, "textDocument/hover", _hover(project))
        client.send_bytes(
            _frame(body, len(body) + 40)
            + _frame(_request(106, "textDocument/hover", _hover(project)))
        )
        assert "result" in _answered(client, 106)
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def _hover(project: Path) -> dict:
    return {
        "textDocument": {"uri": (project / "a.py").as_uri()},
        "position": {"line": 2, "character": 6},
    }


def test_the_server_exits_soon_after_its_input_closes_during_a_scan(
    project: Path, tmp_path: Path
) -> None:
    for i in range(300):  # enough files that the project scan is still running
        (project / f"m{i}.py").write_text("import torch\n" + "y = torch.ones(2)\n" * 200)
    client = _client(project, tmp_path)
    try:
        time.sleep(1.0)  # the scan has started (it takes longer than this)
        assert client.proc.poll() is None
        assert client.proc.stdin is not None
        client.proc.stdin.close()
        started = time.monotonic()
        client.proc.wait(30)
        assert time.monotonic() - started < 2.0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_buffers_that_killed_the_server_are_checked(project: Path, tmp_path: Path) -> None:
    """A 20,000-term chain (LibCST's native parser overflowed the stack: exit 139) and
    notebooks nested 1,200 levels deep: diagnostics, and the server goes on."""
    client = _client(project, tmp_path)
    try:
        uri = (project / "chain.py").as_uri()
        text = (
            "import torch\n\nx = torch.fx.symbolic_trace(m)\ny = "
            + " and ".join(["a"] * 20_000)
            + "\n"
        )
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
        )
        found = client.diagnostics(uri, timeout=120)
        assert any("symbolic_trace" in d["message"] for d in found), found
        nb = (project / "deep.ipynb").as_uri()
        cell = nb + "#cell1"
        client.notify(
            "notebookDocument/didOpen",
            {
                "notebookDocument": {
                    "uri": nb,
                    "notebookType": "jupyter-notebook",
                    "version": 1,
                    "cells": [{"kind": 2, "document": cell}],
                },
                "cellTextDocuments": [
                    {
                        "uri": cell,
                        "languageId": "python",
                        "version": 1,
                        "text": "x = " + "[" * 1200 + "]" * 1200 + "\n",
                    }
                ],
            },
        )
        client.diagnostics(cell, timeout=120)
        client.send_bytes(_frame(_request(201, "textDocument/hover", _hover(project))))
        assert "result" in _answered(client, 201)
        assert client.proc.poll() is None
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
