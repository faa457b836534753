"""``apiscan verify`` selection, usage errors and rendering, without running any framework."""

from __future__ import annotations

import json

import pytest
from verify_results import case_result

from apiscan.cli.verify import render, run_verify, select
from apiscan.verify.catalogue import CASES
from apiscan.verify.results import CaseResult


def _result(case_id: str, status: str, max_abs: float | None, detail: str = "") -> CaseResult:
    return case_result(case_id, status, max_abs=max_abs, detail=detail)


def test_select_by_name_and_all() -> None:
    chosen = select(["torch.squeeze"], False, CASES)
    assert [c.case_id for c in chosen][:3] == [
        "torch.squeeze[dim]",
        "torch.squeeze[claim: torch.squeeze(x)]",
        "torch.squeeze[claim: torch.squeeze(x, 1)]",
    ]
    # then the documented forms generated from the signature (edge-case inputs here)
    assert "torch.squeeze[claim: torch.squeeze(x, 1) on nan]" in [c.case_id for c in chosen]
    assert all("generated" in c.tags for c in chosen[3:])
    conv = select(["torch.nn.Conv2d"], False, CASES)
    # 2 cases, 3 hand-picked claim forms, then the generated ones
    assert len([c for c in conv if "generated" not in c.tags]) == 5 < len(conv)
    assert len(select([], True, CASES)) == len(CASES)
    with pytest.raises(ValueError, match=r"torch\.bogus"):
        select(["torch.sum", "torch.bogus"], False, CASES)


@pytest.mark.parametrize("argv", [[], ["torch.bogus"], ["--format", "xml", "torch.sum"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = run_verify(argv)
    except SystemExit as exc:  # argparse rejects a bad choice itself
        code = int(exc.code or 0)
    assert code == 2
    assert "apiscan verify" in capsys.readouterr().err


def test_render_formats() -> None:
    results = [
        _result("torch.sum", "pass", 2.4e-7),
        _result("torch.bad", "fail", 0.5),
        _result("torch.gelu", "skipped", None, "kernel unregistered on CPU"),
    ]
    text = render(results, "text")
    assert "1 pass, 1 fail, 0 error, 1 skipped" in text
    assert "2.4e-07" in text and "kernel unregistered on CPU" in text
    markdown = render(results, "markdown")
    assert markdown.startswith("| case") and "- torch.gelu: kernel unregistered" in markdown
    doc = json.loads(render(results, "json"))
    assert doc["summary"] == {"fail": 1, "pass": 1, "skipped": 1}
    assert doc["results"][1]["max_abs"] == 0.5
    # the failed mapped case is a claim of the mapping table that did not hold
    assert doc["claims_not_holding"] == ["torch.bad"]
    assert "Mapping-table claims that did not hold (numbers, errors, no kernel):" in text
    assert "torch.bad -> mint.x(x): max abs 0.5 > 1e-05" in text
    assert "## Mapping-table claims that did not hold (numbers, errors, no kernel)" in markdown


def test_a_case_log_is_cleaned_and_rendered_in_every_format() -> None:
    from dataclasses import replace

    from apiscan.verify.runner import LOG_LINES, log_lines

    written = (
        "[WARNING] KERNEL(26647,7f73e0a526c0,python):2026-11-26-20:00:51.879.892 "
        "[kernel.h:252] CheckShapeNull] the shape of input cannot contain zero\n"
        "[ERROR] KERNEL(26647,7f73e0a526c0,python):2026-11-26-20:00:51.880.001 "
        "[unary_op_cpu_kernel.cc:191] Init] For 'Conj', it got empty inputs\n"
        "\n"
        "[ERROR] KERNEL(26647,7f73e0a526c1,python):2026-11-26-20:00:51.880.002 "
        "[unary_op_cpu_kernel.cc:191] Init] For 'Conj', it got empty inputs\n"
    )
    # the per-run process ids and timestamps go, so a repeated line is one line with a count
    log = log_lines(written)
    assert log.splitlines() == [
        "[WARNING] KERNEL [kernel.h:252] CheckShapeNull] the shape of input cannot contain zero",
        "[ERROR] KERNEL [unary_op_cpu_kernel.cc:191] Init] For 'Conj', it got empty inputs (x2)",
    ]
    many = log_lines("\n".join(f"line {i}" for i in range(LOG_LINES + 5)))
    assert many.splitlines()[-1] == "... 5 more lines" and len(many.splitlines()) == LOG_LINES + 1
    results = [replace(_result("torch.conj", "error", None, "mindspore: RuntimeError"), log=log)]
    text = render(results, "text")
    # the summary line names the case's first error line
    assert "  torch.conj: [ERROR] KERNEL [unary_op_cpu_kernel.cc:191] Init] For 'Conj'" in text
    assert "(+1 more)" in text
    assert "## Log lines the frameworks wrote while a case ran" in render(results, "markdown")
    assert json.loads(render(results, "json"))["results"][0]["log"] == log
