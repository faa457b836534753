"""Score the scanner's owner resolution (whose method is ``x.sum()``?) against a runtime trace.

Usage, from the project root::

    python scripts/measure_owners.py fixtures/tinydet --run "tools/train.py --steps 1" \\
        --run tools/infer.py [--json]

A repository whose dependencies are not in this environment runs under its own interpreter
(``--python``), and a driver script outside the repository may stand in for its entry points
(an absolute path in ``--run``); traces written earlier are reused with ``--trace``::

    python scripts/measure_owners.py YOLOX --python VENV/bin/python \\
        --run "$PWD/scripts/drivers/yolox_step.py --seed 1"

The scan (``python -m apiscan ROOT -f json --no-cache``) and the tracer
(``scripts/trace_apis.py``, once per ``--run``, results united) see the same repository.

How it matches. A use is the triple (path, line, api): POSIX path relative to the root, the
1-based line, the public canonical api name (both sides name APIs through
``apiscan.resolve.torch_api``). A line may hold several uses; each is matched on its own, never
by position within the line. Python 3.11 attributes a method call to the line of its attribute
name and any other call to the line where the call expression starts, which is where the scan
puts its findings too.

- Recall: the distinct runtime triples; one is *found* when the scan has a finding with the same
  path, line and api (any usage). "Found certain" counts those matched by a ``certain``
  finding, "found probable" those matched only by ``probable`` ones. Calls of special methods
  the source never spells (``model(x)`` → ``Module.__call__``, ``self.conv`` →
  ``Module.__getattr__``, ``with`` → ``__enter__``, ``x + y`` → ``Tensor.__add__``,
  ``super().__init__()``) are left out and counted as implicit, except ``@``: the scan reports it
  as ``torch.Tensor.matmul`` with usage ``operator``, so runtime ``Tensor.__matmul__`` and
  ``__rmatmul__`` are renamed ``torch.Tensor.matmul`` before matching.
- Precision: each scan finding, per confidence, is *true* when the runtime observed its api on
  its path and line. Left out of precision, and counted: findings on lines that never executed
  (the trace says which lines ran), and findings the tracer cannot observe at all — annotations,
  base classes, references to a function or class without calling it, plain attributes
  (``Module.training``), classes built entirely in C (``torch.device(...)`` runs no Python
  ``__init__`` and no builtin call).
- Disagreements: ``owner`` (the scan named another class's method than the one that ran on that
  line: scan ``torch.Tensor.to``, runtime ``torch.nn.Module.to``), ``foreign`` (a non-torch
  method of that name ran there, e.g. ``numpy.ndarray.transpose``: a false positive), ``unobserved``
  (nothing of that name ran on the executed line), ``missed`` (runtime use the scan did not
  report; ``scan`` then shows what it reported for that name on the line, if anything).

Families, by the class owning the api: Tensor, nn.Module, Optimizer, LRScheduler, other classes
(methods); ``attributes`` (properties such as ``torch.Tensor.shape``); ``functions & classes``
(module functions and constructions such as ``torch.nn.Conv2d``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import inspect
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import types
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from tabulate import tabulate

from apiscan.resolve.torch_api import TorchApi, load_torch_api

PROJECT: Final = Path(__file__).resolve().parents[1]
TRACER: Final = Path(__file__).resolve().with_name("trace_apis.py")
METHOD_FAMILIES: Final = ("Tensor", "nn.Module", "Optimizer", "LRScheduler", "other classes")
FAMILIES: Final = (*METHOD_FAMILIES, "attributes", "functions & classes")
# How the scan spells an operator use: `x @ w` is reported as torch.Tensor.matmul.
OPERATOR_SPELLINGS: Final = {"__matmul__": "matmul", "__rmatmul__": "matmul"}
NON_CALL_USAGES: Final = frozenset({"annotation", "base_class"})

#: A private function of the torch namespace itself, which the public index does not name:
#: the scan reports it as spelled (``torch._assert``), so the runtime name is kept for it.
_PRIVATE_TORCH: Final = re.compile(r"torch\._[a-z][a-z0-9_]*")

Use = tuple[str, int, str]
"""(path, line, api)."""


@dataclass(frozen=True)
class Finding:
    """One ``kind: api`` finding of the scan."""

    path: str
    line: int
    api: str
    confidence: str
    usage: str


@dataclass
class Trace:
    """The union of the tracer's records over several runs."""

    uses: Counter[Use] = field(default_factory=Counter)
    unmapped: Counter[str] = field(default_factory=Counter)
    foreign: dict[tuple[str, int], set[str]] = field(default_factory=lambda: defaultdict(set))
    executed: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))

    def add(self, record: dict[str, Any]) -> None:
        kind = record["record"]
        if kind == "api":
            api = record["api"]
            if api is None:
                self.unmapped[record["raw"]] += record["count"]
                if _PRIVATE_TORCH.fullmatch(record["raw"]):
                    api = record["raw"]  # torch._assert, torch._foreach_lerp_: as spelled
            if api is not None:
                self.uses[(record["path"], record["line"], api)] += record["count"]
        elif kind == "foreign":
            self.foreign[(record["path"], record["line"])].add(record["name"])
        elif kind == "executed":
            self.executed[record["path"]].update(record["lines"])


@dataclass
class FamilyScore:
    """Recall and precision counts of one family."""

    runtime: int = 0
    found_certain: int = 0
    found_probable: int = 0
    certain: int = 0
    certain_true: int = 0
    probable: int = 0
    probable_true: int = 0

    def __add__(self, other: FamilyScore) -> FamilyScore:
        return FamilyScore(*(a + b for a, b in zip(_counts(self), _counts(other), strict=True)))

    @property
    def recall_certain(self) -> float | None:
        return _ratio(self.found_certain, self.runtime)

    @property
    def recall_any(self) -> float | None:
        return _ratio(self.found_certain + self.found_probable, self.runtime)

    @property
    def precision_certain(self) -> float | None:
        return _ratio(self.certain_true, self.certain)

    @property
    def precision_probable(self) -> float | None:
        return _ratio(self.probable_true, self.probable)


def _counts(score: FamilyScore) -> tuple[int, ...]:
    return tuple(asdict(score).values())


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass(frozen=True)
class Disagreement:
    kind: str
    family: str
    path: str
    line: int
    scan: str | None
    confidence: str | None
    runtime: tuple[str, ...]


@dataclass
class Measurement:
    """Everything the comparison found; `scores` is keyed by family."""

    root: str
    runs: list[list[str]]
    scores: dict[str, FamilyScore]
    disagreements: list[Disagreement]
    not_executed: Counter[str]
    not_comparable: Counter[str]
    implicit: Counter[str]
    unmapped: Counter[str]
    skipped_unnamed: int
    trace: Trace

    def total(self, families: Iterable[str] = METHOD_FAMILIES) -> FamilyScore:
        return sum((self.scores[f] for f in families), FamilyScore())

    def known_false_positives(self, confidence: str = "certain") -> list[Disagreement]:
        """Tensor methods the scan reported on lines where a non-torch method of that name
        ran instead (numpy, str, list...) and no tensor method of that name did."""
        return [
            d
            for d in self.disagreements
            if d.kind == "foreign" and d.family == "Tensor" and d.confidence == confidence
        ]


class ApiFacts:
    """What the tracer can observe of an api, and its family; imports torch to look."""

    def __init__(self, api: TorchApi) -> None:
        import torch

        self.api = api
        self.tensor: type = torch.Tensor
        self.roots: tuple[tuple[str, type], ...] = (
            ("Tensor", torch.Tensor),
            ("nn.Module", torch.nn.Module),
            ("Optimizer", torch.optim.Optimizer),
            ("LRScheduler", torch.optim.lr_scheduler.LRScheduler),
        )

    @functools.cache  # noqa: B019 - one instance per measurement, names are few
    def _object(self, name: str) -> Any:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj: Any = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            with contextlib.suppress(AttributeError):
                for part in parts[cut:]:
                    obj = getattr(obj, part)
                return obj
            return None
        return None

    def owner_class(self, name: str) -> type | None:
        owner = name.rpartition(".")[0]
        if self.api.kind(owner) != "class":
            return None
        obj = self._object(owner)
        return obj if isinstance(obj, type) else None

    def family(self, name: str) -> str:
        cls = self.owner_class(name)
        if cls is None:
            return "functions & classes"
        if self.api.kind(name) in ("property", "attribute"):
            return "attributes"
        return next((label for label, root in self.roots if issubclass(cls, root)), "other classes")

    def unobservable(self, name: str, usage: str) -> str | None:
        """Why the tracer cannot see this use; None when it can."""
        if usage in NON_CALL_USAGES:
            return f"{usage} (not a call)"
        cls = self.owner_class(name)
        if cls is not None:
            raw = inspect.getattr_static(cls, name.rpartition(".")[2], None)
            if usage == "operator" or isinstance(raw, property):
                return None
            if isinstance(raw, types.GetSetDescriptorType):
                return None if issubclass(cls, self.tensor) else "attribute implemented in C"
            if usage == "reference":
                return "reference to a method (no call)"
            return (
                None
                if callable(raw) or isinstance(raw, staticmethod | classmethod)
                else ("plain attribute")
            )
        if usage == "reference":
            return "reference to a function or class (no call)"
        obj = self._object(name)
        if isinstance(obj, type):
            return None if _python_constructor(obj) else "class built in C"
        return None if callable(obj) else "not callable"


def _python_constructor(cls: type) -> bool:
    """True when building `cls` runs a Python ``__init__`` or ``__new__`` the tracer sees."""
    for klass in cls.__mro__[:-1]:
        for method in ("__init__", "__new__"):
            value = vars(klass).get(method)
            if isinstance(value, staticmethod):
                value = value.__func__
            if isinstance(value, types.FunctionType):
                return True
    return False


def scan_report(root: Path) -> dict[str, Any]:
    """The scan's JSON report of ``root`` (uncached, so it is the code under test that ran)."""
    done = subprocess.run(
        [sys.executable, "-m", "apiscan", str(root), "-f", "json", "--no-cache"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise RuntimeError(f"apiscan failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def add_input_options(parser: argparse.ArgumentParser, tracer: str, run_help: str) -> None:
    """The root, ``--run``, ``--python``, ``--trace`` and ``--scan``: what is traced and
    scanned, or where earlier traces and reports are (shared by the measure scripts)."""
    parser.add_argument("root", type=Path, help="repository root to scan and run in")
    parser.add_argument(
        "--run", action="append", default=[], metavar="'SCRIPT ARGS'", help=run_help
    )
    parser.add_argument(
        "--python",
        help="interpreter for the traced runs (one with the repository's dependencies); "
        "default: this one",
    )
    parser.add_argument(
        "--trace",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help=f"use a trace written earlier by {tracer}, one file per run, instead of running "
        "(repeatable)",
    )
    parser.add_argument(
        "--scan",
        type=Path,
        metavar="FILE",
        help="use this JSON report of the root (apiscan ROOT -f json) instead of scanning",
    )


def given_report(options: argparse.Namespace) -> dict[str, Any]:
    """The JSON report named by ``--scan``, else a fresh scan of the root."""
    if options.scan:
        return json.loads(options.scan.read_text(encoding="utf-8"))
    return scan_report(options.root)


def run_scan(root: Path) -> list[Finding]:
    """The scan's api findings, from its JSON report."""
    return findings_of(scan_report(root))


def findings_of(report: dict[str, Any]) -> list[Finding]:
    """The api findings of a JSON report."""
    return [
        Finding(f["path"], f["line"], f["api"], f["confidence"], f["usage"])
        for f in report["findings"]
        if f.get("kind") == "api"
    ]


def tracer_env() -> dict[str, str]:
    """The environment of a traced run: this project first on the path, so that a separate
    interpreter (one with the repository's own dependencies) still finds ``apiscan``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT), env.get("PYTHONPATH")) if p)
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")  # leave the traced checkout as it was
    return env


def trace_runs(
    tracer: Path,
    root: Path,
    runs: Sequence[Sequence[str]],
    out_dir: Path,
    python: str | None = None,
) -> list[Path]:
    """Run `tracer` once per run (script and arguments; the script relative to `root`, or an
    absolute driver outside it) with `python` (default: this interpreter); the output files."""
    outs = []
    for index, command in enumerate(runs):
        out = out_dir / f"run{index}.jsonl"
        head = [python or sys.executable, str(tracer), "--root", str(root), "--out", str(out)]
        done = subprocess.run(
            [*head, "--", *command],
            capture_output=True,
            text=True,
            check=False,
            env=tracer_env(),
        )
        if done.returncode != 0:
            raise RuntimeError(f"traced run {command} failed: {done.stderr[-2000:]}")
        outs.append(out)
    return outs


def read_trace(files: Iterable[Path]) -> Trace:
    """Unite the records of trace files."""
    trace = Trace()
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            trace.add(json.loads(line))
    return trace


def run_trace(root: Path, runs: Sequence[Sequence[str]], python: str | None = None) -> Trace:
    """Trace each run (script and arguments, relative to `root`) and unite the records."""
    with tempfile.TemporaryDirectory(prefix="apiscan-trace-") as tmp:
        return read_trace(trace_runs(TRACER, root, runs, Path(tmp), python))


def measure(root: Path, runs: Sequence[Sequence[str]], python: str | None = None) -> Measurement:
    """Scan `root`, trace `runs` in it, and compare."""
    return compare(root, runs, run_scan(root), run_trace(root, runs, python))


def compare(
    root: Path, runs: Sequence[Sequence[str]], findings: Sequence[Finding], trace: Trace
) -> Measurement:
    api = load_torch_api()
    facts = ApiFacts(api)
    scores = {family: FamilyScore() for family in FAMILIES}
    implicit: Counter[str] = Counter()
    runtime: dict[Use, str] = {}  # runtime use → family
    by_line: dict[tuple[str, int], set[str]] = defaultdict(set)
    for (path, line, name), count in trace.uses.items():
        name = api.canonical(name) or name
        owner, _, attr = name.rpartition(".")
        if attr in OPERATOR_SPELLINGS and facts.family(name) == "Tensor":
            name = api.member(owner, OPERATOR_SPELLINGS[attr]) or name
        elif _is_dunder(attr) and facts.owner_class(name) is not None:
            implicit[name] += count
            continue
        runtime[(path, line, name)] = facts.family(name)
        by_line[(path, line)].add(name)

    scan_by_use: dict[Use, set[str]] = defaultdict(set)
    scan_by_line: dict[tuple[str, int], set[str]] = defaultdict(set)
    skipped_unnamed = 0
    for f in findings:
        if not f.api:
            skipped_unnamed += 1
            continue
        name = api.canonical(f.api) or f.api
        scan_by_use[(f.path, f.line, name)].add(f.confidence)
        scan_by_line[(f.path, f.line)].add(name)

    disagreements: list[Disagreement] = []
    for use, family in sorted(runtime.items()):
        confidences = scan_by_use.get(use, set())
        score = scores[family]
        score.runtime += 1
        if "certain" in confidences:
            score.found_certain += 1
        elif confidences:
            score.found_probable += 1
        else:
            said = _same_attr(scan_by_line.get(use[:2], set()), use[2])
            disagreements.append(
                Disagreement(
                    "missed", family, use[0], use[1], said[0] if said else None, None, (use[2],)
                )
            )

    not_executed: Counter[str] = Counter()
    not_comparable: Counter[str] = Counter()
    for f in findings:
        if not f.api:
            continue
        name = api.canonical(f.api) or f.api
        family = facts.family(name)
        reason = facts.unobservable(name, f.usage)
        if reason is not None:
            not_comparable[reason] += 1
            continue
        if f.line not in trace.executed.get(f.path, ()):
            not_executed[family] += 1
            continue
        true = (f.path, f.line, name) in runtime
        score = scores[family]
        if f.confidence == "certain":
            score.certain += 1
            score.certain_true += true
        else:
            score.probable += 1
            score.probable_true += true
        if not true:
            disagreements.append(_explain(f, name, family, by_line, trace))
    return Measurement(
        root=str(root),
        runs=[list(r) for r in runs],
        scores=scores,
        disagreements=disagreements,
        not_executed=not_executed,
        not_comparable=not_comparable,
        implicit=implicit,
        unmapped=trace.unmapped,
        skipped_unnamed=skipped_unnamed,
        trace=trace,
    )


def _is_dunder(attr: str) -> bool:
    return len(attr) > 4 and attr.startswith("__") and attr.endswith("__")


def _same_attr(names: Iterable[str], name: str) -> list[str]:
    attr = name.rpartition(".")[2]
    return sorted(n for n in names if n != name and n.rpartition(".")[2] == attr)


def _explain(
    f: Finding, name: str, family: str, by_line: dict[tuple[str, int], set[str]], trace: Trace
) -> Disagreement:
    """Why a scan finding on an executed line was not observed there."""
    other = _same_attr(by_line.get((f.path, f.line), set()), name)
    if other:
        return Disagreement("owner", family, f.path, f.line, name, f.confidence, tuple(other))
    foreign = _same_attr(trace.foreign.get((f.path, f.line), set()), name)
    if foreign:
        return Disagreement("foreign", family, f.path, f.line, name, f.confidence, tuple(foreign))
    return Disagreement("unobserved", family, f.path, f.line, name, f.confidence, ())


def _rows(m: Measurement) -> list[tuple[str, FamilyScore]]:
    """Per family, then methods of classes only, then every call site ("all")."""
    return [*m.scores.items(), ("methods (all)", m.total()), ("all", m.total(FAMILIES))]


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def render(m: Measurement, examples: int = 3) -> str:
    """The human-readable report."""
    runs = "; ".join(shlex.join(r) for r in m.runs)
    rows = []
    for label, score in _rows(m):
        rows.append(
            [
                label,
                score.runtime,
                score.found_certain,
                score.found_probable,
                _percent(score.recall_certain),
                _percent(score.recall_any),
                f"{score.certain_true}/{score.certain}",
                _percent(score.precision_certain),
                f"{score.probable_true}/{score.probable}",
                _percent(score.precision_probable),
            ]
        )
    table = tabulate(
        rows,
        headers=[
            "family",
            "runtime uses",
            "found certain",
            "found probable",
            "recall certain",
            "recall any",
            "certain true",
            "precision certain",
            "probable true",
            "precision probable",
        ],
    )
    groups: dict[tuple[str, str | None, str | None, tuple[str, ...]], list[Disagreement]] = (
        defaultdict(list)
    )
    for d in m.disagreements:
        groups[(d.kind, d.scan, d.confidence, d.runtime)].append(d)
    lines = [f"{m.root}: {runs}", "", table, ""]
    lines.append(
        f"left out of precision: {sum(m.not_executed.values())} findings on lines that "
        f"never ran ({_counter(m.not_executed)}); not observable at runtime: "
        f"{sum(m.not_comparable.values())} ({_counter(m.not_comparable)})"
    )
    lines.append(
        f"left out of recall: {sum(m.implicit.values())} implicit special-method calls "
        f"({len(m.implicit)} apis, e.g. {_counter(m.implicit, 4)}); "
        f"{sum(m.unmapped.values())} calls of torch objects without a public name "
        f"({_counter(m.unmapped, 3)}); scan findings without an api: {m.skipped_unnamed}"
    )
    lines.append("")
    lines.append("disagreements (most frequent first):")
    for (kind, scan, confidence, seen), items in sorted(
        groups.items(), key=lambda kv: (-len(kv[1]), kv[0][0], kv[0][1] or "")
    ):
        where = ", ".join(f"{d.path}:{d.line}" for d in items[:examples])
        more = f" (+{len(items) - examples})" if len(items) > examples else ""
        said = f"scan {scan} [{confidence}]" if confidence else f"scan {scan or '-'}"
        lines.append(
            f"  {len(items):3d} {kind:10s} {said}; runtime {', '.join(seen) or '-'}"
            f"  at {where}{more}"
        )
    return "\n".join(lines)


def _counter(counter: Counter[str], top: int = 6) -> str:
    return ", ".join(f"{k} {v}" for k, v in counter.most_common(top)) or "none"


def to_json(m: Measurement) -> dict[str, Any]:
    scores = {
        label: {
            **asdict(score),
            "recall_certain": score.recall_certain,
            "recall_any": score.recall_any,
            "precision_certain": score.precision_certain,
            "precision_probable": score.precision_probable,
        }
        for label, score in _rows(m)
    }
    return {
        "root": m.root,
        "runs": m.runs,
        "scores": scores,
        "disagreements": [asdict(d) for d in m.disagreements],
        "not_executed": dict(m.not_executed),
        "not_comparable": dict(m.not_comparable),
        "implicit": dict(m.implicit),
        "unmapped": dict(m.unmapped),
        "skipped_unnamed": m.skipped_unnamed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_input_options(
        parser,
        "trace_apis.py",
        "an entry point relative to the root (or an absolute driver script outside it), "
        "with its arguments",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    options = parser.parse_args(argv)
    runs = [shlex.split(r) for r in options.run]
    if options.trace:
        trace = read_trace(options.trace)
        result = compare(options.root, runs, findings_of(given_report(options)), trace)
    elif runs:
        result = measure(options.root, runs, options.python)
    else:
        parser.error("give --run or --trace")
    print(json.dumps(to_json(result), indent=2) if options.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
