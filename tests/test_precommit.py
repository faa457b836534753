"""The pre-commit hook (``.pre-commit-hooks.yaml``), run by pre-commit on a scratch repository.

pre-commit installs a ``language: python`` hook from the hook's repository with pip, which
needs the network; so the scratch repository declares the same hook as a local one — its
id, args, file types and serial flag read from our ``.pre-commit-hooks.yaml`` — with the
entry pointed at this checkout's ``python -m apiscan``. What is tested is what a team gets:
which files reach apiscan, that several are scanned at once, and the exit status.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")
pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install pre-commit)")

REPO = Path(__file__).resolve().parents[1]
GIT = shutil.which("git")


def _hook() -> dict[str, object]:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return hook


def test_the_hook_definition() -> None:
    hook = _hook()
    assert hook["id"] == "apiscan"
    assert hook["language"] == "python"
    assert str(hook["entry"]).split()[0] == "apiscan"  # the console script of this package
    assert hook["args"] == ["--fail-on", "missing"]
    assert set(hook["types_or"]) >= {"python", "jupyter"}


def _git(root: Path, *args: str) -> None:
    subprocess.run([GIT or "git", *args], cwd=root, check=True, capture_output=True)


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_pre_commit_refuses_a_change_that_uses_a_missing_api(tmp_path: Path) -> None:
    hook = _hook()
    root = tmp_path / "project"
    root.mkdir()
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "dev@example.test")
    _git(root, "config", "user.name", "dev")
    entry = str(hook["entry"]).replace("apiscan", f"{sys.executable} -m apiscan", 1)
    local = {
        "id": hook["id"],
        "name": hook["name"],
        "entry": entry,
        "args": hook["args"],
        "language": "system",  # the only difference: no pip install from the network
        "types_or": hook["types_or"],
        "require_serial": hook["require_serial"],
    }
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (root / "ok.py").write_text("import torch\n\nx = torch.zeros(3)\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "model.py").write_text("import torch\n\ny = torch.abs(torch.ones(2))\n")
    (root / "notes.txt").write_text("torch.set_num_threads(2)\n")  # not Python: not passed
    _git(root, "add", ".")
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "APISCAN_CACHE_DIR": str(tmp_path / "cache"),
    }
    run = [sys.executable, "-m", "pre_commit", "run", "--color", "never"]
    clean = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout

    (root / "pkg" / "threads.py").write_text("import torch\n\ntorch.set_num_threads(2)\n")
    _git(root, "add", ".")
    refused = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "Failed" in refused.stdout
    assert "pkg/threads.py:3" in refused.stdout  # one scan of all files, named from the root
    assert "torch.set_num_threads" in refused.stdout
