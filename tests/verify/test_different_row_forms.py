"""What ``apiscan verify X`` runs for an API whose MindSpore counterpart differs: the forms
generated from a "different" row follow what the row documents (a default that differs is no
claim, a renamed parameter is passed under MindSpore's name), forms come from the rows the
scan reads, resampling functionals get an image batch, and a layer whose mint target has no
CPU kernel still compares a value on CPU. Only the last test runs torch and MindSpore."""

from __future__ import annotations

import numpy as np
import pytest

from apiscan.mapping.schema import MappingRow, ParamDiff
from apiscan.verify.catalogue import cases_for, device_limit
from apiscan.verify.documented import DEFAULT_DIFFERS, SAME_FUNCTION, _row_forms
from apiscan.verify.harness import HarnessError, _fit_weight

#: A made-up layer (no real row): what the generator does follows the row, not the name.
WIDGET = "torch.nn.Widget"
ENTRY = {
    "k": "class",
    "p": [
        ["in_channels", "pos_or_kw", False],
        ["out_channels", "pos_or_kw", False],
        ["kernel_size", "pos_or_kw", False],
        ["dilation", "pos_or_kw", True],
        ["groups", "pos_or_kw", True],
        ["bias", "pos_or_kw", True],
    ],
}


def _row(*params: ParamDiff) -> MappingRow:
    return MappingRow(
        WIDGET,
        ("mindspore.nn.Widget",),
        "different",
        "see diff page",
        "https://example.invalid/Widget.html",
        "torch.nn",
        "2.4",
        True,
        params=params,
    )


def _param(torch_name: str, ms_name: str, note: str) -> ParamDiff:
    return ParamDiff("Parameters", "Parameter", torch_name, ms_name, note)


@pytest.mark.parametrize(
    "note",
    [
        "Same function, different parameter names, different default value",
        "Consistent function, different default value",
        "PyTorch defaults to True, and MindSpore defaults to False",
        "The default values are different: MindSpore defaults to True",
        "The default value for PyTorch is False and the default value for MindSpore is True",
    ],
)
def test_a_documented_default_difference_leaves_no_form_to_claim(note: str) -> None:
    """Every form leaves ``bias`` at PyTorch's default, which the row says MindSpore's is
    not: run alike on both sides they compute different functions by the table's own
    account (``nn.Conv1d``'s bias, ``nn.MaxPool2d``'s stride failed every form)."""
    assert DEFAULT_DIFFERS.search(note)
    forms, reason = _row_forms(
        WIDGET, "mindspore.nn.Widget", _row(_param("bias", "has_bias", note)), ENTRY, {}
    )
    assert forms == []
    assert "default of bias differs" in reason


def test_a_default_pytorch_lacks_is_no_difference() -> None:
    """A parameter PyTorch requires is passed by every call: its MindSpore default is never
    used, so the row's other forms stay."""
    note = "Consistent function, no default values for PyTorch"
    assert not DEFAULT_DIFFERS.search(note)
    row = _row(_param("kernel_size", "kernel_size", note))
    forms, reason = _row_forms(WIDGET, "mindspore.nn.Widget", row, ENTRY, {})
    assert forms and not reason


def test_a_documented_rename_is_passed_under_mindspores_name() -> None:
    note = "Same function, different parameter names"
    assert SAME_FUNCTION.match(note) and SAME_FUNCTION.match("Consistent")
    assert not SAME_FUNCTION.match("Refer to the above for specific differences")
    row = _row(_param("groups", "group", note), _param("dilation", "dilation", "Consistent"))
    forms, _ = _row_forms(WIDGET, "mindspore.nn.Widget", row, ENTRY, {})
    renamed = [f for f in forms if f.rename]
    assert [(f.call, f.form, f.rename) for f in renamed] == [
        ("torch.nn.Widget(3, 4, 2, groups=1)", "keyword", "groups:group")
    ]
    # a renamed parameter is never passed by position (MindSpore's order may differ)
    assert not [f for f in forms if f.form == "positional" and "groups" in f.param]


def test_the_shipped_cases_of_documented_differences() -> None:
    """nn.Conv1d and nn.MaxPool2d: no generated claim; Parameter: r2.4.0's row (the one the
    scan reads) with ``data`` passed as ``default_input``; keepdim as keepdims."""
    for api in ("torch.nn.Conv1d", "torch.nn.MaxPool2d"):
        assert not [c for c in cases_for(api) if "generated" in c.tags], api
    [param] = [c for c in cases_for("torch.nn.Parameter") if "generated" in c.tags]
    assert (param.torch_expr, param.ms_expr) == (
        "torch.nn.Parameter(data=x)",
        "ms.Parameter(default_input=x)",
    )
    [amax] = [c for c in cases_for("torch.Tensor.amax") if "keepdim=True" in c.pattern]
    assert amax.ms_expr == "x.amax(keepdims=True)"


def test_resampling_functionals_get_an_image_batch() -> None:
    generated = [c for c in cases_for("torch.nn.functional.interpolate") if "generated" in c.tags]
    assert generated
    assert all(len(c.inputs[0].shape) == 4 for c in generated)


def test_a_layer_whose_mint_target_has_no_cpu_kernel_has_a_cpu_case() -> None:
    """The review recommends ``apiscan verify torch.nn.Conv1d`` on CPU: one of its cases
    runs there (the table's nn.Conv1d with has_bias, pad_mode='pad'), the mint one is
    tagged as skipped there."""
    cases = cases_for("torch.nn.Conv1d")
    assert device_limit("torch.nn.Conv1d", "CPU") == ""
    assert any("no-kernel=CPU:Conv1DExt" in c.tags for c in cases)
    [cpu] = [c for c in cases if c.pattern == "cpu"]
    assert "has_bias=True" in cpu.ms_expr and "pad_mode='pad'" in cpu.ms_expr


def test_a_weight_stored_with_unit_axes_is_reshaped_and_nothing_else() -> None:
    weight = np.arange(24, dtype=np.float32).reshape(4, 3, 2)
    fitted = _fit_weight(weight, (4, 3, 1, 2), "weight")
    assert fitted.shape == (4, 3, 1, 2) and np.array_equal(fitted.reshape(4, 3, 2), weight)
    assert _fit_weight(weight, (4, 3, 2), "weight") is weight
    with pytest.raises(HarnessError, match="cannot copy 'weight'"):
        _fit_weight(weight, (4, 6), "weight")


def test_the_documented_mappings_compare_a_value() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    from apiscan.verify.runner import Runner

    wanted = {"torch.nn.Conv1d[cpu]", "torch.nn.Parameter[claim: torch.nn.Parameter(data=x)]"}
    cases = [
        c
        for api in ("torch.nn.Conv1d", "torch.nn.Parameter")
        for c in cases_for(api)
        if c.case_id in wanted
    ]
    assert len(cases) == 2
    with Runner("CPU", "float32", timeout=120) as runner:
        results = runner.run(cases)
    assert {r.case_id: r.status for r in results} == dict.fromkeys(wanted, "pass")
    # the weight and bias gradients were compared too (the weight's through its unit axis)
    assert all(r.max_abs is not None for r in results)
