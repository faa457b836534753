"""A scan run as the program keeps the pipeline's garbage-collector thresholds to its end (no
collection over the scan's objects when the scan returns, just before the process exits);
a scan called in-process (a library caller, the tests) leaves the caller's thresholds as
they were."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apiscan.cli.main import ONE_SHOT_GC_THRESHOLD, main
from apiscan.pipeline import WORKER_GC_THRESHOLD

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "crossfn"

PROGRAM = """
import gc, os, sys
import apiscan.lifetime as lifetime

def finish(code):
    print(gc.get_threshold(), flush=True)
    os._exit(code)

lifetime.finish = finish
sys.argv = ["apiscan", sys.argv[1], "--no-cache", "--no-progress", "-o", os.devnull]
from apiscan.cli.main import main
main()
"""


def test_the_program_keeps_the_scan_collector_to_the_end() -> None:
    assert ONE_SHOT_GC_THRESHOLD == WORKER_GC_THRESHOLD
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(FIXTURE)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(ONE_SHOT_GC_THRESHOLD)


def test_an_in_process_scan_leaves_the_thresholds_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    assert main([str(FIXTURE), "--no-cache", "--no-progress", "-o", str(tmp_path / "r")]) == 0
    assert gc.get_threshold() == before


def test_a_scan_runs_without_the_collector_and_gives_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The main process scans with the cyclic collector off (its records hold almost no
    cycles); a caller's collector is on again after, or stays off if it was off."""
    import apiscan.results

    seen: list[bool] = []
    join = apiscan.results.join

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return join(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(apiscan.results, "join", watched)
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            out = tmp_path / f"r{enabled}"
            assert main([str(FIXTURE), "--no-cache", "--no-progress", "-o", str(out)]) == 0
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False]
