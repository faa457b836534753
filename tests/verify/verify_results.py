"""One builder of made-up micro-test results, for tests that feed reporters, the result cache
and the scan's link without running torch or MindSpore."""

from __future__ import annotations

from apiscan.verify.results import CaseResult


def case_result(
    case_id: str,
    status: str,
    *,
    api: str | None = None,
    strategy: str = "mapped",
    ms_expr: str = "mint.x(x)",
    max_abs: float | None = None,
    detail: str = "",
) -> CaseResult:
    """A CPU/float32 result of torch 2.13.0 vs MindSpore 2.10.0 with threshold 1e-5; the mean
    and relative differences repeat ``max_abs``."""
    return CaseResult(
        case_id=case_id,
        api=case_id if api is None else api,
        strategy=strategy,
        ms_expr=ms_expr,
        status=status,
        max_abs=max_abs,
        mean_abs=max_abs,
        rel_diff=max_abs,
        threshold=1e-5,
        device="CPU",
        dtype="float32",
        torch_version="2.13.0",
        mindspore_version="2.10.0",
        detail=detail,
    )
