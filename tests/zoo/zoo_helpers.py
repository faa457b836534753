"""Small repositories for the zoo tests: local git repositories reached through file:// URLs
(no network), written here."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURE_ZOO = REPO / "fixtures" / "zoo" / "manifest.toml"

#: Fixed identities and dates, so that the same files give the same commit ids.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "zoo",
    "GIT_AUTHOR_EMAIL": "zoo@example.invalid",
    "GIT_COMMITTER_NAME": "zoo",
    "GIT_COMMITTER_EMAIL": "zoo@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}

MODEL = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, {width})

    def forward(self, x):
        y = F.relu(self.fc(x))
        keep = torch.nonzero(y > 0)
        return torch.{op}(y, 1), keep
"""


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def make_repo(root: Path, name: str, op: str = "cumsum", width: int = 8) -> tuple[str, str]:
    """A one-commit git repository with a tiny model; (file:// URL, commit)."""
    path = root / name
    path.mkdir(parents=True)
    (path / "model.py").write_text(MODEL.format(op=op, width=width))
    git(path, "init", "-q", "-b", "main")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return path.as_uri(), git(path, "rev-parse", "HEAD")


def commit_change(url: str, op: str) -> str:
    path = Path(url.removeprefix("file://"))
    (path / "model.py").write_text(MODEL.format(op=op, width=8))
    git(path, "commit", "-qam", "change")
    return git(path, "rev-parse", "HEAD")
