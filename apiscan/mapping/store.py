"""Loading the generated mapping CSVs: version choice, the merged view, lookups.

This sits on the scan's hot path, so it reads ``mapping_data/`` with the standard ``csv``
module only (no pandas, torch or mindspore) and caches each loaded table. The merged view
exists because newer tables list fewer APIs (r2.6 maps mostly to ``mindspore.mint`` and has
515 rows where r2.4 had 887): an API the newest table dropped is still better described by
an older table than reported as missing, as long as each row says which table it came from.
"""

from __future__ import annotations

import csv
import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from apiscan.mapping.schema import (
    API_MAP_FILE,
    GENERAL_PARAMS_FILE,
    MANIFEST_FILE,
    MS_API_SEPARATOR,
    MS_TARGETS_FILE,
    PARAM_DIFFS_FILE,
    MappingRow,
    ParamDiff,
)

KNOWN_VERSIONS: tuple[str, ...] = ("2.6", "2.4", "2.3", "2.0", "1.10")
DEFAULT_VERSION: str = "2.6"

__all__ = [
    "DEFAULT_VERSION",
    "KNOWN_VERSIONS",
    "MAPPING_DATA_DIR",
    "MappingRow",
    "MappingTable",
    "ParamDiff",
    "UnknownVersionError",
    "load_table",
    "mapping_data_dir",
]


class UnknownVersionError(ValueError):
    """A mapping version no shipped table covers."""

    def __init__(self, version: str) -> None:
        self.version = version
        super().__init__(
            f"unknown MindSpore mapping version {version!r};"
            f" known versions: {', '.join(KNOWN_VERSIONS)}"
        )


def mapping_data_dir() -> Path:
    """The generated data: ``mapping_data/`` beside the package in a checkout, else the
    copy a wheel ships as ``apiscan/_data/mapping_data``."""
    package = Path(__file__).resolve().parents[1]
    checkout = package.parent / "mapping_data"
    if (checkout / MANIFEST_FILE).is_file():
        return checkout
    return package / "_data" / "mapping_data"


MAPPING_DATA_DIR: Path = mapping_data_dir()


@dataclass(frozen=True)
class MappingTable:
    """The mapping rows of one version (``merged=False``) or of a version with older tables
    filling in the APIs it lacks (``merged=True``). Iteration yields every row sorted by
    PyTorch API, the rows of one API in table order (primary first)."""

    version: str
    merged: bool
    sources: tuple[dict[str, str], ...]
    general_params: tuple[str, ...]
    rows: tuple[MappingRow, ...] = field(repr=False)
    _by_api: dict[str, tuple[MappingRow, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        grouped: dict[str, list[MappingRow]] = {}
        for row in self.rows:
            grouped.setdefault(row.torch_api, []).append(row)
        object.__setattr__(self, "_by_api", {api: tuple(rs) for api, rs in grouped.items()})

    def lookup(self, torch_api: str) -> MappingRow | None:
        """The primary row of ``torch_api``, or None if no table used lists it."""
        rows = self._by_api.get(torch_api)
        return rows[0] if rows else None

    def rows_for(self, torch_api: str) -> tuple[MappingRow, ...]:
        """Every row of ``torch_api`` in table order (empty if it is not listed)."""
        return self._by_api.get(torch_api, ())

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[MappingRow]:
        return iter(self.rows)


def normalize_version(ms_version: str | None) -> str:
    """``None`` → the default; ``"2.4.0"``/``"r2.4.0"`` → ``"2.4"``; unknown → error."""
    if ms_version is None:
        return DEFAULT_VERSION
    text = ms_version.strip().removeprefix("r")
    parts = text.split(".")
    candidate = ".".join(parts[:2])
    if candidate in KNOWN_VERSIONS and all(part.isdigit() for part in parts):
        return candidate
    raise UnknownVersionError(ms_version)


def load_table(ms_version: str | None = None, *, merge: bool = True) -> MappingTable:
    """The mapping table of ``ms_version`` (default: the newest, ``DEFAULT_VERSION``).

    With ``merge`` (the default), every PyTorch API the version's table lacks is filled in
    from the older tables, newest first, each row keeping its ``source_version``.
    Raises :class:`UnknownVersionError` for a version no table covers.
    """
    return _load_table(MAPPING_DATA_DIR, normalize_version(ms_version), merge)


@cache
def _load_table(data_dir: Path, version: str, merge: bool) -> MappingTable:
    manifest = _manifest(data_dir)
    chain = KNOWN_VERSIONS[KNOWN_VERSIONS.index(version) :] if merge else (version,)
    rows: list[MappingRow] = []
    seen: set[str] = set()
    for source_version in chain:
        version_rows = _version_rows(data_dir, source_version)
        rows.extend(row for row in version_rows if row.torch_api not in seen)
        seen.update(row.torch_api for row in version_rows)
    rows.sort(key=lambda row: row.torch_api)  # stable: keeps each API's table order
    sources = tuple(
        {
            "version": source_version,
            "branch": manifest["versions"][source_version]["branch"],
            "commit": manifest["versions"][source_version]["commit"],
        }
        for source_version in chain
    )
    return MappingTable(
        version=version,
        merged=merge,
        sources=sources,
        general_params=_general_params(data_dir, version),
        rows=tuple(rows),
    )


@cache
def _manifest(data_dir: Path) -> dict[str, dict[str, dict[str, str]]]:
    with (data_dir / MANIFEST_FILE).open(encoding="utf-8") as handle:
        manifest: dict[str, dict[str, dict[str, str]]] = json.load(handle)
    return manifest


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@cache
def _general_params(data_dir: Path, version: str) -> tuple[str, ...]:
    return tuple(record["name"] for record in _read_csv(data_dir / version / GENERAL_PARAMS_FILE))


@cache
def _ms_targets(data_dir: Path) -> dict[str, bool]:
    path = data_dir / MS_TARGETS_FILE
    if not path.is_file():
        return {}
    return {record["target"]: record["exists"] == "true" for record in _read_csv(path)}


@cache
def _version_rows(data_dir: Path, version: str) -> tuple[MappingRow, ...]:
    """One version's rows in file order (sorted by API, then rank)."""
    params: dict[tuple[str, str], list[ParamDiff]] = {}
    for record in _read_csv(data_dir / version / PARAM_DIFFS_FILE):
        params.setdefault((record["torch_api"], record["diff_url"]), []).append(
            ParamDiff(
                record["category"],
                record["subcategory"],
                record["torch_param"],
                record["ms_param"],
                record["note"],
            )
        )
    targets = _ms_targets(data_dir)
    unknown: set[str] = set()
    rows = []
    for record in _read_csv(data_dir / version / API_MAP_FILE):
        ms_apis = tuple(filter(None, record["ms_apis"].split(MS_API_SEPARATOR)))
        exists = tuple(targets.get(api) for api in ms_apis)
        unknown.update(api for api, flag in zip(ms_apis, exists, strict=True) if flag is None)
        rows.append(
            MappingRow(
                torch_api=record["torch_api"],
                ms_apis=ms_apis,
                status=record["status"],
                note=record["note"],
                diff_url=record["diff_url"],
                namespace=record["namespace"],
                source_version=version,
                target_exists=_row_exists(exists),
                params=tuple(params.get((record["torch_api"], record["diff_url"]), ()))
                if record["diff_url"]
                else (),
                targets_exist=exists,
                description=record["description"],
            )
        )
    if unknown:
        warnings.warn(
            f"{MS_TARGETS_FILE} does not know {len(unknown)} MindSpore target(s) of the"
            f" {version} table (e.g. {sorted(unknown)[0]}); their existence is unknown."
            " Regenerate it with scripts/gen_ms_targets.py.",
            stacklevel=2,
        )
    return tuple(rows)


def _row_exists(flags: tuple[bool | None, ...]) -> bool | None:
    """True if any target exists, False if every target is known to be gone, else None."""
    if any(flags):
        return True
    if flags and all(flag is False for flag in flags):
        return False
    return None
