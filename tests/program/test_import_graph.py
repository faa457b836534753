"""The package's import graph has no cycles: each module imports on its own, in a fresh
interpreter, and no module-level import chain leads back to where it started."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "apiscan"
#: Subpackages whose modules need torch or mindspore at import time (checked elsewhere).
HEAVY = ("apiscan.verify", "apiscan.stub")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _top_level_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """apiscan modules imported when ``name`` is imported (module level, not TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                test = ast.unparse(node.test)
                if "TYPE_CHECKING" not in test:
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                if base in known:
                    found.add(base)
                for a in node.names:
                    if f"{base}.{a.name}" in known:
                        found.add(f"{base}.{a.name}")

    visit(tree.body)
    # importing a.b.c runs a/__init__ and a/b/__init__ first
    for mod in list(found):
        parts = mod.split(".")
        parents = (".".join(parts[:i]) for i in range(1, len(parts)))
        found.update(p for p in parents if p in known)
    found.discard(name)
    return found


def test_no_import_cycles() -> None:
    import networkx as nx

    modules = _modules()
    known = set(modules)
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        for dep in _top_level_imports(name, path, known):
            # a package's own __init__ importing its submodules is not a cycle
            if not dep.startswith(name + ".") and not name.startswith(dep + "."):
                graph.add_edge(name, dep)
    cycles = [c for c in nx.simple_cycles(graph) if len(c) > 1]
    assert cycles == []


@pytest.mark.parametrize(
    "module",
    [
        "apiscan.pipeline",
        "apiscan.results",
        "apiscan.scope",
        "apiscan.scope.callgraph",
        "apiscan.scope.classify",
        "apiscan.program",
        "apiscan.program.index",
        "apiscan.program.values",
        "apiscan.program.solver",
    ],
)
def test_imports_in_isolation(module: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_scope_does_not_import_pipeline() -> None:
    for path in (PACKAGE / "scope").glob("*.py"):
        assert "apiscan.pipeline" not in path.read_text(encoding="utf-8"), path


def test_the_graph_library_is_imported_where_a_graph_is_built() -> None:
    """Importing the solver and the scopes leaves networkx (~0.12 s) out; ordering a call
    graph brings it in (a cold scan's warm-up imports it while the workers walk)."""
    code = (
        "import sys\n"
        "import apiscan.program.solver as solver\n"
        "import apiscan.scope.callgraph, apiscan.scope.classify\n"
        "print('networkx' in sys.modules)\n"
        "order = solver._components({'m.f': [], 'm.g': []}, solver.Reuse())\n"
        "print('networkx' in sys.modules, order)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["False", "True [(['m.f'], True), (['m.g'], True)]"]
