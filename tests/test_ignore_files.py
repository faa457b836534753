"""Discovery respects ``.gitignore`` and ``.ignore`` (nested ones too); ``--no-ignore`` and
``respect-ignore-files = false`` turn it off."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from scan_helpers import write_repo

from apiscan.cli.main import main
from apiscan.discovery import discover

SRC = "import torch\n\ny = torch.zeros(3)\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(tmp_path / "cache"))


def _paths(root: Path, respect: bool = True) -> list[str]:
    return [f.relpath for f in discover(root, (), respect)[1]]


def test_gitignore_patterns_nested_files_and_negation(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo",
        {
            "keep.py": SRC,
            "gen_pb2.py": SRC,
            "out/made.py": SRC,
            "pkg/a.py": SRC,
            "pkg/scratch.py": SRC,
            "pkg/deep/scratch.py": SRC,
            "pkg/important_pb2.py": SRC,
            "docs/top.py": SRC,
            "docs/sub/top.py": SRC,
        },
    )
    (root / ".gitignore").write_text("*_pb2.py\nout/\n# a comment\n/docs/top.py\n")
    (root / "pkg" / ".gitignore").write_text("scratch.py\n!important_pb2.py\n")
    assert _paths(root) == [
        "docs/sub/top.py",  # "/docs/top.py" is anchored to the root
        "keep.py",
        "pkg/a.py",
        "pkg/important_pb2.py",  # a deeper file's negation wins
    ]
    assert len(_paths(root, respect=False)) == 9


def test_dot_ignore_overrides_gitignore_in_the_same_directory(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"a.py": SRC, "b.py": SRC, "c.py": SRC})
    (root / ".gitignore").write_text("a.py\nb.py\n")
    (root / ".ignore").write_text("!b.py\nc.py\n")
    assert _paths(root) == ["b.py"]


def test_an_ignored_directory_is_not_entered(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"third_party/lib/x.py": SRC, "m.py": SRC})
    (root / ".gitignore").write_text("third_party/\n!third_party/lib/x.py\n")
    assert _paths(root) == ["m.py"]


def test_the_repository_top_applies_when_scanning_a_sub_directory(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo", {"src/pkg/m.py": SRC, "src/pkg/gen/x.py": SRC, "src/pkg/y.py": SRC}
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("src/pkg/gen/\n")
    (root / ".git" / "info").mkdir(exist_ok=True)
    (root / ".git" / "info" / "exclude").write_text("y.py\n")
    assert _paths(root / "src" / "pkg") == ["m.py"]
    # Outside a repository, a parent's .gitignore does not reach in.
    plain = write_repo(tmp_path / "plain", {"inner/m.py": SRC, "inner/gen/x.py": SRC})
    (plain / ".gitignore").write_text("inner/gen/\n")
    assert _paths(plain / "inner") == ["gen/x.py", "m.py"]


def test_no_ignore_flag_and_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC, "gen/x.py": SRC})
    (root / ".gitignore").write_text("gen/\n")

    def scanned(*args: str) -> set[str]:
        assert main([str(root), "-f", "json", "--no-cache", *args]) == 0
        return {f["path"] for f in json.loads(capsys.readouterr().out)["findings"]}

    assert scanned() == {"m.py"}
    assert scanned("--no-ignore") == {"m.py", "gen/x.py"}
    (root / "apiscan.toml").write_text("respect-ignore-files = false\n")
    assert scanned() == {"m.py", "gen/x.py"}


def test_a_file_named_on_the_command_line_is_scanned_even_if_ignored(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"gen/x.py": SRC})
    (root / ".gitignore").write_text("gen/\n")
    assert [f.relpath for f in discover(root / "gen" / "x.py")[1]] == ["x.py"]


def test_a_scanned_directory_that_an_enclosing_gitignore_ignores_is_still_scanned(
    tmp_path: Path,
) -> None:
    """Naming a directory is asking for it (as ruff treats paths passed explicitly): a
    virtualenv's ``torch/nn`` inside a checkout whose .gitignore lists ``.venv/`` is scanned,
    with only its own ignore files in force."""
    repo = write_repo(
        tmp_path / "repo",
        {
            ".gitignore": ".venv/\n",
            ".venv/lib/torch/nn/conv.py": SRC,
            ".venv/lib/torch/nn/.gitignore": "skip_me.py\n",
            ".venv/lib/torch/nn/skip_me.py": SRC,
            "src/a.py": SRC,
        },
    )
    (repo / ".git").mkdir()
    assert _paths(repo) == ["src/a.py"]
    assert _paths(repo / ".venv" / "lib" / "torch" / "nn") == ["conv.py"]


def test_the_screen_of_a_layer_gives_the_verdicts_of_every_pattern_in_turn() -> None:
    """A path no pattern of a layer names skips pathspec's pattern-by-pattern check (one
    search of a combined expression instead): every verdict must be the one the full check
    gives, negations, directory-only patterns, anchors, ``**`` and character classes
    included."""
    from apiscan.ignorefiles import IgnoreRules, _Layer, _layer, _spec

    lines = [
        "# a comment",
        "",
        "*.pyc",
        "build/",
        "/dist",
        "!keep.py",
        "docs/**/x",
        "data[0-9]/",
        "**/cache",
        "!src/cache",
        "a?c.py",
        "\\!literal.py",
        "tmp_*",
        "!tmp_keep",
    ]
    spec = _spec(lines, Path("."))
    screened = IgnoreRules(
        "", (_layer("", spec), _layer("sub/", _spec(["*.py", "!ok.py"], Path("."))))
    )
    full = IgnoreRules("", (_Layer("", spec), _Layer("sub/", _spec(["*.py", "!ok.py"], Path(".")))))
    assert all(layer.screen is not None for layer in screened.layers)
    paths = [
        "a.py",
        "x.pyc",
        "build",
        "src/build",
        "dist",
        "src/dist",
        "keep.py",
        "docs/x",
        "docs/a/b/x",
        "data1",
        "data12",
        "cache",
        "src/cache",
        "deep/er/cache",
        "abc.py",
        "a/c.py",
        "!literal.py",
        "tmp_one",
        "tmp_keep",
        "sub/a.py",
        "sub/ok.py",
        "sub/x.txt",
        "sub/build",
        "name with space.py",
    ]
    checked = 0
    for path in paths:
        for is_dir in (False, True):
            assert screened._verdict(path, is_dir) == full._verdict(path, is_dir), (path, is_dir)
            checked += 1
    assert checked == 2 * len(paths)
    assert full._verdict("x.pyc", False) and not full._verdict("keep.py", False)
