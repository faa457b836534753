"""A case per documented parameter of every consistent row (issue 21): the coverage count,
its reasons for what cannot run here, and the generation strategies that close the gaps.
Static: nothing here runs torch or MindSpore."""

from __future__ import annotations

import pytest

from apiscan.verify.cases import Case, InputSpec
from apiscan.verify.catalogue import CASES, cases_for
from apiscan.verify.catalogue.inputs import parse_inputs
from apiscan.verify.coverage import (
    CANNOT,
    COVERED,
    NOT_CLAIM,
    UNCOVERED,
    measure,
    passed_params,
    summarize,
)
from apiscan.verify.documented import NOT_EXERCISED, generate, row_entry, torch_index


@pytest.fixture(scope="module")
def pairs():
    return measure(CASES)


def _of(pairs, api: str, param: str, target: str = ""):
    return [p for p in pairs if p.api == api and p.param == param and target in p.target]


def test_every_consistent_row_is_counted(pairs) -> None:
    from apiscan.mapping.store import load_table

    consistent = {(r.torch_api, r.ms_apis[0]) for r in load_table(None) if r.status == "consistent"}
    assert {(p.api, p.target) for p in pairs} == consistent
    assert summarize(pairs).rows == len(consistent)


def test_every_documented_parameter_has_a_case_or_cannot_run_here(pairs) -> None:
    """Every documented parameter of a consistent row has a case, or cannot run on this
    CPU machine with the reason; the harness's gap list is empty."""
    assert not [p for p in pairs if p.state == UNCOVERED]
    assert not NOT_EXERCISED
    cannot = [p for p in pairs if p.state == CANNOT]
    assert all(p.why for p in cannot)
    s = summarize(pairs)
    assert s.rows_accounted == s.rows
    assert s.covered / s.params > 0.85


@pytest.mark.parametrize(
    ("api", "param", "covering"),
    [
        ("torch.optim.SGD", "differentiable", "differentiable=True"),
        ("torch.nn.MaxUnpool2d", "padding", "MaxUnpool2d(2, padding=1)"),
        ("torch.nn.functional.max_unpool1d", "output_size", "output_size=(9,)"),
        ("torch.nn.Fold", "dilation", "Fold(4, 2, dilation=2)"),
        ("torch.imag", "input", "torch.imag(z)"),
        ("torch.Tensor.cholesky", "upper", "upper=True"),
        ("torch.nn.Module.apply", "fn", "model.apply(fn)"),
        ("torch.Tensor", "(signature)", "torch.Tensor("),
        ("torch.Generator", "(signature)", "initial_seed()"),
    ],
)
def test_the_last_gaps_have_cases(pairs, api: str, param: str, covering: str) -> None:
    found = _of(pairs, api, param)
    assert found and all(p.state == COVERED and covering in p.why for p in found), found


def test_a_distributed_row_cannot_run_here_and_is_never_covered(pairs) -> None:
    [tensor] = _of(pairs, "torch.distributed.all_reduce", "op")
    assert tensor.state == CANNOT and "process group" in tensor.why
    assert "init_process_group" in tensor.why
    assert not [p for p in pairs if p.api.startswith("torch.distributed.") and p.state == COVERED]
    assert not cases_for("torch.distributed.all_reduce")


def test_general_differences_are_not_claims(pairs) -> None:
    [out] = _of(pairs, "torch.add", "out")
    assert out.state == NOT_CLAIM and "not supported" in out.why


def test_a_generated_form_covers_its_parameter(pairs) -> None:
    [decimals] = _of(pairs, "torch.round", "decimals")
    assert decimals.state == COVERED and "decimals=1" in decimals.why


def test_a_form_pytorch_rejects_covers_nothing() -> None:
    cases = [c for c in cases_for("torch.round") if "param=decimals=1" in c.tags]
    results = {c.case_id: {"status": "skipped", "detail": "not a PyTorch form: x"} for c in cases}
    pairs = measure(cases, results)
    [decimals] = _of(pairs, "torch.round", "decimals")
    assert decimals.state == UNCOVERED


def test_hand_written_calls_are_read_for_the_parameters_they_pass() -> None:
    params = [("input", "pos_or_kw", False), ("dim", "pos_or_kw", True)]
    params += [("keepdim", "pos_or_kw", True), ("dtype", "kw_only", True)]
    case = Case("torch.sum", "torch.sum(x, 1, keepdim=True)", "", "mapped", (InputSpec("x", (3,)),))
    assert passed_params(case, params) == {"input", "dim", "keepdim"}


def test_signatures_the_index_lacks_are_found_by_rule() -> None:
    from apiscan.mapping.store import mapping_data_dir

    index = torch_index(mapping_data_dir())
    conv = row_entry("torch.nn.functional.conv2d", index)
    assert conv is not None and [p[0] for p in conv["p"]][:3] == ["input", "weight", "bias"]
    pool = row_entry("torch.nn.functional.max_pool2d", index)
    assert pool is not None and "return_indices" in [p[0] for p in pool["p"]]
    unique = row_entry("torch.unique", index)
    assert unique is not None and [p[0] for p in unique["p"]][:2] == ["input", "sorted"]
    lstm = row_entry("torch.nn.LSTM", index)
    assert lstm is not None and "bidirectional" in [p[0] for p in lstm["p"]]


@pytest.fixture(scope="module")
def forms():
    return generate()[0]


def _calls(forms, api: str) -> set[str]:
    return {f.call for f in forms if f.api == api}


def test_strategies_per_parameter_kind(forms) -> None:
    # layer flags that build no weight, a companion parameter, a per-class weight tensor
    assert "torch.nn.Conv2d(3, 4, 2, bias=False)" in _calls(forms, "torch.nn.Conv2d")
    assert "torch.nn.Conv2d(3, 4, 2, padding=1, padding_mode='reflect')" in _calls(
        forms, "torch.nn.Conv2d"
    )
    assert any("weight=torch.tensor(" in c for c in _calls(forms, "torch.nn.NLLLoss"))
    # matrix products whose operands chain; only-required calls; recurrent layer sizes
    assert "torch.addbmm(x, b1, b2, alpha=2.0)" in _calls(forms, "torch.addbmm")
    assert "torch.linalg.inv(a)" in _calls(forms, "torch.linalg.inv")
    assert "torch.nn.LSTM(4, 3, bidirectional=True)" in _calls(forms, "torch.nn.LSTM")
    # -1/1 targets for ranking losses, a random generator
    hinge = [f for f in forms if f.call == "torch.nn.functional.hinge_embedding_loss(x, sg)"]
    assert hinge and all("sg=sign[3,4]" in f.inputs for f in hinge)
    assert any("generator=torch.Generator()" in c for c in _calls(forms, "torch.rand"))


def test_framework_values_are_written_as_mindspore_s() -> None:
    [rand] = [c for c in cases_for("torch.rand") if "param=generator" in " ".join(c.tags)]
    assert "ms.Generator()" in rand.ms_expr and "torch." not in rand.ms_expr
    weighted = [c for c in cases_for("torch.nn.NLLLoss") if "weight=torch.tensor" in c.torch_expr]
    assert weighted and all("ms.Tensor(" in c.ms_expr for c in weighted)


def test_another_consistent_rows_target_gets_its_own_forms() -> None:
    via = [c for c in cases_for("torch.optim.SGD") if "via" in c.tags]
    assert via and all("target=mindspore.nn.SGD" in c.tags for c in via)
    assert all(c.pattern.endswith(" via mindspore.nn.SGD") for c in via)


def test_sign_inputs_parse() -> None:
    [spec] = parse_inputs("sg=sign[3,4]")
    assert spec.kind == "sign" and spec.shape == (3, 4)


def test_forms_of_another_rows_target_stay_out_of_scan_reports(tmp_path) -> None:
    """A claim of mindspore.nn.SGD that does not hold says nothing about the
    experimental.optim.SGD a scan picks for torch.optim.SGD."""
    from verify_results import case_result

    from apiscan.verify.lookup import substitutions
    from apiscan.verify.results import ResultCache

    cache = ResultCache(tmp_path)
    [via] = [c for c in cases_for("torch.optim.SGD") if "via" in c.tags and "lr=0.05" in c.pattern]
    detail = "mindspore: TypeError: got an unexpected keyword argument 'lr'"
    cache.put(via, case_result(via.case_id, "error", api=via.api, detail=detail))
    assert substitutions([], cache, claimed=["torch.optim.SGD"]) == ()


def test_kl_div_has_a_log_target_case() -> None:
    """The review recommends verifying ``kl_div`` where the code passes ``log_target``: a
    case passes it (the rewrite through ``exp(target)``, runnable on CPU, and mint's own
    form, tagged with the KLDiv kernel CPU lacks)."""
    found = [c for c in cases_for("torch.nn.functional.kl_div") if "log_target=True" in c.pattern]
    assert [c.pattern for c in found] == ["log_target=True", "log_target=True, batchmean (mint)"]
    rewrite, mint = found
    assert "log_target" not in rewrite.ms_expr and "ops.exp(" in rewrite.ms_expr
    assert not rewrite.tags
    assert mint.tags == ("no-kernel=CPU:KLDiv",)
    # INVALID: the plain batchmean case passes no log_target
    plain = [c for c in cases_for("torch.nn.functional.kl_div") if c.pattern == "batchmean"]
    assert plain and "log_target" not in plain[0].torch_expr
