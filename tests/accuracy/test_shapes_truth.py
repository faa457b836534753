"""Dynamic-shape findings against runtime ground truth (``scripts/trace_shapes.py`` and
``scripts/measure_shapes.py``).

A small script runs twice with other data under the tracer: its lines are classified (a shape
created from data, carried from one, static in a loop, a host sync, a branch on data) from
what really ran. Then the scoring rules on a hand-made trace, and the scanner on the tinydet
fixture, whose thresholds sit a little below today's figures.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from script_loader import load_script

PROJECT = Path(__file__).resolve().parents[2]
FIXTURES = PROJECT / "fixtures"


measure_shapes = load_script("measure_shapes")

APP = """
import sys
import torch

torch.manual_seed(int(sys.argv[1]))
x = torch.rand(50)
mask = x > 0.5
kept = x[mask]  # M:mask
doubled = kept * 2  # M:carried
for k in (2, 3):
    grid = torch.zeros(k)  # M:loop
count = int(mask.sum())  # M:sync
if count > 25:  # M:branch
    label = "many"
else:
    label = "few"
fixed = x.view(5, 10).sum(0)  # M:static
head = x[:count]  # M:bound
outer = kept[:, None] * kept[None, :]  # M:twoforms
ranks = torch.unique(mask.long().cumsum(0))  # M:unique


class Keep(torch.nn.Module):
    def forward(self, t):
        return t[t > 0.5]  # M:inner


picked = Keep()(x)  # M:module
out = torch.zeros(50)
out[mask] = kept  # M:store
out[mask] = 0.0  # M:hoststore
for i in range(len(kept)):  # M:trips
    pass
for i in range(len(x)):  # M:fixedtrips
    pass
"""


@pytest.fixture(scope="module")
def app_trace(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, int], Any]:
    root = tmp_path_factory.mktemp("app")
    (root / "app.py").write_text(textwrap.dedent(APP).lstrip())
    lines = {
        line.rpartition("# M:")[2]: n
        for n, line in enumerate((root / "app.py").read_text().splitlines(), 1)
        if "# M:" in line
    }
    outs = measure_shapes.trace_runs(
        measure_shapes.TRACER, root, [["app.py", "1"], ["app.py", "4"]], root
    )
    return lines, measure_shapes.read_traces(outs)


def test_tracer_tells_created_carried_static_and_synced_lines(app_trace: Any) -> None:
    lines, trace = app_trace
    dynamic = trace.dynamic_ops()
    at = {name: ("app.py", n) for name, n in lines.items()}
    assert at["mask"] in dynamic and at["carried"] in dynamic
    # same input shape, other result; a slice bound read from data too
    # ``torch.unique`` runs through torch's flag dispatcher, recorded as the line's call
    assert trace.source_lines(dynamic) == {at["mask"], at["bound"], at["inner"], at["unique"]}
    # two indexings of one line in two forms, a call of the repository's own module: they
    # carry the shapes made before or inside them
    assert at["twoforms"] in dynamic and at["module"] in dynamic
    assert at["loop"] not in dynamic  # two shapes per run, the same two in every run
    assert at["static"] not in dynamic and at["sync"] not in dynamic
    # a store writes its value: one row per selected element here, carried from the mask;
    # a host value writes no shape
    assert at["store"] in dynamic and at["store"] not in trace.source_lines(dynamic)
    assert at["hoststore"] not in dynamic
    # a loop as long as a data-dependent length runs another number of times
    assert at["trips"] in dynamic and at["fixedtrips"] not in dynamic
    assert trace.syncs[at["sync"]] == Counter({"__int__": 2})  # once per run
    # seeds 1 and 4 keep 23 and 26 of 50: the branch goes both ways
    assert trace.branch_varied(at["branch"])
    assert not trace.branch_varied(at["static"])


def test_compare_scores_lines_and_leaves_out_what_never_ran() -> None:
    trace = measure_shapes.ShapeTrace()
    run = [
        {"record": "op", "path": "m.py", "line": 1, "op": "__getitem__", "inputs": [[9], [9]]},
        {"record": "op", "path": "m.py", "line": 2, "op": "mul", "inputs": [[4]]},
        {"record": "op", "path": "m.py", "line": 3, "op": "zeros", "inputs": []},
        {"record": "sync", "path": "m.py", "line": 4, "name": "item", "count": 1},
        {"record": "executed", "path": "m.py", "lines": [1, 2, 3, 4, 5]},
    ]
    for shapes in ([[4], [4], [2]], [[6], [6], [2]]):
        records = [dict(r) for r in run]
        for record, shape in zip(records, shapes, strict=False):
            record.update(output=shape, count=1)
        records[1]["inputs"] = [shapes[0]]
        trace.add_run(records)
    finding = measure_shapes.ShapeFinding
    findings = [
        finding("DS104", "m.py", 1, 1),  # the mask index: a source, flagged
        finding("DS113", "m.py", 3, 3),  # static: a false positive
        finding("DS118", "m.py", 4, 4),  # a sync line: true for a sync rule
        finding("DS104", "m.py", 9, 9),  # never ran: left out
    ]
    m = measure_shapes.compare(Path("."), [], findings, trace)
    assert m.sources == {("m.py", 1)}
    assert set(m.dynamic) == {("m.py", 1), ("m.py", 2)}
    assert (m.recall_sources, m.recall_dynamic) == (1.0, 0.5)
    assert m.true_lines == {("m.py", 1), ("m.py", 4)} and m.false_lines == {("m.py", 3)}
    assert m.not_executed == Counter({"DS104": 1})
    assert m.missed_carried() == [("m.py", 2)]
    report = json.loads(json.dumps(measure_shapes.to_json(m)))
    assert report["precision"] == pytest.approx(2 / 3)
    assert "m.py:3  DS113" in measure_shapes.render(m)


@pytest.fixture(scope="module")
def tinydet() -> Any:
    runs = [["tools/train.py", "--steps", "2", "--seed", str(seed)] for seed in (1, 2, 3)]
    return measure_shapes.measure(FIXTURES / "tinydet", runs)


def test_tinydet_dynamic_shape_findings_against_runtime(tinydet: Any) -> None:
    # Measured (torch 2.13.0, 3 seeds x 2 steps): 3 source lines in loss.py (the two mask
    # indexes of `assign`, `pred_boxes[fg]`), all flagged; the 3 flagged lines that ran are
    # all dynamic. `fg` is a torch.stack of the masks `assign` returns: missed until a join of
    # masks was a mask. 8 more lines only carry those shapes (giou_loss) and are not flagged.
    why = measure_shapes.render(tinydet)
    loss = "tinydet/loss.py"
    assert {(loss, 79), (loss, 80), (loss, 96)} <= tinydet.sources, why
    assert tinydet.recall_sources == 1.0, why
    assert tinydet.precision == 1.0, why
    assert not tinydet.false_lines and tinydet.not_executed, why
    assert ("tools/train.py", 118) in tinydet.syncs, why  # loss.item() for the log


def test_trace_shapes_cli_writes_records(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("import torch\nx = torch.ones(3)\nprint(x.sum().item())\n")
    out = tmp_path / "t.jsonl"
    tracer = [sys.executable, str(measure_shapes.TRACER), "--root", str(tmp_path)]
    done = subprocess.run(
        [*tracer, "--out", str(out), "--", "app.py"],
        capture_output=True,
        text=True,
        check=False,
        env=measure_shapes.tracer_env(),
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(r) for r in out.read_text().splitlines()]
    kinds = Counter(r["record"] for r in records)
    assert kinds["op"] >= 2 and kinds["sync"] == 1 and kinds["executed"] == 1
    assert {"record": "executed", "path": "app.py", "lines": [1, 2, 3]} in records
