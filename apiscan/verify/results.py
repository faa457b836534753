"""Verification results and their cache, readable without torch, MindSpore or numpy.

The scan links the APIs it reports to cached micro-test results (:mod:`apiscan.verify.lookup`)
on every run, so this module stays on the standard library: reading a few hundred small JSON
files costs milliseconds, importing numpy would cost more than that.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from apiscan.verify.cases import Case

Status = str  # "pass" | "fail" | "error" | "skipped"
STATUSES = ("pass", "fail", "error", "skipped")
#: Bump when the harness changes what a result means, so that old cache entries are ignored.
RESULT_FORMAT = 8
#: The detail of a claim case whose table target has no kernel on the device: the claim does
#: not hold there (a result, not a harness skip). :func:`apiscan.cli.verify.broken_claims`
#: and the scan's linked substitutions read this prefix.
NO_KERNEL_PREFIX = "error on "


@dataclass(frozen=True)
class CaseResult:
    """What one case produced; plain data so that it pickles to the parent and caches as
    JSON. The differences are those of the worst output over all variants (and gradients
    when checked); ``worst`` names where they come from."""

    case_id: str
    api: str
    strategy: str
    ms_expr: str
    status: Status
    max_abs: float | None
    mean_abs: float | None
    rel_diff: float | None
    threshold: float
    device: str
    dtype: str
    torch_version: str
    mindspore_version: str
    grad_checked: bool = False
    worst: str = ""
    detail: str = ""
    seconds: float = 0.0
    #: Outputs whose dtype differs although the values agree ("output 1: int64 (torch) vs
    #: int32 (MindSpore)"): reported apart from pass/fail, because int32 indices or float
    #: counts break code downstream (indexing, ``bincount`` results used as sizes) without a
    #: single value being wrong.
    dtype_diff: str = ""
    #: What the frameworks wrote to stdout/stderr while the case ran (MindSpore's C++
    #: ``[ERROR] KERNEL ...`` lines, Python warnings), one distinct line each, captured by the
    #: runner's child instead of reaching the terminal.
    log: str = ""

    @property
    def dtype_differs(self) -> bool:
        return bool(self.dtype_diff)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@functools.cache
def framework_versions() -> tuple[str, str]:
    """Installed torch and MindSpore versions, read from package metadata without importing
    them (``"absent"`` when one is missing). Read once per process: every cached result's key
    holds them, and parsing the metadata for each of a scan's hundreds of lookups cost
    seconds. ``importlib.metadata`` is imported here, not with the module: a scan that
    links no verification result never asks (the import costs ~30 ms of CPU)."""
    from importlib import metadata

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "absent"

    return version("torch"), version("mindspore")


class ResultCache:
    """One JSON file per (case, spec hash, torch version, MindSpore version, device, dtype):
    a scan can show verification results without re-running anything."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def key(self, case: Case, device: str, dtype: str) -> str:
        torch_version, ms_version = framework_versions()
        parts = [str(RESULT_FORMAT), case.case_id, case.spec_hash(), torch_version, ms_version]
        return hashlib.sha256("\0".join([*parts, device, dtype]).encode()).hexdigest()[:32]

    def get(self, case: Case, device: str, dtype: str) -> CaseResult | None:
        """The cached result, or ``None`` when there is none or the entry cannot be trusted.

        An entry that is not a complete result (torn write, disk damage, another tool's file
        under our name, an older layout) is a miss and is removed, so the next ``apiscan
        verify`` writes a sound one in its place: the cache heals instead of hiding the case
        behind a broken file forever."""
        try:
            os.stat(self.directory)
        except FileNotFoundError:  # nothing verified yet (most scans): no key to compute
            return None
        except OSError:
            pass  # said below, once
        path = self.directory / f"{self.key(case, device, dtype)}.json"
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:  # a directory or an unreadable file under our name
            if exc.errno == errno.ENOTDIR and not self.directory.parent.is_dir():
                return None  # the cache path is a file: the scan's cache has said so, once
            where = f"result {path}"
            if exc.errno == errno.ENOTDIR or not os.access(self.directory, os.R_OK | os.X_OK):
                where = f"results in {self.directory}"  # one line for all of them
            _warn_once(f"the verification {where} cannot be read ({exc.strerror})")
            return None
        result = _result_from(raw)
        if result is None or result.case_id != case.case_id:
            self._discard(path)
            return None
        return result

    def empty(self) -> bool:
        """Whether no result is kept at all (no directory, or no result file in it): every
        :meth:`get` would miss, so a scan's per-finding form checks can be skipped. A
        directory that cannot be listed is not called empty (:meth:`get` says why)."""
        try:
            with os.scandir(self.directory) as entries:
                return not any(e.name.endswith(".json") for e in entries)
        except FileNotFoundError:
            return True
        except OSError:
            return False

    def put(self, case: Case, result: CaseResult) -> None:
        """Writes the result atomically; a cache that cannot be written costs the cache, never
        the results of the run (one warning line)."""
        path = self.directory / f"{self.key(case, result.device, result.dtype)}.json"
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(result.to_dict(), sort_keys=True), encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            _warn_once(
                f"verification results cannot be saved in {self.directory} ({exc.strerror}); "
                "they are shown but not cached"
            )

    @staticmethod
    def _discard(path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            return  # a read-only cache is still read; the bad entry stays a miss
        _warn_once(f"removed a damaged verification result {path.name}; it runs again")


def _result_from(raw: bytes) -> CaseResult | None:
    """A result when ``raw`` is the JSON of one, with every field of the right type."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(data, dict) or set(data) != {f.name for f in fields(CaseResult)}:
        return None
    for f in fields(CaseResult):
        value = data[f.name]
        kinds = _FIELD_KINDS[f.name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            return None
    if data["status"] not in STATUSES:
        return None
    return CaseResult(**data)


_NUMBER = (int, float)
#: The JSON types each field of a cached result may hold (``None`` only where it may be absent).
_FIELD_KINDS: dict[str, tuple[type, ...]] = {
    **{f.name: (str,) for f in fields(CaseResult)},
    "max_abs": (*_NUMBER, type(None)),
    "mean_abs": (*_NUMBER, type(None)),
    "rel_diff": (*_NUMBER, type(None)),
    "threshold": _NUMBER,
    "seconds": _NUMBER,
    "grad_checked": (bool,),
}
#: Verdict of a claim whose target has no kernel on the device but whose own documentation
#: lists other platforms only ("Supported Platforms: Ascend"): not a broken claim, the claim
#: is untestable here. Kept as a skip with this prefix so reports can say why.
DOCUMENTED_ELSEWHERE_PREFIX = "no kernel on "


def _warn_once(message: str) -> None:
    from apiscan.errors import warn

    warn(message)


def cache_in(cache_dir: Path) -> ResultCache:
    """The verification results kept under apiscan's cache directory (``<dir>/verify``):
    where ``apiscan verify`` writes them and the scan reads them."""
    return ResultCache(cache_dir / "verify")
