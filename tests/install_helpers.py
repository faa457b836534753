"""Installing apiscan the way users do, inside a test: build its distributions from the
checkout, and make fresh virtual environments that reach the dependencies without the network.

A fresh environment gets only the package under test; its dependencies are this interpreter's
site directories, named in a ``.pth`` file of the new environment. Such a file adds the
directories to ``sys.path`` without running the ``.pth`` files inside them, so the editable
install of the checkout (a ``.pth`` or import hook there) stays out: ``import apiscan`` finds
the installed copy or nothing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: What a distribution is built from (everything else in a clone is for development).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "apiscan", "mapping_data")


def clean_env(home: Path) -> dict[str, str]:
    """The environment of a user's shell: no ``PYTHONPATH``, no active virtualenv, and a home
    of the test's own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return env | {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}


def copy_sources(dest: Path) -> Path:
    """The files a distribution is built from, as a clean clone has them (no build/, no
    egg-info, no bytecode left over from earlier builds)."""
    dest.mkdir(parents=True)
    for name in SOURCES:
        src = REPO / name
        if src.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)
    return dest


def build_wheel(work: Path) -> Path:
    """A wheel built from a clean copy of the checkout: through an sdist with ``python -m
    build`` when it is installed (what a release does), else with ``pip wheel``. No build
    isolation: the build backend is the one this environment has, so no network is needed."""
    src = copy_sources(work / "src")
    dist = work / "dist"
    env = clean_env(work / "home")
    if importlib.util.find_spec("build") is not None:
        cmd = [sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check"]
        cmd += ["--outdir", str(dist), str(src)]
    else:
        cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        cmd += ["-w", str(dist), str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dist.glob("apiscan-*.whl")
    return wheel


def dependency_dirs() -> list[str]:
    """This interpreter's site directories (where the dependencies are installed)."""
    return [
        p
        for p in dict.fromkeys(sys.path)
        if p and Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()
    ]


def fresh_venv(path: Path) -> Path:
    """A new virtual environment without apiscan, whose imports fall back to this one's
    dependencies; returns its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = path / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    lines = "".join(f"{d}\n" for d in dependency_dirs())
    (Path(purelib) / "zz_apiscan_test_dependencies.pth").write_text(lines, encoding="utf-8")
    return python


def pip_into(python: Path, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """This environment's pip acting on another environment (``pip --python``)."""
    cmd = [sys.executable, "-m", "pip", "--python", str(python), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=clean_env(home), timeout=300)
