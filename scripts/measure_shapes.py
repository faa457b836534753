"""Score the scanner's dynamic-shape findings against runtime ground truth.

Usage, from the project root::

    python scripts/measure_shapes.py fixtures/tinydet \\
        --run "tools/train.py --steps 2 --seed 1" --run "tools/train.py --steps 2 --seed 2"

    python scripts/measure_shapes.py YOLOX --python VENV/bin/python \\
        --run "$PWD/scripts/drivers/yolox_step.py --seed 1" --run "... --seed 2" [--json]

Each ``--run`` is traced by ``scripts/trace_shapes.py`` (under ``--python``, default this
interpreter; traces written earlier are reused with ``--trace``, one file per run). The runs
must feed inputs of the same shapes and differ only in data (a seed): a shape that changes
between them changes with the data.

Ground truth, per repository line:

- *dynamic*: some operation of the line (a torch function, method, operator or attribute
  read, a call of a library function such as ``torchvision.ops.nms``, or a call of one of the
  repository's own functions) produced a different
  set of output shapes in one run than in another run where it also ran. A store
  (``x[idx] = values``) returns nothing: its output is the value it wrote, which has one row
  per selected element when the index came from data. Comparing sets over a
  whole run keeps loops over pyramid levels static (the same three shapes every run) and keeps
  static a line that only runs a data-dependent number of times.
- *source*: a dynamic line where the same operation, on tensor arguments of the same shapes,
  returned different shapes (in one run or across runs): the line *creates* the data-dependent
  shape (a boolean mask index, ``nonzero``, a slice bound or ``topk`` k read from data, NMS)
  rather than carrying one that came from its inputs (``bboxes_iou(gt, preds)`` on already
  data-dependent boxes; a call of a repository function, whose shapes come from the lines
  inside it). A source op whose inputs were themselves data-dependent in every
  observation cannot show this and is counted as carried: the listing says so. A call of a
  module whose ``forward`` is the repository's own (``self.rpn(images, features)``) is such a
  call, and two indexings of one line in other forms (``y[:, None] * x[None, :]``) are two
  operations (``trace_shapes`` records the index's form, never its bounds).
- *sync*: the line read tensor data on the host (``.item()``, ``.tolist()``, ``int(t)``,
  ``bool(t)`` / ``if t:``, ``float(t)``, ``__index__``, ``.numpy()``).
- *branch varied*: the lines that ran right after it differed between runs (an ``if`` on a
  count read from data two lines earlier, ``if boxes.numel() == 0:``).

An operation seen in one run only (a rare branch) is dynamic when it returned other shapes on
same-shaped tensor arguments within that run.

Scores. A finding covers the lines from its ``line`` to its ``end_line``. Recall: the source
lines (and, reported too, all dynamic lines) that a dynamic-shape finding covers. Precision,
per flagged line (the distinct (path, line) of findings) on lines that executed: true when a
covered line is dynamic, or, for the control-flow and sync rules (DS116, DS117, DS118), when
a covered line synced or its branch varied. Findings on lines that never ran are left out
and counted.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure_owners import (  # a sibling script, not a package
    add_input_options,
    given_report,
    scan_report,
    trace_runs,
)
from measure_owners import tracer_env as tracer_env  # re-exported for the tests

TRACER: Final = Path(__file__).resolve().with_name("trace_shapes.py")
#: The op prefix of a repository function's call (``trace_shapes.REPO_CALL``, not imported:
#: that script imports torch): its line carries the callee's shape, it never creates one.
REPO_CALL: Final = "repo:"
#: Rules whose claim is about a host read of tensor data (a condition, a sync used as a size),
#: not about the shape of the flagged line's own result.
SYNC_RULES: Final = frozenset({"DS116", "DS117", "DS118"})

Line = tuple[str, int]


@dataclass(frozen=True)
class ShapeFinding:
    """One ``kind: dynamic_shape`` finding of the scan."""

    rule: str
    path: str
    line: int
    end_line: int
    message: str = ""

    def lines(self) -> range:
        return range(self.line, max(self.line, self.end_line) + 1)


@dataclass
class ShapeTrace:
    """The records of several runs, kept apart per run."""

    # (path, line, op) → run → set of output signatures
    outputs: dict[tuple[str, int, str], dict[int, set[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set))
    )
    # (path, line, op, inputs) → set of output signatures, over all runs
    by_inputs: dict[tuple[str, int, str, str], set[str]] = field(
        default_factory=lambda: defaultdict(set)
    )
    syncs: dict[Line, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    # line → run → the lines that ran right after it in the same call
    following: dict[Line, dict[int, set[int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set))
    )
    executed: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    runs: int = 0

    def add_run(self, records: Iterable[dict[str, Any]]) -> None:
        run = self.runs
        self.runs += 1
        for r in records:
            kind = r["record"]
            if kind == "op":
                output = json.dumps(r["output"])
                self.outputs[(r["path"], r["line"], r["op"])][run].add(output)
                key = (r["path"], r["line"], r["op"], json.dumps(r["inputs"]))
                self.by_inputs[key].add(output)
            elif kind == "sync":
                self.syncs[(r["path"], r["line"])][r["name"]] += r["count"]
            elif kind == "next":
                self.following[(r["path"], r["line"])][run].update(r["next"])
            elif kind == "executed":
                self.executed[r["path"]].update(r["lines"])

    def dynamic_ops(self) -> dict[Line, list[str]]:
        """Lines whose operations' output shapes differ between runs, with those ops."""
        found: dict[Line, list[str]] = defaultdict(list)
        # same tensor arguments, other result shapes
        seen_varying = {key[:3] for key, outputs in self.by_inputs.items() if len(outputs) > 1}
        for (path, line, op), per_run in self.outputs.items():
            sets = list(per_run.values())
            if len(sets) > 1:
                varies = any(s != sets[0] for s in sets[1:])
            else:  # ran in one run only: nothing to compare with but itself
                varies = (path, line, op) in seen_varying
            if varies:
                found[(path, line)].append(op)
        return found

    def branch_varied(self, at: Line) -> bool:
        """True when what ran right after `at` differed between runs (its branch went
        another way with other data)."""
        sets = list(self.following.get(at, {}).values())
        return any(s != sets[0] for s in sets[1:])

    def source_lines(self, dynamic: dict[Line, list[str]]) -> set[Line]:
        """Dynamic lines where one op on same-shaped tensor arguments gave other shapes."""
        return {
            (path, line)
            for (path, line, op, _), outputs in self.by_inputs.items()
            if len(outputs) > 1
            and op in dynamic.get((path, line), ())
            and not op.startswith(REPO_CALL)
        }

    def ran(self, lines: Iterable[Line]) -> bool:
        return any(line in self.executed.get(path, ()) for path, line in lines)


@dataclass
class ShapeMeasurement:
    root: str
    runs: list[list[str]]
    dynamic: dict[Line, list[str]]
    sources: set[Line]
    syncs: dict[Line, Counter[str]]
    flagged: dict[Line, list[ShapeFinding]]  # by the finding's first line
    not_executed: Counter[str]  # rule → flagged lines that never ran
    true_lines: set[Line]  # flagged lines (executed) judged true
    false_lines: set[Line]  # flagged lines (executed) judged false
    covered: set[Line]  # runtime lines covered by some finding

    def _ratio(self, part: int, whole: int) -> float | None:
        return part / whole if whole else None

    @property
    def recall_sources(self) -> float | None:
        return self._ratio(len(self.sources & self.covered), len(self.sources))

    @property
    def recall_dynamic(self) -> float | None:
        return self._ratio(len(set(self.dynamic) & self.covered), len(self.dynamic))

    @property
    def precision(self) -> float | None:
        return self._ratio(len(self.true_lines), len(self.true_lines) + len(self.false_lines))

    def missed_sources(self) -> list[Line]:
        return sorted(self.sources - self.covered)

    def missed_carried(self) -> list[Line]:
        return sorted(set(self.dynamic) - self.sources - self.covered)


def run_scan(root: Path) -> list[ShapeFinding]:
    """The scan's dynamic-shape findings, from its JSON report."""
    return findings_of(scan_report(root))


def findings_of(report: dict[str, Any]) -> list[ShapeFinding]:
    return [
        ShapeFinding(f["rule"], f["path"], f["line"], f.get("end_line") or f["line"], f["message"])
        for f in report["findings"]
        if f.get("kind") == "dynamic_shape"
    ]


def read_traces(files: Iterable[Path]) -> ShapeTrace:
    """One trace file per run."""
    trace = ShapeTrace()
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        trace.add_run(json.loads(line) for line in lines)
    return trace


def compare(
    root: Path, runs: Sequence[Sequence[str]], findings: Sequence[ShapeFinding], trace: ShapeTrace
) -> ShapeMeasurement:
    dynamic = trace.dynamic_ops()
    sources = trace.source_lines(dynamic)
    flagged: dict[Line, list[ShapeFinding]] = defaultdict(list)
    for f in findings:
        flagged[(f.path, f.line)].append(f)
    covered: set[Line] = set()
    true_lines: set[Line] = set()
    false_lines: set[Line] = set()
    not_executed: Counter[str] = Counter()
    for at, group in sorted(flagged.items()):
        spans = {(f.path, n) for f in group for n in f.lines()}
        if not trace.ran(spans):
            not_executed.update({f.rule for f in group})
            continue
        covered |= spans
        shape_true = any(s in dynamic for s in spans)
        sync_true = any(f.rule in SYNC_RULES for f in group) and any(
            s in trace.syncs or trace.branch_varied(s) for s in spans
        )
        (true_lines if shape_true or sync_true else false_lines).add(at)
    return ShapeMeasurement(
        root=str(root),
        runs=[list(r) for r in runs],
        dynamic=dict(dynamic),
        sources=sources,
        syncs=dict(trace.syncs),
        flagged=dict(flagged),
        not_executed=not_executed,
        true_lines=true_lines,
        false_lines=false_lines,
        covered=covered,
    )


def measure(
    root: Path, runs: Sequence[Sequence[str]], python: str | None = None
) -> ShapeMeasurement:
    """Scan `root`, trace `runs` in it (at least two, same input shapes), and compare."""
    with tempfile.TemporaryDirectory(prefix="apiscan-shapes-") as tmp:
        trace = read_traces(trace_runs(TRACER, root, runs, Path(tmp), python))
    return compare(root, runs, run_scan(root), trace)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _where(at: Line) -> str:
    return f"{at[0]}:{at[1]}"


def render(m: ShapeMeasurement) -> str:
    """The human-readable report: figures, then every miss and false positive."""
    found_sources = len(m.sources & m.covered)
    found_dynamic = len(set(m.dynamic) & m.covered)
    flagged_ran = len(m.true_lines) + len(m.false_lines)
    out = [
        f"{m.root}: " + "; ".join(shlex.join(r) for r in m.runs),
        "",
        f"source lines (a shape created from data): {len(m.sources)}, flagged "
        f"{found_sources}: recall {_percent(m.recall_sources)}",
        f"dynamic lines (sources and lines carrying their shapes): {len(m.dynamic)}, flagged "
        f"{found_dynamic}: recall {_percent(m.recall_dynamic)}",
        f"flagged lines that ran: {flagged_ran}, true {len(m.true_lines)}: precision "
        f"{_percent(m.precision)}",
        f"left out: flagged lines that never ran: {sum(m.not_executed.values())} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(m.not_executed.items())) or 'none'})",
        f"host syncs: {len(m.syncs)} lines",
        "",
        "missed source lines:",
    ]
    out += [
        f"  {_where(at)}  ops {', '.join(sorted(set(m.dynamic[at])))}" for at in m.missed_sources()
    ]
    out.append("unflagged lines carrying a data-dependent shape:")
    out += [
        f"  {_where(at)}  ops {', '.join(sorted(set(m.dynamic[at])))}" for at in m.missed_carried()
    ]
    out.append("false positives (flagged, ran, neither dynamic nor a sync for its rule):")
    for at in sorted(m.false_lines):
        rules = ",".join(sorted({f.rule for f in m.flagged[at]}))
        sync = ",".join(sorted(m.syncs.get(at, ()))) or "-"
        out.append(f"  {_where(at)}  {rules}  (syncs here: {sync})")
    out.append("host syncs, flagged or not:")
    for at in sorted(m.syncs):
        rules = ",".join(sorted({f.rule for f in m.flagged.get(at, ())})) or "-"
        names = ",".join(f"{k}x{v}" for k, v in sorted(m.syncs[at].items()))
        out.append(f"  {_where(at)}  {names}  flagged: {rules}")
    return "\n".join(out)


def to_json(m: ShapeMeasurement) -> dict[str, Any]:
    return {
        "root": m.root,
        "runs": m.runs,
        "recall_sources": m.recall_sources,
        "recall_dynamic": m.recall_dynamic,
        "precision": m.precision,
        "sources": [list(at) for at in sorted(m.sources)],
        "dynamic": {_where(at): sorted(set(ops)) for at, ops in sorted(m.dynamic.items())},
        "missed_sources": [list(at) for at in m.missed_sources()],
        "missed_carried": [list(at) for at in m.missed_carried()],
        "false_positives": [list(at) for at in sorted(m.false_lines)],
        "true_positives": [list(at) for at in sorted(m.true_lines)],
        "not_executed": dict(m.not_executed),
        "syncs": {_where(at): dict(names) for at, names in sorted(m.syncs.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_input_options(
        parser,
        "trace_shapes.py",
        "an entry point relative to the root (or an absolute driver), with its arguments "
        "(a seed); give two or more",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    options = parser.parse_args(argv)
    runs = [shlex.split(r) for r in options.run]
    if options.trace:
        findings = findings_of(given_report(options))
        result = compare(options.root, runs, findings, read_traces(options.trace))
    elif len(runs) >= 2:
        result = measure(options.root, runs, options.python)
    else:
        parser.error("give two or more --run (other data, same shapes), or --trace files")
    print(json.dumps(to_json(result), indent=2) if options.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
