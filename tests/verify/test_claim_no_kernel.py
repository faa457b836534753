"""A ``claim:`` case whose table target has no kernel on the device is a claim that does not
hold there; an ordinary case's missing kernel, or torch lacking a float16 kernel, is a harness
skip. Tested on the classification and the reports, without needing a real missing kernel."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

pytest.importorskip("numpy")

from verify_results import case_result

from apiscan.cli.verify import broken_claims, render
from apiscan.model import Substitution
from apiscan.verify.catalogue import cases_for
from apiscan.verify.harness import claim_target, classify_side_error
from apiscan.verify.lookup import substitutions
from apiscan.verify.results import CaseResult, ResultCache

NO_KERNEL = "mindspore: RuntimeError: The kernel FillScalar unregistered for CPU"


def _claim(pattern: str):
    return next(c for c in cases_for("torch.full") if c.pattern == pattern)


def test_claim_cases_name_their_table_target() -> None:
    case = _claim("claim: torch.full((2, 3), 1.5)")
    assert claim_target(case) == "mindspore.mint.full"
    assert claim_target(_claim("")) == ""  # not a claim case


def test_missing_kernel_of_a_claim_target_is_an_error_on_cpu() -> None:
    status, detail = classify_side_error(
        _claim("claim: torch.full((2, 3), 1.5)"), "mindspore", NO_KERNEL, "CPU", "float32"
    )
    assert status == "error"
    assert detail.startswith("error on CPU: no kernel for mindspore.mint.full (documented for ")


@pytest.mark.parametrize(
    ("pattern", "side", "message", "expected"),
    [
        ("", "mindspore", NO_KERNEL, "skipped"),  # an ordinary case: the device lacks it
        # torch's CPU build lacks a Half kernel: nothing to compare with, for any case
        (
            "claim: torch.full((2, 3), 1.5)",
            "torch",
            "torch: RuntimeError: \"fill\" not implemented for 'Half'",
            "skipped",
        ),
        ("claim: torch.full((2, 3), 1.5)", "mindspore", "mindspore: TypeError: bad", "error"),
    ],
)
def test_other_failures_keep_their_status(
    pattern: str, side: str, message: str, expected: str
) -> None:
    status, detail = classify_side_error(_claim(pattern), side, message, "CPU", "float16")
    assert status == expected
    assert not detail.startswith("error on ")


def _result(case, status: str, detail: str = "", max_abs: float | None = None) -> CaseResult:
    return case_result(
        case.case_id,
        status,
        api=case.api,
        strategy=case.strategy,
        ms_expr=case.ms_expr,
        max_abs=max_abs,
        detail=detail,
    )


def test_verify_summary_lists_a_claim_without_kernel() -> None:
    case = _claim("claim: torch.full((2, 3), 1.5)")
    _, detail = classify_side_error(case, "mindspore", NO_KERNEL, "CPU", "float32")
    no_kernel = _result(case, "error", detail)
    harness_skip = _result(_claim(""), "skipped", "kernel unregistered on CPU: ...")
    torch_skip = _result(case, "skipped", "no torch float16 kernel on CPU to compare with")
    results = [no_kernel, harness_skip, torch_skip]
    assert broken_claims(results) == [no_kernel]
    text = render(results, "text")
    line = (
        f"  {case.case_id} -> {case.ms_expr}: error on CPU: no kernel for mindspore.mint.full"
        " (documented for Ascend GPU CPU)"
    )
    assert line + "\n" in text
    assert json.loads(render(results, "json"))["claims_not_holding"] == [case.case_id]


def test_scan_links_a_consistent_api_claim_that_does_not_hold(tmp_path) -> None:
    cache = ResultCache(tmp_path)
    broken = _claim("claim: torch.full((2, 3), 1.5)")
    _, detail = classify_side_error(broken, "mindspore", NO_KERNEL, "CPU", "float32")
    cache.put(broken, _result(broken, "error", detail))
    zeros = [c for c in cases_for("torch.zeros") if "claim" in c.tags]
    for case in zeros:  # holding claims of a consistent API are not listed
        cache.put(case, _result(case, "pass", max_abs=0.0))
    rows = substitutions([], cache, claimed=["torch.full", "torch.zeros"])
    assert [r.case_id for r in rows] == [broken.case_id]
    [row] = rows
    assert row.verification == "error"
    assert row.detail == (
        "does not hold for `torch.full((2, 3), 1.5)`: no kernel on CPU for mindspore.mint.full"
        " (documented for Ascend GPU CPU)"
    )
    assert row.describe().startswith("does not hold for `torch.full((2, 3), 1.5)`: no kernel")
    # a different/missing API still lists every hand-written case, the no-kernel claim with
    # its detail; the generated forms only where they did not hold
    listed = substitutions(["torch.full"], cache)
    assert len(listed) == len([c for c in cases_for("torch.full") if "generated" not in c.tags])
    assert replace(row) in listed and isinstance(row, Substitution)


def test_a_target_documented_for_other_platforms_only_is_no_broken_claim() -> None:
    """mint.sort's docs say "Supported Platforms: Ascend": no CPU kernel is what they
    promise, so the claim is untestable on CPU (skipped), not broken."""
    [case] = [c for c in cases_for("torch.sort") if c.pattern == "claim: torch.sort(x, dim=0)"]
    message = "mindspore: RuntimeError: The kernel SortExt unregistered."
    status, detail = classify_side_error(case, "mindspore", message, "CPU", "float32")
    assert status == "skipped"
    assert detail.startswith("no kernel on CPU, documented for Ascend only")
    # on the documented platform the same message is the claim failing there
    status, _ = classify_side_error(case, "mindspore", message, "Ascend", "float32")
    assert status == "error"
