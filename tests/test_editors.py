"""docs/editors.md's Neovim 0.7+ configuration, run as written in a headless Neovim.

Debian 12's Neovim is 0.7.2: no ``vim.lsp.start`` and no ``vim.fs``, so the block must get by
with ``vim.lsp.start_client`` and ``findfile``. The test takes the block from the document,
points its ``cmd`` at this interpreter's ``apiscan``, opens a file that uses a PyTorch API
MindSpore lacks, and waits for the diagnostic; then it edits the buffer and waits for the
diagnostic of the new line. Skipped only where ``nvim`` is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NVIM = shutil.which("nvim")
MARK = "<!-- neovim-0.7 -->\n```lua\n"

DRIVER = r"""
local buf = vim.api.nvim_get_current_buf()
local function found(line)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum == line then
      return d
    end
  end
  return nil
end
local function record(d)
  local code = d.code
  if code == nil and d.user_data and d.user_data.lsp then
    code = d.user_data.lsp.code
  end
  return { line = d.lnum, code = code, message = d.message }
end
local out = { version = vim.version() }
if vim.wait(90000, function() return found(2) ~= nil end, 50) then
  out.first = record(found(2))
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { "torch.cuda.is_available()" })
  if vim.wait(90000, function() return found(3) ~= nil end, 50) then
    out.after_edit = record(found(3))
  end
end
out.clients = #vim.lsp.get_active_clients()
vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.APISCAN_TEST_OUT)
vim.cmd("qa!")
"""


def neovim_block() -> str:
    text = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
    start = text.index(MARK) + len(MARK)
    return text[start : text.index("\n```", start)]


def test_the_documented_block_is_for_neovim_0_7() -> None:
    block = neovim_block()
    assert "vim.lsp.start_client" in block
    assert "vim.fs" not in block and "vim.lsp.start(" not in block
    assert 'cmd = { "apiscan", "lsp" }' in block


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim)")
def test_neovim_gets_diagnostics_from_the_documented_configuration(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "p"\n')
    source = project / "train.py"
    source.write_text("import torch\n\ntorch.set_num_threads(2)\n")
    cmd = f'cmd = {{ "{sys.executable}", "-m", "apiscan", "lsp" }}'
    init = neovim_block().replace('cmd = { "apiscan", "lsp" }', cmd)
    (tmp_path / "init.lua").write_text(init, encoding="utf-8")
    (tmp_path / "driver.lua").write_text(DRIVER, encoding="utf-8")
    out = tmp_path / "out.json"
    env = {**os.environ, "APISCAN_TEST_OUT": str(out), "PYTHONPATH": str(REPO)}
    nvim = [NVIM or "nvim", "--headless", "-n", "-i", "NONE", "-u", str(tmp_path / "init.lua")]
    done = subprocess.run(
        [*nvim, "-c", f"luafile {tmp_path / 'driver.lua'}", str(source)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.exists(), done.stdout + done.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["clients"] == 1
    assert result["first"]["code"] == "API001", result
    assert "torch.set_num_threads" in result["first"]["message"]
    assert result["after_edit"]["code"] == "API001", result
    assert "torch.cuda.is_available" in result["after_edit"]["message"]
