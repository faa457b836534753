"""Stage 1, discovery: which files are scanned, what they are called, and in which order."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from scan_helpers import scan_repo, write_repo

from apiscan.discovery import DiscoveryError, discover
from apiscan.model import ScanResult

USES_TORCH = "import torch\n\nx = torch.zeros(3)\n"


def _relpaths(root: Path, excludes: tuple[str, ...] = ()) -> list[str]:
    _, files, errors = discover(root, excludes)
    assert errors == []
    return [f.relpath for f in files]


def _modules(root: Path) -> dict[str, tuple[tuple[str, ...], bool]]:
    _, files, _ = discover(root)
    return {f.relpath: (f.modules, f.is_package) for f in files}


@pytest.mark.parametrize(
    "skipped",
    [".git", ".venv", "venv", "__pycache__", "build", "dist", "mylib.egg-info", "node_modules"],
)
def test_skipped_directories(tmp_path: Path, skipped: str) -> None:
    write_repo(
        tmp_path,
        {
            "keep.py": USES_TORCH,
            f"{skipped}/hidden.py": USES_TORCH,
            f"pkg/{skipped}/hidden.py": USES_TORCH,  # at any depth
            "pkg/mod.py": USES_TORCH,
        },
    )
    assert _relpaths(tmp_path) == ["keep.py", "pkg/mod.py"]


def test_a_directory_with_pyvenv_cfg_is_a_virtualenv(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "keep.py": USES_TORCH,
            "my-env/pyvenv.cfg": "home = /usr/bin\n",
            "my-env/lib/python3.11/site/torch_user.py": USES_TORCH,
            "envish/mod.py": USES_TORCH,  # no pyvenv.cfg: an ordinary directory
        },
    )
    assert _relpaths(tmp_path) == ["envish/mod.py", "keep.py"]


def test_exclude_globs(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "src/model.py": USES_TORCH,
            "src/model_test.py": USES_TORCH,
            "src/third_party/lib.py": USES_TORCH,
            "tests/test_model.py": USES_TORCH,
            "train.py": USES_TORCH,
        },
    )
    every = ["src/model.py", "src/model_test.py", "src/third_party/lib.py"]
    every += ["tests/test_model.py", "train.py"]
    assert _relpaths(tmp_path) == every
    # A directory by name, at any depth, and by relative path.
    assert _relpaths(tmp_path, ("third_party",)) == [
        "src/model.py",
        "src/model_test.py",
        "tests/test_model.py",
        "train.py",
    ]
    assert _relpaths(tmp_path, ("src/third_party",)) == _relpaths(tmp_path, ("third_party",))
    # A file-name pattern, and a path pattern.
    assert _relpaths(tmp_path, ("*_test.py", "tests")) == [
        "src/model.py",
        "src/third_party/lib.py",
        "train.py",
    ]
    assert _relpaths(tmp_path, ("src/*",)) == ["tests/test_model.py", "train.py"]


def test_only_py_files(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "model.py": USES_TORCH,
            "model.pyi": "def f() -> int: ...\n",
            "notes.txt": USES_TORCH,
            "script.py.bak": USES_TORCH,
            "setup.cfg": "[metadata]\n",
            "README.md": "import torch\n",
        },
    )
    (tmp_path / "model.pyc").write_bytes(b"\x00\x01")
    assert _relpaths(tmp_path) == ["model.py"]


def test_module_names(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/core.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/deep.py": "",
            "tools/train.py": "",  # tools/ is not a package
            "setup.py": "",
            "my-scripts/run.py": "",  # not an identifier: no root-relative name
        },
    )
    assert _modules(tmp_path) == {
        "my-scripts/run.py": (("run",), False),
        "pkg/__init__.py": (("pkg",), True),
        "pkg/core.py": (("pkg.core",), False),
        "pkg/sub/__init__.py": (("pkg.sub",), True),
        "pkg/sub/deep.py": (("pkg.sub.deep",), False),
        "setup.py": (("setup",), False),
        "tools/train.py": (("train", "tools.train"), False),
    }


def test_module_names_when_the_root_is_a_package(tmp_path: Path) -> None:
    """Scanning ``mypkg/`` itself: files are importable as ``mypkg.x`` and, from inside, ``x``."""
    root = write_repo(
        tmp_path / "mypkg",
        {"__init__.py": "", "layers.py": "", "heads/__init__.py": "", "heads/box.py": ""},
    )
    assert _modules(root) == {
        "__init__.py": (("mypkg",), True),
        "heads/__init__.py": (("mypkg.heads", "heads"), True),
        "heads/box.py": (("mypkg.heads.box", "heads.box"), False),
        "layers.py": (("mypkg.layers", "layers"), False),
    }


def test_single_file_path(tmp_path: Path) -> None:
    write_repo(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": USES_TORCH, "other.py": ""})
    base, files, errors = discover(tmp_path / "pkg" / "model.py")
    assert errors == []
    assert base == (tmp_path / "pkg").resolve()
    assert [(f.relpath, f.modules, f.is_package) for f in files] == [
        ("model.py", ("pkg.model", "model"), False)
    ]
    result = scan_repo(tmp_path / "pkg" / "model.py")
    assert [(f.path, f.span.line, f.api) for f in result.api_findings] == [
        ("model.py", 3, "torch.zeros")
    ]
    assert [s.path for s in result.files] == ["model.py"]


def test_missing_root_is_a_discovery_error(tmp_path: Path) -> None:
    with pytest.raises(DiscoveryError, match="does not exist"):
        discover(tmp_path / "nowhere")


def test_paths_are_posix_relative_and_sorted(tmp_path: Path) -> None:
    # Written in an order that is neither the walk order nor the sorted order.
    names = ["b/z.py", "a_b.py", "a/y/x.py", "a.py", "B.py", "a/b.py"]
    write_repo(tmp_path, dict.fromkeys(names, USES_TORCH))
    base, files, _ = discover(tmp_path)
    assert base == tmp_path.resolve()
    rel = [f.relpath for f in files]
    assert rel == sorted(names)
    for f in files:
        assert "\\" not in f.relpath
        assert not f.relpath.startswith(("/", "./"))
        assert Path(f.abspath).resolve() == (tmp_path / f.relpath).resolve()
    result = scan_repo(tmp_path)
    assert [s.path for s in result.files] == sorted(names)
    assert [f.path for f in result.findings] == sorted(names)


def test_exclude_directory_with_trailing_slash(tmp_path: Path) -> None:
    write_repo(tmp_path, {"vendor/lib.py": USES_TORCH, "keep.py": USES_TORCH})
    assert _relpaths(tmp_path, ("vendor/",)) == ["keep.py"]


def test_a_fifo_named_py_does_not_hang_the_scan(tmp_path: Path) -> None:
    write_repo(tmp_path, {"ok.py": USES_TORCH})
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    outcome: list[ScanResult] = []
    worker = threading.Thread(target=lambda: outcome.append(scan_repo(tmp_path)), daemon=True)
    worker.start()
    # A liveness guard, not a speed limit: only a scan stuck on the FIFO takes this long.
    worker.join(timeout=120)
    blocked = worker.is_alive()
    if blocked:
        # Unblock the reader (opening the write end ends its wait, closing gives it EOF).
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=10)
    assert not blocked, "the scan blocked reading the FIFO"
    (result,) = outcome
    assert [(f.path, f.api) for f in result.api_findings] == [("ok.py", "torch.zeros")]


def test_second_link_to_a_scanned_directory_is_not_a_loop(tmp_path: Path) -> None:
    """A symlink to a sibling directory repeats files; it is skipped quietly, not an error."""
    write_repo(tmp_path, {"pkg/ok.py": USES_TORCH})
    (tmp_path / "alias").symlink_to("pkg")
    (tmp_path / "pkg" / "up").symlink_to("..")
    _, files, errors = discover(str(tmp_path))
    # entries are walked in name order: alias/ first; pkg/ is the same directory again
    assert [f.relpath for f in files] == ["alias/ok.py"]
    # alias/up links back to the scanned root: a real loop
    assert [(e.path, e.code) for e in errors] == [("alias/up", "E006")]


# --- the walk never leaves its root --------------------------------------------------------


def test_symlinks_leaving_the_root_are_not_followed(tmp_path: Path) -> None:
    """A link to a directory or file outside the scanned directory (even to ``/``) is one
    E006 finding; links that stay inside are followed as before."""
    root, outside = tmp_path / "repo", tmp_path / "outside"
    write_repo(root, {"a.py": USES_TORCH, "pkg/b.py": USES_TORCH})
    write_repo(outside, {"secret.py": USES_TORCH})
    (root / "machine").symlink_to("/", target_is_directory=True)
    (root / "ext").symlink_to(outside, target_is_directory=True)
    (root / "leak.py").symlink_to(outside / "secret.py")
    (root / "inner").symlink_to(root / "pkg", target_is_directory=True)
    (root / "same.py").symlink_to(root / "a.py")
    _, files, errors = discover(root)
    assert [f.relpath for f in files] == ["a.py", "inner/b.py", "same.py"]
    assert {e.path: (e.code, e.message.split(",")[0]) for e in errors} == {
        "ext": ("E006", "symlink to a directory outside the scanned directory"),
        "leak.py": ("E006", "symlink to a file outside the scanned directory"),
        "machine": ("E006", "symlink to a directory outside the scanned directory"),
    }
    # asked for explicitly, they are followed (the link to / excluded here)
    _, files, errors = discover(root, ("machine",), follow_symlinks=True)
    assert [f.relpath for f in files] == [
        "a.py",
        "ext/secret.py",
        "inner/b.py",
        "leak.py",
        "same.py",
    ]
    assert errors == []


def test_fix_write_never_writes_outside_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fix --write`` through a symlinked directory: the file outside is not even scanned;
    and were discovery to list it, the writer itself refuses it (exit 2, one line)."""
    from apiscan import discovery
    from apiscan.cli.main import main

    fixable = "import torch\n\n\ndef f():\n    torch.cuda.empty_cache()\n    return 1\n"
    root, outside = tmp_path / "repo", tmp_path / "outside"
    write_repo(root, {"a.py": fixable})
    write_repo(outside, {"victim.py": fixable})
    (root / "ext").symlink_to(outside, target_is_directory=True)
    cache = ["--no-cache", "--no-progress"]
    assert main(["fix", str(root), "--write", *cache]) == 0
    assert (outside / "victim.py").read_text() == fixable
    assert "empty_cache" not in (root / "a.py").read_text()  # the file inside was fixed
    capsys.readouterr()
    monkeypatch.setattr(discovery, "_inside", lambda path, root: True)  # a walk gone wrong
    assert main(["fix", str(root), "--write", *cache]) == 2
    assert (outside / "victim.py").read_text() == fixable
    err = capsys.readouterr().err
    assert "ext/victim.py: not written: its real location is outside" in err


def test_sys_path_dirs_follow_names_and_helpers() -> None:
    """The one reading of what a file puts on ``sys.path``: literals, joins ending in one,
    and either reached through a name or a helper's parameter (CenterNet's
    ``_init_paths.py``); a commented-out line is no entry."""
    from apiscan.discovery import sys_path_dirs

    assert sys_path_dirs(b"import sys\nsys.path.append('core')\n") == ("core",)
    assert sys_path_dirs(b"import os, sys\nsys.path.insert(0, os.path.join(R, 'models'))\n") == (
        "models",
    )
    init_paths = b"""import os.path as osp
import sys

def add_path(path):
    if path not in sys.path:
        sys.path.insert(0, path)

this_dir = osp.dirname(__file__)
lib_path = osp.join(this_dir, 'lib')
add_path(lib_path)
"""
    assert sys_path_dirs(init_paths) == ("lib",)
    assert sys_path_dirs(b"# sys.path.append('tacotron2')\nimport sys\n") == ()
    assert sys_path_dirs(b"import torch\n") == ()
    # a Python 2 script (no Python 3 tree): the literal forms are still read
    assert sys_path_dirs(b"import sys\nprint 'x'\nsys.path.append('core')\n") == ("core",)


def test_files_under_a_sys_path_helper_directory_get_its_names(tmp_path: Path) -> None:
    (tmp_path / "src" / "lib" / "models").mkdir(parents=True)
    (tmp_path / "src" / "lib" / "models" / "__init__.py").write_text("")
    (tmp_path / "src" / "lib" / "models" / "losses.py").write_text("X = 1\n")
    (tmp_path / "src" / "_init_paths.py").write_text(
        "import os.path as osp, sys\n"
        "lib_path = osp.join(osp.dirname(__file__), 'lib')\n"
        "if lib_path not in sys.path:\n"
        "    sys.path.insert(0, lib_path)\n"
    )
    _, files, _ = discover(tmp_path)
    modules = {f.relpath: f.modules for f in files}
    assert modules["src/lib/models/losses.py"] == ("models.losses", "src.lib.models.losses")
    assert modules["src/lib/models/__init__.py"] == ("models", "src.lib.models")


def test_a_package_script_names_the_siblings_it_imports_by_their_bare_name(
    tmp_path: Path,
) -> None:
    """A script inside a package runs with its own folder on ``sys.path``: its ``from model
    import Net`` is the module beside it. Those siblings get the bare name too, and only
    they: a file the script does not import (another script's ``train``) keeps its own, and
    a folder without scripts or a name the root holds gets none."""
    write_repo(
        tmp_path,
        {
            "track/__init__.py": "",
            "track/deep/__init__.py": "",
            "track/deep/model.py": "class Net:\n    pass\n",
            "track/deep/datasets.py": "class ClsDataset:\n    pass\n",
            "track/deep/utils.py": "X = 1\n",
            "track/deep/parts/blocks.py": "Y = 2\n",
            "track/deep/train.py": (
                "from model import Net\nfrom datasets import ClsDataset\n"
                "from parts.blocks import Y\nimport utils\n\n"
                "if __name__ == '__main__':\n    Net()\n"
            ),
            "track/deep/lib/engine.py": "import helpers.dist as dist\n",
            "track/deep/helpers/dist.py": "W = 4\n",
            "track/other/__init__.py": "",
            "track/other/model.py": "class Other:\n    pass\n",
            "track/other/use.py": "from model import Other\n",
            "utils.py": "Z = 3\n",
        },
    )
    modules = {relpath: names for relpath, (names, _) in _modules(tmp_path).items()}
    assert modules["track/deep/model.py"] == ("track.deep.model", "model")
    assert modules["track/deep/datasets.py"] == ("track.deep.datasets", "datasets")
    assert "parts.blocks" in modules["track/deep/parts/blocks.py"]  # a folder beside it
    # a module below the folder on sys.path imports its siblings by bare name too
    assert "helpers.dist" in modules["track/deep/helpers/dist.py"]
    assert modules["track/deep/train.py"] == ("track.deep.train",)
    assert modules["track/deep/utils.py"] == ("track.deep.utils",)  # the root's utils.py
    assert modules["track/other/model.py"] == ("track.other.model",)  # no script there


def test_a_scan_reads_each_file_once_and_names_sys_path_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sys.path names come from the bytes the scan reads for its workers: no file is
    read a second time for them (a large repository paid every read twice)."""
    import apiscan.source

    write_repo(
        tmp_path,
        {
            "train.py": "import sys\nsys.path.append('core')\nfrom raft import RAFT\n",
            "core/raft.py": "import torch\n\nclass RAFT(torch.nn.Module):\n    pass\n",
            "core/update.py": USES_TORCH,
            "core/__init__.py": "",
        },
    )
    reads: list[str] = []
    real = apiscan.source.read_source_file

    def counted(path: str, *args: object, **kwargs: object) -> bytes:
        reads.append(Path(path).name)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(apiscan.source, "read_source_file", counted)
    result = scan_repo(tmp_path)
    assert sorted(reads) == ["__init__.py", "raft.py", "train.py", "update.py"]
    assert len(result.files) == 4 and result.api_findings
    from apiscan.pipeline import ScanOptions, scan_with_facts

    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    modules = {fa.path: fa.modules for fa in analyses}
    assert modules["core/raft.py"] == ("core.raft", "raft")


def test_package_directories_are_asked_once_per_walk(tmp_path: Path) -> None:
    """The module names of every file climb its package chain; one walk asks each
    directory whether it holds an ``__init__.py`` once, with the same names as asking anew."""
    from apiscan.discovery import _module_names

    root = write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/a.py": USES_TORCH,
            "pkg/sub/b.py": USES_TORCH,
            "plain/c.py": USES_TORCH,
        },
    )
    packages: dict[str, bool] = {}
    for rel in ("pkg/sub/a.py", "pkg/sub/b.py", "plain/c.py", "pkg/sub/__init__.py"):
        assert _module_names(root, root / rel, packages) == _module_names(root, root / rel)
    assert _module_names(root, root / "pkg/sub/a.py", packages) == (
        ("pkg.sub.a",),
        False,
    )
    assert packages == {
        str(root / "pkg/sub"): True,
        str(root / "pkg"): True,
        str(root): False,
        str(root / "plain"): False,
    }
    assert _modules(root)["pkg/sub/b.py"] == (("pkg.sub.b",), False)
