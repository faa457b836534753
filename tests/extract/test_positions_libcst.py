"""The fast ``ast``-based positions equal LibCST's ``PositionProvider`` on real code.

``spans_from_ast`` maps the k-th LibCST node of a kind to the k-th ``ast`` node of that kind and
falls back to ``PositionProvider`` when the counts disagree. The fallback is correct but three
times slower, so on ordinary code it must never be needed, and where it is not needed the
spans must be exactly the ones LibCST would give. Checked on both fixtures and on
``torch.nn.modules`` (large, idiomatic files full of the constructs users write).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest

from apiscan.discovery import SourceFile, discover
from apiscan.extract import FileTask, analyse, reexport_subset
from apiscan.extract.api_uses import Emit, Extractor
from apiscan.extract.positions import PositionMismatch, spans_from_ast, spans_from_libcst
from apiscan.model import Span
from apiscan.parsing import parse_module, parse_python
from apiscan.pipeline import ScanOptions, scan
from apiscan.program.index import resolve_reexports
from apiscan.resolve.owners import Owners
from apiscan.resolve.torch_api import load_torch_api
from apiscan.source import DecodedSource, decode_source

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@dataclass(frozen=True)
class Compared:
    relpath: str
    uses: int
    problem: str  # "" when the fast spans equal LibCST's


def _torch_nn_modules() -> Path:
    spec = importlib.util.find_spec("torch")
    assert spec is not None and spec.submodule_search_locations, "torch is not installed"
    return Path(next(iter(spec.submodule_search_locations))) / "nn" / "modules"


def _extract(
    text: str, sf: SourceFile, local_roots: frozenset[str], reexports: dict[str, str]
) -> tuple[ast.Module, cst.Module, Extractor]:
    """Parse and run the Extractor as ``apiscan.extract._analyse_text`` does."""
    tree = parse_python(text, sf.relpath)
    module = parse_module(text, sf.relpath)
    assert isinstance(tree, ast.Module) and isinstance(module, cst.Module), (tree, module)
    api = load_torch_api()
    ext = Extractor(
        api,
        Owners(api),
        sf.modules[0] if sf.modules else "",
        sf.is_package,
        local_roots,
        reexports,
    )
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 6000))
    try:
        ext.run(module)
    finally:
        sys.setrecursionlimit(limit)
    return tree, module, ext


def _compare(sf: SourceFile, local_roots: frozenset[str], reexports: dict[str, str]) -> Compared:
    decoded = decode_source(Path(sf.abspath).read_bytes())
    assert isinstance(decoded, DecodedSource), decoded
    tree, module, ext = _extract(decoded.text, sf, local_roots, reexports)
    slow = spans_from_libcst(module, ext.emits, decoded.text)
    try:
        fast = spans_from_ast(tree, decoded.text, ext.emits, ext.ords, ext.counts)
    except PositionMismatch as exc:
        return Compared(sf.relpath, len(ext.emits), f"needs the fallback: {exc}")
    return Compared(sf.relpath, len(ext.emits), _first_difference(ext.emits, fast, slow))


def _first_difference(emits: list[Emit], fast: list[Span], slow: list[Span]) -> str:
    if len(fast) != len(slow):
        return f"{len(fast)} fast spans for {len(slow)} uses"
    for e, a, b in zip(emits, fast, slow, strict=True):
        if a != b:
            return f"{e.api}: ast {a} != libcst {b}"
    return ""


def _compare_repo(root: Path) -> list[Compared]:
    """Every file of ``root``, with the re-exports of the pipeline's second round so that uses
    found only through the repository's own modules are compared too."""
    _, files, _ = discover(root)
    local_roots = frozenset(m.partition(".")[0] for f in files for m in f.modules)
    tasks = [
        FileTask(f.relpath, f.modules, f.is_package, Path(f.abspath).read_bytes()) for f in files
    ]
    analyses = [analyse(t, local_roots) for t in tasks]
    reexports = resolve_reexports(analyses)
    out = []
    for sf, fa in zip(files, analyses, strict=True):
        assert not fa.errors, fa.errors
        subset = reexport_subset(fa.local_refs, reexports)
        out.append(_compare(sf, local_roots, dict(subset)))
    return out


def _assert_all_equal(results: list[Compared], min_uses: int) -> None:
    bad = [f"{c.relpath}: {c.problem}" for c in results if c.problem]
    assert not bad, "\n".join(bad)
    total = sum(c.uses for c in results)
    assert total >= min_uses, f"only {total} uses compared: the test lost its teeth"


@pytest.mark.parametrize(("fixture", "min_uses"), [("tinydet", 250), ("textcls", 60)])
def test_fixture_positions_equal_libcst(fixture: str, min_uses: int) -> None:
    results = _compare_repo(FIXTURES / fixture)
    assert len(results) == len(list((FIXTURES / fixture).rglob("*.py")))
    _assert_all_equal(results, min_uses)


def test_torch_nn_modules_positions_equal_libcst() -> None:
    """All of ``torch/nn/modules`` (about 28 files, 0.9 MB): a few seconds."""
    results = _compare_repo(_torch_nn_modules())
    assert len(results) >= 15
    _assert_all_equal(results, 1500)


@pytest.mark.parametrize("fixture", ["tinydet", "textcls"])
def test_pipeline_reports_no_position_fallback(fixture: str) -> None:
    result = scan(ScanOptions(str(FIXTURES / fixture), cache_dir=None, jobs=1))
    assert result.stats["position_fallbacks"] == 0
    assert result.stats["files_analysed"] >= len(result.files)


#: Constructs where byte/character columns, line breaks or f-strings could desynchronise the
#: two trees.
SNIPPETS: dict[str, str] = {
    "f-strings": (
        "import torch\nimport torch.nn.functional as F\nx = torch.zeros(3)\n"
        's = f"{torch.ones(2)} and {F.relu(x)!r:>10} {x.sum()=}"\n'
        "t = f\"{'é'} {torch.float32} {f'{torch.int8}'}\"\n"
        'u = rf"\\d{torch.randn(1)}" f"{x.mean()}"\n'
        'v = f"""{\ntorch.zeros(3)\n}""" + f"{torch.ones(1):{torch.int8}}"\n'
    ),
    "non-ascii": (
        "import torch\né = torch.zeros(3); ü = torch.ones(2) + é\n"
        "名前 = torch.nn.Linear(2, 3)  # コメント torch.relu\n"
        'y = "ü" + str(torch.relu(é))\n'
    ),
    "line breaks": (
        "import torch\nx = torch.zeros(3)\r\ny = x.sum()\rz = torch.ones(2)\n"
        's = "a\u2028b" ; w = x.mean()\n# \u2028 comment\nq = (x\n  .sum()\n  .abs())\n'
        "r = torch.ones(2) \\\n    + x"
    ),
    "statements": (
        "import torch\nfrom torch import nn\n@torch.no_grad()\n"
        'def f(x: "torch.Tensor", y: torch.Tensor = torch.ones(1)) -> torch.Tensor:\n'
        "    if (n := torch.numel(x)) > 1:\n"
        "        g = lambda t: torch.relu(t)\n"
        "        return g(x)[0:n, ...] @ y.T\n"
        "    match x:\n        case torch.Tensor():\n            pass\n"
        '    with torch.autocast("cpu"), torch.no_grad():\n'
        "        a = [torch.abs(v) for v in x if torch.any(v)]\n"
        "    return x ** 2 * torch.pi\n"
        "class M(nn.Module):\n    def forward(self, x):\n"
        "        return self.w(x).view(-1)[..., None].t()\n"
        "async def h(x: torch.Tensor):\n    async with torch.cuda.device(0): await x\n"
        'print(*torch.ones(2), **{"a": torch.zeros(1)})\n'
    ),
    "indented form feed": "import torch\nif 1:\n  \x0c  y = torch.ones(1)\n",
}


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_tricky_snippets(tmp_path: Path, name: str) -> None:
    (tmp_path / "snippet.py").write_text(SNIPPETS[name], encoding="utf-8", newline="")
    (result,) = _compare_repo(tmp_path)
    _assert_all_equal([result], 1)


def test_fallback_counts_a_leading_form_feed() -> None:
    text = "import torch\n\x0cx = torch.zeros(3)\n"
    sf = SourceFile("snippet.py", "snippet.py", ("snippet",), False)
    tree, module, ext = _extract(text, sf, frozenset({"snippet"}), {})
    line = text.split("\n")[1]
    # 1-based character columns of ``torch.zeros(3)`` on line 2.
    want = [Span(2, line.index("torch") + 1, 2, len(line) + 1)]
    assert [e.api for e in ext.emits] == ["torch.zeros"]
    assert spans_from_ast(tree, text, ext.emits, ext.ords, ext.counts) == want
    assert spans_from_libcst(module, ext.emits, text) == want
