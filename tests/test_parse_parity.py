"""Parsing parity with CPython 3.11: what ``compile()`` accepts gets no error finding, what it
rejects gets one; pathological but valid files cost one file, never the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apiscan.extract import FileTask, analyse, count_lines

REPO = Path(__file__).resolve().parents[1]
TORCH = "import torch\n\nx = torch.zeros(3)\n"


def _analyse(data: bytes, name: str = "m.py"):  # type: ignore[no-untyped-def]
    return analyse(FileTask(name, ("m",), False, data), frozenset())


def _compiles(data: bytes) -> bool:
    try:
        compile(data, "m.py", "exec", dont_inherit=True)
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("return 1\n", "'return' outside function"),
        ("def f(a, a):\n    pass\n", "duplicate argument 'a'"),
        ("def f():\n    break\n", "'break' outside loop"),
        ("nonlocal y\n", "nonlocal declaration not allowed at module level"),
        ("type Alias = int\n", "Python 3.12+ syntax"),
        ("def first[T](xs: list[T]) -> T:\n    return xs[0]\n", "Python 3.12+ syntax"),
        ('x = f"{d["key"]}"\n', "Python 3.12+ syntax"),
    ],
)
def test_what_python_rejects_is_one_error(source: str, message: str) -> None:
    data = (TORCH + source).encode()
    assert not _compiles(data)
    fa = _analyse(data)
    assert [e.code for e in fa.errors] == ["E003"] and message in fa.errors[0].message


def test_a_doubled_bom_is_an_error_and_a_single_one_is_not() -> None:
    bom = b"\xef\xbb\xbf"
    assert _analyse(bom + TORCH.encode()).errors == ()
    data = bom * 2 + TORCH.encode()
    assert not _compiles(data)
    [error] = _analyse(data).errors
    assert (error.code, error.message) == (
        "E003",
        "syntax error: invalid non-printable character U+FEFF",
    )


@pytest.mark.parametrize(
    "tail",
    [
        "y = (" + " ".join(["'a'"] * 3000) + ")\n",  # LibCST's walk recurses per literal
        "z = f'{(lambda: 1)()}'\n",
        "w = " + " and ".join(["a"] * 20_000) + "\n",  # overflowed LibCST's native stack
    ],
    ids=["3000 literals", "lambda in f-string", "20000-term chain"],
)
def test_valid_python_libcst_cannot_walk_still_counts_its_api_uses(tail: str) -> None:
    data = (TORCH + tail).encode()
    assert _compiles(data)
    fa = _analyse(data)
    assert fa.errors == ()
    assert [u.api for u in fa.uses] == ["torch.zeros"]


def test_degraded_analysis_finds_imports_calls_and_bases() -> None:
    """Python's tree alone (what a file LibCST refuses gets): names through imports."""
    from apiscan.extract.degraded import degraded_analysis
    from apiscan.parsing import parse_python
    from apiscan.resolve.torch_api import load_torch_api

    text = (
        "import torch.nn as nn\nfrom torch.nn import functional as F\n\n\n"
        "class Net(nn.Module):\n    def forward(self, x):\n"
        "        return F.relu(x, inplace=True)\n"
    )
    tree = parse_python(text, "m.py")
    fa = degraded_analysis("m.py", ("m",), "sha", 7, tree, text, load_torch_api())  # type: ignore[arg-type]
    uses = {(u.api, u.usage, u.function, u.span.line) for u in fa.uses}
    assert uses == {
        ("torch.nn.Module", "base_class", "", 5),
        ("torch.nn.functional.relu", "call", "Net.forward", 7),
    }
    relu = next(u for u in fa.uses if u.usage == "call")
    assert relu.keywords == ("inplace",) and relu.args is not None
    assert relu.args.receiver == "F" and relu.args.positional == ("x",)
    assert [c.qualname for c in fa.classes] == ["Net"]
    assert [(f.qualname, f.cls) for f in fa.functions] == [("Net.forward", "Net")]


def test_cr_only_line_endings_count_lines_as_python_does() -> None:
    assert count_lines("a = 1\rb = 2\rc = 3\r") == 3
    assert count_lines("a = 1\r\nb = 2\n") == 2
    assert _analyse(b"import torch\rx = torch.zeros(3)\ry = 2\r").lines == 3


@pytest.mark.parametrize(
    ("notebook", "message"),
    [
        (b'{"cells": [' + b"[" * 1200 + b"]" * 1200 + b"]}", "nested too deeply"),
        (b"[", "not JSON"),
    ],
)
def test_unreadable_notebooks_are_one_error(notebook: bytes, message: str) -> None:
    """Under the interpreter's default recursion limit, which a scan runs with.

    Importing mindspore (another test may have) raises the limit to 10,000, deep enough to
    read the 1,200-level notebook; the limit is put back to the default for this test.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        [error] = _analyse(notebook, "nb.ipynb").errors
    finally:
        sys.setrecursionlimit(limit)
    assert error.code == "E011" and message in error.message


def test_a_notebook_with_a_huge_number_is_read() -> None:
    """JSON allows a 5,000-digit number; Python's int max str digits does not."""
    cell = {"cell_type": "code", "source": TORCH, "metadata": {}, "execution_count": 1}
    text = json.dumps({"cells": [cell], "nbformat": 4, "nbformat_minor": 5, "metadata": {}})
    data = text.replace('"execution_count": 1', '"execution_count": ' + "7" * 5000).encode()
    fa = _analyse(data, "nb.ipynb")
    assert fa.errors == () and [u.api for u in fa.uses] == ["torch.zeros"]


def test_check_survives_a_chain_that_overflowed_libcst(tmp_path: Path) -> None:
    """``apiscan check`` parses in its own process (no worker to die instead of it)."""
    data = (TORCH + "w = " + " and ".join(["a"] * 20_000) + "\n").encode()
    target = tmp_path / "chain.py"
    target.write_bytes(data)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "apiscan", "check", "--no-cache", "--root", str(tmp_path)]
    done = subprocess.run(
        [*command, "--stdin-filename", str(target), "-"],
        input=data,
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()
    findings = json.loads(done.stdout)["findings"]
    assert [f["api"] for f in findings if f.get("api")] == ["torch.zeros"]


def test_a_huge_literal_is_analysed_from_pythons_tree() -> None:
    """A 850 KB list literal: LibCST took half a minute and gigabytes on it (in the language
    server, on every edit); Python's tree alone still finds the API use."""
    from apiscan.parsing import parse_python, too_big_for_libcst

    text = TORCH + "x = [" + ", ".join(str(i) for i in range(120_000)) + "]\n"
    tree = parse_python(text, "m.py")
    assert too_big_for_libcst(text, tree) is not None  # type: ignore[arg-type]
    fa = _analyse(text.encode())
    assert fa.errors == () and [u.api for u in fa.uses] == ["torch.zeros"]
    # code of the same size is left to LibCST
    code = "".join(f"def f{i}(x):\n    return torch.relu(x) + x * 2\n\n\n" for i in range(4000))
    assert len(code) > 150_000
    assert too_big_for_libcst(code, parse_python(code, "m.py")) is None  # type: ignore[arg-type]


def test_a_notebook_is_limited_by_its_code_not_its_outputs() -> None:
    """A notebook whose images make it larger than the limit is still read; one whose code
    cells alone pass it is not."""
    image = {"output_type": "display_data", "data": {"image/png": "A" * 300_000}}
    cell = {"cell_type": "code", "source": TORCH, "metadata": {}, "outputs": [image]}
    document = {"cells": [cell], "nbformat": 4, "nbformat_minor": 5, "metadata": {}}
    data = json.dumps(document).encode()
    fa = analyse(FileTask("nb.ipynb", ("m",), False, data), frozenset(), max_file_size=200_000)
    assert fa.errors == () and [u.api for u in fa.uses] == ["torch.zeros"]
    cell["source"] = TORCH + "# " + "x" * 300_000 + "\n"
    data = json.dumps(document).encode()
    fa = analyse(FileTask("nb.ipynb", ("m",), False, data), frozenset(), max_file_size=200_000)
    assert [e.code for e in fa.errors] == ["E007"] and "code cells" in fa.errors[0].message
