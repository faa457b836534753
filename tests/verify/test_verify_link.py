"""The scan's link to verification: same-name candidates, substitutions and cached results.

Fast tests fake the result cache; one end-to-end test runs a real micro-test on CPU and
scans a repository that uses the API, which must then read "verified".
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from importlib.util import find_spec
from pathlib import Path

import pytest
from scan_helpers import scan_repo, write_repo
from verify_results import case_result

from apiscan.mapping.candidates import CandidateIndex, load_candidates
from apiscan.verify.catalogue import cases_for
from apiscan.verify.lookup import link, substitutions
from apiscan.verify.results import CaseResult, ResultCache

REPO = Path(__file__).resolve().parents[2]
SRC = """
import torch

def update(ema, x):
    ema.mul_(0.9)                # candidate: mindspore.Tensor.mul_, not in the tables
    y = x.double()               # candidate: mindspore.Tensor.double
    torch.set_num_threads(1)     # missing: no same-name API either
    return torch.special.i0e(y)  # missing
"""


def _result(case_id: str, api: str, status: str, max_abs: float | None = 0.0) -> CaseResult:
    return case_result(case_id, status, api=api, strategy="same-name", ms_expr="x", max_abs=max_abs)


def test_candidate_index_follows_the_namespace_rules() -> None:
    index = CandidateIndex(
        {
            "format": 1,
            "mindspore_version": "9.9",
            "namespaces": {
                "mindspore:Tensor": ["clone"],
                "mindspore.mint": ["relu"],
                "mindspore.ops": ["relu", "erfinv"],
                "mindspore.mint.nn": ["Unflatten"],
                "mindspore": ["float32"],
            },
        }
    )
    assert index.candidate("torch.Tensor.clone") == "mindspore.Tensor.clone"
    assert index.candidate("torch.relu") == "mindspore.mint.relu"  # mint before ops
    assert index.candidate("torch.erfinv") == "mindspore.ops.erfinv"
    assert index.candidate("torch.nn.Unflatten") == "mindspore.mint.nn.Unflatten"
    assert index.candidate("torch.float32") == "mindspore.float32"
    assert index.candidate("torch.nn.init.zeros_") is None  # initialisers are named otherwise
    assert index.candidate("torch.optim.Optimizer.zero_grad") is None  # nested member
    assert index.candidate("torch.Tensor.nope") is None
    with pytest.raises(ValueError, match="format"):
        CandidateIndex({"format": 0, "mindspore_version": "x", "namespaces": {}})


def test_shipped_index_names_real_mindspore_apis() -> None:
    index = load_candidates()
    assert index is not None and index.mindspore_version == "2.10.0"
    assert index.candidate("torch.Tensor.add_") == "mindspore.Tensor.add_"
    assert index.candidate("torch.set_num_threads") is None


def test_scan_reports_candidates_and_links_substitutions(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    result = scan_repo(root)
    status = {f.api: (f.status, f.mindspore_api) for f in result.api_findings}
    assert status["torch.Tensor.mul_"] == ("candidate", "mindspore.Tensor.mul_")
    assert status["torch.Tensor.double"] == ("candidate", "mindspore.Tensor.double")
    assert status["torch.set_num_threads"] == ("missing", None)
    # no cache (scan_repo passes cache_dir=None): every case is listed as not run
    subs = {s.case_id: s for s in result.substitutions}
    assert {c.case_id for c in cases_for("torch.Tensor.mul_")} <= set(subs)
    assert all(s.verification == "not run" for s in subs.values())
    assert subs["torch.Tensor.mul_"].describe() == "not run (apiscan verify torch.Tensor.mul_)"


def test_a_passing_same_name_test_verifies_the_candidate(tmp_path: Path) -> None:
    result = scan_repo(write_repo(tmp_path / "repo", {"m.py": SRC}))
    cache = ResultCache(tmp_path / "verify")
    [mul] = cases_for("torch.Tensor.mul_")
    cache.put(mul, _result(mul.case_id, mul.api, "pass", 1e-7))
    [double] = [c for c in cases_for("torch.Tensor.double") if c.strategy == "same-name"]
    cache.put(double, _result(double.case_id, double.api, "fail", 0.5))
    linked = link(result, cache)
    status = {f.api: f for f in linked.api_findings}
    assert status["torch.Tensor.mul_"].status == "verified"
    assert "passed its micro-test torch.Tensor.mul_" in status["torch.Tensor.mul_"].note
    assert status["torch.Tensor.double"].status == "candidate"  # its test failed
    assert linked.summary()["by_status"]["verified"]["apis"] == 1  # type: ignore[index]
    row = next(s for s in linked.substitutions if s.case_id == "torch.Tensor.mul_")
    assert (row.verification, row.max_abs, row.mindspore_version) == ("pass", 1e-7, "2.10.0")
    assert row.describe().startswith("pass: max abs 1e-07, threshold 1e-05 (CPU float32")
    # another device's results are not this one's
    assert (
        link(result, cache, device="GPU").substitutions_for("torch.Tensor.mul_")[0].verification
        == "not run"
    )


def test_substitutions_are_sorted_and_limited_to_catalogue_apis() -> None:
    rows = substitutions(["torch.sum", "torch.abs", "torch.no_such_api"], None)
    assert [r.api for r in rows] == sorted(r.api for r in rows)
    assert {r.api for r in rows} == {"torch.sum", "torch.abs"}
    assert replace(rows[0]) == rows[0]


@pytest.mark.skipif(
    not (find_spec("torch") and find_spec("mindspore")), reason="needs torch and mindspore"
)
def test_verify_then_scan_end_to_end(tmp_path: Path) -> None:
    """`apiscan verify` fills the cache; the next scan of a repository reads it."""
    root = write_repo(tmp_path / "repo", {"m.py": SRC})
    env_cache = tmp_path / "cache"
    env = {"APISCAN_CACHE_DIR": str(env_cache), "PATH": "/usr/bin:/bin"}
    verify = subprocess.run(
        [sys.executable, "-m", "apiscan", "verify", "torch.Tensor.mul_"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=300,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    scan = subprocess.run(
        [sys.executable, "-m", "apiscan", str(root), "-f", "json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=300,
    )
    doc = json.loads(scan.stdout)
    mul = [f for f in doc["findings"] if f.get("api") == "torch.Tensor.mul_"]
    assert mul and all(f["status"] == "verified" and f["rule"] == "API006" for f in mul)
    [row] = [s for s in doc["substitutions"] if s["case_id"] == "torch.Tensor.mul_"]
    assert row["verification"] == "pass" and row["max_abs"] <= row["threshold"]
