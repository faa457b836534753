"""The scan's link to verification: substitutions and cached micro-test results per API.

Runs after every scan, including one served whole from the scan cache, because the results
it reads change when the user runs ``apiscan verify``, not when the code changes. It reads
the catalogue (plain data) and the result cache (small JSON files) and never runs a test or
imports torch, MindSpore or numpy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from apiscan.model import ApiFinding, ScanResult, Substitution
from apiscan.verify.results import ResultCache

#: Statuses whose APIs the report links to substitutions.
LINKED_STATUSES = frozenset({"missing", "candidate", "different"})
#: Results that stop a same-name candidate from being called verified.
BROKEN = frozenset({"fail", "error"})


def substitutions(
    apis: Iterable[str], cache: ResultCache | None, device: str = "CPU", dtype: str = "float32"
) -> tuple[Substitution, ...]:
    """One row per catalogue case of each API, with its cached result or "not run"."""
    from apiscan.verify.catalogue import cases_for

    rows = []
    for api in sorted(set(apis)):
        for case in cases_for(api):
            result = cache.get(case, device, dtype) if cache is not None else None
            rows.append(
                Substitution(
                    api=api,
                    case_id=case.case_id,
                    strategy=case.strategy,
                    ms_expr=case.ms_expr,
                    note=case.note,
                    verification=result.status if result else "not run",
                    max_abs=result.max_abs if result else None,
                    threshold=result.threshold if result else case.threshold_for(dtype),
                    device=result.device if result else device,
                    dtype=result.dtype if result else dtype,
                    mindspore_version=result.mindspore_version if result else "",
                )
            )
    return tuple(sorted(rows, key=lambda s: (s.api, s.case_id)))


def link(
    result: ScanResult, cache: ResultCache | None, device: str = "CPU", dtype: str = "float32"
) -> ScanResult:
    """``result`` with its substitutions filled in and each name-based candidate whose
    same-name micro-test passed promoted to ``verified``."""
    apis = {f.api for f in result.api_findings if f.status in LINKED_STATUSES}
    subs = substitutions(apis, cache, device, dtype)
    same_name: dict[str, list[Substitution]] = {}
    for sub in subs:
        if sub.strategy == "same-name":
            same_name.setdefault(sub.api, []).append(sub)
    # Verified: a same-name micro-test passed and none of the API's others failed.
    proven = {
        api: next(s for s in found if s.verified)
        for api, found in same_name.items()
        if any(s.verified for s in found) and not any(s.verification in BROKEN for s in found)
    }
    if not proven:
        return replace(result, substitutions=subs)
    findings = [
        _promote(f, proven[f.api])
        if isinstance(f, ApiFinding) and f.status == "candidate" and f.api in proven
        else f
        for f in result.findings
    ]
    return replace(result, findings=tuple(findings), substitutions=subs)


def _promote(finding: ApiFinding, proof: Substitution) -> ApiFinding:
    note = (
        f"{finding.mindspore_api} (same name; not in the mapping table) passed its micro-test "
        f"{proof.case_id}: {proof.describe()}"
    )
    return replace(finding, status="verified", note=note)
