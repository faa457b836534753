"""Compiled ops built through cffi are ops of the network, one op is one item whether it is
named at its call or through the call's result, and a compiled op whose PyTorch twin the
repository ships is a composition to port: fixtures/cffiops."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT, review_fixture, scan_repo

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/cffiops")


def _compiled(review: Review) -> dict[str, tuple[str, list[str], str]]:
    return {
        i.what: (i.kind, [str(w) for w in i.where], i.why)
        for i in review.work
        if i.kind.startswith("compiled")
    }


def test_a_cffi_extension_injected_into_its_wrapper_is_a_compiled_op(review) -> None:
    # ``from ._nms import lib, ffi`` + ``_import_symbols(locals())``: ``nms.nms_cuda`` is C
    kind, where, why = _compiled(review)["cffidet.nms._ext.nms.nms (nms_cuda)"]
    assert kind == "compiled-op"
    assert where == ["cffidet/nms/nms_gpu.py:9"]
    assert "cffi-built" in why
    assert "mindspore.ops.NMSWithMask" in why


def test_a_cffi_extension_whose_wrapper_the_build_generates_is_a_compiled_op(review) -> None:
    # ``create_extension("_ext.roi_align", ...)`` in cffidet/roi/build.py; no ``_ext`` folder
    kind, where, why = _compiled(review)["cffidet.roi._ext.roi_align.roi_align (roi_align_forward)"]
    assert kind == "compiled-op"
    assert where == ["cffidet/roi/roi_align.py:8"]
    assert "mindspore.ops.ROIAlign" in why


def test_plain_values_named_lib_and_ffi_are_no_extension(review) -> None:
    # cffidet/plain/tables.py binds ``lib`` and ``ffi``: a Python file defines them
    assert not [what for what in _compiled(review) if "plain" in what or "tables" in what]


def test_one_op_is_one_item_at_its_call(review) -> None:
    # ``upfirdn_ext.upfirdn2d(...)`` and the reference to its result are one op, placed at
    # the call, never at the file's first line
    items = [w for w in _compiled(review) if "upfirdn" in w]
    assert items == ["cffidet.ops.upfirdn_ext.upfirdn2d"]
    assert _compiled(review)[items[0]][1] == ["cffidet/ops/upfirdn.py:10"]
    assert len(_compiled(review)) == 4


def test_a_compiled_op_with_a_pytorch_twin_is_a_composition(review) -> None:
    kind, _, why = _compiled(review)["cffidet.ops.upfirdn_ext.upfirdn2d"]
    assert kind == "compiled-op"  # priced as a counterpart, not a custom op to write
    assert "upfirdn2d_native (cffidet/ops/upfirdn.py:22)" in why
    assert "helper_native" not in why  # names no op


def test_a_compiled_op_without_a_twin_or_counterpart_is_a_custom_op(review) -> None:
    kind, where, why = _compiled(review)["cffidet.ops.blur_ext.blur (blur_forward)"]
    assert kind == "compiled-custom-op"
    assert where == ["cffidet/ops/blur.py:9"]
    assert "write it as a custom op" in why
    assert review.effort.custom_ops == 1
    assert "3 compiled-op as 2.5 × 1–2" in review.effort.formula
    assert "1 compiled-custom-op × 3–5" in review.effort.formula


def test_a_repository_function_named_like_an_nms_op_is_a_call_into_its_code() -> None:
    # ``nms(boxes, 0.5)`` in the model's forward is the repository's nms_wrapper.nms, which
    # calls nms_gpu: that code runs in the network, not on the host
    result = scan_repo(REPO_ROOT / "fixtures/cffiops")
    scopes = {f.api: f.scope for f in result.api_findings if f.path.endswith("nms/nms_gpu.py")}
    assert scopes["torch.zeros"] == "network"
    # a function named ``nms`` that is no call into the repository stays the NMS op it
    # names (its output length is data)
    assert [
        (f.rule, f.path, f.scope)
        for f in result.findings
        if getattr(f, "api", "") == "cffidet.nms.nms_wrapper.nms"
    ] == [("DS108", "cffidet/model.py", "network")]
