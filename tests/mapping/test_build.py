"""The shipped ``mapping_data/`` is exactly what ``scripts/build_mapping.py`` produces."""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import shutil
import socket
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "mapping_data"
SOURCES = REPO.parent / "shared" / "mapping_sources"
VERSION_FILES = ("api_map.csv", "param_diffs.csv", "general_params.csv")


@pytest.fixture(scope="module")
def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_mapping", REPO / "scripts" / "build_mapping.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A local HTTP server on 127.0.0.1 serving a copy of the r2.6.0 sources."""
    root = tmp_path / "served"
    root.mkdir()
    shutil.copy(SOURCES / "r2.6.0" / "pytorch_api_mapping.md", root)
    shutil.copytree(SOURCES / "r2.6.0" / "pytorch_diff", root / "pytorch_diff")
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


def test_shipped_data_is_byte_for_byte_what_the_scraper_produces(
    build_script: ModuleType, tmp_path: Path
) -> None:
    assert build_script.main(["--out", str(tmp_path)]) == 0
    fresh = _generated_files(tmp_path)
    shipped = _generated_files(SHIPPED)
    assert sorted(fresh) == sorted(shipped)
    for name, content in fresh.items():
        assert content == shipped[name], f"{name} differs from a fresh build"
    assert len(fresh) == 1 + 5 * len(VERSION_FILES)


def test_check_accepts_the_shipped_data(
    build_script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_script.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_check_reports_every_kind_of_staleness(
    build_script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "mapping_data"
    shutil.copytree(SHIPPED, copy)
    api_map = copy / "2.6" / "api_map.csv"
    lines = api_map.read_text(encoding="utf-8").splitlines(keepends=True)
    api_map.write_text("".join(lines[:1] + lines[2:]), encoding="utf-8")
    (copy / "9.9").mkdir()
    (copy / "9.9" / "api_map.csv").write_text("torch_api\n", encoding="utf-8")
    targets = (copy / "ms_targets.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (copy / "ms_targets.csv").write_text("".join(targets[:-1]), encoding="utf-8")

    assert build_script.main(["--check", "--out", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "changed: 2.6/api_map.csv (+1 -0 lines)" in err
    assert f"    +{lines[1].rstrip()}"[:164] in err
    assert "extra: 9.9/api_map.csv" in err
    assert "stale: ms_targets.csv lacks 1 target(s)" in err
    assert "Regenerate with: python scripts/build_mapping.py" in err


def test_url_mode_gives_the_same_files_as_the_local_sources(
    build_script: ModuleType, tmp_path: Path, served: tuple[str, Path]
) -> None:
    base, _ = served
    out = tmp_path / "out"
    argv = [
        "--table",
        f"2.6={base}/pytorch_api_mapping.md",
        "--diff-base",
        f"2.6={base}/pytorch_diff/",
        "--out",
        str(out),
    ]
    assert build_script.main(argv) == 0
    for name in VERSION_FILES:
        assert (out / "2.6" / name).read_bytes() == (SHIPPED / "2.6" / name).read_bytes(), name
    entry = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["versions"]["2.6"]
    assert entry["table"] == f"{base}/pytorch_api_mapping.md"
    assert entry["diff_pages_read"] == 69
    assert entry["commit"] == "8618b1ccb1991f63466f0d5b26963538c0988227"


def test_a_single_local_table_file_with_its_diff_folder_beside_it(
    build_script: ModuleType, tmp_path: Path
) -> None:
    source = tmp_path / "r2.4.0"
    shutil.copytree(SOURCES / "r2.4.0", source)
    out = tmp_path / "out"
    argv = ["--table", f"2.4={source / 'pytorch_api_mapping.md'}", "--out", str(out)]
    assert build_script.main(argv) == 0
    for name in VERSION_FILES:
        assert (out / "2.4" / name).read_bytes() == (SHIPPED / "2.4" / name).read_bytes(), name


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
    argv = ["--table", f"2.6={table.format(**values)}", "--out", str(tmp_path / "out")]
    assert build_script.main(argv) == 2
    assert message.format(**values) in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_bad_options_are_clear_errors(
    build_script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_script.main(["--table", "2.6", "--out", str(tmp_path)]) == 2
    assert "--table expects VERSION=LOCATION, got '2.6'" in capsys.readouterr().err
    argv = ["--diff-base", f"2.6={tmp_path / 'nowhere'}", "--out", str(tmp_path)]
    assert build_script.main(argv) == 2
    assert f"diff page folder not found: {tmp_path / 'nowhere'}" in capsys.readouterr().err
    argv = ["--sources", str(tmp_path), "--out", str(tmp_path)]
    assert build_script.main(argv) == 2
    assert "no sources:" in capsys.readouterr().err


def test_manifest_describes_the_shipped_files() -> None:
    manifest = json.loads((SHIPPED / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["default_version"] == "2.6"
    assert list(manifest["versions"]) == ["2.6", "2.4", "2.3", "2.0", "1.10"]
    readme = (SOURCES / "README.md").read_text(encoding="utf-8")
    for version, entry in manifest["versions"].items():
        assert entry["folder"] == version
        assert f"| {entry['branch']}" in readme and entry["commit"] in readme
        for name in VERSION_FILES:
            content = (SHIPPED / version / name).read_bytes()
            assert hashlib.sha256(content).hexdigest() == entry["sha256"][name]
            assert b"\r" not in content
            with (SHIPPED / version / name).open(encoding="utf-8", newline="") as handle:
                assert len(list(csv.DictReader(handle))) == entry["rows"][name]
    rows = {
        version: entry["rows"]["api_map.csv"] for version, entry in manifest["versions"].items()
    }
    # The README's counts, less the r2.6.0 row that names no PyTorch API ("Unique to MindSpore").
    assert rows == {"2.6": 514, "2.4": 887, "2.3": 875, "2.0": 746, "1.10": 374}
    assert manifest["versions"]["2.4"]["diff_pages_read"] == 231


def test_api_map_is_sorted_with_ranks_in_table_order() -> None:
    with (SHIPPED / "2.4" / "api_map.csv").open(encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))
    keys = [(record["torch_api"], int(record["rank"])) for record in records]
    assert keys == sorted(keys)
    adam = [record["ms_apis"] for record in records if record["torch_api"] == "torch.optim.Adam"]
    assert adam == ["mindspore.nn.Adam", "mindspore.experimental.optim.Adam"]
