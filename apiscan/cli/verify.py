"""``apiscan verify``: run the numeric micro-tests of the substitution catalogue.

Exit codes as for the scan: 0 every selected case passed or was skipped, 1 some failed or
errored, 2 usage error (one clear line on stderr) — including torch or mindspore missing when a
selected case has no cached result: that is checked in this process, before any child starts.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence

from apiscan.cli import error
from apiscan.verify.cases import DEFAULT_THRESHOLDS, Case
from apiscan.verify.results import NO_KERNEL_PREFIX, CaseResult, ResultCache
from apiscan.verify.runner import DEFAULT_TIMEOUT, Runner, default_cache, run_parallel

FORMATS = ("text", "json", "markdown")
DEVICES = ("CPU", "GPU", "Ascend")
#: What the micro-tests import in their child process.
FRAMEWORKS = ("torch", "mindspore")
INSTALL_HINT = "pip install 'apiscan[verify]'"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="apiscan verify",
        description="Check substitutions and mapping-table rows numerically: the same random "
        "inputs through PyTorch and MindSpore, outputs compared against a threshold.",
    )
    p.add_argument("apis", nargs="*", metavar="API", help="PyTorch API names, e.g. torch.sum")
    p.add_argument("--all", action="store_true", help="run every case in the catalogue")
    p.add_argument("--list", action="store_true", help="list the APIs that have cases, and exit")
    p.add_argument(
        "--device",
        choices=DEVICES,
        default=None,
        help="default: verify-device of the configuration, else CPU",
    )
    p.add_argument(
        "--dtype",
        choices=sorted(DEFAULT_THRESHOLDS),
        default=None,
        help="default: verify-dtype of the configuration, else float32",
    )
    p.add_argument("-f", "--format", choices=FORMATS, default="text")
    p.add_argument("-o", "--output", help="write the results to this file instead of stdout")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per case")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        help="isolated children run in parallel (default: the number of cores)",
    )
    return p


def select(apis: Sequence[str], run_all: bool, catalogue: Sequence[Case]) -> list[Case]:
    """The cases to run; raises ValueError naming the APIs the catalogue lacks."""
    if run_all:
        return list(catalogue)
    unknown = [a for a in apis if not any(c.api == a for c in catalogue)]
    if unknown:
        raise ValueError(
            f"no verification case for: {', '.join(unknown)}"
            " ('apiscan verify --list' lists the APIs that have cases)"
        )
    return [c for c in catalogue if c.api in set(apis)]


def listing(catalogue: Sequence[Case]) -> str:
    """``apiscan verify --list``: each API that has cases, sorted, with its case ids when they
    are more than the API's own name."""
    by_api: dict[str, list[str]] = {}
    for case in catalogue:
        by_api.setdefault(case.api, []).append(case.case_id)
    lines = [
        f"{api}\n" if ids == [api] else f"{api}  ({', '.join(sorted(ids))})\n"
        for api, ids in sorted(by_api.items())
    ]
    return "".join(lines) + f"{len(by_api)} APIs, {len(catalogue)} cases\n"


def run_verify(argv: Sequence[str]) -> int:
    from apiscan.verify.catalogue import CASES

    args = _parser().parse_args(list(argv))
    if args.list:
        from apiscan.cli.main import write_output

        return write_output(listing(CASES), args.output)
    if not args.apis and not args.all:
        return error(
            "apiscan verify",
            "name at least one API or pass --all"
            " ('apiscan verify --list' lists the APIs that have cases)",
        )
    try:
        cases = select(args.apis, args.all, CASES)
    except ValueError as exc:
        return error("apiscan verify", str(exc))
    from apiscan.config import ConfigError, resolve

    try:
        settings = resolve(None, {"verify-device": args.device, "verify-dtype": args.dtype})
    except ConfigError as exc:
        return error("apiscan verify", str(exc))
    device, dtype = settings["verify-device"], settings["verify-dtype"]
    cache: ResultCache | None = None if args.no_cache else default_cache()
    to_run = [c for c in cases if cache is None or cache.get(c, device, dtype) is None]
    missing = missing_frameworks() if to_run else []
    if missing:
        return error(
            "apiscan verify",
            f"{' and '.join(missing)} not installed in this Python"
            f" ({sys.executable}); install the micro-test dependencies: {INSTALL_HINT}",
        )
    show_progress = not args.no_progress and sys.stderr.isatty() and bool(to_run)
    jobs = min(args.jobs or os.cpu_count() or 1, len(to_run))
    if jobs > 1 and not show_progress:
        # isolated children in parallel (a terminal gets the serial run and its bar)
        results = run_parallel(cases, jobs, device, dtype, args.timeout, cache)
    else:
        with Runner(device, dtype, args.timeout, cache) as runner:
            results = _run(runner, cases, show_progress)
    from apiscan.cli.main import write_output

    written = write_output(render(results, args.format), args.output)
    if written:
        return written
    return 1 if any(r.status in ("fail", "error") for r in results) else 0


def missing_frameworks() -> list[str]:
    """The frameworks the child would fail to import (found without importing them)."""
    return [name for name in FRAMEWORKS if importlib.util.find_spec(name) is None]


def _run(runner: Runner, cases: Sequence[Case], show_progress: bool) -> list[CaseResult]:
    """Every case's result; a progress bar on a terminal (cases take seconds each)."""
    if not show_progress:
        return runner.run(cases)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    results: list[CaseResult] = []
    with Progress(
        "verifying",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        "{task.description}",
        transient=True,
    ) as bar:
        task = bar.add_task("", total=len(cases))
        for case, result in zip(cases, runner.iter_results(cases), strict=True):
            results.append(result)
            bar.update(task, advance=1, description=f"{case.case_id}: {result.status}")
    return results


def render(results: Sequence[CaseResult], fmt: str) -> str:
    """The results in one of FORMATS; a summary line of counts ends text and Markdown."""
    broken = broken_claims(results)
    if fmt == "json":
        counts = Counter(r.status for r in results)
        doc = {
            "summary": dict(sorted(counts.items())),
            "claims_not_holding": [r.case_id for r in broken],
            "dtype_differs": {r.case_id: r.dtype_diff for r in results if r.dtype_diff},
            "results": [r.to_dict() for r in results],
        }
        return json.dumps(doc, indent=2) + "\n"
    header = ["case", "status", "max abs", "mean abs", "rel", "threshold", "MindSpore", "device"]
    rows = [
        [
            r.case_id,
            r.status,
            _num(r.max_abs),
            _num(r.mean_abs),
            _num(r.rel_diff),
            f"{r.threshold:g}",
            r.mindspore_version,
            f"{r.device} {r.dtype}",
        ]
        for r in results
    ]
    notes = [f"{r.case_id}: {r.detail}" for r in results if r.detail]
    counts = Counter(r.status for r in results)
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in ("pass", "fail", "error", "skipped"))
    differ = [r for r in results if r.dtype_diff]
    if differ:
        summary += f"; dtype differs in {len(differ)}"
    from tabulate import tabulate

    table = tabulate(rows, header, tablefmt="github" if fmt == "markdown" else "simple")
    bullet = "- " if fmt == "markdown" else "  "
    details = "\n".join(bullet + n for n in notes)
    claims = _section(
        "Mapping-table claims that did not hold (numbers, errors, no kernel)",
        [f"{r.case_id} -> {r.ms_expr}: {_why_broken(r)}" for r in broken],
        fmt,
    )
    dtypes = _section(
        "dtype differs (int32 indices, float counts: code downstream may break even"
        " where the values agree)",
        [f"{r.case_id}: {r.dtype_diff}" for r in differ],
        fmt,
    )
    logs = _section(
        "Log lines the frameworks wrote while a case ran (every line in -f json)",
        [f"{r.case_id}: {_log_summary(r.log)}" for r in results if r.log],
        fmt,
    )
    body = details + "\n\n" if details else ""
    return f"{table}\n\n{body}{claims}{dtypes}{logs}{summary}\n"


def _section(heading: str, lines: list[str], fmt: str) -> str:
    """A titled list after the table ("## heading" in Markdown, "heading:" in text), or ""
    when there is nothing to list."""
    if not lines:
        return ""
    bullet = "- " if fmt == "markdown" else "  "
    title = f"## {heading}" if fmt == "markdown" else f"{heading}:"
    return title + "\n" + "\n".join(bullet + line for line in lines) + "\n\n"


def _log_summary(log: str) -> str:
    """One line for a case's captured log: its first error line (else its first line) and how
    many more there are."""
    lines = log.splitlines()
    first = next((line for line in lines if line.startswith("[ERROR]")), lines[0])
    more = f" (+{len(lines) - 1} more)" if len(lines) > 1 else ""
    return first + more


def broken_claims(results: Sequence[CaseResult]) -> list[CaseResult]:
    """Cases that run the target the official mapping table names and did not hold: the
    numbers disagree (fail), the documented call form raises in MindSpore (an error from
    the harness: ``zeros(2, 3)``, ``x.max(y)``, not a timeout or a dead child), or a claim's
    target has no kernel on the device ("error on CPU: no kernel for mindspore.mint.full";
    a harness skip such as torch lacking a float16 kernel is not among them)."""
    return [
        r
        for r in results
        if r.strategy == "mapped"
        and (
            r.status == "fail"
            or (
                r.status == "error"
                and r.detail.startswith(("mindspore:", "the target", NO_KERNEL_PREFIX))
            )
        )
    ]


def _why_broken(r: CaseResult) -> str:
    """One line: the difference of a failing claim, or what its error says."""
    if r.status == "fail" and r.max_abs is None:
        return r.detail  # nothing compared: the two sides built different layers
    if r.status == "fail":
        detail = f"; {r.detail}" if r.detail else ""
        return f"max abs {_num(r.max_abs)} > {r.threshold:g} ({r.worst or 'output'}){detail}"
    first = r.detail.splitlines()[0] if r.detail else ""
    if first.startswith(NO_KERNEL_PREFIX):
        # "error on CPU: no kernel for mindspore.mint.full" without the framework's message
        return first.split(": ", 2)[0] + ": " + first.split(": ", 2)[1]
    return f"raises ({first[:160]})"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"
