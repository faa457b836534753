"""The pre-commit hook as published (``.pre-commit-hooks.yaml``), run by pre-commit itself.

A scratch repository references a commit of this checkout's package sources as its ``repo:``,
exactly as a team's ``.pre-commit-config.yaml`` references ours: pre-commit clones it, builds
and installs the package into an environment of its own (``language: python``) and runs the
hook's entry. Only the dependencies are provided differently, so that the test needs no
network: pre-commit's pip installs the package alone (``PIP_NO_DEPS``), builds it with the
setuptools wheel that virtualenv embeds (``PIP_NO_INDEX``, ``PIP_FIND_LINKS``), and the
environment then reaches this interpreter's site directories for the dependencies.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from install_helpers import REPO, clean_env, copy_sources, dependency_dirs

yaml = pytest.importorskip("yaml")
pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install pre-commit)")

GIT = shutil.which("git")
pytestmark = [
    pytest.mark.install,
    pytest.mark.skipif(GIT is None, reason="git is not installed"),
]


def _hook() -> dict[str, object]:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return hook


def test_the_hook_definition() -> None:
    hook = _hook()
    assert hook["id"] == "apiscan"
    assert hook["language"] == "python"
    assert str(hook["entry"]).split() == ["apiscan", "--no-progress", "-f", "concise"]
    assert hook["args"] == ["--fail-on", "missing"]
    assert set(hook["types_or"]) >= {"python", "jupyter"}


def _embedded_wheels() -> str:
    """virtualenv's own wheels of pip and setuptools (the package's build backend)."""
    from virtualenv.seed.wheels import embed

    return os.path.dirname(embed.__file__)


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        [GIT or "git", "-c", "user.email=dev@example.test", "-c", "user.name=dev", *args],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def _published(tmp_path: Path) -> tuple[Path, str]:
    """A repository holding what a tag of ours holds for pre-commit: the package sources and
    the hook definition, committed; its path and the commit."""
    repo = copy_sources(tmp_path / "apiscan-repo")
    shutil.copy2(REPO / ".pre-commit-hooks.yaml", repo / ".pre-commit-hooks.yaml")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "release")
    return repo, _git(repo, "rev-parse", "HEAD")


def test_pre_commit_runs_the_published_hook_and_refuses_a_missing_api(tmp_path: Path) -> None:
    published, rev = _published(tmp_path)
    root = tmp_path / "project"
    root.mkdir()
    _git(root, "init", "-q")
    config = {"repos": [{"repo": str(published), "rev": rev, "hooks": [{"id": "apiscan"}]}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (root / "ok.py").write_text("import torch\n\nx = torch.zeros(3)\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "model.py").write_text("import torch\n\ny = torch.abs(torch.ones(2))\n")
    (root / "notes.txt").write_text("torch.set_num_threads(2)\n")  # not Python: not passed
    _git(root, "add", ".")
    pre_commit_home = tmp_path / "pre-commit-home"
    env = clean_env(tmp_path / "home") | {
        "PRE_COMMIT_HOME": str(pre_commit_home),
        "PIP_NO_DEPS": "1",
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": _embedded_wheels(),
    }
    pre_commit = [sys.executable, "-m", "pre_commit"]
    installed = subprocess.run(
        [*pre_commit, "install-hooks"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (site,) = glob.glob(str(pre_commit_home / "repo*" / "py_env-*" / "lib" / "*" / "site-packages"))
    assert glob.glob(f"{site}/apiscan/program/*.py")  # pre-commit installed the package
    Path(site, "zz_apiscan_test_dependencies.pth").write_text(
        "".join(f"{d}\n" for d in dependency_dirs()), encoding="utf-8"
    )

    run = [*pre_commit, "run", "--color", "never"]
    clean = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout

    (root / "pkg" / "threads.py").write_text("import torch\n\ntorch.set_num_threads(2)\n")
    _git(root, "add", ".")
    refused = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "Failed" in refused.stdout
    # one scan of all the files, named from their common directory, one line per finding
    assert "pkg/threads.py:3:1: API001 torch.set_num_threads: missing\n" in refused.stdout
    assert "\nFound 1 finding in 1 of 3 files: 1 missing.\n" in refused.stdout
    assert "notes.txt" not in refused.stdout
