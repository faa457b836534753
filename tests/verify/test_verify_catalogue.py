"""The substitution catalogue is well-formed data, readable without torch or MindSpore."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

from apiscan.suggest import suggestion
from apiscan.verify.cases import Case, InputSpec, validate
from apiscan.verify.catalogue import CASES, cases_for

SEED_APIS = {
    "torch.squeeze",
    "torch.flatten",
    "torch.unsqueeze",
    "torch.nn.AdaptiveAvgPool2d",
    "torch.nn.AdaptiveMaxPool2d",
    "torch.nn.MaxPool2d",
    "torch.topk",
    "torchvision.ops.sigmoid_focal_loss",
}


def test_every_case_validates() -> None:
    problems = [p for case in CASES for p in validate(case)]
    assert problems == []


def test_case_ids_are_unique_and_seed_examples_present() -> None:
    ids = [c.case_id for c in CASES]
    assert len(ids) == len(set(ids))
    assert {c.api for c in CASES} >= SEED_APIS
    assert cases_for("torchvision.ops.sigmoid_focal_loss")[0].strategy == "composed"
    assert len({c.api for c in CASES if c.strategy == "mapped"}) >= 30


def test_validate_reports_broken_cases() -> None:
    good = cases_for("torch.squeeze")[0]
    broken = replace(
        good,
        api="numpy.squeeze",
        ms_expr="ops.reshape(x,",
        inputs=(
            InputSpec("x", (-1, 2), low=1.0, high=1.0),
            InputSpec("i", (2,), kind="int", high=3, special="nan"),
        ),
    )
    problems = " | ".join(validate(broken))
    for expected in ("dotted torch", "does not parse", "empty value range", "negative", "NaN"):
        assert expected in problems


def test_spec_hash_follows_the_spec() -> None:
    case = cases_for("torch.sum")[0]
    assert case.spec_hash() == replace(case).spec_hash()
    assert case.spec_hash() != replace(case, threshold=1e-6).spec_hash()


def test_threshold_defaults_by_dtype() -> None:
    case = Case("torch.abs", "torch.abs(x)", "ops.abs(x)", "mapped", (InputSpec("x", (2,)),))
    assert case.threshold_for("float32") == 1e-5
    assert case.threshold_for("float16") == 1e-3
    assert replace(case, threshold=1e-6).threshold_for("float16") == 1e-4


def test_suggestion_offers_substitutions_not_table_restatements() -> None:
    squeeze = suggestion("torch.squeeze", "missing")
    assert squeeze.startswith("equivalent (dim): ops.reshape(")
    focal = suggestion("torchvision.ops.sigmoid_focal_loss", "missing")
    assert "composed" in focal and "BCEWithLogitsLoss" in focal
    assert suggestion("torch.sum", "missing") == ""
    assert "epsilon=1e-5" in suggestion("torch.nn.LayerNorm", "different")
    assert suggestion("torch.no_such_api", "missing") == ""


def test_catalogue_and_suggest_do_not_import_frameworks() -> None:
    code = (
        "import sys, apiscan.suggest, apiscan.verify.runner, apiscan.cli.verify;"
        "print(sorted(m for m in ('torch', 'mindspore') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_claim_forms_name_the_shipped_tables_targets() -> None:
    """Each "claim" case runs the target the shipped table gives its row, so a failure is a
    failure of the table's claim in that call form."""
    from apiscan.mapping.store import load_table
    from apiscan.verify.catalogue import forms

    table = load_table()
    for case in forms.CASES:
        row = table.lookup(case.api)
        assert row is not None, case.api
        target = case.note.split(" ↔ ")[1].split(",")[0]
        assert target in row.ms_apis, (case.case_id, row.ms_apis)
    # the forms the issue names: no-argument Flatten, sizes as varargs, max(other), squeeze()
    ids = {c.case_id for c in forms.CASES}
    for wanted in (
        "torch.nn.Flatten[claim: torch.nn.Flatten()(x)]",
        "torch.zeros[claim: torch.zeros(2, 3)]",
        "torch.Tensor.max[claim: x.max(y)]",
        "torch.Tensor.squeeze[claim: x.squeeze()]",
    ):
        assert wanted in ids
