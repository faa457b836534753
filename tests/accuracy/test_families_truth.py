"""The runtime-truth benchmark over model families (``scripts/measure_families.py``), run on a
tiny repository written here with its own driver: the real families need third-party
checkouts and wheels, which the suite never does."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from script_loader import load_script

measure_families = load_script("measure_families")
measure_shapes = load_script("measure_shapes")

MODEL = """
import torch


def keep_positive(x: torch.Tensor) -> torch.Tensor:
    mask = x > 0.5
    kept = x[mask]  # M:source
    return kept * 2  # M:carried


def fixed(x: torch.Tensor) -> torch.Tensor:
    return x.view(5, 10).sum(0)  # M:static
"""

DRIVER = """
import argparse
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int)
parser.add_argument("--scale", type=float, default=1.0)
options = parser.parse_args()
sys.path.insert(0, os.getcwd())
import torch
from tiny.model import fixed, keep_positive

torch.manual_seed(options.seed)
x = torch.rand(50) * options.scale
keep_positive(x)
fixed(x)
"""


def _marks(path: Path) -> dict[str, int]:
    lines = path.read_text().splitlines()
    return {t.rpartition("# M:")[2]: n for n, t in enumerate(lines, 1) if "# M:" in t}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, int], Any]:
    repos = tmp_path_factory.mktemp("repos")
    package = repos / "tinyrepo" / "tiny"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text(textwrap.dedent(MODEL).lstrip())
    driver = repos / "tiny_step.py"  # outside the repository, as the real drivers are
    driver.write_text(textwrap.dedent(DRIVER).lstrip())
    family = measure_families.Family(
        "tiny", "repo:tinyrepo", str(driver), ("--scale", "1.0"), seeds=(1, 4)
    )
    roots = measure_families.Roots(repos, None, repos)
    outcome = measure_families.measure_family(family, roots, measure_families.Reports())
    return outcome, _marks(package / "model.py"), roots


def test_family_scored_against_its_runs(tiny: Any) -> None:
    outcome, marks, _ = tiny
    m = outcome.measurement
    assert m is not None, outcome.skipped
    at = {name: ("tiny/model.py", n) for name, n in marks.items()}
    assert m.sources == {at["source"]}  # same argument shapes, other result shapes
    assert at["carried"] in m.dynamic and at["static"] not in m.dynamic
    counts = measure_families.Counts.of(m)
    assert (counts.sources, counts.found) == (1, 1), measure_families.render([outcome])
    assert counts.precision == 1.0, measure_families.render([outcome])
    table = measure_families.render([outcome])
    assert "| tiny " in table and "| pooled " in table and "1/1 100.0%" in table


def test_missing_code_is_skipped_with_its_reason(tiny: Any) -> None:
    outcome, _, roots = tiny
    absent = measure_families.Family("gone", "repo:no-such-checkout", "nanogpt_step.py")
    wheel = measure_families.Family("tv", "wheel:torchvision", "tv_detection_step.py")
    needs = measure_families.Family("needs", "repo:tinyrepo", "x.py", needs=("no_such_mod",))
    results = [
        measure_families.measure_family(f, roots, measure_families.Reports())
        for f in (absent, wheel, needs)
    ]
    assert "no checkout of no-such-checkout" in results[0].skipped
    assert "pip download --no-deps torchvision" in results[1].skipped
    assert results[2].skipped == "not installed: no_such_mod"
    report = measure_families.to_json([outcome, *results])
    assert report["pooled"]["families"] == 1 and report["pooled"]["recall_sources"] == 1.0
    assert [f.get("skipped", "") != "" for f in report["families"]] == [False, True, True, True]
    assert "skipped:\n  gone: no checkout" in measure_families.render([outcome, *results])


def test_family_file_lists_misses_and_false_findings_without_code() -> None:
    trace = measure_shapes.ShapeTrace()
    for shape in ([4], [6]):
        trace.add_run(
            [
                {
                    "record": "op",
                    "path": "m.py",
                    "line": 3,
                    "op": "nonzero",
                    "inputs": [[9]],
                    "output": shape,
                    "count": 1,
                },
                {
                    "record": "op",
                    "path": "m.py",
                    "line": 7,
                    "op": "mul",
                    "inputs": [[2]],
                    "output": [2],
                    "count": 1,
                },
                {"record": "executed", "path": "m.py", "lines": [3, 7]},
            ]
        )
    finding = measure_shapes.ShapeFinding("DS111", "m.py", 7, 7)
    m = measure_shapes.compare(Path("."), [], [finding], trace)
    family = measure_families.Family("f", "repo:f", "d.py")
    data = json.loads(json.dumps(measure_families.family_json(measure_families.Outcome(family, m))))
    assert data["missed_sources"] == [{"path": "m.py", "line": 3, "ops": ["nonzero"]}]
    assert data["false_positives"] == [{"path": "m.py", "line": 7, "rules": ["DS111"]}]
    assert (data["recall_sources"], data["precision"]) == (0.0, 0.0)
    assert "code" not in json.dumps(data)


def test_unknown_family_is_a_usage_error() -> None:
    with pytest.raises(SystemExit, match="unknown families: nope"):
        measure_families.select("nope")
    assert [f.name for f in measure_families.select("whisper, nanogpt")] == ["whisper", "nanogpt"]
    assert len(measure_families.FAMILIES) >= 10


def test_standalone_detection_families() -> None:
    """The three detection repositories of their own (no torchvision model inside): each a
    checkout, a driver of ``scripts/drivers/`` and exclusions of the data and evaluation
    scripts no step runs; YOLOv3's few detection counts take 4 seeds."""
    picked = {f.name: f for f in measure_families.select("retinanet, yolov3, ssd")}
    assert {n: f.source for n, f in picked.items()} == {
        "retinanet": "repo:pytorch-retinanet",
        "yolov3": "repo:PyTorch-YOLOv3",
        "ssd": "repo:ssd.pytorch",
    }
    for family in picked.values():
        assert (measure_families.DRIVERS / family.driver).is_file()
        assert family.args == ("--torchvision", "{wheel:torchvision}")
    assert picked["yolov3"].seeds == measure_families.MORE_SEEDS
    assert "retinanet/dataloader.py" in picked["retinanet"].exclude
    assert "data/coco.py" in picked["ssd"].exclude


def test_families_of_other_kinds() -> None:
    """An optical-flow model, a segmentation model and a detector with a dynamic (OTA)
    assignment: each a checkout (its folder named as the repository), a driver that stubs
    what needs CUDA, and the detector's few box counts take 4 seeds."""
    picked = {f.name: f for f in measure_families.select("yolov7, raft, semseg")}
    assert {n: f.source for n, f in picked.items()} == {
        "yolov7": "repo:yolov7",
        "raft": "repo:RAFT",
        "semseg": "repo:semseg",
    }
    for family in picked.values():
        assert (measure_families.DRIVERS / family.driver).is_file()
    assert picked["yolov7"].seeds == measure_families.MORE_SEEDS
    assert picked["raft"].args == ("--torchvision", "{wheel:torchvision}")
    assert picked["semseg"].args == ()
