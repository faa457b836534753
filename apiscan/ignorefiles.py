"""``.gitignore`` and ``.ignore`` files, as discovery consults them (``--no-ignore`` to skip).

Matching is pathspec's ``GitIgnoreSpec`` (git's own wildmatch rules: anchored ``/x``,
directory-only ``x/``, ``**``, negation ``!x``), never hand-written globbing. Like git and
ripgrep: every directory's ignore files apply to the paths below it, a deeper file overrides a
shallower one, ``.ignore`` overrides ``.gitignore`` in the same directory, and an ignored
directory is not entered (nothing below it can be re-included). Above the scan root the files
of the enclosing directories count too, up to the repository's top (the directory holding
``.git``), plus ``.git/info/exclude`` there.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan.errors import warn

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

IGNORE_FILES = (".gitignore", ".ignore")  # in order of precedence, lowest first

#: A pattern with more single-star wildcards than this (``*a*a*a*a*b``) is skipped: the
#: regular expression it becomes backtracks exponentially (nine took 20 s per path), and git
#: is as slow. Real ignore files use one or two.
MAX_STARS = 3
#: Matching time allowed for a whole walk; past it, ignore files stop applying (one warning).
MATCH_BUDGET_S = 10.0
_STARS = re.compile(r"(?<!\*)\*(?!\*)")
_spent = [0.0]


def _spec(lines: list[str], where: Path) -> GitIgnoreSpec:
    """The compiled patterns of one directory, without those too costly to match.

    pathspec is imported only by a tree that has an ignore file (it costs a cold scan's
    start-up ~20 ms otherwise)."""
    from pathspec import GitIgnoreSpec

    kept = []
    for number, line in enumerate(lines, 1):
        if len(_STARS.findall(line)) > MAX_STARS:
            warn(
                f"{where}: ignore pattern {line.strip()[:60]!r} (line {number}) has more than"
                f" {MAX_STARS} '*' wildcards and would take too long to match; it is not applied"
            )
            continue
        kept.append(line)
    return GitIgnoreSpec.from_lines(kept)


@dataclass(frozen=True)
class _Layer:
    """One directory's ignore rules: the directory (POSIX, relative to the top: "" for the
    top itself, else ending in "/"), its compiled patterns, and their :func:`_screen`."""

    base: str
    spec: GitIgnoreSpec
    screen: re.Pattern[str] | None = None


def _layer(base: str, spec: GitIgnoreSpec) -> _Layer:
    return _Layer(base, spec, _screen(spec))


#: A named group in a pattern's regular expression (pathspec marks a directory match with
#: one); alternatives of one expression cannot share a name, and the screen needs no group.
_NAMED_GROUP = re.compile(r"(?<!\\)\(\?P<\w+>")


def _screen(spec: GitIgnoreSpec) -> re.Pattern[str] | None:
    """One expression matching where any of the layer's patterns matches (negations too), so
    that a path no pattern names (nearly every path) costs one search instead of one per
    pattern: pathspec tries each pattern in turn, and on a warm scan of a 400k-line corpus
    with long ignore files that was a third of discovery. A path the screen matches is
    checked pattern by pattern as before (last match, negation and directory rules). None
    where the patterns do not combine (then every path is checked in full)."""
    parts: list[str] = []
    flags = None
    for pattern in spec.patterns:
        regex = getattr(pattern, "regex", None)
        if getattr(pattern, "include", None) is None:
            continue  # a comment or blank line: matches nothing
        if not isinstance(regex, re.Pattern) or not isinstance(regex.pattern, str):
            return None
        if flags is None:
            flags = regex.flags
        elif regex.flags != flags:
            return None
        parts.append(f"(?:{_NAMED_GROUP.sub('(?:', regex.pattern)})")
    if not parts:
        return re.compile(r"(?!)")  # matches nothing
    try:
        return re.compile("|".join(parts), flags or 0)
    except re.error:
        return None


@dataclass(frozen=True)
class IgnoreRules:
    """The ignore files in force in one directory; :meth:`enter` gives a sub-directory's.

    Paths are handled relative to the *top*: the repository's top directory when the scan
    root is inside one, else the scan root. ``root`` is the scan root below the top ("" or
    ending in "/").
    """

    root: str = ""
    layers: tuple[_Layer, ...] = ()

    @classmethod
    def for_root(cls, root: Path) -> IgnoreRules:
        root = root.resolve()
        chain = [root]
        for parent in root.parents:
            if (chain[-1] / ".git").exists():
                break
            chain.append(parent)
        if not (chain[-1] / ".git").exists():
            chain = [root]  # not in a repository: only the scanned tree's own files count
        top = chain[-1]
        layers: list[_Layer] = []
        for directory in reversed(chain):
            lines = _read_rules(directory)
            if directory == top and (top / ".git").is_dir():
                lines = _lines(top / ".git" / "info" / "exclude") + lines
            if lines:
                layers.append(_layer(_below(directory, top), _spec(lines, directory)))
        _spent[0] = 0.0  # a new walk
        rules = cls(_below(root, top), tuple(layers))
        # A directory the user names is scanned even when the files above it ignore it (as
        # ruff treats paths passed explicitly): scanning ``.venv/.../torch/nn`` inside a
        # checkout whose .gitignore lists ``.venv/`` must not find nothing. Then only the
        # scanned tree's own ignore files count.
        if any(rules._verdict(_below(d, top).rstrip("/"), True) for d in chain[:-1]):
            return cls("", tuple(layer for layer in (_root_layer(root),) if layer))
        return rules

    def enter(self, directory: Path, rel: str) -> IgnoreRules:
        """The rules inside ``directory`` (``rel``: its POSIX path below the scan root)."""
        lines = _read_rules(directory)
        if not lines:
            return self
        base = self.root if rel in ("", ".") else f"{self.root}{rel}/"
        return IgnoreRules(self.root, (*self.layers, _layer(base, _spec(lines, directory))))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether the path ``rel`` (POSIX, below the scan root) is ignored: the deepest
        layer with a matching pattern decides."""
        if _spent[0] > MATCH_BUDGET_S:
            warn(
                f"matching .gitignore / .ignore patterns took more than {MATCH_BUDGET_S:.0f} s;"
                " the rest of the walk does not apply them (--no-ignore skips them)"
            )
            return False
        started = time.perf_counter()
        try:
            return self._verdict(f"{self.root}{rel}", is_dir)
        finally:
            _spent[0] += time.perf_counter() - started

    def _verdict(self, full: str, is_dir: bool) -> bool:
        from pathspec.util import normalize_file  # as check_file does; imported with the specs

        verdict = False
        for layer in self.layers:
            if not full.startswith(layer.base):
                continue
            path = normalize_file(full[len(layer.base) :] + ("/" if is_dir else ""))
            if layer.screen is not None and layer.screen.search(path) is None:
                continue  # no pattern of this layer names the path
            result = layer.spec.check_file(path)
            if result.include is not None:
                verdict = bool(result.include)
        return verdict


def _root_layer(root: Path) -> _Layer | None:
    lines = _read_rules(root)
    return _layer("", _spec(lines, root)) if lines else None


def _below(directory: Path, top: Path) -> str:
    rel = directory.relative_to(top).as_posix()
    return "" if rel == "." else f"{rel}/"


def _read_rules(directory: Path) -> list[str]:
    lines: list[str] = []
    for name in IGNORE_FILES:
        lines.extend(_lines(directory / name))
    return lines


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
