"""Dtype constants on ``fixtures/dtypenames``: a torch dtype whose MindSpore namesake the
dtype page lists as the same dtype (``torch.int64``, ``torch.long``, ``torch.float32``) is a
rename, priced with the other mechanical constants; no verify command is recommended for it.
A same-name candidate that is no dtype (``register_forward_hook``) still is one to verify."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import scan_repo

from apiscan.mapping.candidates import same_dtype
from apiscan.model import ScanResult
from apiscan.review.build import build_review
from apiscan.review.model import Review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dtypenames"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(FIXTURE), jobs=1)


def test_documented_dtypes_are_renames(result: ScanResult) -> None:
    dtypes = {
        f.api: (f.status, f.disposition, f.rewrite, f.rewrite_note)
        for f in result.api_findings
        if same_dtype(f.api)
    }
    same = "a rename: the same dtype on MindSpore's dtype page"
    assert dtypes == {
        "torch.int64": ("candidate", "idiom", "mindspore.int64", same),
        "torch.long": ("candidate", "idiom", "mindspore.int64", same),
        "torch.float32": ("candidate", "idiom", "mindspore.float32", same),
    }
    notes = {f.note for f in result.api_findings if f.api == "torch.int64"}
    assert notes == {
        "not in the mapping table; MindSpore's dtype page lists mindspore.int64 as the same "
        "dtype: a rename"
    }


def test_other_candidates_still_recommend_their_case(result: ScanResult) -> None:
    hook = [f for f in result.api_findings if f.api.endswith(".register_forward_hook")]
    assert [(f.status, f.disposition, f.rewrite_note) for f in hook] == [
        (
            "candidate",
            "rewrite",
            "same name, unverified: apiscan verify torch.nn.Module.register_forward_hook",
        )
    ]
    assert not any(
        "apiscan verify" in f.rewrite_note for f in result.api_findings if same_dtype(f.api)
    )


def test_dtypes_are_priced_as_one_mechanical_pattern(review: Review) -> None:
    formula = review.effort.formula
    assert "2 mechanical-idiom × 0.1–0.2" in formula
    assert "3 rendered × 0.02–0.04" in formula  # arange, .to, the hook: no dtype among them
    assert (
        "mechanical-idiom (2 × up to 0.2 = 0.4: constants, module-walk)"
        in (review.effort.explanation[6])
    )
    assert ("rewrite", 3, 3, 3) in review.effort.by_disposition


def test_same_dtype_names() -> None:
    assert same_dtype("torch.int64") and same_dtype("torch.long") and same_dtype("torch.bool")
    assert not same_dtype("torch.dtype")  # the class, not a dtype
    assert not same_dtype("torch.Tensor.float")  # a cast method
    assert not same_dtype("numpy.int64")
