"""``apiscan verify`` never imports code from the directory it runs in (issue 13, item 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import apiscan
from apiscan.verify.cases import Case, InputSpec
from apiscan.verify.runner import Runner, _package_root

#: Modules the child (multiprocessing, pickle, the frameworks) imports on its way up.
HOSTILE = (
    "signal",
    "pickle",
    "socket",
    "threading",
    "math",
    "os",
    "selectors",
    "struct",
    "subprocess",
    "tempfile",
    "random",
    "numpy",
    "copyreg",
    "weakref",
    "multiprocessing",
)
RELU = Case("torch.relu", "torch.relu(x)", "ops.relu(x)", "mapped", (InputSpec("x", (3, 4)),))


def _hostile_dir(root: Path, marker: Path) -> Path:
    """A directory full of stdlib-named modules that each leave a mark when imported."""
    hostile = root / "repo"
    hostile.mkdir()
    for name in HOSTILE:
        (hostile / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n", encoding="utf-8"
        )
    return hostile


def test_package_root_is_the_running_apiscan() -> None:
    assert Path(_package_root()) == Path(apiscan.__file__).resolve().parent.parent


def test_children_never_import_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    marker = tmp_path / "imported.txt"
    hostile = _hostile_dir(tmp_path, marker)
    monkeypatch.chdir(hostile)
    # PYTHONPATH pointing at the repository too: the child ignores it (-I).
    monkeypatch.setenv("PYTHONPATH", str(hostile))
    monkeypatch.syspath_prepend(str(hostile))  # as `python -m apiscan` run in the repo would
    with Runner("CPU", "float32", timeout=120) as runner:
        [result] = runner.run([RELU])
    assert not marker.exists(), marker.read_text()
    assert result.status == "pass", result.detail


def test_verify_command_in_a_hostile_directory(tmp_path: Path) -> None:
    """The whole command, run where a user would run it: inside the repository."""
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    marker = tmp_path / "imported.txt"
    hostile = _hostile_dir(tmp_path, marker)
    env = {
        **os.environ,
        "PYTHONPATH": _package_root(),
        "APISCAN_CACHE_DIR": str(tmp_path / "cache"),
    }
    # -P: the parent itself must not put the current directory first either (the console
    # script does not; `python -m` would).
    proc = subprocess.run(
        [sys.executable, "-P", "-m", "apiscan", "verify", "torchvision.ops.box_area", "--no-cache"],
        cwd=hostile,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert not marker.exists(), marker.read_text()
    assert proc.returncode == 0, proc.stderr
    assert "pass" in proc.stdout
