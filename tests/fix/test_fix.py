"""``apiscan fix``: the codemod applies proven rewrites and mechanical idioms only."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from scan_helpers import scan_repo, write_repo

from apiscan.fix import fix, unified_diff
from apiscan.verify.lookup import check_forms, form_cases
from apiscan.verify.results import CaseResult, ResultCache

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "tinydet" / "fix.diff"


def _cli_diff(cache: Path) -> str:
    env = {**os.environ, "APISCAN_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "apiscan", "fix", "fixtures/tinydet", "--diff", "--no-progress"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_tinydet_golden_diff_applies_and_parses(tmp_path: Path) -> None:
    """Without micro-test results only the mechanical changes apply: deletions of device
    moves and cache flushes, set_train, the walks over cells and parameters, stop_gradient,
    seeds and the import they need."""
    diff = _cli_diff(tmp_path / "cache")
    if os.environ.get("APISCAN_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(diff, encoding="utf-8")
    assert diff == GOLDEN.read_text(encoding="utf-8")
    assert diff == _cli_diff(tmp_path / "cache")  # deterministic
    # The patch applies cleanly to a copy and every patched file parses.
    copy = tmp_path / "tinydet"
    subprocess.run(["cp", "-r", str(ROOT / "fixtures" / "tinydet"), str(copy)], check=True)
    subprocess.run(["patch", "-p1", "-s", "-d", str(copy)], input=diff, text=True, check=True)
    for path in copy.rglob("*.py"):
        ast.parse(path.read_text(encoding="utf-8"))
    assert "model.set_train(False)" in diff and "mindspore.manual_seed(" in diff
    assert "+import mindspore" in diff


def _passing(case, status: str = "pass") -> CaseResult:  # type: ignore[no-untyped-def]
    return CaseResult(
        case_id=case.case_id,
        api=case.api,
        strategy=case.strategy,
        ms_expr=case.ms_expr,
        status=status,
        max_abs=0.0 if status == "pass" else 12.1,
        mean_abs=0.0,
        rel_diff=0.0,
        threshold=1e-5,
        device="CPU",
        dtype="float32",
        torch_version="2.13.0",
        mindspore_version="2.10.0",
    )


def test_rewrites_apply_only_where_the_form_passed(tmp_path: Path) -> None:
    repo = write_repo(
        tmp_path / "repo",
        {
            "net.py": """
                import torch
                from torch import nn


                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        # the activation YOLOX uses
                        self.act = nn.LeakyReLU(0.1)

                    def forward(self, x):
                        grid = torch.zeros(1, x.shape[1])  # sizes as separate arguments
                        return self.act(x).cpu(), grid
                """
        },
    )
    result = scan_repo(repo)
    cases = {c.api: c for c in form_cases(result)}
    assert set(cases) == {"torch.nn.LeakyReLU", "torch.zeros"}
    cache = ResultCache(tmp_path / "verify")
    cache.put(cases["torch.nn.LeakyReLU"], _passing(cases["torch.nn.LeakyReLU"]))
    cache.put(cases["torch.zeros"], _passing(cases["torch.zeros"], "fail"))
    checked = check_forms(result, cache)
    by_api = {f.api: f for f in checked.api_findings}
    assert by_api["torch.nn.LeakyReLU"].form_check.startswith(
        "verified for the form used at net.py:9"
    )
    assert by_api["torch.zeros"].form_check.startswith("fails for this form: max abs 12.1")
    [fixed] = fix(replace(checked, root=str(repo)))
    assert "mindspore.nn.LeakyReLU(alpha=0.1)" in fixed.after
    assert "# the activation YOLOX uses" in fixed.after  # comments kept
    assert "torch.zeros(1, x.shape[1])  # sizes as separate arguments" in fixed.after
    assert "return self.act(x), grid" in fixed.after
    ast.parse(fixed.after)
    # --annotate: a TODO where no rewrite was applied
    [annotated] = fix(replace(checked, root=str(repo)), annotate=True)
    assert "# TODO(apiscan): torch.zeros [" in annotated.after
    assert "fails for this form" in annotated.after
    assert unified_diff([fixed]).startswith("--- a/net.py\n+++ b/net.py\n")
