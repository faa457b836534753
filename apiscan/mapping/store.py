"""Loading the generated mapping CSVs: version choice, the merged view, lookups.

This sits on the scan's hot path, so it reads ``mapping_data/`` with the standard ``csv``
module only (no pandas, torch or mindspore) and caches each loaded table. The merged view
exists because newer tables list fewer APIs (r2.6 maps mostly to ``mindspore.mint`` and has
515 rows where r2.4 had 887): an API the newest table dropped is still better described by
an older table than reported as missing, as long as each row says which table it came from.
"""

from __future__ import annotations

import csv
import hashlib
import json
import pickle
import warnings
import zlib
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
    NO_DESCRIPTION,
    PARAM_DIFFS_FILE,
    SIGNATURES_FILE,
    MappingRow,
    ParamDiff,
)
from apiscan.mapping.versions import (
    DEFAULT_VERSION,
    KNOWN_VERSIONS,
    UnknownVersionError,
    normalize_version,
)

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
    "normalize_version",
]


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
    # Rows of older (or weaker) tables that lost to ``rows`` for the same API.
    history: tuple[MappingRow, ...] = field(default=(), repr=False)
    # Real parameter lists ("name=default" items) of MindSpore targets and diff-page APIs.
    signatures: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    _by_api: dict[str, tuple[MappingRow, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _history: dict[str, tuple[MappingRow, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        for attribute, rows in (("_by_api", self.rows), ("_history", self.history)):
            grouped: dict[str, list[MappingRow]] = {}
            for row in rows:
                grouped.setdefault(row.torch_api, []).append(row)
            object.__setattr__(self, attribute, {api: tuple(rs) for api, rs in grouped.items()})

    def history_for(self, torch_api: str) -> tuple[MappingRow, ...]:
        """The rows other tables give ``torch_api`` that the current rows override."""
        return self._history.get(torch_api, ())

    def params_of(self, api: str) -> tuple[tuple[str, str | None], ...] | None:
        """(name, default text or None) of ``api``'s real signature; ``*args``/``**kw``
        keep their stars. None when the signature is not recorded."""
        items = self.signatures.get(api)
        if items is None:
            return None
        result: list[tuple[str, str | None]] = []
        for item in items:
            name, sep, default = item.partition("=")
            result.append((name, default if sep else None))
        return tuple(result)

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


def load_table(ms_version: str | None = None, *, merge: bool = True) -> MappingTable:
    """The mapping table of ``ms_version`` (default: the newest, ``DEFAULT_VERSION``).

    With ``merge`` (the default), every PyTorch API the version's table lacks is filled in
    from the older tables, newest first, each row keeping its ``source_version``.
    Raises :class:`UnknownVersionError` for a version no table covers.
    """
    return _load_table(MAPPING_DATA_DIR, normalize_version(ms_version), merge)


#: The default table, merged (what every scan without ``--ms-version`` reads), compiled by
#: ``scripts/compile_mapping.py``: unpickling it costs a fraction of parsing the CSVs and
#: building thousands of rows on every run. It is used only while the fingerprint it was
#: compiled under (:func:`table_fingerprint`) still holds, else the CSVs are read.
COMPILED_FILE = "compiled_table.pickle.z"


@cache
def _load_table(data_dir: Path, version: str, merge: bool) -> MappingTable:
    if version == DEFAULT_VERSION and merge:
        compiled = _compiled_table(data_dir)
        if compiled is not None:
            return compiled
    return build_table(data_dir, version, merge)


def table_fingerprint(data_dir: Path, version: str = DEFAULT_VERSION, merge: bool = True) -> str:
    """What a compiled table depends on: the bytes of every file :func:`build_table` reads
    and of the code that turns them into rows (this module and the row types'), and the
    pickle protocol."""
    chain = KNOWN_VERSIONS[KNOWN_VERSIONS.index(version) :] if merge else (version,)
    files = [data_dir / MANIFEST_FILE, data_dir / MS_TARGETS_FILE, data_dir / SIGNATURES_FILE]
    files.append(data_dir / version / GENERAL_PARAMS_FILE)
    for source_version in chain:
        files += [
            data_dir / source_version / API_MAP_FILE,
            data_dir / source_version / PARAM_DIFFS_FILE,
        ]
    here = Path(__file__)
    files += [here, here.with_name("schema.py"), here.with_name("versions.py")]
    digest = hashlib.sha256(f"{version}|{merge}|{pickle.HIGHEST_PROTOCOL}".encode())
    for path in files:
        digest.update(path.name.encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<missing>")
    return digest.hexdigest()


def compile_table(data_dir: Path) -> bytes:
    """The default merged table and its fingerprint, pickled and compressed: the contents of
    :data:`COMPILED_FILE`."""
    table = build_table(data_dir, DEFAULT_VERSION, True)
    blob = pickle.dumps((table_fingerprint(data_dir), table), pickle.HIGHEST_PROTOCOL)
    return zlib.compress(blob, 9)


def _compiled_table(data_dir: Path) -> MappingTable | None:
    """The compiled default table, or None when it is missing, unreadable or stale."""
    try:
        fingerprint, table = pickle.loads(zlib.decompress((data_dir / COMPILED_FILE).read_bytes()))
    except Exception:  # missing, truncated, or pickled by another layout: read the CSVs
        return None
    if fingerprint != table_fingerprint(data_dir) or not isinstance(table, MappingTable):
        return None
    return table


def build_table(data_dir: Path, version: str, merge: bool) -> MappingTable:
    """The table of ``version`` (merged or not) read from the CSVs under ``data_dir``."""
    manifest = _manifest(data_dir)
    chain = KNOWN_VERSIONS[KNOWN_VERSIONS.index(version) :] if merge else (version,)
    per_version = [_version_rows(data_dir, source_version) for source_version in chain]
    rows, history = decide_rows(per_version)
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
        rows=rows,
        history=history,
        signatures=_signatures(data_dir),
    )


def is_undescribed(row: MappingRow) -> bool:
    """A row naming a target without any description or diff page (most r1.10 rows, a few
    r2.0 ones): it says a counterpart exists, not how it differs."""
    return row.note == NO_DESCRIPTION and not row.diff_url


def decide_rows(
    per_version: list[tuple[MappingRow, ...]],
) -> tuple[tuple[MappingRow, ...], tuple[MappingRow, ...]]:
    """(current rows, history rows) from each table's rows, newest table first.

    Per PyTorch API the newest table that describes it wins with all its rows (several
    rows = several targets, e.g. ``torch.optim.SGD`` → ``nn.SGD`` and
    ``experimental.optim.SGD``); a table that only names a target without describing it
    (:func:`is_undescribed`) wins only when no table describes the API. Every other row
    is history, so a report can say what older tables said.
    """
    by_api: dict[str, list[tuple[MappingRow, ...]]] = {}
    for version_rows in per_version:
        grouped: dict[str, list[MappingRow]] = {}
        for row in version_rows:
            grouped.setdefault(row.torch_api, []).append(row)
        for api, api_rows in grouped.items():
            by_api.setdefault(api, []).append(tuple(api_rows))
    current: list[MappingRow] = []
    history: list[MappingRow] = []
    for api in sorted(by_api):
        tables = by_api[api]
        chosen = next((rows for rows in tables if not all(map(is_undescribed, rows))), tables[0])
        current.extend(chosen)
        history.extend(row for rows in tables if rows is not chosen for row in rows)
    return tuple(current), tuple(history)


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
def _platforms(data_dir: Path) -> dict[str, str]:
    path = data_dir / MS_TARGETS_FILE
    if not path.is_file():
        return {}
    return {record["target"]: record.get("platforms", "") for record in _read_csv(path)}


@cache
def _signatures(data_dir: Path) -> dict[str, tuple[str, ...]]:
    path = data_dir / SIGNATURES_FILE
    if not path.is_file():
        return {}
    return {
        record["api"]: tuple(filter(None, record["params"].split(";")))
        for record in _read_csv(path)
    }


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
    platforms = _platforms(data_dir)
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
                table_name=record.get("table_name", ""),
                targets_platforms=tuple(platforms.get(api, "") for api in ms_apis),
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
