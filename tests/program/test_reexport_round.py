"""The re-exports round (``pipeline._rounds``) walks again only the files whose walk the
re-exports change beyond the names it lists as looked up; for the others the pipeline knows
the result without walking (``pipeline._walked_with_own_names``). These tests hold that
result to a real walk with the same re-exports, so a change to how a walk reads re-exports
shows up here."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from apiscan import pipeline
from apiscan.discovery import discover
from apiscan.extract import FileTask, analyse, reexport_members, reexport_subset
from apiscan.extract.records import FileAnalysis
from apiscan.program.index import resolve_reexports

FILES = {
    "pkg/__init__.py": "",
    "pkg/engine/__init__.py": "from .hooks import *\n",
    "pkg/engine/hooks.py": (
        "import torch\n\n\n"
        "class EvalHook:\n"
        "    def run(self, x):\n"
        "        return torch.relu(x)\n\n\n"
        "def make():\n"
        "    return torch.zeros(3)\n"
    ),
    # its own names only: known without a walk
    "pkg/train.py": (
        "import torch\n"
        "from pkg.engine.hooks import EvalHook\n\n\n"
        "def main(x):\n"
        "    hook = EvalHook()\n"
        "    return hook.run(torch.ones(2)) + x\n"
    ),
    # own names again (a call's return is looked up by its own key, which it never asked for)
    "pkg/evaluate.py": (
        "import torch\n"
        "from pkg.engine.hooks import EvalHook, make\n\n\n"
        "def main():\n"
        "    return EvalHook().run(make()).nonzero()\n"
    ),
    # a star import of a repository module: walked again (its bindings come from the round)
    "pkg/star_user.py": "import torch\nfrom pkg.engine import *\n\nhook = EvalHook()\n",
}


def _first_walk(root: Path) -> tuple[list[FileTask], list[FileAnalysis], dict[str, str]]:
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    _, files, _ = discover(str(root))
    roots = frozenset(m.partition(".")[0] for f in files for m in f.modules)
    tasks = [
        FileTask(f.relpath, f.modules, f.is_package, Path(f.abspath).read_bytes(), ())
        for f in files
    ]
    analyses = [analyse(t, roots) for t in tasks]
    return tasks, analyses, resolve_reexports(analyses)


def test_files_known_without_a_walk_are_what_the_walk_gives(tmp_path: Path) -> None:
    tasks, analyses, reexports = _first_walk(tmp_path)
    roots = frozenset({"pkg"})
    members = reexport_members(reexports)
    known, walked = {}, set()
    for task, fa in zip(tasks, analyses, strict=True):
        subset = reexport_subset(fa.local_refs, reexports, members)
        if not subset:
            continue
        again = analyse(replace(task, reexports=subset), roots)
        same = pipeline._walked_with_own_names(fa, subset)
        if same is None:
            walked.add(fa.path)
        else:
            assert same == again  # the whole record, not just its findings
            known[fa.path] = same
    assert set(known) == {"pkg/train.py", "pkg/evaluate.py"}
    assert "pkg.engine.hooks.EvalHook" not in known["pkg/train.py"].local_refs
    first = next(fa for fa in analyses if fa.path == "pkg/train.py")
    assert "pkg.engine.hooks.EvalHook" in first.local_refs
    # star imports (and, in the package's __init__, a torch alias and a return too)
    assert walked == {"pkg/engine/__init__.py", "pkg/star_user.py"}


@pytest.mark.parametrize(
    ("subset", "refs"),
    [
        ((("pkg.a.nn", "torch.nn"),), ("pkg.a.nn",)),  # a torch alias
        ((("pkg.a.make()", "tensor"),), ("pkg.a.make()",)),  # a function's return
        ((("pkg.a.Hook", "pkg.a.Hook"),), ("pkg.a.Hook", "pkg.a.*")),  # a star import
    ],
)
def test_other_re_exports_need_the_walk(
    subset: tuple[tuple[str, str], ...], refs: tuple[str, ...]
) -> None:
    fa = FileAnalysis("run.py", ("run",), "", 1, local_refs=refs)
    assert pipeline._walked_with_own_names(fa, subset) is None
