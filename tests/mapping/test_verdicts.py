"""Verdicts decided from the tables: names as torch spells them, the newest table that
describes an API, every target, the parameter differences a call hits, and backends.

Each expectation cites the official page (``mapping_sources/<folder>/...``) it rests on.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import scan_snippet

from apiscan.mapping import match_api
from apiscan.mapping.parse import (
    NO_DESCRIPTION,
    SAME_NAME_UNDESCRIBED,
    TorchNames,
    normalise_torch_names,
    settle_undescribed,
)
from apiscan.mapping.schema import (
    CONSISTENT,
    DIFFERENT,
    LinkedParam,
    MappingRow,
    ParamDiff,
    TableRow,
    VersionData,
)
from apiscan.mapping.store import MappingTable, decide_rows, load_table


def _row(api: str, target: str, status: str, note: str = "", line: int = 1) -> TableRow:
    return TableRow(api, (target,), status, note, "", "torch.nn", "", line)


def _mrow(api: str, version: str, status: str = CONSISTENT, note: str = "") -> MappingRow:
    return MappingRow(api, (f"mindspore.{version}",), status, note, "", "", version, True)


# --- names as torch spells them (built from the tables, decided at build time) -------------


def test_torch_names_fix_case_and_known_misspellings() -> None:
    names = TorchNames(["torch.nn.LogSoftmax", "torch.nn.SELU", "torch.Tensor.log_normal_"])
    assert names.resolve("torch.nn.LogSoftmax") == ("torch.nn.LogSoftmax", "exact")
    assert names.resolve("torch.nn.LogSoftMax") == ("torch.nn.LogSoftmax", "case")
    assert names.resolve("torch.nn.SeLU") == ("torch.nn.SELU", "case")
    assert names.resolve("torch.Tensor.log_normal") == ("torch.Tensor.log_normal_", "misspelling")
    assert names.resolve("torchvision.ops.nms") == ("", "")


def test_case_folding_never_guesses_between_two_real_names() -> None:
    names = TorchNames(["torch.nn.functional.elu", "torch.nn.functional.ELU"])
    assert names.resolve("torch.nn.functional.Elu") == ("", "")


def test_normalising_renames_rows_and_their_diff_parameters_and_reports_the_rest() -> None:
    param = LinkedParam("torch.nn.SeLU", "u", "", ParamDiff("Parameters", "P 1", "x", "", ""))
    data = VersionData(
        (
            _row("torch.nn.SeLU", "mindspore.mint.nn.SELU", CONSISTENT, line=7),
            _row("torchvision.ops.nms", "mindspore.ops.NMSWithMask", DIFFERENT, line=9),
        ),
        (param,),
        (),
        (),
    )
    out = normalise_torch_names(data, TorchNames(["torch.nn.SELU"]))
    assert [(r.torch_api, r.table_name) for r in out.rows] == [
        ("torch.nn.SELU", "torch.nn.SeLU"),
        ("torchvision.ops.nms", "torchvision.ops.nms"),
    ]
    assert out.params[0].torch_api == "torch.nn.SELU"
    assert out.remarks == (
        "line 7: torch.nn.SeLU read as torch.nn.SELU (case)",
        "line 9: torchvision.ops.nms matches no torch API",
    )


def test_shipped_tables_match_the_misspelled_rows() -> None:
    # r2.6.0/pytorch_api_mapping.md:321 "torch.nn.LogSoftMax ... Consistent",
    # :335 "torch.nn.SeLU | mindspore.mint.nn.SELU | Consistent";
    # r2.4.0/pytorch_api_mapping.md writes torch.nn.CeLU → mindspore.nn.CELU, Consistent.
    table = load_table()
    expected = {
        "torch.nn.LogSoftmax": ("mindspore.mint.nn.LogSoftmax", "2.6"),
        "torch.nn.SELU": ("mindspore.mint.nn.SELU", "2.6"),
        "torch.nn.CELU": ("mindspore.nn.CELU", "2.4"),
    }
    for api, (target, version) in expected.items():
        match = match_api(api, table)
        assert (match.status, match.mindspore_api, match.source_version) == (
            CONSISTENT,
            target,
            version,
        ), api
    assert table.lookup("torch.nn.SELU").table_name == "torch.nn.SeLU"  # type: ignore[union-attr]


# --- the newest table that describes an API wins; older rows are history --------------------


def test_newest_described_table_wins_and_older_rows_become_history() -> None:
    current, history = decide_rows(
        [
            (_mrow("a", "2.6"),),
            (_mrow("a", "2.4", DIFFERENT, "x"), _mrow("b", "2.4", DIFFERENT, "y")),
            (
                _mrow("b", "1.10", DIFFERENT, NO_DESCRIPTION),
                _mrow("c", "1.10", DIFFERENT, NO_DESCRIPTION),
            ),
        ]
    )
    assert [(r.torch_api, r.source_version) for r in current] == [
        ("a", "2.6"),
        ("b", "2.4"),
        ("c", "1.10"),
    ]
    assert [(r.torch_api, r.source_version) for r in history] == [("a", "2.4"), ("b", "1.10")]


def test_an_undescribed_row_never_overrides_a_described_older_one() -> None:
    current, history = decide_rows(
        [(_mrow("a", "2.0", DIFFERENT, NO_DESCRIPTION),), (_mrow("a", "1.10", DIFFERENT, "z"),)]
    )
    assert [r.source_version for r in current] == ["1.10"]
    assert [r.source_version for r in history] == ["2.0"]


def test_selu_takes_the_newest_target_with_the_old_primitive_as_history() -> None:
    # r1.10/pytorch_api_mapping.md lists torch.nn.SELU → mindspore.ops.SeLU without a
    # description; r2.6.0:335 maps it (as torch.nn.SeLU) to mindspore.mint.nn.SELU.
    match = match_api("torch.nn.SELU", load_table())
    assert match.mindspore_api == "mindspore.mint.nn.SELU"
    assert "1.10: different → mindspore.ops.SeLU" in match.history


def test_undescribed_same_name_rows_of_a_table_without_consistent_wording_are_consistent() -> None:
    data = VersionData(
        (
            _row("torch.Tensor.dtype", "mindspore.Tensor.dtype", DIFFERENT, NO_DESCRIPTION),
            _row("torch.abs", "mindspore.ops.Abs", DIFFERENT, NO_DESCRIPTION),
            _row("torch.std", "mindspore.Tensor.std", DIFFERENT, NO_DESCRIPTION),
            _row("torch.nn.KLDivLoss", "mindspore.ops.KLDivLoss", DIFFERENT, NO_DESCRIPTION),
            _row("torch.nn.ReLU", "mindspore.nn.ReLU", DIFFERENT, NO_DESCRIPTION),
        ),
        (),
        (),
        (),
    )
    settled = settle_undescribed(data)
    assert [(r.torch_api, r.status) for r in settled.rows] == [
        ("torch.Tensor.dtype", CONSISTENT),
        ("torch.abs", DIFFERENT),  # a function mapped to a primitive is called differently
        ("torch.std", DIFFERENT),  # function → method
        ("torch.nn.KLDivLoss", DIFFERENT),  # class → primitive
        ("torch.nn.ReLU", CONSISTENT),
    ]
    assert settled.rows[0].note == SAME_NAME_UNDESCRIBED
    # A table that does say "Consistent" elsewhere leaves its undescribed rows alone.
    mixed = VersionData((*data.rows, _row("torch.x", "mindspore.x", CONSISTENT)), (), (), ())
    assert settle_undescribed(mixed) == mixed


def test_tensor_dtype_is_consistent_as_the_r1_10_table_maps_it() -> None:
    # r1.10/pytorch_api_mapping.md:336 torch.Tensor.dtype → mindspore.Tensor.dtype, no
    # description; the r1.10 table marks differences only with diff pages.
    match = match_api("torch.Tensor.dtype", load_table())
    assert (match.status, match.mindspore_api) == (CONSISTENT, "mindspore.Tensor.dtype")


# --- every target of a row ----------------------------------------------------------------


def test_a_row_with_two_targets_keeps_both() -> None:
    # r2.4.0/pytorch_api_mapping.md lists torch.optim.SGD twice: mindspore.nn.SGD and
    # mindspore.experimental.optim.SGD, both Consistent.
    match = match_api("torch.optim.SGD", load_table(), passed_params=["lr"])
    assert match.mindspore_apis == ("mindspore.nn.SGD", "mindspore.experimental.optim.SGD")
    # lr= is a parameter of experimental.optim.SGD only (nn.SGD calls it learning_rate)
    assert match.mindspore_api == "mindspore.experimental.optim.SGD"
    assert match.status == CONSISTENT


def test_the_target_taking_the_call_s_keywords_is_suggested() -> None:
    # r2.4.0/pytorch_api_mapping.md:869 and :889 map torch.optim.SGD to mindspore.nn.SGD and
    # mindspore.experimental.optim.SGD, both Consistent. SGD(params, lr=.., momentum=..)
    # fits the torch-style one (params, lr, momentum, ... in mapping_data/signatures.csv).
    table = load_table()
    keywords = ["lr", "momentum", "nesterov"]
    fit = match_api(
        "torch.optim.SGD", table, passed_params=["params", *keywords], keywords=keywords
    )
    assert fit.mindspore_api == "mindspore.experimental.optim.SGD"
    assert fit.mindspore_apis == ("mindspore.nn.SGD", "mindspore.experimental.optim.SGD")
    assert match_api("torch.optim.SGD", table).mindspore_api == "mindspore.nn.SGD"
    # The chosen target's own row gives the verdict: r2.4.0:897 CosineAnnealingLR →
    # experimental's, "No `verbose` input param, other functions are consistent" — not
    # nn.cosine_decay_lr's diff page (T_max → total_step, no optimizer).
    cosine = match_api(
        "torch.optim.lr_scheduler.CosineAnnealingLR",
        table,
        passed_params=["optimizer", "T_max"],
        keywords=["T_max"],
    )
    assert cosine.mindspore_api == "mindspore.experimental.optim.lr_scheduler.CosineAnnealingLR"
    assert (cosine.status, cosine.param_changes) == (CONSISTENT, ())


def test_a_consistent_row_of_a_multi_row_api_decides_the_verdict() -> None:
    # r2.4.0/pytorch_api_mapping.md:867 torch.optim.RMSProp → mindspore.nn.RMSProp (diff),
    # :887 torch.optim.RMSprop → mindspore.experimental.optim.RMSprop (Consistent).
    match = match_api("torch.optim.RMSprop", load_table())
    assert (match.status, match.mindspore_api) == (
        CONSISTENT,
        "mindspore.experimental.optim.RMSprop",
    )
    assert match.mindspore_apis == (
        "mindspore.experimental.optim.RMSprop",
        "mindspore.nn.RMSProp",
    )


def test_aliases_are_tried_when_the_written_name_has_no_row() -> None:
    table = load_table()
    match = match_api("torch.nn.modules.activation.SELU", table, aliases=["torch.nn.SELU"])
    assert match.mindspore_api == "mindspore.mint.nn.SELU"
    assert match.matched == "torch.nn.SELU"
    assert "isted in the table as torch.nn.SELU" in match.note
    assert match_api("torch.nn.SELU", table).matched == "torch.nn.SELU"


def test_the_newest_described_spelling_of_the_same_object_wins() -> None:
    # r1.10/pytorch_api_mapping.md:238 lists torch.nn.Parameter → mindspore.Parameter without
    # a description; r2.4.0/pytorch_api_mapping.md:456 lists the same class as
    # torch.nn.parameter.Parameter with a diff page (Parameter.html). The written name's
    # stale row must not hide the newer one.
    table = load_table()
    match = match_api("torch.nn.Parameter", table, same_object=["torch.nn.parameter.Parameter"])
    assert match.matched == "torch.nn.parameter.Parameter"
    assert (match.status, match.source_version) == (DIFFERENT, "2.4")
    assert "Parameter.html" in match.diff_url
    assert any(h.startswith("1.10: consistent") for h in match.history)
    # A tie keeps the written name (both spellings of conv2d have r2.6.0 rows or only one).
    assert match_api("torch.nn.SELU", table, same_object=["torch.nn.SELU"]).matched == (
        "torch.nn.SELU"
    )


def test_the_scan_finds_every_spelling_the_tables_use_for_an_object(tmp_path: Path) -> None:
    findings = scan_snippet(
        tmp_path, "import torch.nn as nn\n\ndef f(x):\n    return nn.Parameter(x)\n"
    )
    finding = next(f for f in findings if f.api == "torch.nn.Parameter")
    assert (finding.status, finding.mapping_version) == (DIFFERENT, "2.4")


# --- parameters: the differences a call actually hits ---------------------------------------


@pytest.mark.parametrize("param", ["out", "device", "memory_format", "layout", "pin_memory"])
def test_general_difference_parameters_do_not_break_consistency(param: str) -> None:
    # r2.6.0/pytorch_api_mapping.md:21, Exception Scenario 2.
    match = match_api("torch.zeros", load_table(), passed_params=["size", param], keywords=[param])
    assert match.status == CONSISTENT
    assert [(c.param, c.kind) for c in match.param_changes] == [(param, "general")]
    assert "drop it" in match.param_changes[0].describe()


def test_a_keyword_the_consistent_target_does_not_take_is_a_difference_the_call_hits() -> None:
    # r2.6.0/pytorch_api_mapping.md:234 lists torch.var_mean → mindspore.mint.var_mean as
    # Consistent; the criteria (line 11) require consistent parameter names, and the target
    # (mapping_data/signatures.csv) takes input, dim, correction, keepdim: no `unbiased`.
    table = load_table()
    hit = match_api(
        "torch.var_mean", table, passed_params=["input", "unbiased"], keywords=["unbiased"]
    )
    assert hit.status == DIFFERENT
    assert [(c.param, c.kind) for c in hit.param_changes] == [("unbiased", "unsupported")]
    assert "has no parameter named unbiased" in hit.param_changes[0].note
    fine = match_api("torch.var_mean", table, passed_params=["input", "dim"], keywords=["dim"])
    assert (fine.status, fine.param_changes) == (CONSISTENT, ())
    # a general difference parameter stays excused (Exception Scenario 2, line 21)
    general = match_api("torch.zeros", table, passed_params=["device"], keywords=["device"])
    assert [(c.param, c.kind) for c in general.param_changes] == [("device", "general")]
    # torch reads axis= as dim= (r2.6.0:213 torch.stack → mint.stack(tensors, dim), Consistent)
    axis = match_api("torch.stack", table, passed_params=["tensors", "axis"], keywords=["axis"])
    assert axis.status == DIFFERENT
    assert [(c.param, c.kind, c.ms_param) for c in axis.param_changes] == [
        ("axis", "renamed", "dim")
    ]
    # a target taking **kwargs accepts any name: mindspore.mint.max(*args, **kwargs)
    loose = match_api("torch.max", table, passed_params=["input", "dim"], keywords=["dim"])
    assert loose.status == CONSISTENT


def test_a_described_single_missing_parameter_is_different_only_when_passed() -> None:
    # r2.6.0/pytorch_api_mapping.md:307 torch.nn.ELU → mindspore.mint.nn.ELU, "Consistent
    # functions, MindSpore has no parameter inplace." (no diff page).
    table = load_table()
    plain = match_api("torch.nn.ELU", table, passed_params=["alpha"], keywords=[])
    assert (plain.status, plain.param_changes) == (CONSISTENT, ())
    assert "does not pass inplace" in plain.note
    hit = match_api("torch.nn.ELU", table, passed_params=["inplace"], keywords=["inplace"])
    assert hit.status == DIFFERENT
    assert [(c.param, c.kind) for c in hit.param_changes] == [("inplace", "unsupported")]


def test_an_extra_mindspore_parameter_with_a_default_is_consistent() -> None:
    # r2.6.0/pytorch_api_mapping.md:276 torch.distributed.new_group: "MindSpore has an
    # additional parameter group_desc = None"; Exception Scenario 3 (line 23).
    match = match_api("torch.distributed.new_group", load_table(), passed_params=["ranks"])
    assert match.status == CONSISTENT
    assert "Exception Scenario 3" in match.note


def test_requires_grad_of_parameter_is_a_real_mindspore_parameter() -> None:
    match = match_api(
        "torch.nn.Parameter",
        load_table(),
        passed_params=["data", "requires_grad"],
        keywords=["requires_grad"],
    )
    assert match.param_changes == ()
    assert match.status == CONSISTENT


def test_a_positional_device_is_the_api_s_own_argument() -> None:
    match = match_api("torch.cuda.set_device", load_table(), passed_params=["device"], keywords=[])
    assert match.param_changes == ()


def test_a_renamed_parameter_says_what_to_write_and_the_default_that_changed() -> None:
    # r2.4.0 pytorch_diff/LeakyReLU.md: negative_slope → alpha, "different default values".
    table = load_table()
    passed = match_api(
        "torch.nn.LeakyReLU", table, passed_params=["negative_slope"], keywords=["negative_slope"]
    )
    (change,) = passed.param_changes
    assert (change.kind, change.param, change.ms_param) == ("renamed", "negative_slope", "alpha")
    assert (change.torch_default, change.ms_default) == ("0.01", "0.2")
    assert change.describe().startswith(
        "negative_slope= → alpha= (PyTorch negative_slope=0.01, MindSpore alpha=0.2)"
    )
    omitted = match_api("torch.nn.LeakyReLU", table)
    assert [(c.kind, c.param) for c in omitted.param_changes] == [("default", "negative_slope")]


def test_a_positional_parameter_is_not_a_rename() -> None:
    match = match_api(
        "torch.nn.LeakyReLU", load_table(), passed_params=["negative_slope"], keywords=[]
    )
    assert [c.kind for c in match.param_changes] == []


def test_batchnorm_momentum_must_be_converted_when_passed() -> None:
    # r2.4.0 pytorch_diff/BatchNorm2d.md: "the conversion relationship with PyTorch's
    # momentum is 1-momentum".
    table = load_table("2.4", merge=False)
    match = match_api(
        "torch.nn.BatchNorm2d",
        table,
        passed_params=["num_features", "momentum"],
        keywords=["momentum"],
    )
    kinds = {c.param: c.kind for c in match.param_changes}
    assert kinds["momentum"] == "default"
    assert "1-momentum" in next(c for c in match.param_changes if c.param == "momentum").note


def test_distributed_sampler_renames() -> None:
    # r2.6.0 pytorch_diff/DistributedSampler.md: num_replicas → num_shards, rank → shard_id.
    match = match_api(
        "torch.utils.data.distributed.DistributedSampler",
        load_table(),
        passed_params=["dataset", "num_replicas", "rank"],
        keywords=["num_replicas", "rank"],
    )
    assert [(c.param, c.kind, c.ms_param) for c in match.param_changes] == [
        ("dataset", "unsupported", ""),
        ("num_replicas", "renamed", "num_shards"),
        ("rank", "renamed", "shard_id"),
    ]
    assert match.status == DIFFERENT


# --- backends --------------------------------------------------------------------------------


def test_backends_come_from_the_target_docstring() -> None:
    table = load_table()
    assert match_api("torch.nn.SELU", table).backends == ("Ascend",)
    assert match_api("torch.optim.SGD", table).backends == ("Ascend", "GPU", "CPU")


def test_a_target_platform_the_target_lacks_is_a_gap() -> None:
    # r2.6.0/pytorch_api_mapping.md lists torch.clone → mindspore.mint.clone (Consistent),
    # documented for Ascend only; no older table maps torch.clone.
    table = load_table()
    cpu = match_api("torch.clone", table, target_platform="CPU")
    assert (cpu.status, cpu.mindspore_api, cpu.backend_gap) == (
        DIFFERENT,
        "mindspore.mint.clone",
        True,
    )
    assert "Ascend only" in cpu.note
    ascend = match_api("torch.clone", table, target_platform="Ascend")
    assert (ascend.status, ascend.backend_gap) == (CONSISTENT, False)


def test_an_older_table_s_target_serves_a_platform_the_newest_lacks() -> None:
    # r2.6.0:335 torch.nn.SeLU → mindspore.mint.nn.SELU (Ascend only); r2.4.0:471
    # torch.nn.SeLU → mindspore.nn.SeLU, Consistent, documented for Ascend, GPU and CPU.
    cpu = match_api("torch.nn.SELU", load_table(), target_platform="CPU")
    assert (cpu.status, cpu.mindspore_api, cpu.source_version, cpu.backend_gap) == (
        CONSISTENT,
        "mindspore.nn.SeLU",
        "2.4",
        False,
    )
    assert cpu.note.startswith(
        "mindspore.mint.nn.SELU is documented for Ascend only; the 2.4 table's"
        " mindspore.nn.SeLU runs on CPU."
    )
    assert "1.10: different → mindspore.ops.SeLU" in cpu.history


def test_a_target_platform_prefers_a_target_documented_for_it() -> None:
    rows = (
        MappingRow(
            "torch.x",
            ("mindspore.mint.x", "mindspore.ops.x"),
            CONSISTENT,
            "",
            "",
            "torch",
            "2.6",
            True,
            targets_exist=(True, True),
            targets_platforms=("Ascend", "Ascend GPU CPU"),
        ),
    )
    table = MappingTable("2.6", False, (), (), rows)
    assert match_api("torch.x", table).mindspore_api == "mindspore.mint.x"
    cpu = match_api("torch.x", table, target_platform="CPU")
    assert (cpu.mindspore_api, cpu.backend_gap) == ("mindspore.ops.x", False)


def test_build_report_lists_renamed_rows_and_rows_matching_nothing() -> None:
    from apiscan.mapping.store import MAPPING_DATA_DIR

    report = (MAPPING_DATA_DIR / "build_report.md").read_text(encoding="utf-8")
    assert "- line 321: `torch.nn.LogSoftMax` → `torch.nn.LogSoftmax` (case)" in report
    assert "`torch.Tensor.log_normal` → `torch.Tensor.log_normal_` (misspelling)" in report
    assert "Matches nothing" in report and "`torchvision.ops.nms`" in report


def test_a_layer_whose_target_takes_nothing_refuses_what_the_call_passes() -> None:
    # r2.6.0/pytorch_api_mapping.md:327 lists torch.nn.ReLU → mindspore.mint.nn.ReLU as
    # Consistent; the target's constructor takes no parameter (mapping_data/signatures.csv,
    # MindSpore 2.10: ``mint.nn.ReLU.__init__(self)``), so ``nn.ReLU(inplace=True)`` and
    # ``nn.ReLU(True)`` (inplace by position) fail as written.
    table = load_table()
    named = match_api("torch.nn.ReLU", table, passed_params=["inplace"], keywords=["inplace"])
    by_position = match_api("torch.nn.ReLU", table, passed_params=["inplace"], keywords=[])
    for hit in (named, by_position):
        assert hit.status == DIFFERENT
        assert [(c.param, c.kind) for c in hit.param_changes] == [("inplace", "unsupported")]
    assert "takes no parameter" in by_position.param_changes[0].note
    bare = match_api("torch.nn.ReLU", table, passed_params=[], keywords=[])
    assert (bare.status, bare.param_changes) == (CONSISTENT, ())
    # an empty signature of a primitive says nothing of what its call takes
    fill = match_api("torch.Tensor.fill_", table, passed_params=["value"], keywords=[])
    assert not any(c.kind == "unsupported" for c in fill.param_changes)


def test_parameters_the_operator_takes_as_its_call_inputs_are_no_missing_parameters() -> None:
    # r2.6.0/pytorch_diff/nms.md: boxes (N, 4) and scores are "defined in the input list of
    # MindSpore": NMSWithMask takes one input, bboxes, "Bounding boxes with scores" (N, 5).
    nms = match_api(
        "torchvision.ops.nms", load_table(), passed_params=["boxes", "scores", "iou_threshold"]
    )
    assert nms.unsupported_params == ()
    assert [(c.param, c.kind, c.ms_param) for c in nms.param_changes] == [
        ("boxes", "input", "bboxes"),
        ("scores", "input", "bboxes"),
    ]
    assert nms.param_changes[0].describe() == (
        "boxes: goes into the operator's input bboxes: boxes, scores packed into one input "
        "tensor bboxes (one row per item, the columns side by side: Bounding boxes with scores)"
    )
    assert "no counterpart" not in nms.note
    # r2.6.0/pytorch_diff/roi_align.md: input and boxes, each its own input (features, rois)
    roi = match_api(
        "torchvision.ops.roi_align", load_table(), passed_params=["input", "boxes", "output_size"]
    )
    assert [(c.param, c.kind, c.ms_param) for c in roi.param_changes if c.kind == "input"] == [
        ("input", "input", "features"),
        ("boxes", "input", "rois"),
    ]
    # a parameter whose page says MindSpore has none stays unsupported (INVALID for inputs)
    elu = match_api("torch.nn.ELU", load_table(), passed_params=["inplace"], keywords=["inplace"])
    assert [c.kind for c in elu.param_changes] == ["unsupported"]
