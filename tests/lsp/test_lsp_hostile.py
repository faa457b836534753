"""The language server inside a hostile workspace: it imports nothing from the project, in
any of its processes (multiprocessing's spawn children and resource tracker included)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.lsp.rawclient import RawClient, server_command

#: Standard-library names a project could shadow; each module writes a marker when imported.
SHADOWED = (
    "multiprocessing",
    "json",
    "re",
    "typing",
    "asyncio",
    "logging",
    "concurrent",
    "dataclasses",
    "libcst",
    "pygls",
    "sitecustomize",
    "usercustomize",
)

MODEL = """import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        return torch.nonzero(x).sum()
"""


def hostile_project(root: Path, markers: Path) -> None:
    """A project whose root holds modules named like the standard library's."""
    markers.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'evil'\n")
    for name in SHADOWED:
        code = f"open({str(markers / name)!r}, 'w').write('imported')\n"
        (root / f"{name}.py").write_text(code)
    (root / "model.py").write_text(MODEL)


@pytest.mark.parametrize("how", ["script", "module"])
def test_server_imports_nothing_from_the_workspace(tmp_path: Path, how: str) -> None:
    root, markers = tmp_path / "evil", tmp_path / "markers"
    root.mkdir()
    hostile_project(root, markers)
    command = server_command() if how == "script" else [sys.executable, "-m", "apiscan", "lsp"]
    env = {"APISCAN_CACHE_DIR": str(tmp_path / "cache")}
    if how == "module":  # found through PYTHONPATH, as an uninstalled checkout would be
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    client = RawClient(root, command, env)
    try:
        client.initialize(root)
        uri = (root / "model.py").as_uri()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": MODEL}},
        )
        found = client.diagnostics(uri)
        assert any("nonzero" in d["message"] for d in found), found
        line = next(d["range"]["start"] for d in found if "nonzero" in d["message"])
        hover = client.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": line}
        )
        assert hover.get("result"), hover
        actions = client.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": {"start": line, "end": line},
                "context": {"diagnostics": found},
            },
        )
        assert "error" not in actions
        edited = MODEL + "\ny = torch.unique(torch.ones(3))\n"
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": edited}]},
        )
        (root / "model.py").write_text(edited)
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        # the save rescans the project (a spawned child process) and re-checks the buffer
        client.wait(lambda m: "project context ready" in str(m.get("params")), timeout=90)
        client.wait(
            lambda m: (
                "project context ready" in str(m.get("params"))
                and m is not client.seen[0]
                and sum("project context ready" in str(s.get("params")) for s in client.seen) >= 2
            ),
            timeout=90,
        )
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
    assert sorted(os.listdir(markers)) == []
