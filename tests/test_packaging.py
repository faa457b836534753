"""The package as users install it: a wheel built from a clean copy of the checkout carries
every subpackage and the generated data, and once installed (not editable, with the ``lsp``
extra) in a fresh environment it runs from another directory — a scan, JSON, review, check,
the language server's initialization and ``verify --help``.

CI installs the checkout editable, which hides a package the wheel leaves out; these tests are
what notices. They build one wheel for the module (a few seconds) and run the installed
console script; they belong to the default suite.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from install_helpers import REPO, build_wheel, clean_env, fresh_venv, pip_into

import apiscan

pytestmark = pytest.mark.install


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def package_dirs() -> set[str]:
    """Every folder under apiscan/ that holds Python modules, with or without an
    ``__init__.py`` (``apiscan/verify`` is a namespace package), as wheel paths."""
    return {
        p.parent.relative_to(REPO).as_posix()
        for p in (REPO / "apiscan").rglob("*.py")
        if "__pycache__" not in p.parts
    }


def test_the_wheel_holds_every_subpackage_and_the_data(wheel: Path) -> None:
    assert wheel.name.startswith(f"apiscan-{apiscan.__version__}-")  # the one version
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    shipped = {n.rsplit("/", 1)[0] for n in names if n.endswith(".py")}
    missing = sorted(package_dirs() - shipped)
    assert not missing, f"the wheel lacks these packages: {missing}"
    assert {"apiscan/program", "apiscan/rewrite", "apiscan/verify"} <= shipped
    modules = {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "apiscan").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert not modules - names, sorted(modules - names)
    for data in (
        "apiscan/_data/mapping_data/manifest.json",
        "apiscan/_data/mapping_data/2.6/api_map.csv",
        "apiscan/_data/mapping_data/torch_api/torch-2.13.0.json",
        "apiscan/report/schemas/scan.schema.json",
        "apiscan/review/schema.json",
        "apiscan/py.typed",
    ):
        assert data in names
    # the package's own tables (catalogue CSVs, the substitution table) travel with it
    tables = {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "apiscan").rglob("*")
        if p.suffix in {".csv", ".toml", ".json"} and "__pycache__" not in p.parts
    }
    assert "apiscan/rewrite/substitutions.toml" in tables
    assert not tables - names, sorted(tables - names)
    csvs = {
        p.relative_to(REPO / "mapping_data").as_posix() for p in REPO.glob("mapping_data/**/*.csv")
    }
    assert {n.removeprefix("apiscan/_data/mapping_data/") for n in names} >= csvs


def test_the_package_list_check_notices_a_missing_package(tmp_path: Path) -> None:
    """What the test above compares: a folder of modules without ``__init__.py`` counts."""
    assert "apiscan/verify" in package_dirs()
    assert not (REPO / "apiscan" / "verify" / "__init__.py").exists()


def _lsp_message(payload: dict[str, object]) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _lsp_initialize(apiscan: Path, cwd: Path, home: Path, root: Path) -> dict[str, object]:
    """The ``initialize`` response of ``apiscan lsp`` over stdio, then a clean shutdown."""
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}},
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    done = subprocess.run(
        [str(apiscan), "lsp"],
        input=b"".join(_lsp_message(m) for m in messages),
        capture_output=True,
        cwd=cwd,
        env=clean_env(home),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout
    replies = []
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        fields = dict(line.split(b":", 1) for line in header.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        replies.append(json.loads(rest[:length]))
        out = rest[length:]
    (init,) = [r for r in replies if r.get("id") == 1]
    return init


def test_the_installed_wheel_runs_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    python = fresh_venv(tmp_path / "venv")
    installed = pip_into(python, "install", "--no-index", "--no-deps", str(wheel), home=home)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # the lsp extra resolves (its dependencies are there; nothing is fetched)
    extra = pip_into(
        python,
        "install",
        "--no-index",
        "--find-links",
        str(wheel.parent),
        "apiscan[lsp]",
        home=home,
    )
    assert extra.returncode == 0, extra.stdout + extra.stderr
    work = tmp_path / "elsewhere"
    shutil.copytree(REPO / "fixtures" / "tinydet", work / "tinydet")
    apiscan = python.parent / "apiscan"

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(apiscan), *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=work,
            env=clean_env(home),
            timeout=300,
        )

    where = subprocess.run(
        [str(python), "-c", "import apiscan; print(apiscan.__file__)"],
        capture_output=True,
        text=True,
        cwd=work,
        env=clean_env(home),
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(tmp_path / "venv"), where

    text = run("tinydet", "--no-progress")
    assert text.returncode == 0, text.stderr
    assert "torch" in text.stdout and "Files" in text.stdout

    report = run("tinydet", "--no-progress", "-f", "json")
    assert report.returncode == 0, report.stderr
    doc = json.loads(report.stdout)
    assert doc["summary"]["files"] > 0 and doc["findings"]

    review = run("review", "tinydet")
    assert review.returncode == 0, review.stderr
    assert review.stdout.strip()

    model = next((work / "tinydet").rglob("*.py"))
    check = run(
        "check",
        "--stdin-filename",
        str(model.relative_to(work)),
        "-",
        stdin=model.read_text(encoding="utf-8"),
    )
    assert check.returncode == 0, check.stderr
    assert "findings" in json.loads(check.stdout)

    init = _lsp_initialize(apiscan, work, home, work / "tinydet")
    assert init["result"]["serverInfo"]["name"] == "apiscan"
    assert init["result"]["capabilities"]["hoverProvider"]

    help_ = run("verify", "--help")
    assert help_.returncode == 0, help_.stderr
    assert "usage: apiscan verify" in help_.stdout
