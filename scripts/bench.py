"""Benchmark the whole ``apiscan`` command, cold and warm, against ``ast.parse`` and the LibCST
parse floor of the same files.

Speed targets are shown here, never in timed unit tests (CI machines are shared and noisy).
For each PATH this prints: files, lines, the time ``ast.parse`` takes over the same files
(in this process, one core), then for a cold run (empty cache) and a warm re-scan (same cache,
nothing changed) of the real command line: wall seconds, lines/s, the ratio to ``ast.parse``, the
CPU seconds (user+sys) of the whole process tree, and its peak memory (sampled from /proc every
20 ms, all processes summed). On a shared machine, compare CPU seconds: load moves them least.

The LibCST floor is the CPU one ``libcst.parse_module`` of every file costs in this process: no
scan can parse with LibCST for less, so ``vs floor`` (the run's CPU over the floor's) is how
far the scan is from it (issue target for a cold scan: at most 1.5x). ``--startup`` also times
what every invocation pays before any file: ``apiscan --version`` (target 0.1 s) and a scan of
an empty directory (target 0.15 s; it ends with exit 2, no Python files), best of ``--runs``.

    python scripts/bench.py /path/to/repo [/path/to/other ...] [--jobs N] [--runs 3]
                            [--format text] [--corpus NAME]

``--corpus NAME`` also reports the paths together as one corpus (a single scan of all of them,
``apiscan PATH PATH ...``), which is how the 400k-line target is measured.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from apiscan.discovery import discover


def ast_baseline(path: str) -> tuple[int, int, float]:
    _, files, _ = discover(path)
    sources = []
    for f in files:
        try:
            sources.append(Path(f.abspath).read_bytes())
        except OSError:
            continue
    lines = sum(s.count(b"\n") for s in sources)
    t = time.perf_counter()
    for s in sources:
        with contextlib.suppress(SyntaxError, ValueError, RecursionError):
            ast.parse(s)
    return len(sources), lines, time.perf_counter() - t


def libcst_floor(path: str) -> float:
    """CPU seconds of ``libcst.parse_module`` over the files of ``path``, one core, in this
    process (LibCST imported beforehand: its import is start-up, not parsing)."""
    import libcst

    _, files, _ = discover(path)
    sources = []
    for f in files:
        if not f.relpath.endswith(".py"):
            continue
        try:
            sources.append(Path(f.abspath).read_bytes())
        except OSError:
            continue
    t = time.process_time()
    for s in sources:
        with contextlib.suppress(Exception):
            libcst.parse_module(s)
    return time.process_time() - t


def startup(args: argparse.Namespace) -> list[list[object]]:
    """``--version`` and an empty directory's scan: best wall and CPU of ``--runs``."""
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory(prefix="apiscan-empty-") as empty:
        cache = os.path.join(empty, ".cache")
        target = os.path.join(empty, "repo")
        os.mkdir(target)
        for name, extra, goal, code in (
            ("--version", ["--version"], 0.10, 0),
            ("empty directory", [target, "--cache-dir", cache, "--no-progress"], 0.15, 2),
        ):
            cmd = [sys.executable, "-m", "apiscan", *extra]
            runs = [run_command(cmd, (code,)) for _ in range(args.runs)]
            wall = min(r[0] for r in runs)
            cpu = min(r[3] for r in runs)
            rows.append([name, f"{wall:.3f}", f"{cpu:.3f}", f"{goal:.2f}"])
    return rows


def _tree_rss_kb(root_pid: int) -> int:
    """Sum of VmRSS over root_pid and all its descendants."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as fh:
                ppid = kb = 0
                for line in fh:
                    if line.startswith("PPid:"):
                        ppid = int(line.split()[1])
                    elif line.startswith("VmRSS:"):
                        kb = int(line.split()[1])
        except OSError:
            continue
        pid = int(entry)
        rss[pid] = kb
        children.setdefault(ppid, []).append(pid)
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, ()))
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(
    cmd: list[str], expected: tuple[int, ...] = (0, 1)
) -> tuple[float, int, int, float]:
    """Wall seconds, peak tree RSS in KB, exit code, CPU seconds (user+sys of the whole
    process tree: on a shared machine the figure that load moves least)."""
    peak = 0
    cpu = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - t
    done.set()
    sampler.join()
    if proc.returncode not in expected:
        sys.stderr.write(err.decode(errors="replace"))
    return wall, peak, proc.returncode, _children_cpu() - cpu


def bench(
    name: str, path: str | list[str], args: argparse.Namespace, extra: tuple[str, ...] = ()
) -> list[list[object]]:
    """Cold and warm rows for one scan of ``path`` (several paths: one scan of them all)."""
    paths = [path] if isinstance(path, str) else path
    counted = [ast_baseline(p) for p in paths]
    files, lines = sum(c[0] for c in counted), sum(c[1] for c in counted)
    ast_s = sum(c[2] for c in counted)
    floor_s = sum(libcst_floor(p) for p in paths)
    # ``python -m apiscan`` rather than the console script: the package this interpreter
    # imports (a checkout on PYTHONPATH included) is the one measured.
    exe = [sys.executable, "-m", "apiscan"]
    rows: list[list[object]] = []
    best: dict[str, tuple[float, int, float]] = {}
    for _ in range(args.runs):
        cache = tempfile.mkdtemp(prefix="apiscan-bench-")
        try:
            base = [*exe, *paths, "--format", args.format, "--cache-dir", cache, "--no-progress"]
            if args.jobs:
                base += ["--jobs", str(args.jobs)]
            base += list(extra)
            for kind in ("cold", "warm"):
                wall, peak, _, cpu = run_command(base)
                if kind not in best or wall < best[kind][0]:
                    best[kind] = (wall, peak, cpu)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    for kind in ("cold", "warm"):
        wall, peak, cpu = best[kind]
        rows.append(
            [
                name,
                kind,
                files,
                lines,
                f"{ast_s:.2f}",
                f"{wall:.2f}",
                f"{lines / wall:,.0f}",
                f"{wall / ast_s:.1f}x",
                f"{cpu:.2f}",
                f"{floor_s:.2f}",
                f"{cpu / floor_s:.2f}x" if floor_s else "-",
                f"{peak / 1024:.0f}",
            ]
        )
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="*", help="repositories to scan (none: --startup alone)")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--runs", type=int, default=3, help="best of N (default 3)")
    p.add_argument("--format", default="text")
    p.add_argument("--corpus", default=None, help="also scan all paths together under NAME")
    p.add_argument(
        "--ds-overhead",
        action="store_true",
        help="also time --no-dynamic-shape and print what the dynamic-shape "
        "analysis adds (target: at most 30%%)",
    )
    p.add_argument(
        "--startup",
        action="store_true",
        help="also time apiscan --version and an empty directory's scan",
    )
    args = p.parse_args()
    if not args.paths and not args.startup:
        p.error("give a repository to scan, or --startup")
    rows: list[list[object]] = []
    for path in args.paths:
        rows += bench(Path(path).name, path, args)
    if args.corpus:
        # One scan of every path (a directory of symlinks would be empty: the walk never
        # follows a symlink out of the scanned directory).
        rows += bench(args.corpus, list(args.paths), args)
    print(
        f"apiscan benchmark: {os.cpu_count()} cores, jobs={args.jobs or 'all'}, "
        f"format={args.format}, best of {args.runs}, load {os.getloadavg()[0]:.1f}"
    )
    if rows:
        print(_scan_table(rows))
    if args.startup:
        print()
        print(f"start-up (best of {args.runs})")
        print(
            tabulate(
                startup(args),
                headers=["command", "wall s", "cpu s", "target s"],
                disable_numparse=True,
            )
        )
    if args.ds_overhead:
        print_ds_overhead(args)
    return 0


def _scan_table(rows: list[list[object]]) -> str:
    table: str = tabulate(
        rows,
        headers=[
            "repo",
            "run",
            "files",
            "lines",
            "ast.parse s",
            "wall s",
            "lines/s",
            "vs ast",
            "cpu s",
            "libcst floor s",
            "vs floor",
            "peak MB",
        ],
        disable_numparse=True,
    )
    return table


def print_ds_overhead(args: argparse.Namespace) -> None:
    """What the dynamic-shape analysis adds: the same command with --no-dynamic-shape."""
    table = []
    for path in args.paths:
        name = Path(path).name
        with_ds = {str(r[1]): float(str(r[5])) for r in bench(name, path, args)}
        without = {
            str(r[1]): float(str(r[5])) for r in bench(name, path, args, ("--no-dynamic-shape",))
        }
        for kind in ("cold", "warm"):
            added = 100.0 * (with_ds[kind] - without[kind]) / without[kind]
            table.append(
                [name, kind, f"{without[kind]:.2f}", f"{with_ds[kind]:.2f}", f"{added:+.0f}%"]
            )
    print()
    print("dynamic-shape analysis overhead (whole command, best of runs; target <= +30%)")
    print(
        tabulate(
            table,
            headers=["repo", "run", "API only s", "API + dynamic shape s", "added"],
            disable_numparse=True,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
