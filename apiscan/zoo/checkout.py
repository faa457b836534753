"""Where a repository's files are, and the revision that says whether it changed.

A git URL is cloned shallow (depth 1) at its commit into the clone cache, one directory per
(URL, commit), and reused while that directory holds the commit. A local path is scanned where
it is; its revision is a fingerprint of its files' paths, sizes and modification times, since a
local tree can change without a commit. The revision, with apiscan's and the mapping's versions
and the configuration, is what an incremental run compares to skip a repository.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

_SHA = re.compile(r"^[0-9a-f]{40}$")
#: Directories a local fingerprint never enters (version control, caches).
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".ruff_cache"})
GIT_TIMEOUT_S = 600


class CheckoutError(RuntimeError):
    """A repository that cannot be resolved or cloned; recorded as its failure."""


def _git(*args: str, cwd: Path | None = None) -> str:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            env=env,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CheckoutError(f"git {args[0]} failed: {exc}") from exc
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        last = lines[-1] if lines else f"exit {done.returncode}"
        raise CheckoutError(f"git {args[0]} failed: {last}")
    return done.stdout


def resolve_commit(url: str, ref: str) -> str:
    """The commit ``ref`` names at ``url`` (HEAD when empty), without cloning; a full commit
    id is taken as given."""
    if _SHA.match(ref.lower()):
        return ref.lower()
    out = _git("ls-remote", url, ref or "HEAD")
    wanted = ref or "HEAD"
    candidates = {}
    for line in out.splitlines():
        sha, _, name = line.partition("\t")
        candidates[name] = sha
    for name in (wanted, f"refs/tags/{wanted}^{{}}", f"refs/tags/{wanted}", f"refs/heads/{wanted}"):
        if name in candidates:
            return candidates[name]
    if len(candidates) == 1:
        return next(iter(candidates.values()))
    raise CheckoutError(f"{url}: no ref {wanted!r} (give a full commit id to pin it)")


def clone_dir(cache: Path, url: str, commit: str) -> Path:
    return cache / f"{hashlib.sha256(url.encode()).hexdigest()[:16]}-{commit[:12]}"


def clone(url: str, commit: str, cache: Path) -> Path:
    """A shallow checkout of ``commit`` under ``cache`` (reused when already there)."""
    target = clone_dir(cache, url, commit)
    if (target / ".git").is_dir():
        try:
            if _git("rev-parse", "HEAD", cwd=target).strip() == commit:
                return target
        except CheckoutError:
            pass
    cache.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".part{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        _git("init", "-q", cwd=partial)
        try:
            _git("fetch", "-q", "--depth", "1", url, commit, cwd=partial)
        except CheckoutError:
            # A server refusing a fetch by commit id: fetch everything, then pick it.
            _git("fetch", "-q", url, "+refs/heads/*:refs/remotes/origin/*", cwd=partial)
            _git("cat-file", "-e", f"{commit}^{{commit}}", cwd=partial)
            _git("update-ref", "FETCH_HEAD", commit, cwd=partial)
        _git("-c", "advice.detachedHead=false", "checkout", "-q", commit, cwd=partial)
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target


def fingerprint(root: Path) -> str:
    """``tree:`` + a hash of every file's relative path, size and modification time."""
    from apiscan.cache import stat_digest

    return "tree:" + stat_digest([root], skip_dirs=_SKIP_DIRS)[:32]


def local_commit(root: Path) -> str:
    """The HEAD commit when ``root`` is the top of a git work tree ("" otherwise: a
    directory inside a larger repository has no commit of its own). Informative only: the
    fingerprint decides what changed."""
    if not (root / ".git").exists():
        return ""
    try:
        return _git("rev-parse", "HEAD", cwd=root).strip()
    except CheckoutError:
        return ""
