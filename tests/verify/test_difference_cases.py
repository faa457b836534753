"""The hand-written cases of rows the mapping table marks "different" (layers and functions
whose diff page documents a default that differs, a renamed parameter or ``pad_mode``): each
API has a case that runs on CPU, so the review recommends ``apiscan verify X`` for it; every
call of the table's target writes out what the row documents; and, where torch and MindSpore
are installed, the cases compare what they claim (the last two tests)."""

from __future__ import annotations

import ast
from dataclasses import replace

import pytest

from apiscan.mapping.store import load_table
from apiscan.review.gaps import has_verify_case, runnable_verify, verify_device_limit
from apiscan.verify.cases import Case
from apiscan.verify.catalogue import cases_for, differences
from apiscan.verify.documented import DEFAULT_DIFFERS, SAME_FUNCTION

APIS = (
    "torch.nn.InstanceNorm1d",
    "torch.nn.InstanceNorm3d",
    "torch.nn.ConvTranspose1d",
    "torch.nn.ConvTranspose3d",
    "torch.nn.AvgPool1d",
    "torch.nn.AvgPool3d",
    "torch.nn.MaxPool3d",
    "torch.nn.functional.avg_pool3d",
    "torch.Tensor.multinomial",
)
#: How the expressions name MindSpore's namespaces (see ``apiscan.verify.harness``).
_PREFIXES = {"msnn": "mindspore.nn", "ops": "mindspore.ops", "mint": "mindspore.mint"}


@pytest.mark.parametrize("api", APIS)
def test_each_api_has_a_case_the_review_recommends_on_cpu(api: str) -> None:
    """What ``apiscan review`` checks before it recommends the command: a case exists and
    not every case is recorded as lacking a CPU kernel."""
    assert has_verify_case(api)
    assert verify_device_limit(api) == ""
    assert runnable_verify(f"apiscan verify {api}") == f"apiscan verify {api}"
    assert any(c in differences.CASES for c in cases_for(api))


def _calls(expr: str, target: str) -> list[ast.Call]:
    """The calls of ``target`` (``mindspore.nn.Conv1dTranspose``) in an expression; a
    Tensor method is any ``.name(...)`` call."""
    found = []
    for node in ast.walk(ast.parse(expr, mode="eval")):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = ast.unparse(node.func.value)
        dotted = f"{_PREFIXES.get(owner, owner)}.{node.func.attr}"
        if dotted == target or (
            target.startswith("mindspore.Tensor.") and node.func.attr == target.rpartition(".")[2]
        ):
            found.append(node)
    return found


def _keywords(calls: list[ast.Call]) -> set[str]:
    return {k.arg for call in calls for k in call.keywords if k.arg}


def _target_cases() -> list[tuple[Case, str]]:
    """(case, the row's target) for each case of this module that calls the target."""
    table = load_table(None)
    out = []
    for case in differences.CASES:
        row = table.lookup(case.api)
        assert row is not None and row.status == "different", case.api
        if _calls(case.ms_expr, row.ms_apis[0]):
            out.append((case, row.ms_apis[0]))
    return out


def test_every_call_of_the_target_writes_out_what_the_row_documents() -> None:
    """A parameter whose default the row says differs is passed (on the torch side, or
    under MindSpore's name on MindSpore's); a parameter it renames is passed under the new
    name; and where the row lists MindSpore's ``pad_mode``, a torch padding comes with
    ``pad_mode='pad'`` (or the page's ``'same'``): the generated forms dropped for these
    rows compared the PyTorch call copied verbatim, another function by the page's account."""
    table = load_table(None)
    checked = _target_cases()
    assert {case.api for case, _ in checked} == set(APIS)
    for case, target in checked:
        row = table.lookup(case.api)
        assert row is not None
        ms_passed = _keywords(_calls(case.ms_expr, target))
        torch_calls = [
            node
            for node in ast.walk(ast.parse(case.torch_expr, mode="eval"))
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == case.api.rpartition(".")[2]
        ]
        torch_passed = _keywords(torch_calls)
        where = f"{case.case_id}: {case.ms_expr}"
        for p in row.params:
            if not (p.torch_param and p.ms_param):
                continue
            if DEFAULT_DIFFERS.search(p.note):
                assert p.torch_param in torch_passed or p.ms_param in ms_passed, where
            if p.ms_param != p.torch_param and SAME_FUNCTION.match(p.note.strip()):
                assert p.torch_param not in torch_passed or p.ms_param in ms_passed, where
        if any(p.ms_param == "pad_mode" for p in row.params) and "padding" in torch_passed:
            assert "pad_mode" in ms_passed, where
        # and the note cites the page it follows
        assert "r2.4.0 pytorch_diff/" in case.note, where


def test_a_target_without_a_cpu_kernel_is_recorded_and_has_a_cpu_route() -> None:
    for api in ("torch.nn.InstanceNorm1d", "torch.nn.InstanceNorm3d"):
        cases = cases_for(api)
        tagged = [c for c in cases if "no-kernel=CPU:InstanceNorm" in c.tags]
        assert tagged and all(c.ms_expr.startswith("msnn.InstanceNorm") for c in tagged)
        assert all("affine=False" in c.ms_expr for c in tagged if "affine=True" not in c.pattern)
        routes = [c for c in cases if "cpu" in c.pattern]
        assert len(routes) == 2 and all(not c.tags for c in routes)
        assert all(c.strategy == "equivalent" for c in routes)


def test_a_workaround_that_does_not_hold_says_so() -> None:
    """The pages' ``pad_mode='same'`` port of output_padding gives the shape, not the
    values: the case's note says so, so its failure reads as a finding."""
    for api in ("torch.nn.ConvTranspose1d", "torch.nn.ConvTranspose3d"):
        [same] = [c for c in cases_for(api) if "pad_mode='same'" in c.pattern]
        assert "REAL DISAGREEMENT" in same.note and "shifted by one" in same.note


def _by_id(*ids: str) -> list[Case]:
    found = {c.case_id: c for api in APIS for c in cases_for(api)}
    return [found[i] for i in ids]


def test_the_cpu_cases_compare_values_and_gradients() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    from apiscan.verify.runner import Runner

    passing = _by_id(
        "torch.nn.InstanceNorm1d[affine=True, cpu]",
        "torch.nn.ConvTranspose1d",
        "torch.nn.AvgPool1d[padding, ceil_mode]",
        "torch.nn.MaxPool3d[return_indices]",
        "torch.nn.functional.avg_pool3d",
        "torch.Tensor.multinomial",
    )
    [shifted] = _by_id("torch.nn.ConvTranspose1d[output_padding, pad_mode='same']")
    # the multinomial case with MindSpore's default replacement=True, the row's difference
    default = replace(
        passing[-1],
        pattern="replacement left at MindSpore's default",
        ms_expr=passing[-1].ms_expr.replace(", replacement=False", ""),
    )
    with Runner("CPU", "float32", timeout=120) as runner:
        results = runner.run([*passing, shifted, default])
    status = {r.case_id: r.status for r in results}
    assert status == {
        **dict.fromkeys((c.case_id for c in passing), "pass"),
        shifted.case_id: "fail",
        default.case_id: "fail",
    }, {r.case_id: r.detail for r in results}
    by_id = {r.case_id: r for r in results}
    # gradients were compared; the transposed convolution's weight through its unit axis
    assert all(by_id[c.case_id].grad_checked for c in passing[:-1])
    # multinomial: MindSpore's indices are int32; with replacement MindSpore draws some
    # rows' two indices alike, which torch without replacement never does (output 4)
    assert "int32" in by_id["torch.Tensor.multinomial"].dtype_diff
    assert by_id[default.case_id].worst == "default output 4"
