"""The runtime-truth benchmark across model families: recall and precision of the scan's
dynamic-shape findings against what really ran, per family and pooled.

Each family is a repository (a checkout under ``--repos``, or a wheel under ``--wheels``, which
this script unpacks) and a driver of ``scripts/drivers/`` that runs a few seeded training and
inference steps on CPU with random data: the same input shapes for every seed, other content.
Every seed is traced by ``scripts/trace_shapes.py``; the root is scanned once (this checkout's
apiscan, uncached) and ``scripts/measure_shapes.py`` scores the findings, with its definitions:
a *source* line is one where the same operation, on tensor arguments of the same shapes,
returned different shapes; recall counts the source lines a dynamic-shape finding covers;
precision, the flagged lines that ran and were dynamic (or, for the sync and branch rules,
synced or branched on data). Only the files the scan read are scored (a family's ``exclude``
leaves out parts of a large package it never runs). A family whose repository, wheel or
third-party imports are missing is reported as skipped, with the reason. Usage::

    python scripts/measure_families.py [--repos DIR] [--wheels DIR] [--families a,b]
        [--json] [--write scripts/truth]

``--repos`` defaults to ``$APISCAN_TRUTH_REPOS`` or ``../repos`` beside this checkout (folders
named as the repositories: ``whisper``, ``nanoGPT``, ``yolov7`` (WongKinYiu/yolov7), ``RAFT``
(princeton-vl/RAFT), ``semseg`` (hszhao/semseg)...); ``--wheels`` to ``$APISCAN_TRUTH_WHEELS``
(what ``pip download --no-deps -d DIR torchvision ultralytics`` leaves). ``--write DIR`` writes
``DIR/<family>.json``: the missed source lines, the unflagged carried lines and the false
findings, for whoever improves the inference.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure_owners import trace_runs
from measure_shapes import (  # a sibling script, not a package
    TRACER,
    ShapeMeasurement,
    ShapeTrace,
    compare,
    findings_of,
)

PROJECT: Final = Path(__file__).resolve().parents[1]
DRIVERS: Final = Path(__file__).resolve().parent / "drivers"
SEEDS: Final = (1, 2)
#: Families whose data-dependent counts take few values (1 to 4 boxes an image, which images
#: have any, whether a beam search ends early): with two seeds both runs can see the same set
#: of shapes, so that a line whose shape changes from batch to batch passes for static. More
#: runs, as more batches of real training would, tell them apart.
MORE_SEEDS: Final = (1, 2, 3, 4)

#: torchvision's parts that no detection model runs (datasets, video, image decoding,
#: transforms, other tasks): left out of its scan so that they neither count nor cost.
TV_EXCLUDE: Final = (
    "torchvision/datasets/**",
    "torchvision/io/**",
    "torchvision/transforms/**",
    "torchvision/tv_tensors/**",
    "torchvision/prototype/**",
    "torchvision/models/video/**",
    "torchvision/models/optical_flow/**",
    "torchvision/models/quantization/**",
    "torchvision/models/segmentation/**",
)


#: transformers: the model folders the families run, and parts none of them does.
HF_MODELS: Final = ("gpt2", "t5", "wav2vec2", "auto")
HF_EXCLUDE: Final = (
    "transformers/cli/**",
    "transformers/commands/**",
    "transformers/data/**",
    "transformers/kernels/**",
    "transformers/onnx/**",
    "transformers/pipelines/**",
    "transformers/quantizers/**",
    "transformers/exporters/**",
)
#: ultralytics' parts that a detector's training step and NMS never run.
UL_EXCLUDE: Final = (
    "ultralytics/solutions/**",
    "ultralytics/hub/**",
    "ultralytics/trackers/**",
    "ultralytics/data/**",
    "ultralytics/engine/exporter.py",
    "ultralytics/utils/export/**",
    "ultralytics/models/sam/**",
    "ultralytics/models/fastsam/**",
)

#: pytorch-retinanet's datasets and evaluation scripts (COCO and Open Images readers, scikit-image
#: and pycocotools), which a training step and an inference pass never run.
RETINANET_EXCLUDE: Final = (
    "retinanet/dataloader.py",
    "retinanet/oid_dataset.py",
    "retinanet/coco_eval.py",
    "retinanet/csv_eval.py",
    "coco_validation.py",
    "csv_validation.py",
    "visualize*.py",
)

#: PyTorch-YOLOv3's data loading, augmentation and command-line scripts (imgaug, PIL), which a
#: training step and an evaluation pass on tensors never run.
YOLOV3_EXCLUDE: Final = (
    "pytorchyolo/utils/augmentations.py",
    "pytorchyolo/utils/datasets.py",
    "pytorchyolo/utils/transforms.py",
    "pytorchyolo/utils/logger.py",
)

#: ssd.pytorch's datasets, augmentation, demo and evaluation scripts (OpenCV on images), which
#: a training step and a detection pass on tensors never run.
SSD_EXCLUDE: Final = (
    "data/coco.py",
    "data/voc0712.py",
    "demo/**",
    "utils/augmentations.py",
    "eval.py",
    "test.py",
)


@dataclass(frozen=True)
class Family:
    """One model family: where its code is, the driver that runs it, what it needs."""

    name: str
    #: ``repo:NAME`` (a checkout under --repos) or ``wheel:DIST`` (a wheel under --wheels)
    source: str
    driver: str  # a file of scripts/drivers/
    #: driver arguments; ``{repos}`` is the --repos folder, ``{wheel:DIST}`` an unpacked wheel
    args: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()  # modules the repository imports that must be installed
    exclude: tuple[str, ...] = ()  # globs left out of the scan (and so of the scores)
    seeds: tuple[int, ...] = SEEDS
    #: (folder, names): of that folder's subfolders, only these are scanned (one package's
    #: hundreds of model folders, of which a family runs a few)
    only: tuple[str, tuple[str, ...]] | None = None

    def excluded(self, root: Path) -> tuple[str, ...]:
        """The globs left out of the scan of `root`."""
        if self.only is None:
            return self.exclude
        folder, keep = self.only
        others = sorted(
            f"{folder}/{d.name}/**"
            for d in (root / folder).iterdir()
            if d.is_dir() and d.name not in keep
        )
        return (*self.exclude, *others)


def _tv(model: str) -> Family:
    return Family(
        f"tv-{model}",
        "wheel:torchvision",
        "tv_detection_step.py",
        ("--model", model),
        needs=("PIL", "numpy"),
        exclude=TV_EXCLUDE,
    )


def _hf(model: str, seeds: tuple[int, ...] = SEEDS) -> Family:
    return Family(
        f"hf-{model}",
        "wheel:transformers",
        "hf_step.py",
        ("--model", model),
        needs=("transformers", "tokenizers", "huggingface_hub", "safetensors", "regex"),
        exclude=HF_EXCLUDE,
        only=("transformers/models", HF_MODELS),
        seeds=seeds,
    )


FAMILIES: Final[tuple[Family, ...]] = (
    _tv("fasterrcnn"),
    _tv("maskrcnn"),
    _tv("keypointrcnn"),
    _tv("retinanet"),
    _tv("fcos"),
    _tv("ssdlite"),
    Family("whisper", "repo:whisper", "whisper_step.py", needs=("tiktoken", "tqdm")),
    Family("nanogpt", "repo:nanoGPT", "nanogpt_step.py"),
    Family("pointnet2", "repo:Pointnet_Pointnet2_pytorch", "pointnet2_step.py"),
    Family(
        "mae",
        "repo:mae",
        "mae_step.py",
        ("--timm", "{repos}/pytorch-image-models"),
        needs=("numpy",),
    ),
    Family("dino", "repo:dino", "dino_step.py", needs=("PIL", "numpy")),
    Family(
        "effdet",
        "repo:efficientdet-pytorch",
        "effdet_step.py",
        ("--timm", "{repos}/pytorch-image-models", "--torchvision", "{wheel:torchvision}"),
        needs=("omegaconf", "numpy"),
        seeds=MORE_SEEDS,
    ),
    Family(
        "yolov5",
        "repo:yolov5",
        "yolov5_step.py",
        ("--torchvision", "{wheel:torchvision}", "--ultralytics", "{wheel:ultralytics}"),
        needs=("cv2", "matplotlib", "pandas", "yaml", "PIL", "psutil", "requests"),
    ),
    Family(
        "ultralytics",
        "wheel:ultralytics",
        "ultralytics_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=("cv2", "matplotlib", "yaml", "PIL", "psutil", "requests"),
        exclude=UL_EXCLUDE,
        seeds=MORE_SEEDS,
    ),
    Family(
        "retinanet",
        "repo:pytorch-retinanet",
        "retinanet_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=("numpy",),
        exclude=RETINANET_EXCLUDE,
    ),
    Family(
        "yolov3",
        "repo:PyTorch-YOLOv3",
        "yolov3_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=("numpy", "tqdm"),
        exclude=YOLOV3_EXCLUDE,
        seeds=MORE_SEEDS,
    ),
    Family(
        "ssd",
        "repo:ssd.pytorch",
        "ssd_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=("cv2", "numpy"),
        exclude=SSD_EXCLUDE,
    ),
    Family(
        "retinaface",
        "repo:Pytorch_Retinaface",
        "retinaface_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=("cv2", "numpy"),
        seeds=MORE_SEEDS,
    ),
    Family(
        "yolov7",
        "repo:yolov7",
        "yolov7_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=(
            "cv2",
            "matplotlib",
            "pandas",
            "seaborn",
            "scipy",
            "yaml",
            "PIL",
            "requests",
            "tqdm",
        ),
        seeds=MORE_SEEDS,
    ),
    Family(
        "raft",
        "repo:RAFT",
        "raft_step.py",
        ("--torchvision", "{wheel:torchvision}"),
        needs=("cv2", "matplotlib", "scipy", "PIL", "numpy"),
    ),
    Family("semseg", "repo:semseg", "semseg_step.py", needs=("cv2", "yaml", "PIL", "numpy")),
    _hf("gpt2", MORE_SEEDS),
    _hf("t5"),
    _hf("wav2vec2"),
)


@dataclass
class Outcome:
    """A family's result: its measurement, or why it was skipped."""

    family: Family
    measurement: ShapeMeasurement | None = None
    skipped: str = ""
    seconds: float = 0.0
    code: dict[tuple[str, int], str] = field(default_factory=dict)


class Roots:
    """Finds each family's root: a checkout, or a wheel unpacked once into a cache."""

    def __init__(self, repos: Path, wheels: Path | None, cache: Path) -> None:
        self.repos = repos
        self.wheels = wheels
        self.cache = cache
        self._unpacking = threading.Lock()  # families of one wheel start side by side

    def root(self, family: Family) -> tuple[Path | None, str]:
        """The root of `family`, or None and the reason it is not here."""
        return self.of(family.source)

    def of(self, source: str) -> tuple[Path | None, str]:
        """The folder of ``repo:NAME`` or ``wheel:DIST``, or None and why it is missing."""
        kind, _, name = source.partition(":")
        if kind == "repo":
            path = self.repos / name
            if not path.is_dir():
                return None, f"no checkout of {name} in {self.repos} (--repos)"
            return path, ""
        if self.wheels is None or not self.wheels.is_dir():
            return None, f"no --wheels folder with a {name} wheel (pip download --no-deps {name})"
        found = sorted(self.wheels.glob(f"{name}-*.whl"))
        if not found:
            return None, f"no {name} wheel in {self.wheels} (pip download --no-deps {name})"
        wheel = found[-1]
        target = self.cache / wheel.name.removesuffix(".whl")
        with self._unpacking:
            if not (target / name).is_dir():
                partial = Path(tempfile.mkdtemp(dir=self.cache, prefix=".unpacking-"))
                with zipfile.ZipFile(wheel) as archive:
                    archive.extractall(partial)
                os.replace(partial, target)  # whole or not at all
        return target, ""


def missing_modules(names: Iterable[str]) -> list[str]:
    return [n for n in names if importlib.util.find_spec(n) is None]


def scan(root: Path, exclude: Sequence[str]) -> dict[str, Any]:
    """The scan's JSON report of `root` (this checkout's apiscan, uncached)."""
    command = [sys.executable, "-m", "apiscan", str(root), "-f", "json", "--no-cache"]
    command += ["--no-progress", *(f"--exclude={g}" for g in exclude)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"apiscan failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def read_scored(files: Iterable[Path], scanned: set[str]) -> ShapeTrace:
    """The traces of the runs, one file per run, keeping the records of scanned files."""
    trace = ShapeTrace()
    for path in files:
        records = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
        trace.add_run(r for r in records if r["path"] in scanned)
    return trace


def runs_of(family: Family, roots: Roots) -> tuple[list[list[str]], str]:
    """The driver command lines, one per seed, or why one of their folders is missing."""
    args = []
    for arg in family.args:
        if arg.startswith("{wheel:"):
            path, why = roots.of(arg.strip("{}"))
            if path is None:
                return [], why
            arg = str(path)
        args.append(arg.replace("{repos}", str(roots.repos)))
    return [[str(DRIVERS / family.driver), *args, "--seed", str(s)] for s in family.seeds], ""


class Reports:
    """One scan per (root, exclusions), shared by the families of that root (thread-safe)."""

    def __init__(self) -> None:
        self._reports: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
        self._locks: dict[tuple[str, tuple[str, ...]], threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, root: Path, exclude: tuple[str, ...]) -> dict[str, Any]:
        key = (str(root), exclude)
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._reports:
                self._reports[key] = scan(root, exclude)
            return self._reports[key]


def measure_family(family: Family, roots: Roots, reports: Reports) -> Outcome:
    """Trace the family's runs and score the scan of its root."""
    start = time.monotonic()
    root, why = roots.root(family)
    if root is None:
        return Outcome(family, skipped=why)
    lacking = missing_modules(family.needs)
    if lacking:
        return Outcome(family, skipped=f"not installed: {', '.join(lacking)}")
    runs, why = runs_of(family, roots)
    if not runs:
        return Outcome(family, skipped=why)
    with tempfile.TemporaryDirectory(prefix=f"apiscan-{family.name}-") as tmp:
        try:
            outs = trace_runs(TRACER, root, runs, Path(tmp))
        except RuntimeError as failure:
            last = str(failure).strip().splitlines()[-1:] or ["?"]
            return Outcome(family, skipped=f"driver failed: {last[0][:200]}")
        report = reports.get(root, family.excluded(root))
        scanned = {f["path"] for f in report["files"]}
        trace = read_scored(outs, scanned)
    shown = [[Path(r[0]).name, *r[1:]] for r in runs]
    m = compare(Path(root.name), shown, findings_of(report), trace)
    outcome = Outcome(family, m, seconds=time.monotonic() - start)
    outcome.code = _code_of(root, [*m.missed_sources(), *m.false_lines])
    return outcome


def _code_of(root: Path, lines: Iterable[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The source text of `lines` (for the listing printed here; never written to files)."""
    texts: dict[str, list[str]] = {}
    out = {}
    for path, line in lines:
        if path not in texts:
            texts[path] = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        text = texts[path]
        out[(path, line)] = text[line - 1].strip() if 0 < line <= len(text) else ""
    return out


@dataclass(frozen=True)
class Counts:
    """The figures of one family or of several pooled."""

    sources: int = 0
    found: int = 0
    dynamic: int = 0
    dynamic_found: int = 0
    flagged: int = 0
    true: int = 0

    @classmethod
    def of(cls, m: ShapeMeasurement) -> Counts:
        return cls(
            len(m.sources),
            len(m.sources & m.covered),
            len(m.dynamic),
            len(set(m.dynamic) & m.covered),
            len(m.true_lines) + len(m.false_lines),
            len(m.true_lines),
        )

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[int, ...]:
        return (
            self.sources,
            self.found,
            self.dynamic,
            self.dynamic_found,
            self.flagged,
            self.true,
        )

    @property
    def recall(self) -> float | None:
        return self.found / self.sources if self.sources else None

    @property
    def recall_dynamic(self) -> float | None:
        return self.dynamic_found / self.dynamic if self.dynamic else None

    @property
    def precision(self) -> float | None:
        return self.true / self.flagged if self.flagged else None


def _fraction(part: int, whole: int) -> str:
    return f"{part}/{whole} {100 * part / whole:5.1f}%" if whole else f"{part}/{whole}     -"


def render(outcomes: Sequence[Outcome]) -> str:
    """The table (one row per measured family, then pooled), the skipped families, and per
    family the missed source lines and the false findings with their code."""
    header = ("family", "source recall", "dynamic recall", "precision", "runs", "s")
    rows = []
    pooled = Counts()
    for o in outcomes:
        if o.measurement is None:
            continue
        c = Counts.of(o.measurement)
        pooled += c
        rows.append(
            (
                o.family.name,
                _fraction(c.found, c.sources),
                _fraction(c.dynamic_found, c.dynamic),
                _fraction(c.true, c.flagged),
                str(len(o.family.seeds)),
                f"{o.seconds:.0f}",
            )
        )
    rows.append(
        (
            "pooled",
            _fraction(pooled.found, pooled.sources),
            _fraction(pooled.dynamic_found, pooled.dynamic),
            _fraction(pooled.true, pooled.flagged),
            "",
            "",
        )
    )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    out = [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]
    skipped = [o for o in outcomes if o.measurement is None]
    if skipped:
        out += ["", "skipped:"]
        out += [f"  {o.family.name}: {o.skipped}" for o in skipped]
    for o in outcomes:
        m = o.measurement
        if m is None or not (m.missed_sources() or m.false_lines):
            continue
        out += ["", f"{o.family.name}:"]
        for at in m.missed_sources():
            ops = ", ".join(sorted(set(m.dynamic[at])))
            out.append(f"  missed {at[0]}:{at[1]}  [{ops}]  {o.code.get(at, '')}")
        for at in sorted(m.false_lines):
            rules = ",".join(sorted({f.rule for f in m.flagged[at]}))
            out.append(f"  false  {at[0]}:{at[1]}  {rules}  {o.code.get(at, '')}")
    return "\n".join(out)


def family_json(o: Outcome) -> dict[str, Any]:
    """What one family's file holds: figures and line lists (locations and operations, no
    third-party code)."""
    f = o.family
    data: dict[str, Any] = {
        "family": f.name,
        "source": f.source,
        "driver": f"scripts/drivers/{f.driver}",
        "args": list(f.args),
        "seeds": list(f.seeds),
    }
    m = o.measurement
    if m is None:
        return {**data, "skipped": o.skipped}
    c = Counts.of(m)
    data.update(
        sources=c.sources,
        sources_flagged=c.found,
        recall_sources=c.recall,
        dynamic=c.dynamic,
        dynamic_flagged=c.dynamic_found,
        recall_dynamic=c.recall_dynamic,
        flagged_ran=c.flagged,
        flagged_true=c.true,
        precision=c.precision,
        not_executed=dict(sorted(m.not_executed.items())),
        missed_sources=[
            {"path": p, "line": n, "ops": sorted(set(m.dynamic[(p, n)]))}
            for p, n in m.missed_sources()
        ],
        missed_carried=[
            {"path": p, "line": n, "ops": sorted(set(m.dynamic[(p, n)]))}
            for p, n in m.missed_carried()
        ],
        false_positives=[
            {"path": p, "line": n, "rules": sorted({x.rule for x in m.flagged[(p, n)]})}
            for p, n in sorted(m.false_lines)
        ],
        sources_found=[{"path": p, "line": n} for p, n in sorted(m.sources & m.covered)],
    )
    return data


def to_json(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    measured = [o for o in outcomes if o.measurement is not None]
    pooled = sum((Counts.of(o.measurement) for o in measured if o.measurement), Counts())
    return {
        "families": [family_json(o) for o in outcomes],
        "pooled": {
            "families": len(measured),
            "sources": pooled.sources,
            "sources_flagged": pooled.found,
            "recall_sources": pooled.recall,
            "dynamic": pooled.dynamic,
            "dynamic_flagged": pooled.dynamic_found,
            "recall_dynamic": pooled.recall_dynamic,
            "flagged_ran": pooled.flagged,
            "flagged_true": pooled.true,
            "precision": pooled.precision,
        },
    }


def select(names: str | None) -> list[Family]:
    if not names:
        return list(FAMILIES)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    known = {f.name: f for f in FAMILIES}
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise SystemExit(
            f"unknown families: {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    return [known[n] for n in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    env_repos = os.environ.get("APISCAN_TRUTH_REPOS")
    env_wheels = os.environ.get("APISCAN_TRUTH_WHEELS")
    parser.add_argument(
        "--repos",
        type=Path,
        default=Path(env_repos) if env_repos else PROJECT.parent / "repos",
        help="folder of repository checkouts (default: $APISCAN_TRUTH_REPOS or ../repos)",
    )
    parser.add_argument(
        "--wheels",
        type=Path,
        default=Path(env_wheels) if env_wheels else None,
        help="folder of downloaded wheels (torchvision...; default: $APISCAN_TRUTH_WHEELS)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "apiscan-truth",
        help="where wheels are unpacked (kept between runs)",
    )
    parser.add_argument("--families", help="comma-separated family names (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--write", type=Path, metavar="DIR", help="write DIR/<family>.json")
    parser.add_argument("--list", action="store_true", help="list the families and stop")
    parser.add_argument("--jobs", type=int, default=1, help="families measured at once (default 1)")
    options = parser.parse_args(argv)
    families = select(options.families)
    if options.list:
        for f in families:
            print(f"{f.name}\t{f.source}\tscripts/drivers/{f.driver} {' '.join(f.args)}")
        return 0
    options.cache.mkdir(parents=True, exist_ok=True)
    roots = Roots(options.repos, options.wheels, options.cache)
    reports = Reports()

    def one(family: Family) -> Outcome:
        outcome = measure_family(family, roots, reports)
        state = outcome.skipped or f"{outcome.seconds:.0f} s"
        sys.stderr.write(f"{family.name}: {state}\n")  # one write: lines of threads never mix
        return outcome

    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        outcomes = list(pool.map(one, families))  # each family runs in child processes
    if options.write:
        options.write.mkdir(parents=True, exist_ok=True)
        for o in outcomes:
            text = json.dumps(family_json(o), indent=1) + "\n"
            (options.write / f"{o.family.name}.json").write_text(text, encoding="utf-8")
    print(json.dumps(to_json(outcomes), indent=2) if options.json else render(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
