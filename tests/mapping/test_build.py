"""``scripts/build_mapping.py``: the scraper on the committed miniature mirror, and — where a
local mirror of the official pages exists — the shipped ``mapping_data/`` byte for byte."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import socket
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sources_helpers import FIXTURE_SOURCES, REPO, load_script

SHIPPED = REPO / "mapping_data"
VERSION_FILES = ("api_map.csv", "param_diffs.csv", "general_params.csv")
R26 = "https://www.mindspore.cn/docs/en/r2.6.0/note/api_mapping/pytorch_diff"


@pytest.fixture(scope="module")
def build_script() -> ModuleType:
    return load_script("build_mapping")


@pytest.fixture(scope="module")
def fixture_build(build_script: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The miniature mirror built once into a temporary ``mapping_data``."""
    out = tmp_path_factory.mktemp("fixture_build")
    assert build_script.main(["--sources", str(FIXTURE_SOURCES), "--out", str(out)]) == 0
    return out


def _records(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A loopback HTTP server serving a copy of the fixture's r2.6.0 pages."""
    root = tmp_path / "served"
    root.mkdir()
    shutil.copy(FIXTURE_SOURCES / "r2.6.0" / "pytorch_api_mapping.md", root)
    shutil.copytree(FIXTURE_SOURCES / "r2.6.0" / "pytorch_diff", root / "pytorch_diff")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def _generated_files(folder: Path) -> dict[str, bytes]:
    """The files build_mapping.py owns under ``folder``: the manifest and version folders."""
    files = {"manifest.json": (folder / "manifest.json").read_bytes()}
    for version_dir in folder.iterdir():
        if version_dir.is_dir() and version_dir.name[0].isdigit():
            for path in version_dir.iterdir():
                files[f"{version_dir.name}/{path.name}"] = path.read_bytes()
    return files


# --- the scraper on the miniature mirror (no network, no ../shared) ------------------------


def test_fixture_build_reads_every_row_shape(fixture_build: Path) -> None:
    rows = {r["torch_api"]: r for r in _records(fixture_build / "2.6" / "api_map.csv")}
    assert sorted(rows) == [
        "torch.Tensor.__getitem__",  # escaped underscores, an extra empty cell
        "torch.Tensor.view",  # a stray space inside the name
        "torch.abs",
        "torch.argmax",
        "torch.cat",  # "Consistent](...)": a link that lost its opening bracket
        "torch.cdist",  # no target
        "torch.nn.Dropout1d",  # links a diff page the sources lack
        "torch.nn.Hardsigmoid",
        "torch.nn.Upsample",
        "torch.nn.functional.kl_div",
        "torch.optim.Adam",
        "torch.where",
    ]
    status = {api: row["status"] for api, row in rows.items()}
    assert status["torch.cat"] == status["torch.abs"] == "consistent"
    assert status["torch.Tensor.view"] == "different"  # "consistent, but ..." is a difference
    assert status["torch.cdist"] == "missing"
    assert rows["torch.nn.Hardsigmoid"]["ms_apis"] == "mindspore.mint.nn.HSigmoid"
    assert rows["torch.optim.Adam"]["ms_apis"] == (
        "mindspore.nn.Adam;mindspore.experimental.optim.Adam"
    )
    assert rows["torch.nn.Dropout1d"]["note"] == "see diff page"
    # The diff page's comparing sentence becomes the note; the formula paragraph is skipped.
    assert rows["torch.argmax"]["note"].startswith("MindSpore's mint.argmax returns int32")
    assert rows["torch.nn.functional.kl_div"]["note"].startswith("PyTorch and MindSpore differ")
    assert rows["torch.nn.functional.kl_div"]["namespace"] == "torch.nn"
    general = _records(fixture_build / "2.6" / "general_params.csv")
    assert [(g["name"], g["description"]) for g in general] == [
        ("out", "Not supported in MindSpore."),
        ("device", "Use set_device instead."),
    ]


def test_fixture_build_reads_every_diff_page_shape(fixture_build: Path) -> None:
    params = _records(fixture_build / "2.6" / "param_diffs.csv")
    by_api: dict[str, list[tuple[str, str, str, str]]] = {}
    for p in params:
        by_api.setdefault(p["torch_api"], []).append(
            (p["category"], p["subcategory"], p["torch_param"], p["ms_param"])
        )
    assert by_api["torch.argmax"] == [  # "Parameter", "Parameters 2", "Returns" normalised
        ("Parameters", "Parameter 1", "input", "input"),
        ("Parameters", "Parameter 2", "dim", "dim"),
        ("Outputs", "Output", "Tensor", "Tensor"),
    ]
    assert by_api["torch.where"][1] == ("Inputs", "Input 2", "x", "input")  # "## Usage", "："
    assert by_api["torch.nn.functional.kl_div"][0][2:] == ("input", "logits")  # no header row
    # Two API pairs on one page: only the table comparing this row's APIs is attached.
    assert [p[2] for p in by_api["torch.nn.Upsample"]] == ["size", "recompute_scale_factor"]
    assert "torch.nn.Dropout1d" not in by_api


def test_fixture_manifest_records_sources_and_remarks(fixture_build: Path) -> None:
    manifest = json.loads((fixture_build / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["default_version"] == "2.6"
    assert list(manifest["versions"]) == ["2.6", "2.0", "1.10"]
    latest = manifest["versions"]["2.6"]
    assert (latest["branch"], latest["commit"]) == (
        "r2.6.0",
        "8618b1ccb1991f63466f0d5b26963538c0988227",
    )
    assert latest["diff_pages_read"] == 4
    assert latest["status_counts"] == {"consistent": 5, "different": 6, "missing": 1}
    remarks = latest["remarks"]
    assert any("row without a PyTorch API skipped" in r for r in remarks)
    assert any("read as mindspore.mint.nn.HSigmoid" in r for r in remarks)
    assert any(f"{R26}/Dropout1d.html is not in the sources" in r for r in remarks)
    older = manifest["versions"]["2.0"]
    assert older["status_counts"] == {"consistent": 2, "different": 2, "missing": 1}
    assert older["rows"]["general_params.csv"] == 2  # the table without Descriptions
    # No descriptions at all: only the same-name row (torch.nn.Conv2d → mindspore.nn.Conv2d)
    # is settled as consistent; torch.abs → the primitive ops.Abs stays different.
    assert manifest["versions"]["1.10"]["status_counts"]["consistent"] == 1
    for version, entry in manifest["versions"].items():
        for name in VERSION_FILES:
            content = (fixture_build / version / name).read_bytes()
            assert hashlib.sha256(content).hexdigest() == entry["sha256"][name]
            assert b"\r" not in content


def test_builds_are_deterministic_and_check_accepts_them(
    build_script: ModuleType,
    fixture_build: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    again = tmp_path / "again"
    assert build_script.main(["--sources", str(FIXTURE_SOURCES), "--out", str(again)]) == 0
    assert _generated_files(again) == _generated_files(fixture_build)
    capsys.readouterr()
    argv = ["--sources", str(FIXTURE_SOURCES), "--out", str(again), "--check"]
    assert build_script.main(argv) == 1  # no ms_targets.csv beside it yet
    assert "missing: ms_targets.csv" in capsys.readouterr().err
    targets = set()
    for version in ("2.6", "2.0", "1.10"):
        for record in _records(again / version / "api_map.csv"):
            targets.update(filter(None, record["ms_apis"].split(";")))
    (again / "ms_targets.csv").write_text(
        "target,exists\n" + "".join(f"{t},true\n" for t in sorted(targets)), encoding="utf-8"
    )
    assert build_script.main(argv) == 0
    assert "up to date" in capsys.readouterr().out


def test_check_reports_every_kind_of_staleness(
    build_script: ModuleType,
    fixture_build: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    copy = tmp_path / "mapping_data"
    shutil.copytree(fixture_build, copy)
    api_map = copy / "2.6" / "api_map.csv"
    lines = api_map.read_text(encoding="utf-8").splitlines(keepends=True)
    api_map.write_text("".join(lines[:1] + lines[2:]), encoding="utf-8")
    (copy / "9.9").mkdir()
    (copy / "9.9" / "api_map.csv").write_text("torch_api\n", encoding="utf-8")
    (copy / "ms_targets.csv").write_text("target,exists\nmindspore.mint.abs,true\n")

    argv = ["--sources", str(FIXTURE_SOURCES), "--check", "--out", str(copy)]
    assert build_script.main(argv) == 1
    err = capsys.readouterr().err
    assert "changed: 2.6/api_map.csv (+1 -0 lines)" in err
    assert f"    +{lines[1].rstrip()}"[:164] in err
    assert "extra: 9.9/api_map.csv" in err
    assert "stale: ms_targets.csv lacks" in err
    assert "Regenerate with: python scripts/build_mapping.py" in err


def test_url_mode_gives_the_same_files_as_the_local_sources(
    build_script: ModuleType, fixture_build: Path, tmp_path: Path, served: tuple[str, Path]
) -> None:
    base, _ = served
    out = tmp_path / "out"
    argv = [
        "--sources",
        str(FIXTURE_SOURCES),
        "--table",
        f"2.6={base}/pytorch_api_mapping.md",
        "--diff-base",
        f"2.6={base}/pytorch_diff/",
        "--out",
        str(out),
    ]
    assert build_script.main(argv) == 0
    for name in VERSION_FILES:
        assert (out / "2.6" / name).read_bytes() == (fixture_build / "2.6" / name).read_bytes()
    entry = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["versions"]["2.6"]
    assert entry["table"] == f"{base}/pytorch_api_mapping.md"
    assert entry["diff_pages_read"] == 4
    assert entry["commit"] == "8618b1ccb1991f63466f0d5b26963538c0988227"


def test_a_single_local_table_file_with_its_diff_folder_beside_it(
    build_script: ModuleType, fixture_build: Path, tmp_path: Path
) -> None:
    source = tmp_path / "r2.6.0"
    shutil.copytree(FIXTURE_SOURCES / "r2.6.0", source)
    out = tmp_path / "out"
    argv = [
        "--sources",
        str(tmp_path / "none"),
        "--table",
        f"2.6={source / 'pytorch_api_mapping.md'}",
    ]
    assert build_script.main([*argv, "--out", str(out)]) == 0
    for name in VERSION_FILES:
        assert (out / "2.6" / name).read_bytes() == (fixture_build / "2.6" / name).read_bytes()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("{base}/no_such_table.md", "error: cannot fetch {base}/no_such_table.md: HTTP 404"),
        ("{closed}/pytorch_api_mapping.md", "error: cannot fetch {closed}/pytorch_api_mapping.md:"),
        ("{tmp}/missing.md", "error: source file not found: {tmp}/missing.md"),
    ],
)
def test_unreadable_sources_are_clear_errors(
    build_script: ModuleType,
    tmp_path: Path,
    served: tuple[str, Path],
    capsys: pytest.CaptureFixture[str],
    table: str,
    message: str,
) -> None:
    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    values = {"base": served[0], "closed": closed, "tmp": str(tmp_path)}
    argv = [
        "--sources",
        str(tmp_path / "none"),
        "--retries",
        "0",
        "--table",
        f"2.6={table.format(**values)}",
        "--out",
        str(tmp_path / "out"),
    ]
    assert build_script.main(argv) == 2
    assert message.format(**values) in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_bad_options_are_clear_errors(
    build_script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = ["--sources", str(FIXTURE_SOURCES)]
    assert build_script.main([*fixture, "--table", "2.6", "--out", str(tmp_path)]) == 2
    assert "--table expects VERSION=LOCATION, got '2.6'" in capsys.readouterr().err
    argv = [*fixture, "--diff-base", f"2.6={tmp_path / 'nowhere'}", "--out", str(tmp_path)]
    assert build_script.main(argv) == 2
    assert f"diff page folder not found: {tmp_path / 'nowhere'}" in capsys.readouterr().err
    argv = ["--sources", str(tmp_path), "--out", str(tmp_path)]
    assert build_script.main(argv) == 2
    assert "no sources:" in capsys.readouterr().err


# --- the shipped data (its own facts need no sources) --------------------------------------


def test_manifest_describes_the_shipped_files() -> None:
    manifest = json.loads((SHIPPED / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["default_version"] == "2.6"
    assert list(manifest["versions"]) == ["2.6", "2.4", "2.3", "2.0", "1.10"]
    for version, entry in manifest["versions"].items():
        assert entry["folder"] == version
        assert len(entry["commit"]) == 40
        for name in VERSION_FILES:
            content = (SHIPPED / version / name).read_bytes()
            assert hashlib.sha256(content).hexdigest() == entry["sha256"][name]
            assert b"\r" not in content
            assert len(list(csv.DictReader(io.StringIO(content.decode())))) == entry["rows"][name]
    rows = {
        version: entry["rows"]["api_map.csv"] for version, entry in manifest["versions"].items()
    }
    # The sources README's counts, less the r2.6.0 row that names no PyTorch API.
    assert rows == {"2.6": 514, "2.4": 887, "2.3": 875, "2.0": 746, "1.10": 374}
    assert manifest["versions"]["2.4"]["diff_pages_read"] == 231


def test_api_map_is_sorted_with_ranks_in_table_order() -> None:
    records = _records(SHIPPED / "2.4" / "api_map.csv")
    keys = [(record["torch_api"], int(record["rank"])) for record in records]
    assert keys == sorted(keys)
    adam = [record["ms_apis"] for record in records if record["torch_api"] == "torch.optim.Adam"]
    assert adam == ["mindspore.nn.Adam", "mindspore.experimental.optim.Adam"]


# --- the full official sources (a local mirror; CI has one) --------------------------------


def test_shipped_data_is_byte_for_byte_what_the_scraper_produces(
    build_script: ModuleType, mirror: Path, tmp_path: Path
) -> None:
    assert build_script.main(["--sources", str(mirror), "--out", str(tmp_path)]) == 0
    fresh = _generated_files(tmp_path)
    shipped = _generated_files(SHIPPED)
    assert sorted(fresh) == sorted(shipped)
    for name, content in fresh.items():
        assert content == shipped[name], f"{name} differs from a fresh build"
    assert len(fresh) == 1 + 5 * len(VERSION_FILES)


def test_check_accepts_the_shipped_data(
    build_script: ModuleType, mirror: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_script.main(["--sources", str(mirror), "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_manifest_commits_are_the_mirrors(mirror: Path) -> None:
    manifest = json.loads((SHIPPED / "manifest.json").read_text(encoding="utf-8"))
    readme = (mirror / "README.md").read_text(encoding="utf-8")
    for entry in manifest["versions"].values():
        assert f"| {entry['branch']}" in readme and entry["commit"] in readme
