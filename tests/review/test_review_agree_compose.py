"""The scan and the review dispose a tensor computation MindSpore lacks the same way, on
fixtures/agreecompose: one composed of existing ops (``nn.CosineSimilarity``: the functional
``mindspore.ops.cosine_similarity``) is a rewrite in both, never a custom op the scan counts
and the review does not; one with no composition (``Tensor.as_strided``) is a custom op in
both. The table of compositions has one home, :mod:`apiscan.rewrite.composed`."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture, scan_repo

from apiscan.model import ApiFinding, ScanResult, Span
from apiscan.review.model import Review
from apiscan.rewrite import dispose
from apiscan.rewrite.composed import COMPOSE_NOTE, COMPOSITIONS, composed

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "agreecompose"
COMPOSED = "torch.nn.CosineSimilarity"
CUSTOM = "torch.Tensor.as_strided"


@pytest.fixture(scope="module")
def scanned() -> ScanResult:
    return scan_repo(FIXTURE)


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/agreecompose")


def _scan_dispositions(result: ScanResult, api: str) -> set[str]:
    return {f.disposition for f in result.api_findings if f.api == api and f.is_call_site}


def test_a_composed_api_is_a_rewrite_in_the_scan_and_the_review(scanned, review) -> None:
    # VALID: the scan disposes the composition as a rewrite, with the composition as its note
    assert _scan_dispositions(scanned, COMPOSED) == {"rewrite"}
    note = next(f.rewrite_note for f in scanned.api_findings if f.api == COMPOSED)
    assert note == COMPOSE_NOTE + "mindspore.ops.cosine_similarity(x1, x2, dim, eps) in construct"
    gaps = {g.api: g for g in review.gaps}
    assert gaps[COMPOSED].disposition == "rewrite"
    assert "mindspore.ops.cosine_similarity(x1, x2, dim, eps)" in gaps[COMPOSED].suggestion


def test_a_missing_api_with_no_composition_stays_a_custom_op_in_both(scanned, review) -> None:
    # INVALID: a strided view has no composition: a custom op for the scan and the review
    assert composed(CUSTOM) == ""
    assert _scan_dispositions(scanned, CUSTOM) == {"custom-op"}
    assert {g.api: g.disposition for g in review.gaps}[CUSTOM] == "custom-op"


def test_the_scan_and_the_review_count_the_same_custom_op_sites(scanned, review) -> None:
    network = [
        f
        for f in scanned.api_findings
        if f.scope == "network" and f.is_call_site and f.disposition == "custom-op"
    ]
    assert [f.api for f in network] == [CUSTOM]
    assert review.effort.custom_ops == len(network) == 1


def test_every_composition_entry_is_a_rewrite_of_the_scan() -> None:
    # the scan's disposition reads the same table for every entry: none is left a custom op
    for api in COMPOSITIONS:
        assert dispose(_missing(api)).disposition != "custom-op", api


def _missing(api: str) -> ApiFinding:
    """A call of ``api`` the tables do not list, as the scan records it."""
    return ApiFinding(
        path="a.py",
        span=Span(1, 0, 1, 1),
        api=api,
        status="missing",
        mindspore_api=None,
        confidence="certain",
        note="",
        usage="call",
        namespace=api.partition(".")[0],
    )


def test_complex_views_and_the_default_tensor_type_are_no_custom_ops() -> None:
    # VALID: MindSpore 2.10 has ops.Complex, so LLaMA-style rotary embeddings built with
    # view_as_complex are a rewrite naming it; the default tensor type is a global setting
    complex_view = dispose(_missing("torch.view_as_complex"))
    assert complex_view.disposition == "rewrite"
    assert "mindspore.ops.Complex" in complex_view.rewrite_note
    assert dispose(_missing("torch.set_default_tensor_type")).disposition == "delete"
    # INVALID: a strided view stays a custom op
    assert dispose(_missing("torch.Tensor.as_strided")).disposition == "custom-op"
