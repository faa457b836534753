"""The zoo's manifest: which repositories, under which names, with which weights and tags.

Three forms, told apart by the file name's suffix:

* plain text (any other suffix): one local path or git URL per line, a git URL optionally
  pinned as ``URL@commit`` (a commit, tag or branch); ``#`` starts a comment;
* CSV (``.csv``): a header with ``source`` (or ``url``/``path``) and optionally ``name``,
  ``commit``, ``weight``, ``tags`` (separated by ``;`` or spaces) and the repository's own
  task limits ``memory_mb`` and ``timeout_s`` (a huge repository may need more);
* TOML (``.toml``): ``[[repository]]`` tables with the same keys (``tags`` a list).

A relative local path is relative to the manifest's directory, so a manifest travels with the
repositories beside it. Names must be unique: they are what the database and the report call a
repository, and the repository's id is derived from the name alone (stable across engines and
re-runs).
"""

from __future__ import annotations

import csv
import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

#: What makes a manifest entry a git URL rather than a local path.
_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@[^:]+:)", re.IGNORECASE)


class ManifestError(ValueError):
    """A manifest that cannot be read; the message names the file and the line or entry."""


@dataclass(frozen=True)
class Entry:
    """One repository of the zoo. ``source`` is an absolute local path or a git URL;
    ``ref`` the commit/tag/branch asked for (git only; empty: the remote's HEAD)."""

    name: str
    source: str
    ref: str = ""
    weight: float = 1.0
    tags: tuple[str, ...] = ()
    #: This repository's own task limits (None: the run's ``--task-memory``/``--task-timeout``).
    memory_mb: int | None = None
    timeout_s: float | None = None

    @property
    def is_git(self) -> bool:
        return bool(_URL.match(self.source))

    @property
    def repo_id(self) -> str:
        """A stable id: the same name gives the same id in every run and with every engine."""
        return hashlib.sha256(self.name.encode()).hexdigest()[:16]


def split_ref(text: str) -> tuple[str, str]:
    """``URL@commit`` → (URL, commit); a local path or an ``ssh`` user part is left alone."""
    if not _URL.match(text):
        return text, ""
    head, sep, tail = text.rpartition("@")
    # git@host:path has its '@' before the host; a ref never contains '/' ':' before it.
    if sep and "/" in head and ":" not in tail and "/" not in tail.rstrip("/"):
        return head, tail
    return text, ""


def default_name(source: str) -> str:
    """The last path component without ``.git`` (``.../yolov5.git`` → ``yolov5``)."""
    tail = source.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return tail.removesuffix(".git") or source


def read_manifest(path: Path) -> list[Entry]:
    """The entries of ``path``, in manifest order; raises :class:`ManifestError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"cannot read manifest {path}: {exc}") from exc
    suffix = path.suffix.lower()
    if suffix == ".csv":
        raw = _from_csv(path, text)
    elif suffix == ".toml":
        raw = _from_toml(path, text)
    else:
        raw = _from_text(text)
    entries = [_entry(path, where, fields) for where, fields in raw]
    seen: dict[str, str] = {}
    for (where, _), entry in zip(raw, entries, strict=True):
        if entry.name in seen:
            raise ManifestError(
                f"{path}: {where}: name {entry.name!r} is used twice (also {seen[entry.name]});"
                " give one of them a name"
            )
        seen[entry.name] = where
    if not entries:
        raise ManifestError(f"{path}: the manifest lists no repository")
    return entries


def _from_text(text: str) -> list[tuple[str, dict[str, object]]]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if line:
            rows.append((f"line {number}", {"source": line}))
    return rows


def _from_csv(path: Path, text: str) -> list[tuple[str, dict[str, object]]]:
    reader = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    fields = {f.strip().lower() for f in reader.fieldnames or ()}
    if not fields & {"source", "url", "path"}:
        raise ManifestError(f"{path}: the CSV header needs a 'source' (or 'url'/'path') column")
    rows = []
    for number, row in enumerate(reader, 2):
        clean = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        if any(clean.values()):
            rows.append((f"row {number}", dict(clean)))
    return rows


def _from_toml(path: Path, text: str) -> list[tuple[str, dict[str, object]]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: not valid TOML: {exc}") from exc
    tables = data.get("repository", data.get("repositories", []))
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ManifestError(f"{path}: expected [[repository]] tables")
    return [(f"repository {i}", dict(t)) for i, t in enumerate(tables, 1)]


def _entry(manifest: Path, where: str, fields: dict[str, object]) -> Entry:
    source = str(fields.get("source") or fields.get("url") or fields.get("path") or "").strip()
    if not source:
        raise ManifestError(f"{manifest}: {where}: no source (a local path or git URL)")
    source, ref = split_ref(source)
    ref = str(fields.get("commit") or fields.get("ref") or ref).strip()
    if not _URL.match(source):
        local = Path(source).expanduser()
        if not local.is_absolute():
            local = manifest.parent / local
        source = str(local.resolve())
        if ref:
            raise ManifestError(
                f"{manifest}: {where}: a commit pins git URLs only; {source} is a local path"
            )
    try:
        weight = float(str(fields.get("weight") or 1.0))
    except ValueError as exc:
        raise ManifestError(f"{manifest}: {where}: weight must be a number") from exc
    if not weight > 0:
        raise ManifestError(f"{manifest}: {where}: weight must be positive")
    tags = fields.get("tags") or ()
    if isinstance(tags, str):
        tags = re.split(r"[;,\s]+", tags)
    if not isinstance(tags, list | tuple):
        raise ManifestError(f"{manifest}: {where}: tags must be a list or a string")
    name = str(fields.get("name") or "").strip() or default_name(source)
    limits = []
    for key in ("memory_mb", "timeout_s"):
        value = fields.get(key)
        try:
            limits.append(float(str(value)) if value not in (None, "") else None)
        except ValueError as exc:
            raise ManifestError(f"{manifest}: {where}: {key} must be a number") from exc
    memory = int(limits[0]) if limits[0] is not None else None
    tagset = tuple(sorted({str(t) for t in tags if str(t)}))
    return Entry(name, source, ref, weight, tagset, memory, limits[1])
