"""Verification results and their cache, readable without torch, MindSpore or numpy.

The scan links the APIs it reports to cached micro-test results (:mod:`apiscan.verify.lookup`)
on every run, so this module stays on the standard library: reading a few hundred small JSON
files costs milliseconds, importing numpy would cost more than that.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, fields
from importlib import metadata
from pathlib import Path
from typing import Any

from apiscan.verify.cases import Case

Status = str  # "pass" | "fail" | "error" | "skipped"
STATUSES = ("pass", "fail", "error", "skipped")
#: Bump when the harness changes what a result means, so that old cache entries are ignored.
RESULT_FORMAT = 5
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def framework_versions() -> tuple[str, str]:
    """Installed torch and MindSpore versions, read from package metadata without importing
    them (``"absent"`` when one is missing)."""

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
        #: Read once per cache: reading package metadata costs ~1.5 ms a package, and a scan
        #: looks up hundreds of cases (an editor's buffer check, every edit).
        self._versions: tuple[str, str] | None = None

    def key(self, case: Case, device: str, dtype: str) -> str:
        if self._versions is None:
            self._versions = framework_versions()
        torch_version, ms_version = self._versions
        parts = [str(RESULT_FORMAT), case.case_id, case.spec_hash(), torch_version, ms_version]
        return hashlib.sha256("\0".join([*parts, device, dtype]).encode()).hexdigest()[:32]

    def get(self, case: Case, device: str, dtype: str) -> CaseResult | None:
        path = self.directory / f"{self.key(case, device, dtype)}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        names = {f.name for f in fields(CaseResult)}
        return CaseResult(**data) if set(data) == names else None

    def put(self, case: Case, result: CaseResult) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"{self.key(case, result.device, result.dtype)}.json"
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(result.to_dict(), sort_keys=True), encoding="utf-8")
        tmp.replace(path)


def cache_in(cache_dir: Path) -> ResultCache:
    """The verification results kept under apiscan's cache directory (``<dir>/verify``):
    where ``apiscan verify`` writes them and the scan reads them."""
    return ResultCache(cache_dir / "verify")
