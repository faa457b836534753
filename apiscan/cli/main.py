"""The ``apiscan`` command line.

``apiscan PATH`` (or ``apiscan scan PATH``) scans a repository. Exit codes follow sqlfluff:
0 done, 1 findings at or above ``--fail-on``, 2 usage or fatal error (one clear line on stderr).
Rendering goes through the reporter registry: the CLI never branches on the format.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan import __version__
from apiscan.cli import add_cache_options, error

if TYPE_CHECKING:
    from apiscan.config import Settings
    from apiscan.model import ScanResult

SUBCOMMANDS = (
    "scan",
    "mapping",
    "rules",
    "explain",
    "review",
    "verify",
    "stub",
    "config",
    "check",
    "lsp",
    "fix",
    "zoo",
)
#: ``--fail-on`` thresholds: a candidate is not proven, so "different" counts it too.
FAIL_ON = {"missing": ("missing",), "different": ("missing", "candidate", "different")}


def _scan_parser() -> argparse.ArgumentParser:
    from apiscan.mapping.versions import DEFAULT_VERSION, KNOWN_VERSIONS

    p = argparse.ArgumentParser(
        prog="apiscan",
        description="Scan a PyTorch repository and report how its PyTorch API uses map to "
        "MindSpore.",
        epilog="Other commands: 'apiscan mapping' lists the mapping tables; 'apiscan rules' "
        "lists the dynamic-shape rules and 'apiscan explain DS101' explains one; "
        "'apiscan check --stdin-filename PATH -' checks one buffer in its project; "
        "'apiscan lsp' is the language server for editors. "
        "Exit codes: 0 done, 1 findings at or above --fail-on, 2 usage error.",
    )
    p.add_argument(
        "path",
        nargs="+",
        help="repository directory or Python file to scan; several paths (files or"
        " directories, as a pre-commit hook passes them) are scanned as one, relative to"
        " their common directory",
    )
    p.add_argument(
        "-f",
        "--format",
        default="text",
        help="report format: text (default), json, csv, markdown, sarif, concise",
    )
    p.add_argument("-o", "--output", help="write the report to this file instead of stdout")
    p.add_argument(
        "--ms-version",
        default=None,
        metavar="VERSION",
        help=f"MindSpore mapping table: {'|'.join(KNOWN_VERSIONS)} "
        f"(default {DEFAULT_VERSION}, older tables filling in rows it lacks)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=None,
        metavar="GLOB",
        help="skip paths matching GLOB (relative to PATH; repeatable; replaces the"
        " configuration's exclude, not its extend-exclude)",
    )
    p.add_argument(
        "--fail-on",
        choices=sorted(FAIL_ON),
        default=None,
        help="exit 1 if any finding has this status (different includes missing and candidate)",
    )
    add_cache_options(p)
    p.add_argument(
        "--max-file-size",
        type=int,
        default=None,
        metavar="BYTES",
        help="skip (and report) files larger than this: LibCST needs ~10 s per MB "
        "(default 1000000)",
    )
    p.add_argument(
        "--no-ignore",
        action="store_true",
        help="also scan what .gitignore / .ignore files ignore",
    )
    p.add_argument(
        "--follow-symlinks",
        action="store_true",
        help="also follow symlinks that lead outside the scanned directory",
    )
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument(
        "--stats",
        action="store_true",
        help="after the report, print the scan's stage timings and counters on stderr",
    )
    p.add_argument(
        "--no-dynamic-shape",
        action="store_true",
        help="skip the dynamic-shape rules (API coverage only)",
    )
    p.add_argument(
        "--stubs",
        metavar="DIR",
        default=None,
        help="also write a custom-op scaffold and its failing test for every missing API "
        "used (see 'apiscan stub'; needs torch)",
    )
    p.add_argument(
        "--verify-device",
        choices=("CPU", "GPU", "Ascend"),
        default=None,
        help="whose cached micro-test results (apiscan verify) the report shows (default CPU)",
    )
    p.add_argument(
        "--verify-dtype",
        choices=("float32", "float16"),
        default=None,
        help="the dtype of those results (default float32)",
    )
    p.add_argument(
        "--target",
        choices=("Ascend", "GPU", "CPU"),
        default=None,
        help="the platform you migrate to: a MindSpore API not documented for it "
        "(its 'Supported Platforms') counts as a gap",
    )
    p.add_argument(
        "--verify",
        action="store_true",
        help="run the micro-tests of the call forms the scan found (literal arguments, "
        "keyword names, number of sizes) in isolated children, cached, and report per "
        "call 'verified for the form used at ...' or 'fails for this form' (needs torch "
        "and mindspore)",
    )
    p.add_argument("--version", action="version", version=f"apiscan {__version__}")
    return p


def _usage_error(message: str) -> int:
    return error("apiscan", message)


def scan_settings(path: str | None, args: argparse.Namespace) -> Settings:
    """Defaults < the configuration file governing ``path`` < the command line."""
    from apiscan.config import resolve

    return resolve(
        path,
        {
            "exclude": getattr(args, "exclude", None),
            "ms-version": getattr(args, "ms_version", None),
            "fail-on": getattr(args, "fail_on", None),
            "max-file-size": getattr(args, "max_file_size", None),
            "verify-device": getattr(args, "verify_device", None),
            "verify-dtype": getattr(args, "verify_dtype", None),
            "respect-ignore-files": False if getattr(args, "no_ignore", False) else None,
        },
    )


def run_scan(argv: list[str]) -> int:
    args = _scan_parser().parse_args(argv)
    from apiscan.config import ConfigError
    from apiscan.discovery import DiscoveryError
    from apiscan.mapping.versions import UnknownVersionError
    from apiscan.pipeline import ScanOptions, scan, scan_rendered
    from apiscan.report import formats, get_reporter
    from apiscan.report.base import is_builtin, prepare_hook

    if args.format not in formats():
        return _usage_error(
            f"unknown format {args.format!r}; choose one of: {', '.join(formats())}"
        )
    # One of apiscan's own reporters, whose output depends on the result alone (a plug-in's
    # might not, so its report is never cached), loads only when a report is rendered: a
    # scan with nothing to scan, or a warm one whose report is cached, never imports it.
    cached_report = not args.verify and not args.stubs and is_builtin(args.format)
    reporter = None if cached_report else get_reporter(args.format)
    if args.jobs is not None and args.jobs < 1:
        return _usage_error("--jobs must be at least 1")
    for path in args.path:
        if not os.path.lexists(path):
            return _usage_error(f"path does not exist: {path}")
    if args.max_file_size is not None and args.max_file_size < 1:
        return _usage_error("--max-file-size must be at least 1")
    paths = list(dict.fromkeys(args.path))
    if len(paths) == 1:
        path = paths[0]
        base = Path(path) if Path(path).is_dir() else Path(path).parent
    else:
        dirs = [
            str(Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent) for p in paths
        ]
        base = Path(os.path.commonpath(dirs))
        path = str(base)
    try:
        settings = scan_settings(str(base) if len(paths) > 1 else path, args)
    except ConfigError as exc:
        return _usage_error(str(exc))
    from apiscan.cache import default_cache_dir

    cache_dir = None if args.no_cache else Path(args.cache_dir or default_cache_dir())
    options = ScanOptions(
        path=path,
        paths=tuple(paths) if len(paths) > 1 else (),
        ms_version=settings["ms-version"],
        excludes=settings.excludes(base),
        jobs=args.jobs,
        cache_dir=cache_dir,
        max_file_size=settings["max-file-size"],
        dynamic_shape=not args.no_dynamic_shape,
        progress=not args.no_progress and sys.stderr.isatty(),
        warmup=prepare_hook(reporter) if reporter else _prepare_later(args.format),
        verify_device=settings["verify-device"],
        verify_dtype=settings["verify-dtype"],
        ignores=settings.ignores(base),
        respect_ignore=settings["respect-ignore-files"],
        follow_symlinks=args.follow_symlinks,
        target_platform=args.target,
        require_files=True,
    )
    if reporter is None:
        # The report alone is needed: it is cached with the result (a warm re-scan of an
        # unchanged tree renders nothing).
        fmt = args.format
        try:
            rendered = scan_rendered(options, fmt, lambda result: get_reporter(fmt).render(result))
        except (DiscoveryError, UnknownVersionError) as exc:
            return _usage_error(str(exc))
        write_output(rendered.text, args.output)
        statuses = rendered.statuses
        stats = rendered.stats
    else:
        try:
            result = scan(options)
        except (DiscoveryError, UnknownVersionError) as exc:
            return _usage_error(str(exc))
        if args.verify:
            result = _verify_forms(result, cache_dir, options.verify_device, options.verify_dtype)
        write_output(reporter.render(result), args.output)
        if args.stubs and not _write_stubs(result, Path(args.stubs)):
            return 2
        statuses = frozenset(f.status for f in result.api_findings)
        stats = result.stats
    if args.stats:
        print(format_stats(stats), end="", file=sys.stderr)
    if settings["fail-on"] and statuses & set(FAIL_ON[settings["fail-on"]]):
        return 1
    return 0


def format_stats(stats: dict[str, float]) -> str:
    """``--stats``: one ``name value`` line per timing (``_s``: seconds) or counter the
    pipeline kept, in the order it kept them, under a heading."""
    width = max((len(k) for k in stats), default=0)
    lines = ["apiscan: stats\n"]
    for key, value in stats.items():
        shown = f"{value:.3f}" if key.endswith("_s") else f"{value:g}"
        lines.append(f"  {key:<{width}}  {shown}\n")
    return "".join(lines)


def _prepare_later(fmt: str) -> Callable[[], None]:
    """The warm-up of format ``fmt``'s reporter, its import included (the pipeline runs it in
    a thread while the workers parse)."""

    def prepare() -> None:
        from apiscan.report import get_reporter
        from apiscan.report.base import prepare_hook

        hook = prepare_hook(get_reporter(fmt))
        if hook is not None:
            hook()

    return prepare


#: Namespaces whose missing APIs compute on tensors, so that a custom op can stand in for
#: them; ``torch.cuda.is_available`` or ``Module.eval`` need a different rewrite, not a kernel.
STUB_NAMESPACES = frozenset(
    {
        "torch",
        "torch.Tensor",
        "torch.nn",
        "torch.nn.functional",
        "torch.linalg",
        "torch.fft",
        "torch.special",
    }
)
#: Autograd and process-state APIs in those namespaces: not computations either.
NOT_OPS = frozenset(
    {
        "torch.Tensor.backward",
        "torch.Tensor.detach",
        "torch.Tensor.detach_",
        "torch.Tensor.requires_grad_",
        "torch.Tensor.register_hook",
        "torch.Tensor.retain_grad",
        "torch.Tensor.cpu",
        "torch.Tensor.cuda",
        "torch.Tensor.record_stream",
        "torch.Tensor.pin_memory",
        "torch.Tensor.share_memory_",
        "torch.Tensor.data_ptr",
    }
)
_STATE_PREFIXES = ("torch.set_", "torch.get_", "torch.is_", "torch.use_", "torch.manual_seed")


#: nn classes that hold or run other modules rather than compute.
_CONTAINERS = frozenset(
    {
        "Module",
        "ModuleList",
        "ModuleDict",
        "Sequential",
        "ParameterList",
        "ParameterDict",
        "DataParallel",
        "Parameter",
    }
)


def _verify_forms(
    result: ScanResult, cache_dir: Path | None, device: str, dtype: str
) -> ScanResult:
    """Run the micro-tests of the call forms found (cached like ``apiscan verify``'s), then
    attach each call's result to its finding."""
    import tempfile

    from apiscan.verify.lookup import check_forms, form_cases
    from apiscan.verify.results import cache_in
    from apiscan.verify.runner import Runner

    cases = form_cases(result)
    with tempfile.TemporaryDirectory() as scratch:
        cache = cache_in(cache_dir if cache_dir is not None else Path(scratch))
        with Runner(device, dtype, cache=cache) as runner:
            runner.run(cases)
        return check_forms(result, cache, device, dtype)


def _is_op_name(api: str, namespace: str) -> bool:
    """One name directly in its namespace (``torch.special.i0e``, ``torch.Tensor.cumprod``),
    not a member of a class (``torch.GradScaler.step``) or of a sub-package
    (``torch.hub.load_state_dict_from_url``), and not an nn container."""
    tail = api[len(namespace) + 1 :]
    # torch.LongTensor and friends are legacy constructors, a dtype matter.
    return "." not in tail and tail not in _CONTAINERS and not tail.endswith("Tensor")


def stub_candidates(result: ScanResult) -> tuple[list[str], list[str]]:
    """The missing APIs ``--stubs`` scaffolds (called as ops, in a computing namespace) and
    the missing ones it leaves out, both sorted."""
    from apiscan.model import namespace_of

    missing = sorted({f.api for f in result.api_findings if f.status == "missing"})
    called = {
        f.api
        for f in result.api_findings
        if f.status == "missing" and f.usage in ("call", "operator")
    }
    wanted = [
        api
        for api in missing
        if api in called
        and namespace_of(api) in STUB_NAMESPACES
        and _is_op_name(api, namespace_of(api))
        and api not in NOT_OPS
        and not api.startswith(_STATE_PREFIXES)
    ]
    return wanted, [api for api in missing if api not in wanted]


def _write_stubs(result: ScanResult, out_dir: Path) -> bool:
    """Scaffolds for the scan's missing ops (after the report, which they never hold up);
    a summary on stderr. False when the stubs could not be written at all."""
    apis, left_out = stub_candidates(result)
    if out_dir.exists() and not out_dir.is_dir():
        print(f"apiscan: error: --stubs: not a directory: {out_dir}", file=sys.stderr)
        return False
    try:
        from apiscan.stub import write_stubs

        results = write_stubs(apis, out_dir)
    except ImportError as exc:
        print(f"apiscan: error: --stubs needs torch ({exc})", file=sys.stderr)
        return False
    made = [r for r in results if not r.skipped]
    kept = sum(len(r.kept) for r in results)
    print(
        f"apiscan: custom-op stubs for {len(made)} missing API(s) in {out_dir}"
        + (f"; {kept} edited file(s) kept" if kept else ""),
        file=sys.stderr,
    )
    for r in results:
        if r.skipped:
            print(f"apiscan: no stub for {r.api}: {r.skipped}", file=sys.stderr)
    if left_out:
        print(
            f"apiscan: {len(left_out)} other missing API(s) are not tensor computations "
            f"(device, autograd, module or optimizer state...), so no custom op: "
            + ", ".join(left_out),
            file=sys.stderr,
        )
    return True


def run_mapping(argv: list[str]) -> int:
    """``apiscan mapping``: the mapping tables shipped, and which one is the default."""
    p = argparse.ArgumentParser(
        prog="apiscan mapping", description="List the PyTorch→MindSpore mapping tables."
    )
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    args = p.parse_args(argv)
    from apiscan.mapping.store import DEFAULT_VERSION, KNOWN_VERSIONS, load_table

    records = []
    for v in KNOWN_VERSIONS:
        only = load_table(v, merge=False)
        merged = load_table(v)
        src = only.sources[0] if only.sources else {}
        records.append(
            {
                "version": v,
                "default": v == DEFAULT_VERSION,
                "apis": len(only),
                "apis_merged": len(merged),
                "branch": str(src.get("branch", "?")),
                "commit": str(src.get("commit", "?")),
            }
        )
    if args.format == "json":
        import json

        return write_output(json.dumps(records, indent=2) + "\n", args.output)
    lines = [
        f"{r['version']}{' (default)' if r['default'] else ''}: {r['apis']} APIs in its own"
        f" table, {r['apis_merged']} with older tables filling in; docs {r['branch']} @"
        f" {r['commit'][:12]}\n"
        for r in records
    ]
    return write_output("".join(lines), args.output)


def run_config(argv: list[str]) -> int:
    """``apiscan config [PATH]``: the effective settings for PATH and where each came from."""
    p = argparse.ArgumentParser(
        prog="apiscan config",
        description="Show the settings a scan of PATH would use: defaults, the configuration "
        "file found by walking up from PATH ([tool.apiscan] in pyproject.toml, or "
        "apiscan.toml), and where each value came from.",
    )
    p.add_argument("path", nargs="?", default=".", help="the path a scan would start from")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    args = p.parse_args(argv)
    from apiscan.config import ConfigError, render_settings

    if not os.path.lexists(args.path):
        return _usage_error(f"path does not exist: {args.path}")
    try:
        settings = scan_settings(args.path, argparse.Namespace())
    except ConfigError as exc:
        return _usage_error(str(exc))
    return write_output(render_settings(settings, args.format), args.output)


def write_output(text: str, output: str | None) -> int:
    """The report to ``output`` (or stdout), whole or not at all (a temporary file renamed
    into place): 0; a write that fails raises :class:`apiscan.lifetime.OutputError`, which
    :func:`main` reports as one line with exit 2."""
    from apiscan.lifetime import write_output as write_whole

    write_whole(text, output or None)
    return 0


#: The garbage collector of a scan run as the program: the pipeline's
#: (:data:`apiscan.pipeline.WORKER_GC_THRESHOLD`, not imported here: ``--version`` stays light).
ONE_SHOT_GC_THRESHOLD = (50_000, 20, 100)


def main(argv: list[str] | None = None) -> int:
    """Every subcommand runs guarded: SIGINT/SIGTERM exit 130/143 with one line, a report
    that cannot be written exits 2 with one line (see :mod:`apiscan.lifetime`)."""
    from apiscan.isolation import isolate
    from apiscan.lifetime import EXIT_SIGINT, EXIT_SIGTERM, exit_now, finish, run_guarded

    isolate()  # no child process may import the scanned workspace's modules
    as_program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    name = f"apiscan {argv[0]}" if argv and argv[0] in SUBCOMMANDS else "apiscan"
    if as_program and "--version" not in argv:  # the version alone imports no dataclasses
        from apiscan.precompiled import install

        install()  # dataclasses' methods from the shipped table, not compiled one by one
    if as_program and name in ("apiscan", "apiscan scan"):
        import gc

        # A scan that ends the process keeps the collector the pipeline scans with from start
        # to end; leaving the scan would otherwise set back Python's and run a collection
        # over every object the scan made (~0.1 s on YOLOX) just before the process exits.
        gc.set_threshold(*ONE_SHOT_GC_THRESHOLD)
        # And the collector stays off, as the pipeline runs (``_fewer_collections``): the
        # scan's objects were never collected, so the first allocation after the scan, with
        # collection enabled again, ran one young-generation collection over all of them
        # (the 405k-line corpus: ~0.5 s of CPU between the report and the exit).
        gc.disable()
    code = run_guarded(name, lambda: _dispatch(argv))
    if as_program and code in (EXIT_SIGINT, EXIT_SIGTERM):
        exit_now(code)  # no exit hook may wait on a half-stopped worker pool
    if as_program:
        finish(code)  # the report is out: no interpreter teardown
    return code


def _unknown_command(word: str) -> str | None:
    """The error for a first argument that is no path but looks like a mistyped subcommand
    (``apiscan reviw .``), or None."""
    if word.startswith("-") or os.path.lexists(word) or word in SUBCOMMANDS:
        return None
    import difflib

    close = difflib.get_close_matches(word, SUBCOMMANDS, n=1, cutoff=0.6)
    if not close:
        return None
    return f"unknown command {word!r} (did you mean {close[0]}?)"


def _dispatch(argv: list[str]) -> int:
    mistyped = _unknown_command(argv[0]) if argv else None
    if mistyped:
        return _usage_error(mistyped)
    if argv and argv[0] == "config":
        return run_config(argv[1:])
    if argv and argv[0] == "mapping":
        return run_mapping(argv[1:])
    if argv and argv[0] == "verify":
        from apiscan.cli.verify import run_verify

        return run_verify(argv[1:])
    if argv and argv[0] == "stub":
        from apiscan.cli.stub import run_stub

        return run_stub(argv[1:])
    if argv and argv[0] == "check":
        from apiscan.cli.check import run_check

        return run_check(argv[1:])
    if argv and argv[0] == "lsp":
        from apiscan.lsp import run_lsp

        return run_lsp(argv[1:])
    if argv and argv[0] == "fix":
        from apiscan.cli.fix import run_fix

        return run_fix(argv[1:])
    if argv and argv[0] == "zoo":
        from apiscan.cli.zoo import run_zoo_command

        return run_zoo_command(argv[1:])
    if argv and argv[0] == "review":
        from apiscan.cli.review import run_review

        return run_review(argv[1:])
    if argv and argv[0] in ("rules", "explain"):
        from apiscan.cli import rules

        return (rules.run_rules if argv[0] == "rules" else rules.run_explain)(argv[1:])
    if argv and argv[0] == "scan":
        argv = argv[1:]
    return run_scan(argv)


if __name__ == "__main__":
    sys.exit(main())
