"""``apiscan check --stdin-filename PATH -``: one buffer's findings, as the CLI finds them."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from sarif_schema import validate_sarif
from scan_helpers import write_repo

from apiscan.buffer import find_project_root
from apiscan.cli.main import main

REPO = Path(__file__).resolve().parents[1]


def _run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: bytes = b"",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _check(
    root: Path,
    rel: str,
    data: bytes,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *extra: str,
) -> list[dict]:
    argv = ["check", "--no-cache", "--root", str(root), "--stdin-filename", str(root / rel), "-"]
    code, out, err = _run([*argv, *extra], capsys, monkeypatch, data)
    assert code == 0, err
    return json.loads(out)["findings"]


@pytest.mark.parametrize("fixture", ["tinydet", "dynshape"])
def test_an_unchanged_file_gets_exactly_the_cli_findings(
    fixture: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = REPO / "fixtures" / fixture
    code, out, _ = _run([str(root), "-f", "json", "--no-cache", "-j", "1"], capsys, monkeypatch)
    assert code == 0
    cli = json.loads(out)
    checked = 0
    for row in cli["files"]:
        rel = row["path"]
        want = [f for f in cli["findings"] if f["path"] == rel]
        got = _check(root, rel, (root / rel).read_bytes(), capsys, monkeypatch)
        assert got == want, rel
        checked += bool(want)
    assert checked >= 3  # files with findings were compared, not only empty ones


def test_the_buffer_not_the_file_on_disk_is_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "pkg/__init__.py": "from torch import nn as layers\n",
            "pkg/model.py": "import torch\n\nx = torch.zeros(3)\n",
        },
    )
    # The buffer uses a torch name re-exported by the project's own package.
    buffer = b"from pkg import layers\n\n\nconv = layers.Conv2d(3, 8, 3)\nu = layers.Unfold(2)\n"
    findings = _check(tmp_path, "pkg/model.py", buffer, capsys, monkeypatch)
    apis = {(f["line"], f["api"]) for f in findings}
    assert (4, "torch.nn.Conv2d") in apis and (5, "torch.nn.Unfold") in apis
    assert all(f["path"] == "pkg/model.py" for f in findings)
    assert not any(f.get("api") == "torch.zeros" for f in findings)


def test_a_new_file_and_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path, {"setup.py": "", "a.py": "import torch\n"})
    findings = _check(tmp_path, "new.py", b"import torch\ntorch.unique(x)\n", capsys, monkeypatch)
    assert {f["api"] for f in findings if f["kind"] == "api"} == {"torch.unique"}
    broken = _check(tmp_path, "a.py", b"import torch\ndef f(:\n", capsys, monkeypatch)
    assert [f["kind"] for f in broken] == ["error"]
    assert broken[0]["code"] == "E003" and broken[0]["line"] == 2


def test_sarif_and_text_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path, {"setup.py": ""})
    data = b"import torch\ny = torch.nonzero(torch.ones(3))\n"
    argv = ["check", "--no-cache", "--stdin-filename", str(tmp_path / "m.py"), "-"]
    code, out, _ = _run([*argv, "-f", "sarif"], capsys, monkeypatch, data)
    assert code == 0
    log = json.loads(out)
    validate_sarif(log)
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    } == {"m.py"}
    code, out, _ = _run([*argv, "-f", "text"], capsys, monkeypatch, data)
    assert code == 0 and "m.py" in out


def test_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = _run(["check", "-"], capsys, monkeypatch)
    assert code == 2 and "--stdin-filename" in err
    outside = ["check", "--root", str(tmp_path / "p"), "--stdin-filename", "/elsewhere/x.py", "-"]
    (tmp_path / "p").mkdir()
    code, _, err = _run(outside, capsys, monkeypatch)
    assert code == 2 and "not inside the project" in err
    code, _, err = _run(["check", "-f", "xml", str(tmp_path / "x.py")], capsys, monkeypatch)
    assert code == 2 and "unknown format" in err


def test_the_project_root_is_the_nearest_marked_ancestor(tmp_path: Path) -> None:
    write_repo(tmp_path, {"proj/pyproject.toml": "", "proj/src/pkg/m.py": ""})
    assert find_project_root(tmp_path / "proj/src/pkg/m.py") == tmp_path / "proj"


def test_the_project_configuration_applies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path, {"pyproject.toml": '[tool.apiscan]\nignore = ["DS101"]\n'})
    data = b"import torch\n\n\ndef f(x):\n    return torch.unique(x), torch.nonzero(x)\n"
    rules = {f["rule"] for f in _check(tmp_path, "m.py", data, capsys, monkeypatch)}
    assert "DS103" in rules and "DS101" not in rules
