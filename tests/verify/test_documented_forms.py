"""Documented forms generated from signatures: the table is current, covers the documented
parameters, includes the known-bad forms, and a sampled subset runs (the whole catalogue is
``apiscan verify --all``, never run here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apiscan.verify.catalogue import CASES, cases_for, documented
from apiscan.verify.documented import IGNORED, NON_DEFAULT, generate, to_csv
from apiscan.verify.lookup import claim_verdicts, does_not_hold, has_case, substitutions
from apiscan.verify.results import ResultCache

ROOT = Path(__file__).resolve().parents[2]
LAYER_FIXED = frozenset(
    {"weight", "reduce", "dtype", "bias", "affine", "elementwise_affine", "track_running_stats"}
)


@pytest.fixture(scope="module")
def generated():
    return generate()


def test_the_shipped_table_is_what_the_generator_writes(generated) -> None:
    forms, _ = generated
    shipped = (ROOT / "apiscan/verify/catalogue/documented_forms.csv").read_text(encoding="utf-8")
    assert shipped == to_csv(forms), "run scripts/gen_documented_forms.py"


def test_every_generated_row_has_a_form_per_documented_parameter(generated) -> None:
    """Each optional parameter of a consistent row that the tables can value gets a form."""
    forms, _ = generated
    index = json.loads((ROOT / "mapping_data/torch_api/torch-2.13.0.json").read_text())["names"]
    by_api: dict[str, set[str]] = {}
    for form in forms:  # a "different" row's documented differences are not claims
        if form.status == "consistent":
            by_api.setdefault(form.api, set()).add(form.param.split("=")[0])
    missing = []
    for api, params in by_api.items():
        for name, kind, has_default in index.get(api, {}).get("p", []):
            wanted = has_default and name in NON_DEFAULT and name not in IGNORED
            # a layer's weights, weight-shaping flags and dtype are not varied (random
            # weights differ); a loss's deprecated ``reduce`` is not a claim
            wanted = wanted and not (api.startswith("torch.nn.") and name in LAYER_FIXED)
            if wanted and name not in params and kind not in ("var_pos", "var_kw"):
                missing.append(f"{api}:{name}")
    assert not missing, missing


@pytest.mark.parametrize(
    ("api", "pattern"),
    [
        ("torch.round", "claim: torch.round(x, decimals=1)"),
        ("torch.scatter", "claim: torch.scatter(x, 1, i, y, reduce='add')"),
        ("torch.sort", "claim: torch.sort(x, 0)"),  # positional dim; mint.sort: keyword only
        ("torch.max", "claim: torch.max(x) on nan"),
        ("torch.Tensor.topk", "claim: x.topk(2, dim=0)"),
    ],
)
def test_known_bad_forms_are_generated(api: str, pattern: str) -> None:
    [case] = [c for c in cases_for(api) if c.pattern == pattern]
    assert "generated" in case.tags and "claim" in case.tags
    assert case in CASES


def test_cases_for_builds_generated_forms_on_demand() -> None:
    assert documented.for_api("torch.round") == documented.for_api("torch.round")
    ids = [c.case_id for c in CASES]
    assert len(ids) == len(set(ids))
    assert has_case("torchvision.ops.batched_nms") and not has_case("torch.no_such_api")


def _put(cache: ResultCache, case, status: str, detail: str = "", dtype_diff: str = "") -> None:
    from verify_results import case_result

    result = case_result(
        case.case_id,
        status,
        api=case.api,
        strategy=case.strategy,
        ms_expr=case.ms_expr,
        detail=detail,
        max_abs=0.0 if status == "pass" else None,
    )
    from dataclasses import replace

    cache.put(case, replace(result, dtype_diff=dtype_diff))


def test_reports_say_which_documented_form_does_not_hold(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    [bad] = [c for c in cases_for("torch.round") if c.pattern.endswith("decimals=1)")]
    message = "mindspore: RuntimeError: For Round only support decimals equal 0"
    _put(cache, bad, "error", message)
    [row] = substitutions([], cache, claimed=["torch.round"])
    assert row.detail.startswith("does not hold for `decimals=1`: raises (mindspore: Runtime")
    assert claim_verdicts("torch.round", cache) == (row.detail,)
    assert does_not_hold(bad, cache.get(bad, "CPU", "float32")) == row.detail


def test_dtype_differences_are_reported_apart(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    [case] = [c for c in cases_for("torch.Tensor.topk") if c.pattern == "claim: x.topk(2, dim=0)"]
    _put(cache, case, "pass", dtype_diff="output 1: int64 (torch) vs int32 (MindSpore)")
    [row] = substitutions([], cache, claimed=["torch.Tensor.topk"])
    assert row.verified
    assert row.detail == ("dtype differs: output 1: int64 (torch) vs int32 (MindSpore) (`dim=0`)")


SAMPLE = [
    ("torch.round", "claim: torch.round(x, decimals=1)", "error"),
    ("torch.scatter", "claim: torch.scatter(x, 1, i, y, reduce='add')", "error"),
    ("torch.sort", "claim: torch.sort(x, 0)", "error"),
    ("torch.max", "claim: torch.max(x) on nan", "fail"),
    ("torch.Tensor.topk", "claim: x.topk(2, dim=0)", "pass"),
    ("torch.Tensor.argmin", "claim: x.argmin(dim=0)", "pass"),
    ("torch.sort", "claim: torch.sort(x, dim=0)", "skipped"),  # documented Ascend-only
    ("torch.add", "claim: torch.add(x, y, alpha=2.0)", "pass"),
    # strategies per parameter kind: integer operands, a per-class weight tensor written as
    # MindSpore's, recurrent sizes with the same weights, -1/1 targets, a layer flag
    ("torch.bitwise_and", "claim: torch.bitwise_and(x, y) on plain", "pass"),
    (
        "torch.nn.NLLLoss",
        "claim: torch.nn.NLLLoss(weight=torch.tensor([0.5, 1.0, 1.5, 2.0]))",
        "pass",
    ),
    ("torch.nn.LSTM", "claim: torch.nn.LSTM(4, 3, bidirectional=True)", "pass"),
    (
        "torch.nn.functional.hinge_embedding_loss",
        "claim: torch.nn.functional.hinge_embedding_loss(x, sg, margin=0.5)",
        "pass",
    ),
    ("torch.nn.BatchNorm2d", "claim: torch.nn.BatchNorm2d(3, bias=False)", "error"),
]


def test_a_sampled_subset_runs_with_the_expected_verdicts() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    from apiscan.verify.runner import Runner

    cases = [next(c for c in cases_for(api) if c.pattern == pattern) for api, pattern, _ in SAMPLE]
    with Runner("CPU", "float32", timeout=120) as runner:
        results = runner.run(cases)
    got = {r.case_id: r for r in results}
    for case, (_, _, expected) in zip(cases, SAMPLE, strict=True):
        assert got[case.case_id].status == expected, (case.case_id, got[case.case_id].detail)
    topk = got[cases[4].case_id]
    assert topk.dtype_diff == "output 1: int64 (torch) vs int32 (MindSpore)"
    assert "int32 (MindSpore)" in got[cases[5].case_id].dtype_diff
    assert "NaN in one side only" in got[cases[3].case_id].detail
    assert got[cases[6].case_id].detail.startswith("no kernel on CPU, documented for Ascend")
    # the child survived every failure: no restart after errors that left nothing pending
    assert runner.children_started == 1


def test_a_call_passing_a_form_that_does_not_hold_is_marked(tmp_path: Path) -> None:
    """torch.round(x, decimals=2) in user code: the generated decimals form raised, so the
    finding's form check says so (and ``apiscan fix --annotate`` shows it); a plain
    torch.round(x) is left alone, as is a call whose form held."""
    from scan_helpers import scan_repo, write_repo

    from apiscan.verify.lookup import check_forms

    source = "import torch\n\ndef f(x):\n    return torch.round(x, decimals=2), torch.round(x)\n"
    result = scan_repo(write_repo(tmp_path / "repo", {"m.py": source}))
    cache = ResultCache(tmp_path / "verify")
    [bad] = [c for c in cases_for("torch.round") if c.pattern.endswith("decimals=1)")]
    _put(cache, bad, "error", "mindspore: RuntimeError: For Round only support decimals 0")
    checked = check_forms(result, cache)
    rounds = sorted(
        (f.args.keywords != (), f.form_check)
        for f in checked.api_findings
        if f.api == "torch.round"
    )
    assert rounds[0] == (False, "")
    assert rounds[1][1].startswith("fails for this form: does not hold for `decimals=1`: raises")


def test_edge_input_failures_are_one_row_per_api(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    edges = [c for c in cases_for("torch.max") if c.pattern.endswith((" on nan", " on bool"))]
    assert len(edges) == 2
    for case in edges:
        _put(cache, case, "error", "mindspore: RuntimeError: Reduce does not support Bool")
    [row] = substitutions([], cache, claimed=["torch.max"])
    assert row.detail.startswith("does not hold for nan, bool inputs: raises (mindspore:")
