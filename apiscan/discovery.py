"""Stage 1: paths → the Python source files to scan, with their module names.

Discovery never reads file contents (that is the workers' job, in parallel); it only walks the
tree. The names a ``sys.path`` entry gives files (:func:`with_sys_path_names`) are added by the
scan from the bytes it reads for its workers, so that each file is read once. Problems met
while walking (a symlink loop, an unreadable directory) become
:class:`~apiscan.model.ErrorFinding` records so they reach every report, and the walk goes on.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import stat
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from apiscan.ignorefiles import IgnoreRules
from apiscan.notebook import SUFFIX as NOTEBOOK_SUFFIX

if TYPE_CHECKING:  # built on the error paths alone (an empty directory never loads the model)
    from collections.abc import Mapping

    from apiscan.model import ErrorFinding

#: Directory names never worth scanning: VCS data, virtualenvs, caches and build outputs.
SKIP_DIRS: frozenset[str] = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        ".eggs",
        ".venv",
        "venv",
        ".env",
        "env",
        "virtualenv",
        "site-packages",
        "node_modules",
        "build",
        "dist",
        ".ipynb_checkpoints",
        ".idea",
        ".vscode",
        ".apiscan_cache",
    }
)


#: The files discovery lists (``.pyi`` only to skip them quietly).
_SCANNED_SUFFIXES = (".py", ".pyi", NOTEBOOK_SUFFIX)


class DiscoveryError(Exception):
    """The scan root itself is unusable: a usage error (exit 2), not a finding."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to scan: where it is, how reports name it, and which modules it can be imported as.

    ``modules`` holds every dotted name the repository can import the file by: the name derived
    from its package chain (the nearest ancestors with ``__init__.py``) and the name relative to
    the scan root. Repositories are run from varying working directories, so both occur.
    """

    abspath: str
    relpath: str
    modules: tuple[str, ...]
    is_package: bool


def _notebook_modules(relpath: str) -> tuple[str, ...]:
    """A notebook's own module name: no code can import a notebook, but the whole-program
    inference keys its functions by module, so that a helper defined in one cell and called
    in another gets its callers' facts. The name is an identifier no import statement of a
    real repository spells (``__notebook__demo_ipynb`` for ``demo.ipynb``)."""
    return ("__notebook__" + re.sub(r"\W", "_", relpath),)


def _module_names(
    root: Path, path: Path, packages: dict[str, bool] | None = None
) -> tuple[tuple[str, ...], bool]:
    """The module names of ``path`` below ``root``, and whether it is a package's
    ``__init__``. ``packages``: whether a directory holds an ``__init__.py``, as found so far
    in this walk (each directory is asked once, not once per file below it).

    Worked on path strings (``os.path``), not ``pathlib``: discovery names every file of
    every scan, warm ones included, and pathlib's object building was most of a warm scan's
    discovery time."""
    root_s, path_s = os.fspath(root), os.fspath(path)
    prefix = root_s if root_s.endswith(os.sep) else root_s + os.sep
    if not path_s.startswith(prefix):
        raise ValueError(f"{path_s!r} is not in the subpath of {root_s!r}")
    rel = path_s[len(prefix) :]
    if path_s.endswith(NOTEBOOK_SUFFIX):  # run, never imported
        return _notebook_modules(rel.replace(os.sep, "/")), False
    head, name = os.path.split(path_s)
    is_package = name == "__init__.py"
    parts = os.path.splitext(rel)[0].split(os.sep)
    if is_package:
        parts = parts[:-1]
    names: list[str] = []
    # Package-chain name: climb while the directory is a package.
    chain = [] if is_package else [os.path.splitext(name)[0]]
    d, above_root = head, os.path.dirname(root_s)
    while _is_package_dir(d, packages) and d != os.path.dirname(d):
        chain.insert(0, os.path.basename(d))
        if d == above_root:
            break
        d = os.path.dirname(d)
    if chain:
        names.append(".".join(chain))
    if parts:
        names.append(".".join(parts))
    valid = [n for n in dict.fromkeys(names) if all(p.isidentifier() for p in n.split("."))]
    return tuple(valid), is_package


def _is_package_dir(d: str, packages: dict[str, bool] | None) -> bool:
    if packages is None:
        return os.path.isfile(os.path.join(d, "__init__.py"))
    known = packages.get(d)
    if known is None:
        known = packages[d] = os.path.isfile(os.path.join(d, "__init__.py"))
    return known


def _normalise_pattern(pattern: str) -> str:
    """``./vendor/`` (what shell completion types) means ``vendor``."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.rstrip("/") or pattern


def _excluded(relpath: str, patterns: tuple[str, ...]) -> bool:
    name = relpath.rsplit("/", 1)[-1]
    return any(
        fnmatch.fnmatch(relpath, p)
        or fnmatch.fnmatch(name, p)
        or fnmatch.fnmatch(relpath, p + "/*")
        for p in patterns
    )


def discover(
    root: str | os.PathLike[str],
    excludes: tuple[str, ...] = (),
    respect_ignore: bool = True,
    follow_symlinks: bool = False,
    sys_path_names: bool = True,
    names_from: tuple[Path, dict[str, bool]] | None = None,
) -> tuple[Path, list[SourceFile], list[ErrorFinding]]:
    """Walk ``root`` (a directory or one ``.py`` file) and list the files to scan.

    With ``respect_ignore``, paths that ``.gitignore`` / ``.ignore`` files ignore are skipped
    (:mod:`apiscan.ignorefiles`); a file named explicitly as ``root`` is always scanned.

    The walk never leaves ``root``: a symlink (to a directory or a file) whose real location
    is outside it is reported (E006) and not followed, unless ``follow_symlinks`` (a link to
    ``/`` would otherwise walk the whole machine, and ``fix --write`` write outside the
    repository).

    Returns the resolved root (reports name files relative to it), the files sorted by relative
    path, and error findings for what could not be walked. With ``sys_path_names``, the files
    are read to add the names ``sys.path`` entries give them (:func:`with_sys_path_names`); the
    scan turns that off and adds them from the bytes it reads anyway, so that each file is read
    once.

    ``names_from``: the directory module names are taken below (and its package table), for
    :func:`discover_many`, which names the files of all its paths below their common
    directory and makes the names unique over all of them itself (so each file is named
    once, not once per root and again).
    """
    root_path = Path(root)
    if not root_path.exists() and not root_path.is_symlink():
        raise DiscoveryError(f"path does not exist: {root}")
    if root_path.is_file():
        base = root_path.parent.resolve()
        f = root_path.resolve()
        modules, is_pkg = _module_names(base, f)
        return base, [SourceFile(str(f), safe_name(f.name), modules, is_pkg)], []
    if not root_path.is_dir():
        raise DiscoveryError(f"not a directory or a Python file: {root}")
    base = root_path.resolve()
    excludes = tuple(_normalise_pattern(p) for p in excludes)
    files: list[SourceFile] = []
    errors: list[ErrorFinding] = []
    seen_dirs: set[tuple[int, int]] = set()
    inside = str(base)
    # names below names_base; packages: directory -> holds an __init__.py (asked once)
    names_base, packages = names_from or (base, {})

    def walk(
        d: str,
        rel: str,
        ancestors: frozenset[tuple[int, int]],
        rules: IgnoreRules | None,
    ) -> None:
        try:
            st = os.stat(d)
        except OSError as exc:
            errors.append(_walk_error(rel, "E005", f"cannot read directory: {exc.strerror}"))
            return
        key = (st.st_dev, st.st_ino)
        if key in ancestors:
            errors.append(
                _walk_error(
                    rel, "E006", "symlink loop: links back to an enclosing directory, skipped"
                )
            )
            return
        if key in seen_dirs:
            return  # a second link to a directory scanned elsewhere: its files are in already
        seen_dirs.add(key)
        ancestors = ancestors | {key}
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as exc:
            errors.append(_walk_error(rel, "E005", f"cannot read directory: {exc.strerror}"))
            return
        for entry in entries:
            rel_s = entry.name if rel == "." else f"{rel}/{entry.name}"
            if excludes and _excluded(rel_s, excludes):
                continue
            try:
                is_dir = entry.is_dir()  # follows symlinks
            except OSError:
                is_dir = False
            if (
                not follow_symlinks
                and (is_dir or entry.name.endswith(_SCANNED_SUFFIXES))
                and entry.is_symlink()
                and not _inside(entry.path, inside)
            ):
                what = "a directory" if is_dir else "a file"
                message = (
                    f"symlink to {what} outside the scanned directory, not followed"
                    " (--follow-symlinks follows it)"
                )
                errors.append(_walk_error(rel_s, "E006", message))
                continue
            if (
                rules is not None
                and (is_dir or entry.name.endswith(_SCANNED_SUFFIXES))  # others are never read
                and entry.name not in SKIP_DIRS
                and rules.ignored(rel_s, is_dir)
            ):
                continue
            if is_dir:
                if entry.name in SKIP_DIRS or entry.name.endswith(".egg-info"):
                    continue
                if _is_virtualenv(entry.path):  # a virtualenv by another name
                    continue
                inner = rules.enter(Path(entry.path), rel_s) if rules is not None else None
                walk(entry.path, rel_s, ancestors, inner)
            elif entry.name.endswith(_SCANNED_SUFFIXES):
                if entry.name.endswith(".pyi"):
                    continue  # stubs describe APIs, they do not use them
                if entry.is_symlink():
                    try:
                        Path(entry.path).resolve(strict=True)
                    except (OSError, RuntimeError) as exc:
                        reason = "symlink loop" if "loop" in str(exc).lower() else "broken symlink"
                        errors.append(_walk_error(rel_s, "E006", f"{reason}: {exc}"))
                        continue
                kind = _not_regular(entry)  # a FIFO or socket named *.py would block a read
                if kind:
                    message = f"not a regular file ({kind}), skipped"
                    errors.append(_walk_error(rel_s, "E001", message))
                    continue
                try:
                    modules, is_pkg = _module_names(names_base, entry.path, packages)
                except OSError:  # e.g. a path beyond PATH_MAX: no package chain to climb
                    modules, is_pkg = (), entry.name == "__init__.py"
                files.append(SourceFile(entry.path, rel_s, modules, is_pkg))

    walk(
        str(base),
        ".",
        frozenset(),
        IgnoreRules.for_root(base) if respect_ignore else None,
    )
    for i, f in enumerate(files):
        files[i] = SourceFile(f.abspath, safe_name(_clean(f.relpath)), f.modules, f.is_package)
    errors = [replace(e, path=safe_name(_clean(e.path))) for e in errors]
    files.sort(key=lambda f: f.relpath)
    if names_from is None:
        files = unique_canonical_names(files)
    if sys_path_names:
        files = with_sys_path_names(base, files, _read_sources(files))
    return base, files, errors


def unique_canonical_names(files: list[SourceFile]) -> list[SourceFile]:
    """Each file's first module name is the one the whole-program pass keys its functions and
    classes by, so it must name one file. Two scripts' folders that are no packages can both
    hold a ``convnext.py`` (``models/convnext.py`` and ``backbone/convnext.py``, each importable
    as ``convnext`` from its own folder): keyed by the shared name, one file's functions took
    the other's place, and the model file's layers lost their scope. The one file nearest the
    root keeps the shared name (the model beside the training script, not a downstream task's
    copy) and the others are known by their name relative to the root (unique, as paths are);
    where two are as near, each takes that name first and keeps the shared one as an alias."""
    sharing: dict[str, list[int]] = {}
    for f in files:
        if f.modules:
            sharing.setdefault(f.modules[0], []).append(f.relpath.count("/"))
    firsts = {name: len(depths) for name, depths in sharing.items()}
    out: list[SourceFile] = []
    for f in files:
        depths = sharing.get(f.modules[0], []) if f.modules else []
        nearest = min(depths, default=0)
        kept = depths.count(nearest) == 1
        if len(depths) > 1 and not (kept and f.relpath.count("/") == nearest):
            unique = [m for m in f.modules[1:] if m not in firsts]
            if unique:
                # the name stays an alias only where no file keeps it (an import of it is
                # then as ambiguous as it was)
                rest = (
                    m for m in f.modules if m != unique[-1] and not (kept and m == f.modules[0])
                )
                f = replace(f, modules=(unique[-1], *rest))
        out.append(f)
    return out


#: a def's parameter list (up to the first closing parenthesis)
_DEF_PARAMS = re.compile(r"\bdef[ \t]+\w+[ \t]*\(([^)]*)\)")
#: a directory name a script may put on ``sys.path``
_DIR_NAME = re.compile(r"[\w./-]+")


def sys_path_dirs(data: bytes) -> tuple[str, ...]:
    """The directories a file puts on ``sys.path``, as it spells them (relative to where it
    runs from or to its own directory): the one home of that fact, read by discovery (module
    names, hence resolution) and so by everything downstream (the review's call sites).

    Read forms: a literal (``sys.path.append('core')``: RAFT's scripts then import ``from
    raft import RAFT`` out of ``core/``), a join ending in one
    (``sys.path.insert(0, os.path.join(ROOT_DIR, 'models'))``), and either reached through a
    name assigned in the file or a parameter of a helper the file calls with one (CenterNet's
    ``_init_paths.py``: ``lib_path = osp.join(this_dir, 'lib')``, ``add_path(lib_path)``,
    ``def add_path(path): sys.path.insert(0, path)``). A commented-out call is none.

    Cost: this runs in the main process before the workers, on the bytes read for them.
    Files without such a call (nearly all) are not decoded; each call is parsed alone, and
    the whole file only when a call passes a name the file may give a directory (an
    assignment of a string or a join to it, or a def taking it): fairseq's ``sys.path``
    calls pass paths computed from ``__file__``, which name no directory of the scan."""
    if b"sys.path." not in data:  # one pass over the bytes of nearly every file
        return ()
    text = data.decode("utf-8", errors="replace")
    calls = _sys_path_calls(text)
    names = {arg.id for call in calls if isinstance(arg := _argument(call), ast.Name)}
    if any(_may_name_a_dir(text, name) for name in names):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass  # a Python 2 script: its calls read alone
        else:
            reader = _SysPathReader(tree)
            return tuple(dict.fromkeys(reader.dirs(reader.sys_path_calls())))
    return tuple(dict.fromkeys(_SysPathReader(None).dirs(calls)))


def _sys_path_calls(text: str) -> list[ast.Call]:
    """Each ``sys.path.insert/append(...)`` call of ``text`` parsed alone (its text up to
    the parenthesis that closes it), except on a line commented out before it."""
    out: list[ast.Call] = []
    starts = sorted(
        i
        for spelled in ("sys.path.insert(", "sys.path.append(")
        for i in _occurrences(text, spelled)
        if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")
    )
    for start in starts:
        line_start = text.rfind("\n", 0, start) + 1
        if "#" in text[line_start:start]:
            continue
        opening = text.index("(", start)
        depth, end = 0, -1
        for i in range(opening, min(len(text), opening + 2000)):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
        if end < 0:
            continue
        try:
            node = ast.parse(text[start:end], mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if isinstance(node, ast.Call):
            out.append(node)
    return out


def _occurrences(text: str, spelled: str) -> list[int]:
    """Where ``spelled`` starts in ``text`` (``str.find``: far faster than a regular
    expression over a large file)."""
    out: list[int] = []
    i = text.find(spelled)
    while i >= 0:
        out.append(i)
        i = text.find(spelled, i + 1)
    return out


def _argument(call: ast.Call) -> ast.expr | None:
    """The directory argument of ``sys.path.insert(i, d)`` / ``sys.path.append(d)``, or None
    for any other call."""
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and func.attr in ("insert", "append")
        and _dotted(func.value) == "sys.path"
    ):
        return None
    args = call.args[1:] if func.attr == "insert" else call.args
    return args[0] if len(args) == 1 else None


def _may_name_a_dir(text: str, name: str) -> bool:
    """Whether ``text`` assigns ``name`` a string or a join, or has a def taking ``name``: a
    whole-file parse can then find the directory the name stands for."""
    n = re.escape(name)
    assigned = rf"^[ \t]*{n}[ \t]*=[ \t]*(?:[rRuUbBfF]{{0,2}}['\"]|[^\n#]*\.join\()"
    if re.search(assigned, text, re.MULTILINE):
        return True
    return any(name in re.findall(r"\w+", m.group(1)) for m in _DEF_PARAMS.finditer(text))


class _SysPathReader:
    """Follows the argument of each ``sys.path.insert/append`` of one module to the
    directory literal it stands for (see :func:`sys_path_dirs`); without the module's tree
    (``None``), a name stands for nothing."""

    def __init__(self, tree: ast.Module | None) -> None:
        self.assigned: dict[str, list[ast.expr]] = {}
        self.calls: list[ast.Call] = []
        self.defs: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    self.assigned.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.Call):
                self.calls.append(node)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.defs.append(node)

    def sys_path_calls(self) -> list[ast.Call]:
        return [call for call in self.calls if _argument(call) is not None]

    def dirs(self, calls: list[ast.Call]) -> list[str]:
        out: list[str] = []
        for call in calls:
            arg = _argument(call)
            if arg is not None:
                out += self._literals(arg, 0)
        return out

    def _literals(self, expr: ast.expr, depth: int) -> list[str]:
        """The directory literals ``expr`` stands for (a name: in the def that holds it)."""
        if depth > 3:
            return []
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return [expr.value] if _DIR_NAME.fullmatch(expr.value) else []
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and expr.func.attr == "join"
            and len(expr.args) == 2
            and not expr.keywords
        ):
            last = expr.args[1]
            if isinstance(last, ast.Constant) and isinstance(last.value, str):
                return [last.value] if _DIR_NAME.fullmatch(last.value) else []
            return []
        if not isinstance(expr, ast.Name):
            return []
        fn = self._enclosing_def(expr)
        if fn is not None and expr.id in [a.arg for a in fn.args.posonlyargs + fn.args.args]:
            index = [a.arg for a in fn.args.posonlyargs + fn.args.args].index(expr.id)
            out: list[str] = []
            for call in self.calls:
                if (
                    isinstance(call.func, ast.Name)
                    and call.func.id == fn.name
                    and index < len(call.args)
                ):
                    out += self._literals(call.args[index], depth + 1)
            return out
        return [
            d for value in self.assigned.get(expr.id, ()) for d in self._literals(value, depth + 1)
        ]

    def _enclosing_def(self, node: ast.expr) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The innermost def whose lines hold ``node`` (asked only of a name passed to
        ``sys.path``: no parent links for the whole tree)."""
        around = [
            d
            for d in self.defs
            if (d.lineno, d.col_offset) <= (node.lineno, node.col_offset)
            and (node.end_lineno or 0, node.end_col_offset or 0)
            <= (d.end_lineno or 0, d.end_col_offset or 0)
        ]
        return max(around, key=lambda d: (d.lineno, d.col_offset), default=None)


def _dotted(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        inner = _dotted(expr.value)
        return None if inner is None else f"{inner}.{expr.attr}"
    return None


def with_sys_path_names(
    base: Path, files: list[SourceFile], sources: Mapping[str, bytes]
) -> list[SourceFile]:
    """Files under a directory some script adds to ``sys.path`` can also be imported by their
    name relative to it (``core/update.py`` as ``update``): those names are added after the
    file's own, which stay canonical. The directory is read relative to the scan root (where
    scripts are run from) and to the script's own directory.

    ``sources`` holds each file's bytes by absolute path, as the scan read them for its
    workers (a file is read once); a file missing there (unreadable) adds nothing."""
    dirs: set[Path] = set()
    for f in files:
        data = sources.get(f.abspath)
        if data is None or not f.abspath.endswith(".py"):
            continue
        for spelled in sys_path_dirs(data):
            for start in (base, Path(f.abspath).parent):
                d = Path(os.path.normpath(start / spelled))
                if d != base and d.is_dir() and _inside(str(d), str(base)):
                    dirs.add(d)
    dirs |= script_roots(base, files, sources)
    # a package folder's scripts see only the siblings they import by name
    only = {d: names for d, names in script_siblings(base, files, sources).items() if d not in dirs}
    if not dirs and not only:
        return files
    out: list[SourceFile] = []
    for f in files:
        extra: list[str] = []
        for d in sorted(dirs | set(only)):
            try:
                rel = Path(f.abspath).relative_to(d).with_suffix("")
            except ValueError:
                continue
            parts = list(rel.parts[:-1] if f.is_package else rel.parts)
            if d in only and (not parts or parts[0] not in only[d]):
                continue
            if parts and all(p.isidentifier() for p in parts):
                extra.append(".".join(parts))
        modules = tuple(dict.fromkeys([*f.modules, *extra]))
        out.append(replace(f, modules=modules) if modules != f.modules else f)
    return out


def script_roots(base: Path, files: list[SourceFile], sources: Mapping[str, bytes]) -> set[Path]:
    """Folders below the root, no package themselves, whose modules import a folder beside
    them that has no ``__init__.py`` (Depth-Anything's ``metric_depth/train_mono.py``:
    ``from zoedepth.models.builder import build_model``, ``zoedepth/`` a namespace package
    of packages): run from there, Python puts that folder on ``sys.path`` (a script's own
    folder is ``sys.path[0]``), so the files below it are importable by their names relative
    to it. A package beside the script needs no such name: its package chain gives it."""
    packages: set[PurePosixPath] = set()
    below: dict[PurePosixPath, set[str]] = {}  # folder -> the sub-folders holding files
    modules: dict[PurePosixPath, list[str]] = {}  # folder -> the modules right in it
    for f in files:
        rel = PurePosixPath(_clean(f.relpath))
        if f.is_package:
            packages.add(rel.parent)
        if f.abspath.endswith(".py"):
            modules.setdefault(rel.parent, []).append(f.abspath)
        for d in rel.parents:
            if d != rel.parent:
                below.setdefault(d, set()).add(rel.relative_to(d).parts[0])
    found: set[Path] = set()
    for d, subs in below.items():
        if d == PurePosixPath(".") or d in packages:
            continue
        spaces = sorted(n for n in subs if n.isidentifier() and d / n not in packages)
        if not spaces:
            continue
        imports = re.compile(
            rb"^[ \t]*(?:from|import)[ \t]+(?:" + "|".join(spaces).encode() + rb")\b",
            re.MULTILINE,
        )
        if any(imports.search(sources.get(path, b"")) for path in modules.get(d, ())):
            found.add(base / d)
    return found


def script_siblings(
    base: Path, files: list[SourceFile], sources: Mapping[str, bytes]
) -> dict[Path, set[str]]:
    """Package folders whose scripts import a module right beside them by its bare name,
    with those names: a script (a ``__main__`` guard, or a ``sys.path`` edit such as
    ``sys.path.append(str(Path(__file__).parents[0]))``, a directory computed from
    ``__file__`` that :func:`sys_path_dirs` does not read) has its own folder on
    ``sys.path``, so ``deep/train.py``'s ``from model import Net`` and ``from datasets
    import ClsDataset`` are ``deep/model.py`` and ``deep/datasets.py``, and
    ``yolo/detector.py``'s ``from models.common import Backend`` is ``yolo/models/``. In a
    package no other import reaches them that way: unresolved, the sibling read as a
    third-party package (``datasets``) and the files only it reaches as unused.

    Only the names the scripts import are given (not every file of the folder: another
    script's ``from train import ...`` means its own folder's ``train.py``, not this one),
    and none the root also holds (an import of it stays the root's). Once the folder is on
    ``sys.path``, the names the modules below it import that way are given too."""
    packages: set[PurePosixPath] = set()
    beside: dict[PurePosixPath, set[str]] = {}  # folder -> the modules and folders in it
    scripts: dict[PurePosixPath, list[bytes]] = {}  # folder -> its scripts' bytes
    under: dict[PurePosixPath, list[bytes]] = {}  # folder -> the bytes of every module below
    at_root: set[str] = set()
    for f in files:
        rel = PurePosixPath(_clean(f.relpath))
        if f.is_package:
            packages.add(rel.parent)
        top = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        at_root.add(top)
        for d in rel.parents:
            inner = rel.relative_to(d).parts
            beside.setdefault(d, set()).add(
                inner[0] if len(inner) > 1 else PurePosixPath(inner[0]).stem
            )
        data = sources.get(f.abspath, b"")
        if f.abspath.endswith(".py") and (b"__main__" in data or b"sys.path." in data):
            scripts.setdefault(rel.parent, []).append(data)
        if f.abspath.endswith(".py"):
            for d in rel.parents:
                under.setdefault(d, []).append(data)
    found: dict[Path, set[str]] = {}
    for d in packages:
        if d == PurePosixPath(".") or d not in scripts:
            continue
        names = sorted(
            n
            for n in beside.get(d, set())
            if n.isidentifier() and n != "__init__" and n not in at_root
        )
        if not names:
            continue
        imports = re.compile(
            rb"^[ \t]*(?:from|import)[ \t]+(" + "|".join(names).encode() + rb")\b",
            re.MULTILINE,
        )
        used = {m.group(1).decode() for data in scripts[d] for m in imports.finditer(data)}
        if used:
            # with the folder on ``sys.path``, the modules below it import its siblings by
            # bare name too (``train_utils/engine.py``: ``import train_utils.dist as utils``)
            used |= {m.group(1).decode() for data in under[d] for m in imports.finditer(data)}
            found[base / d] = used
    return found


def _read_sources(files: list[SourceFile]) -> dict[str, bytes]:
    """The bytes of the Python files, for a caller of :func:`discover` that does not read
    the files itself (the scan passes ``sys_path_names=False`` and the bytes it reads for
    its workers instead)."""
    from apiscan.source import read_source_file  # refuses a file swapped for a FIFO

    out: dict[str, bytes] = {}
    for f in files:
        if f.abspath.endswith(".py"):
            try:
                out[f.abspath] = read_source_file(f.abspath)
            except OSError:
                continue
    return out


def _inside(path: str, root: str) -> bool:
    """Whether the real location of ``path`` (all symlinks resolved) lies under ``root`` (a
    resolved directory)."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _is_virtualenv(d: str) -> bool:
    """Whether ``d`` holds a ``pyvenv.cfg``; a directory we cannot look into is not one (the
    walk then reports it as unreadable, E005)."""
    try:
        return os.path.exists(os.path.join(d, "pyvenv.cfg"))
    except (OSError, ValueError):
        return False


def _not_regular(entry: os.DirEntry[str]) -> str:
    """What a ``*.py`` entry is when it is not a regular file (after symlinks), else ``""``."""
    try:
        mode = entry.stat().st_mode  # follows symlinks
    except OSError as exc:
        return f"cannot stat it: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return ""
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "not a file"


def safe_name(name: str) -> str:
    """``name`` as reports may print it: bytes that are not UTF-8 (kept by the file system
    as surrogate escapes) become ``\\xNN``, control characters such as a newline become their
    escapes, so a file name cannot break a table or a terminal, nor fail to encode. A
    backslash is doubled, so that two different names never print the same
    (``a\\xff.py`` spelled with a backslash, and ``a<byte 0xff>.py``)."""
    if name.isprintable() and "\\" not in name:
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == "\\":
            out.append("\\\\")
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def _clean(rel: str) -> str:
    return rel[2:] if rel.startswith("./") else rel


def _walk_error(rel: str, code: str, message: str) -> ErrorFinding:
    from apiscan.model import ErrorFinding, Span

    return ErrorFinding(rel, Span(1, 1, 1, 1), code, message)


def discover_many(
    paths: list[str],
    excludes: tuple[str, ...] = (),
    respect_ignore: bool = True,
    follow_symlinks: bool = False,
) -> tuple[Path, list[SourceFile], list[ErrorFinding]]:
    """Several paths (files or directories, as a pre-commit hook passes them) as one scan.

    The root is their deepest common directory, so reports name files relative to it (the
    repository root when git hands over changed files). Directories are walked as by
    :func:`discover`; files named explicitly are scanned unless ``excludes`` match them.
    A file reached twice is listed once.
    """
    for path in paths:
        if not Path(path).exists() and not Path(path).is_symlink():
            raise DiscoveryError(f"path does not exist: {path}")
    dirs = [Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent for p in paths]
    base = Path(os.path.commonpath([str(d) for d in dirs]))
    patterns = tuple(_normalise_pattern(p) for p in excludes)
    found: dict[str, SourceFile] = {}
    errors: list[ErrorFinding] = []
    packages: dict[str, bool] = {}  # directory -> holds an __init__.py (asked once)
    for path in paths:
        p = Path(path)
        if p.is_dir():
            # the module names are the common base's (no sys.path names: never read them)
            root, files, walk_errors = discover(
                p,
                excludes,
                respect_ignore,
                follow_symlinks,
                sys_path_names=False,
                names_from=(base, packages),
            )
            prefix = root.relative_to(base).as_posix()
            prefix = "" if prefix == "." else f"{safe_name(prefix)}/"
            for f in files:
                found.setdefault(f.abspath, replace(f, relpath=prefix + f.relpath))
            errors += [replace(e, path=prefix + e.path) for e in walk_errors]
            continue
        resolved = p.resolve()
        rel = resolved.relative_to(base).as_posix()
        if patterns and _excluded(rel, patterns):
            continue
        modules, is_pkg = _module_names(base, resolved)
        found.setdefault(str(resolved), SourceFile(str(resolved), safe_name(rel), modules, is_pkg))
    return base, unique_canonical_names(sorted(found.values(), key=lambda f: f.relpath)), errors
