"""Project configuration: ``[tool.apiscan]`` in ``pyproject.toml``, or ``apiscan.toml``.

Found the way ruff finds its own: walk up from the scanned path (a file's directory, or the
directory itself) to the file system root, and take the first directory holding an
``apiscan.toml`` (top-level keys) or a ``pyproject.toml`` with a ``[tool.apiscan]`` table; in
one directory ``apiscan.toml`` wins. Paths in ``exclude``, ``extend-exclude`` and
``per-file-ignores`` are relative to that directory. Command-line flags override what the file
says; :func:`resolve` records where every effective value came from, which is what
``apiscan config`` prints. An unknown key or a bad value is a :class:`ConfigError` naming the
file and the key (exit status 2): a typo must not be silently ignored.

Keys::

    exclude = ["vendor", "*_pb2.py"]      # replaced by --exclude
    extend-exclude = ["legacy/"]          # always added
    ms-version = "2.4"
    fail-on = "missing"                   # or "different"
    max-file-size = 2000000
    ignore = ["DS116", "API005"]          # rule ids, or prefixes: "DS1" is DS101...DS122
    per-file-ignores = { "tests/*" = ["DS1"] }
    respect-ignore-files = true           # .gitignore / .ignore (--no-ignore turns it off)
    verify-device = "CPU"
    verify-dtype = "float32"
    review-ancillary = ["tools/", "hubconf.py"]  # files the review's effort counts apart
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

CONFIG_FILES = ("apiscan.toml", "pyproject.toml")
DEVICES = ("CPU", "GPU", "Ascend")
DTYPES = ("float32", "float16")
FAIL_ON_VALUES = ("different", "missing")
DEFAULTS: dict[str, Any] = {
    "exclude": [],
    "extend-exclude": [],
    "ms-version": None,
    "fail-on": None,
    "max-file-size": 1_000_000,
    "ignore": [],
    "per-file-ignores": {},
    "respect-ignore-files": True,
    "verify-device": "CPU",
    "verify-dtype": "float32",
    "review-ancillary": None,  # None: the review's built-in tools/demo/export/hub patterns
}
#: A rule id or a prefix of one: ``DS1``, ``DS101``, ``API``.
_RULE_PREFIX = re.compile(r"^[A-Z]+[0-9]{0,3}$")
DEFAULT_SOURCE = "default"
CLI_SOURCE = "command line"


class ConfigError(Exception):
    """A configuration file that cannot be used; one line naming the file and the key."""


@dataclass(frozen=True)
class Ignores:
    """Which findings the configuration drops: by rule id (or prefix) everywhere, or only in
    files matching a glob. ``prefix`` is the scan root's path below the configuration's
    directory, so patterns keep meaning what they say wherever the scan starts."""

    rules: tuple[str, ...] = ()
    per_file: tuple[tuple[str, tuple[str, ...]], ...] = ()
    prefix: str = ""

    def __bool__(self) -> bool:
        return bool(self.rules or self.per_file)

    def ignored(self, path: str, rule: str) -> bool:
        if _rule_matches(rule, self.rules):
            return True
        if not self.per_file:
            return False
        full = f"{self.prefix}{path}"
        return any(
            _rule_matches(rule, ids) and path_matches(full, pattern)
            for pattern, ids in self.per_file
        )


def _rule_matches(rule: str, prefixes: tuple[str, ...]) -> bool:
    return any(rule.startswith(prefix) for prefix in prefixes)


def path_matches(path: str, pattern: str) -> bool:
    """``tests/*``, ``tests/``, ``tests`` and ``*_test.py`` match the way users expect: a
    directory pattern covers everything below it; a pattern without a slash also matches a
    file name anywhere."""
    pattern = pattern.removeprefix("./")
    bare = pattern.rstrip("/")
    name = path.rsplit("/", 1)[-1]
    return (
        fnmatch.fnmatch(path, pattern)
        or fnmatch.fnmatch(path, f"{bare}/*")
        or ("/" not in bare and fnmatch.fnmatch(name, bare))
    )


@dataclass(frozen=True)
class Config:
    """The settings one file gives (only the keys it sets), and where it is."""

    path: Path | None = None
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def root(self) -> Path | None:
        return self.path.parent if self.path else None


def find_config(start: str | os.PathLike[str]) -> Path | None:
    """The configuration file that governs ``start``, or None."""
    here = Path(start).resolve()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        for name in CONFIG_FILES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            if name == "apiscan.toml":
                return candidate
            import tomllib  # here: a tree without a pyproject.toml never needs it

            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                # A broken pyproject.toml that may not even be ours: say so only if it is.
                if "[tool.apiscan" in _read_quietly(candidate):
                    return candidate
                continue
            if "apiscan" in data.get("tool", {}):
                return candidate
    return None


def _read_quietly(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def load_config(path: Path) -> Config:
    """Read and validate one configuration file."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    table: Any = data
    where = ""
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("apiscan", {})
        where = "[tool.apiscan] "
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {where or 'the file'} must be a table")
    return Config(path, {key: _validate(path, where, key, value) for key, value in table.items()})


def _validate(path: Path, where: str, key: str, value: Any) -> Any:
    def bad(expected: str) -> ConfigError:
        return ConfigError(f"{path}: {where}{key} = {value!r}: expected {expected}")

    if key not in DEFAULTS:
        close = [k for k in DEFAULTS if k.replace("-", "_") == key.replace("-", "_")]
        hint = f" (did you mean {close[0]!r}?)" if close else f"; known keys: {', '.join(DEFAULTS)}"
        raise ConfigError(f"{path}: {where}unknown key {key!r}{hint}")
    if key in ("exclude", "extend-exclude", "review-ancillary"):
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise bad("a list of glob strings")
        return list(value)
    if key == "ignore":
        return _rule_list(value, bad)
    if key == "per-file-ignores":
        if not isinstance(value, dict):
            raise bad('a table of glob = ["RULE", ...]')
        checked = {}
        for pattern, ids in value.items():
            message = f'{path}: {where}{key} "{pattern}" = {ids!r}: expected {{}}'
            checked[pattern] = _rule_list(ids, lambda e, m=message: ConfigError(m.format(e)))
        return checked
    if key == "ms-version":
        from apiscan.mapping.versions import KNOWN_VERSIONS

        if not isinstance(value, str) or value not in KNOWN_VERSIONS:
            raise bad(f"one of {', '.join(KNOWN_VERSIONS)}")
        return value
    if key == "fail-on":
        return _choice(value, FAIL_ON_VALUES, bad)
    if key == "verify-device":
        return _choice(value, DEVICES, bad)
    if key == "verify-dtype":
        return _choice(value, DTYPES, bad)
    if key == "max-file-size":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad("a positive number of bytes")
        return value
    if key == "respect-ignore-files":
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    raise AssertionError(key)  # every key of DEFAULTS is handled above


def _rule_list(value: Any, bad: Any) -> list[str]:
    expected = 'a list of rule ids or prefixes such as ["DS1", "API005"]'
    if not isinstance(value, list):
        raise bad(expected)
    for item in value:
        if not isinstance(item, str) or not _RULE_PREFIX.match(item):
            raise bad(expected)
    return list(value)


def _choice(value: Any, choices: tuple[str, ...], bad: Any) -> str:
    if value not in choices:
        raise bad(f"one of {', '.join(choices)}")
    return str(value)


@dataclass(frozen=True)
class Settings:
    """The effective settings of one run and where each came from."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]
    config: Config

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def excludes(self, scan_base: Path) -> tuple[str, ...]:
        """``exclude`` + ``extend-exclude``, rebased from the configuration's directory onto
        the scan root (patterns for other parts of the tree are dropped)."""
        patterns = [*self.values["exclude"], *self.values["extend-exclude"]]
        if self.sources["exclude"] == CLI_SOURCE:
            # --exclude GLOB is relative to PATH already; extend-exclude still comes from the file.
            cli = list(self.values["exclude"])
            return (*cli, *_rebase(self.values["extend-exclude"], self._prefix(scan_base)))
        return tuple(_rebase(patterns, self._prefix(scan_base)))

    def ignores(self, scan_base: Path) -> Ignores:
        per_file = tuple(
            (pattern, tuple(ids)) for pattern, ids in self.values["per-file-ignores"].items()
        )
        return Ignores(tuple(self.values["ignore"]), per_file, self._prefix(scan_base))

    def _prefix(self, scan_base: Path) -> str:
        """The scan root relative to the configuration's directory, as ``sub/dir/`` or ""."""
        root = self.config.root
        if root is None:
            return ""
        try:
            rel = scan_base.resolve().relative_to(root.resolve())
        except ValueError:
            return ""
        return "" if str(rel) == "." else f"{PurePosixPath(rel)}/"


def _rebase(patterns: list[str], prefix: str) -> list[str]:
    """Patterns relative to the configuration's directory → relative to the scan root."""
    result = []
    for pattern in patterns:
        pattern = pattern.removeprefix("./")
        if not prefix or "/" not in pattern.rstrip("/"):
            result.append(pattern)  # a name pattern matches anywhere
        elif pattern.startswith(prefix):
            result.append(pattern[len(prefix) :] or ".")
        elif pattern.startswith("*"):
            result.append(pattern)
    return result


def resolve(start: str | os.PathLike[str] | None, cli: Mapping[str, Any]) -> Settings:
    """Defaults, then the configuration governing ``start``, then the command line (``None``
    in ``cli`` means "not given")."""
    found = find_config(start if start is not None else Path.cwd())
    config = load_config(found) if found else Config()
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, default in DEFAULTS.items():
        if cli.get(key) is not None:
            values[key], sources[key] = cli[key], CLI_SOURCE
        elif key in config.values:
            values[key], sources[key] = config.values[key], str(config.path)
        else:
            values[key], sources[key] = default, DEFAULT_SOURCE
    return Settings(values, sources, config)


def render_settings(settings: Settings, fmt: str = "text") -> str:
    """What ``apiscan config`` prints: every key, its value, where it came from."""
    if fmt == "json":
        import json

        doc = {
            "config_file": str(settings.config.path) if settings.config.path else None,
            "settings": {
                key: {"value": settings.values[key], "source": settings.sources[key]}
                for key in DEFAULTS
            },
        }
        return json.dumps(doc, indent=2) + "\n"
    lines = [f"# configuration file: {settings.config.path or 'none found'}"]
    for key in DEFAULTS:
        lines.append(f"{key} = {_toml_value(settings.values[key])}  # {settings.sources[key]}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    return str(value)
