"""A test run leaves the real home directory alone (``tests/conftest.py`` redirects it).

The proof is exact rather than a before/after listing (which another process on the machine
could disturb): an audit hook records every path this process opens for writing, creates,
renames or connects a database to while a scan runs with its default cache, and none of them
may lie under the real ``~/.cache``; the scan's cache must have gone to the test's home.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from apiscan.cache import default_cache_dir
from apiscan.cli.main import main

REPO = Path(__file__).resolve().parents[1]
#: The home of whoever runs the suite: read when the module is collected, before
#: tests/conftest.py's fixture redirects HOME for each test.
REAL_HOME = Path(os.path.expanduser("~"))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_recording: list[str] | None = None


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _recording is None or not args:
        return
    path = args[0]
    if event == "open":
        mode, flags = args[1], args[2]
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        )
        if not writes:
            return
    elif event not in ("sqlite3.connect", "os.mkdir", "os.rename", "os.replace"):
        return
    if isinstance(path, str | bytes | os.PathLike):
        _recording.append(os.path.abspath(os.fsdecode(path)))


sys.addaudithook(_audit)


def test_a_scan_with_the_default_cache_writes_nothing_under_the_real_home(
    tmp_path: Path, capsys: object
) -> None:
    global _recording
    assert Path(os.path.expanduser("~")) != REAL_HOME
    cache = default_cache_dir()
    assert cache.is_relative_to(os.environ["HOME"]), cache
    repo = tmp_path / "tinydet"
    shutil.copytree(REPO / "fixtures" / "tinydet", repo)
    _recording = []
    try:
        code = main([str(repo), "--jobs", "1", "--no-progress", "-f", "json"])
    finally:
        written, _recording = _recording, None
    assert code == 0
    real_cache = (REAL_HOME / ".cache").resolve()
    assert not [p for p in written if Path(p).resolve().is_relative_to(real_cache)]
    # the hook saw the cache being written, where the fixture put it
    assert any(Path(p).is_relative_to(cache) for p in written), written
    assert any(cache.rglob("*"))
