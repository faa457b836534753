"""Speed of the in-process building blocks whose timings used to be asserted in unit tests.

Unit tests never assert wall-clock time (CI machines are shared and noisy); the figures live
here instead, each printed beside the target it was designed for:

    python scripts/bench_lookups.py [--runs 3]

- cold start: a fresh interpreter imports ``apiscan.mapping``, loads the merged table of all
  five versions and matches one call (target: well under 0.5 s);
- one version's table loaded from ``mapping_data`` with the caches cleared (target: < 50 ms);
- 30,000 dynamic-shape support look-ups (target: < 0.5 s);
- call graph + scope classification of a synthetic repository of 20,400 functions (the
  generator of tests/scope/test_scope_callgraph.py; target: a few seconds at most).

Each figure is the best of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tabulate import tabulate

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from apiscan.mapping import store  # noqa: E402
from apiscan.mapping.dynamic_shape import load_support, supported_backends  # noqa: E402


def best(runs: int, action: Callable[[], object]) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return min(timings)


def cold_start() -> None:
    code = (
        "from apiscan.mapping import load_table, match_api\n"
        "match_api('torch.abs', load_table(), passed_params=['out'])\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


def one_version() -> None:
    for cached in (store._load_table, store._version_rows, store._ms_targets):
        cached.cache_clear()
    store.load_table("2.4", merge=False)


def support_lookups() -> None:
    names = ["mindspore.ops.unique", "mindspore.mint.nn.Conv2d", "mindspore.Tensor.view"]
    for name in names * 10_000:
        supported_backends(name)


def call_graph() -> Callable[[], None]:
    spec = importlib.util.spec_from_file_location(
        "callgraph_cases", REPO / "tests" / "scope" / "test_scope_callgraph.py"
    )
    assert spec is not None and spec.loader is not None
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    from apiscan.program.index import ClassTable
    from apiscan.resolve.torch_api import load_torch_api
    from apiscan.scope import build_call_graph, classify

    analyses = cases.synthetic(files=400, per_file=50, calls_each=4)
    classes = ClassTable(analyses, load_torch_api())

    def run() -> None:
        classify(build_call_graph(analyses, classes), analyses, classes)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    load_support()  # the look-up figure is about look-ups, not the first load
    rows = [
        ("cold import + merged load + match (subprocess)", best(args.runs, cold_start), 0.5),
        ("one version's table, caches cleared", best(args.runs, one_version), 0.05),
        ("30,000 dynamic-shape support look-ups", best(args.runs, support_lookups), 0.5),
        ("call graph + scopes, 20,400 functions", best(args.runs, call_graph()), 5.0),
    ]
    table = [
        (name, f"{seconds:.3f}", f"{target:g}", "ok" if seconds < target else "SLOW")
        for name, seconds, target in rows
    ]
    print(tabulate(table, headers=("what", "best s", "target s", "")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
