"""Jupyter notebooks are scanned like modules: code cells joined, IPython syntax blanked,
positions reported as cell + line within the cell; a malformed notebook is an error finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scan_helpers import scan_repo

from apiscan.cli.main import main
from apiscan.notebook import notebook_source
from apiscan.report.schema import validate_json

MARKDOWN = {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "torch.unique(x)"]}


def _code(source: str | list[str]) -> dict[str, object]:
    return {"cell_type": "code", "metadata": {}, "outputs": [], "source": source}


NOTEBOOK = {
    "nbformat": 4,
    "nbformat_minor": 5,
    "metadata": {},
    "cells": [
        MARKDOWN,
        _code(
            ["%matplotlib inline\n", "!pip install torch\n", "import torch\n", "x = torch.zeros(3)"]
        ),
        _code("torch.nonzero?\ny = torch.unique(x)\nfiles = !ls\ntorch.set_num_threads(2)\n"),
        _code(["%%bash\n", "echo 'torch.unique(x)'\n"]),
        _code(""),
        _code(["z = torch.nonzero(  # apiscan: ignore[DS103]\n", "    x)\n"]),
    ],
}


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _write(root: Path, name: str, content: object) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    path = root / name
    path.write_text(content if isinstance(content, str) else json.dumps(content, indent=1))
    return path


def test_code_cells_are_joined_with_ipython_syntax_blanked() -> None:
    source = notebook_source(json.dumps(NOTEBOOK).encode())
    assert not isinstance(source, Exception) and hasattr(source, "text")
    assert source.text.splitlines() == [
        "pass",
        "pass",
        "import torch",
        "x = torch.zeros(3)",
        "pass",
        "y = torch.unique(x)",
        "files = None",
        "torch.set_num_threads(2)",
        "",
        "",
        "z = torch.nonzero(  # apiscan: ignore[DS103]",
        "    x)",
    ]
    assert source.lines[:4] == ((2, 1), (2, 2), (2, 3), (2, 4))
    assert source.lines[4:8] == ((3, 1), (3, 2), (3, 3), (3, 4))
    assert source.lines[-2:] == ((6, 1), (6, 2))


def test_shell_lines_in_blocks_and_their_continuations_stay_valid_python(
    tmp_path: Path,
) -> None:
    notebook = {
        "cells": [
            _code(
                ["! cd /tmp && wget https://example.test/k.pub && \\\n", "    apt-key add k.pub\n"]
            ),
            _code(["import torch\n", "for name in ['a', 'b']:\n", "    !echo $name\n"]),
            _code(["x = torch.unique(torch.zeros(3))\n"]),
        ]
    }
    source = notebook_source(json.dumps(notebook).encode())
    assert not isinstance(source, Exception)
    assert source.text.splitlines()[:5] == [
        "pass",
        "",
        "import torch",
        "for name in ['a', 'b']:",
        "    pass",
    ]
    _write(tmp_path, "nb.ipynb", notebook)
    result = scan_repo(tmp_path)
    assert not result.error_findings
    assert [(f.rule, f.cell, f.span.line) for f in result.shape_findings] == [("DS101", 3, 1)]


def test_findings_name_the_cell_and_the_line_within_it(tmp_path: Path) -> None:
    _write(tmp_path, "nb.ipynb", NOTEBOOK)
    result = scan_repo(tmp_path)
    found = [(f.kind, f.rule, f.cell, f.span.line, f.span.column) for f in result.findings]
    assert ("api", "API003", 2, 4, 5) in found  # torch.zeros
    assert ("dynamic_shape", "DS101", 3, 2, 5) in found  # torch.unique
    assert ("api", "API001", 3, 4, 1) in found  # torch.set_num_threads
    assert not [f for f in result.findings if f.kind == "dynamic_shape" and f.cell == 6]
    assert [f.cell for f in result.findings] == sorted(f.cell for f in result.findings)
    assert not result.error_findings


def test_every_format_shows_the_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "repo"
    _write(root, "nb.ipynb", NOTEBOOK)
    assert main([str(root), "--no-cache", "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    validate_json(doc)
    unique = next(f for f in doc["findings"] if f["rule"] == "DS101")
    assert (unique["path"], unique["cell"], unique["line"]) == ("nb.ipynb", 3, 2)
    assert main([str(root), "--no-cache"]) == 0
    assert "nb.ipynb:cell 3:4" in capsys.readouterr().out  # torch.set_num_threads, missing
    assert main([str(root), "--no-cache", "-f", "markdown"]) == 0
    assert "[nb.ipynb:cell 3:4](nb.ipynb)" in capsys.readouterr().out
    assert main([str(root), "--no-cache", "-f", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("path,cell,line,")
    assert "nb.ipynb,3,2,5," in "\n".join(rows)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"cells": [', "malformed notebook: not JSON (Expecting value at line 1 column 12)"),
        ("[]", "malformed notebook: the top level is not a JSON object"),
        ('{"metadata": {}}', 'malformed notebook: no "cells" list'),
        ('{"worksheets": []}', "malformed notebook: nbformat 3 is not supported"),
        ('{"cells": [3]}', "malformed notebook: cell 1 is not a JSON object"),
        (
            '{"cells": [{"cell_type": "code", "source": 7}]}',
            "malformed notebook: cell 1: source is neither a string nor a list of strings",
        ),
        (b"\xff\xfe{".decode("latin-1"), "malformed notebook: not UTF-8"),
    ],
)
def test_a_malformed_notebook_is_an_error_finding(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_bytes(content.encode("latin-1") if "\xff" in content else content.encode())
    (tmp_path / "ok.py").write_text("import torch\n\ntorch.zeros(3)\n")
    result = scan_repo(tmp_path)
    errors = [(e.path, e.code, e.message) for e in result.error_findings]
    assert len(errors) == 1 and errors[0][:2] == ("bad.ipynb", "E011")
    assert errors[0][2].startswith(message)
    assert [f.path for f in result.api_findings] == ["ok.py"]  # the rest is not lost


def test_a_syntax_error_in_a_cell_points_into_that_cell(tmp_path: Path) -> None:
    notebook = {"cells": [_code("import torch\n"), MARKDOWN, _code("x = (1,\n")]}
    _write(tmp_path, "nb.ipynb", notebook)
    (error,) = scan_repo(tmp_path).error_findings
    assert (error.code, error.cell) == ("E003", 3)


def test_a_notebook_named_on_the_command_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "nb.ipynb", NOTEBOOK)
    result = scan_repo(path)
    assert {f.path for f in result.findings} == {"nb.ipynb"}
    assert any(f.cell == 3 for f in result.findings)


def test_checkpoints_are_not_scanned(tmp_path: Path) -> None:
    _write(tmp_path / ".ipynb_checkpoints", "nb-checkpoint.ipynb", NOTEBOOK)
    assert scan_repo(tmp_path).findings == ()


CHAINED = {
    "nbformat": 4,
    "nbformat_minor": 5,
    "metadata": {},
    "cells": [
        MARKDOWN,
        _code(
            [
                "import torch\n",
                "\n",
                "def first(scores: torch.Tensor, k):\n",
                "    return scores[:k]\n",
            ]
        ),
        _code(
            [
                "def run(scores: torch.Tensor):\n",
                "    n = int((scores > 0.5).sum())\n",
                "    return first(scores, n)\n",
            ]
        ),
    ],
}


def test_chain_steps_in_a_notebook_name_their_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A helper defined in one cell gets the facts of its callers in another (a notebook has
    a module of its own for the whole-program inference), and the chain is placed cell by
    cell like the findings, in its steps and in its words."""
    root = tmp_path / "repo"
    _write(root, "nb.ipynb", CHAINED)
    result = scan_repo(root)
    [slice_] = [f for f in result.findings if f.kind == "dynamic_shape" and f.rule == "DS109"]
    assert (slice_.cell, slice_.span.line) == (2, 4)
    steps = [(s.cell, s.line, s.message) for s in slice_.chain]
    assert steps[0][:2] == (3, 2)  # the host read, `int((scores > 0.5).sum())`
    assert (3, 3) in [s[:2] for s in steps]  # the call passing it on as `k`
    assert "read from tensor data at nb.ipynb:cell 3:2," in slice_.message
    assert main([str(root), "--no-cache", "-f", "json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    validate_json(doc)
    [record] = [f for f in doc["findings"] if f.get("rule") == "DS109"]
    origin = record["chain"][0]
    assert (origin["cell"], origin["line"]) == (3, 2)
    assert main([str(root), "--no-cache", "-f", "csv"]) in (0, 1)
    assert "nb.ipynb:cell 3:2:" in capsys.readouterr().out
