"""Every report-writing subcommand takes ``-f/--format`` and ``-o/--output``; ``verify``
fails fast without torch or mindspore; several paths are scanned as one."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from scan_helpers import write_repo

from apiscan.cli import verify as verify_cli
from apiscan.cli.main import main
from apiscan.verify.catalogue import CASES
from apiscan.verify.results import CaseResult, cache_in

#: An API with one micro-test that passes on CPU (relu has its generated documented forms
#: too, some of which do not hold there).
ONE_CASE_API = "torchvision.ops.box_area"

REPO = Path(__file__).resolve().parents[1]
TINYDET = REPO / "fixtures" / "tinydet"
SRC = "import torch\n\ntorch.set_num_threads(2)\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _cached_relu(tmp_path: Path) -> str:
    """A cached result for one catalogue case, so verify needs no framework to show it."""
    case = next(c for c in CASES if c.api == ONE_CASE_API)
    result = CaseResult(
        case_id=case.case_id,
        api=case.api,
        strategy=case.strategy,
        ms_expr=case.ms_expr,
        status="pass",
        max_abs=0.0,
        mean_abs=0.0,
        rel_diff=0.0,
        threshold=1e-5,
        device="CPU",
        dtype="float32",
        torch_version="2.13.0",
        mindspore_version="2.10.0",
    )
    cache_in(tmp_path / "cache").put(case, result)
    return case.api


@pytest.mark.parametrize(
    ("argv", "check"),
    [
        (["{tinydet}", "-f", "json"], lambda text: json.loads(text)["findings"]),
        (["review", "{tinydet}", "-f", "json"], lambda text: json.loads(text)["gaps"]),
        (["verify", "{relu}", "-f", "json"], lambda text: json.loads(text)["results"]),
        (["config", "{tinydet}", "-f", "json"], lambda text: json.loads(text)["settings"]),
        (["mapping", "-f", "json"], lambda text: json.loads(text)[0]["version"]),
        (["rules", "-f", "json"], lambda text: json.loads(text)[0]["id"]),
        (["explain", "DS101", "-f", "json"], lambda text: json.loads(text)["sections"]),
    ],
    ids=["scan", "review", "verify", "config", "mapping", "rules", "explain"],
)
def test_output_option_on_every_subcommand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], check: object
) -> None:
    values = {"tinydet": str(TINYDET), "relu": _cached_relu(tmp_path)}
    args = [a.format(**values) for a in argv]
    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    assert main([*args, "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""  # all of it went to the file
    assert check(target.read_text(encoding="utf-8"))  # type: ignore[operator]
    # An output that cannot be written is one line and exit 2.
    assert main([*args, "-o", str(tmp_path / "no" / "such" / "dir" / "x")]) == 2
    err = capsys.readouterr().err
    assert "error: cannot write" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("absent", ["mindspore", "torch"])
def test_verify_without_a_framework_stops_at_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], absent: str
) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == absent else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_cli.importlib.util, "find_spec", find_spec)
    started: list[object] = []
    monkeypatch.setattr(verify_cli.Runner, "_start", lambda self: started.append(self))
    assert main(["verify", ONE_CASE_API, "--no-cache"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert f"{absent} not installed" in err
    assert "pip install 'apiscan[verify]'" in err
    assert started == []  # no child process was spawned


def test_verify_shows_cached_results_without_the_frameworks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    api = _cached_relu(tmp_path)
    monkeypatch.setattr(verify_cli, "missing_frameworks", lambda: ["torch", "mindspore"])
    assert main(["verify", api]) == 0
    assert "1 pass" in capsys.readouterr().out


def test_verify_takes_device_and_dtype_from_the_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "apiscan.toml").write_text('verify-dtype = "float16"\n')
    monkeypatch.chdir(tmp_path)
    seen: list[tuple[str, str]] = []

    class FakeRunner:
        def __init__(self, device: str, dtype: str, *rest: object) -> None:
            seen.append((device, dtype))

        def __enter__(self) -> FakeRunner:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def run(self, cases: list[object]) -> list[CaseResult]:
            return []

    monkeypatch.setattr(verify_cli, "Runner", FakeRunner)
    monkeypatch.setattr(verify_cli, "missing_frameworks", lambda: [])
    assert main(["verify", ONE_CASE_API, "--no-cache"]) == 0
    assert main(["verify", ONE_CASE_API, "--no-cache", "--dtype", "float32"]) == 0
    assert seen == [("CPU", "float16"), ("CPU", "float32")]
    capsys.readouterr()


def test_several_paths_are_scanned_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(
        tmp_path / "repo",
        {"a/one.py": SRC, "a/skip.py": SRC, "b/two.py": SRC, "b/sub/three.py": SRC, "c/x.py": SRC},
    )
    (root / "apiscan.toml").write_text('exclude = ["*skip*"]\n')
    args = [str(root / "a" / "one.py"), str(root / "a" / "skip.py"), str(root / "b")]
    assert main([*args, "-f", "json", "--no-cache", "--fail-on", "missing"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert sorted({f["path"] for f in doc["findings"]}) == [
        "a/one.py",
        "b/sub/three.py",
        "b/two.py",
    ]
    assert main([str(root / "a" / "one.py"), str(root / "nope.py")]) == 2
    assert "path does not exist" in capsys.readouterr().err


def test_verify_progress_bar_keeps_every_result_in_order() -> None:
    cases = [c for c in CASES if c.api == "torch.nn.functional.relu"][:1] * 3

    class FakeRunner:
        def iter_results(self, chosen: list[object]) -> object:
            return iter(SimpleNamespace(status="pass", n=i) for i, _ in enumerate(chosen))

    results = verify_cli._run(FakeRunner(), cases, show_progress=True)  # type: ignore[arg-type]
    assert [r.n for r in results] == [0, 1, 2]  # type: ignore[attr-defined]
