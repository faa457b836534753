"""Time ``apiscan zoo`` with both engines on a zoo of real repositories, check that their
databases are identical, and project the cost of 10,000 repositories on N nodes.

    python scripts/bench_zoo.py --local-dir REPOS --git-dir CLONES [--jobs 2] [--out r.json]

Every sub-directory of ``--local-dir`` is a repository scanned where it is; every git
repository under ``--git-dir`` is listed as a ``file://`` URL pinned at its HEAD commit, so the
run clones it (shallow) like a remote one. Each engine runs once, cold: its own content cache,
clone directory and database. Ray's start-up (a local instance) is timed apart from the run:
an existing cluster (``--address``) does not pay it per run. CPU is the tasks' own (each
task's process and its worker, from the ``timings`` table) plus the driver's.

The machine's load average is printed before and after: on a shared machine the walls are
only as good as that.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from apiscan.zoo.database import CONTENT_TABLES, connect, dump  # noqa: E402
from apiscan.zoo.run import ZooOptions, run_zoo  # noqa: E402

#: Repositories of the projection, and their size (the issue's planning figure).
PROJECT_REPOS = 10_000
PROJECT_LINES = 50_000


def write_manifest(local: list[Path], git: list[Path], skip: set[str], target: Path) -> int:
    rows = ["name,source"]
    for root in local:
        for d in sorted(p for p in root.iterdir() if p.is_dir() and p.name not in skip):
            rows.append(f"{d.name},{d}")
    for root in git:
        for d in sorted(p for p in root.iterdir() if (p / ".git").is_dir()):
            if d.name in skip:
                continue
            head = subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=d, capture_output=True, text=True, check=True
            ).stdout.strip()
            rows.append(f"{d.name},{d.as_uri()}@{head}")
    target.write_text("\n".join(rows) + "\n")
    return len(rows) - 1


def _cpu_self() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def run_engine(engine: str, manifest: Path, work: Path, jobs: int) -> dict[str, float]:
    options = ZooOptions(
        manifest,
        work / f"{engine}.duckdb",
        engine=engine,
        jobs=jobs,
        cache_dir=work / f"cache-{engine}",
        clone_cache=work / f"clones-{engine}",
    )
    startup = shutdown = 0.0
    if engine == "ray":
        import ray

        t = time.perf_counter()
        ray.init(
            num_cpus=jobs,
            include_dashboard=False,
            logging_level="ERROR",
            log_to_driver=False,
            object_store_memory=512 * 2**20,
        )
        startup = time.perf_counter() - t
    cpu0 = _cpu_self()
    t0 = time.perf_counter()
    summary = run_zoo(options, say=lambda line: print(f"  {engine}: {line}", file=sys.stderr))
    wall = time.perf_counter() - t0
    driver_cpu = _cpu_self() - cpu0
    if engine == "ray":
        import ray

        t = time.perf_counter()
        ray.shutdown()
        shutdown = time.perf_counter() - t
    con = connect(options.database, read_only=True)
    try:
        task_wall, task_cpu, lines = con.execute(
            "SELECT sum(t.wall_s), sum(t.cpu_s), sum(s.lines) FROM timings t"
            " JOIN summaries s USING (repo_id)"
        ).fetchone()  # type: ignore[misc]
        per_task = con.execute(
            "SELECT r.name, t.wall_s, t.cpu_s, s.lines, s.files FROM timings t"
            " JOIN summaries s USING (repo_id) JOIN repositories r USING (repo_id)"
            " ORDER BY r.name"
        ).fetchall()
    finally:
        con.close()
    return {
        "engine": engine,
        "repositories": len(summary.scanned) + len(summary.failed),
        "scanned": len(summary.scanned),
        "failed": len(summary.failed),
        "wall_s": round(wall, 2),
        "ray_startup_s": round(startup, 2),
        "ray_shutdown_s": round(shutdown, 2),
        "driver_cpu_s": round(driver_cpu, 2),
        "task_cpu_s": round(task_cpu or 0.0, 2),
        "task_wall_s": round(task_wall or 0.0, 2),
        "lines": int(lines or 0),
        "per_task": [
            {"name": n, "wall_s": round(w, 2), "cpu_s": round(c, 2), "lines": li, "files": f}
            for n, w, c, li, f in per_task
        ],
    }


def projection(local: dict, ray_run: dict, jobs: int, nodes: list[int], cores: int) -> dict:
    """10,000 repositories of 50k lines: CPU from the measured CPU per 1,000 lines; wall on
    N nodes of ``cores`` cores from that CPU, plus Ray's per-task overhead as measured here
    (its extra wall over the local engine, excluding start-up, spread over the tasks)."""
    per_kline = local["task_cpu_s"] / (local["lines"] / 1000)
    cpu_total = PROJECT_REPOS * PROJECT_LINES / 1000 * per_kline
    extra = max(0.0, ray_run["wall_s"] - local["wall_s"]) * jobs / max(1, ray_run["scanned"])
    tasks = [t["cpu_s"] for t in local["per_task"]]
    rows = []
    for n in nodes:
        slots = n * cores
        wall = (cpu_total + PROJECT_REPOS * extra) / slots
        rows.append({"nodes": n, "cores_per_node": cores, "wall_h": round(wall / 3600, 3)})
    return {
        "cpu_s_per_1000_lines": round(per_kline, 4),
        "cpu_h_total": round(cpu_total / 3600, 1),
        "ray_overhead_s_per_task": round(extra, 3),
        "median_task_cpu_s": round(statistics.median(tasks), 2) if tasks else 0,
        "rows": rows,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--local-dir", action="append", default=[], type=Path)
    p.add_argument("--git-dir", action="append", default=[], type=Path)
    p.add_argument("--skip", action="append", default=[], help="a repository name to leave out")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--engines", default="local,ray")
    p.add_argument("--nodes", default="1,10,100")
    p.add_argument("--cores-per-node", type=int, default=16)
    p.add_argument("--work", type=Path, default=None, help="keep the databases here")
    p.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = p.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-zoo-"))
    work.mkdir(parents=True, exist_ok=True)
    manifest = work / "zoo.csv"
    n = write_manifest(args.local_dir, args.git_dir, set(args.skip), manifest)
    print(f"{n} repositories; load average before: {os.getloadavg()}", file=sys.stderr)
    runs = {}
    for engine in args.engines.split(","):
        runs[engine] = run_engine(engine, manifest, work, args.jobs)
        print(f"load average after {engine}: {os.getloadavg()}", file=sys.stderr)
    result: dict[str, object] = {"repositories": n, "jobs": args.jobs, "runs": runs}
    if "local" in runs and "ray" in runs:
        a, b = dump(work / "local.duckdb"), dump(work / "ray.duckdb")
        result["identical"] = {t: a[t] == b[t] for t in CONTENT_TABLES}
        result["rows"] = {t: len(a[t]) for t in CONTENT_TABLES}
        local, on_ray = runs["local"], runs["ray"]
        result["ray_overhead_pct"] = round(100 * (on_ray["wall_s"] / local["wall_s"] - 1), 1)
        with_start = on_ray["wall_s"] + on_ray["ray_startup_s"]
        result["ray_overhead_with_startup_pct"] = round(100 * (with_start / local["wall_s"] - 1), 1)
        nodes = [int(x) for x in args.nodes.split(",")]
        result["projection"] = projection(local, on_ray, args.jobs, nodes, args.cores_per_node)
    result["load_average_end"] = os.getloadavg()
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    summary = {k: v for k, v in result.items() if k != "runs"}
    summary["walls"] = {e: r["wall_s"] for e, r in runs.items()}
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
