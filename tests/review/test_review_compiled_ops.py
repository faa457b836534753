"""Ops of compiled extensions are custom-op work, and a deprecated reduction switch that is
set is a parameter MindSpore lacks: fixtures/nativeops (FCOS's ``_C`` bindings and
CenterTrack's DCNv2 submodule, written small)."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.effort import RATES
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/nativeops")


def _work(review: Review, kind: str) -> list[str]:
    return [item.what for item in review.work if item.kind == kind]


def test_each_compiled_op_the_network_calls_is_one_item(review) -> None:
    # forward and backward bindings of one op are one port; counterparts where MindSpore
    # has one, a custom op where not
    assert _work(review, "compiled-op") == [  # in the order of their places
        "nativedet._C.nms",
        "nativedet._C.roi_align (roi_align_backward, roi_align_forward)",
        "nativedet.DCNv2.dcn_v2.DCN",
    ]
    assert _work(review, "compiled-custom-op") == [
        "nativedet._C.roi_pool (roi_pool_forward)",
        # registered with torch by the extension; no MindSpore op takes an angle
        "torch.ops.nativedet.box_iou_rotated",
    ]
    ops = {i.what.partition(" ")[0]: i for i in review.work if i.kind.startswith("compiled")}
    assert "mindspore.ops.ROIAlign" in ops["nativedet._C.roi_align"].why
    assert "mindspore.ops.deformable_conv2d" in ops["nativedet.DCNv2.dcn_v2.DCN"].why
    assert "https://example.invalid/DCNv2, not checked out" in ops["nativedet.DCNv2.dcn_v2.DCN"].why
    assert [str(w) for w in ops["nativedet._C.roi_align"].where] == [
        "nativedet/layers/roi_ops.py:12",
        "nativedet/layers/roi_ops.py:17",
    ]


def test_a_value_bound_to_an_extension_like_name_is_no_op(review) -> None:
    # ``_C = Node(...)`` in nativedet/config.py, read as cfg.MODEL.CHANNELS
    assert not [i for i in review.work if "config" in i.what or "MODEL" in i.what]
    # the C++ COCO evaluation scores predictions: no op of the network
    assert not [i for i in review.work if "COCO" in i.what]


def test_compiled_ops_are_counted_in_the_effort(review) -> None:
    effort = review.effort
    assert effort.custom_ops == 2  # roi_pool, box_iou_rotated: no MindSpore counterpart
    # three ops of one kind on the learning curve: priced as 2.5 at the full rate
    assert "3 compiled-op as 2.5 × 1–2" in effort.formula
    assert "2 compiled-custom-op as 1.8 × 3–5" in effort.formula
    low, high = effort.person_days
    assert high <= 2 * low
    assert RATES["compiled-custom-op"] == RATES["custom-op"]
    assert any("nativedet._C.roi_pool" in line for line in effort.explanation)
    # the submodule is an extension too, though none of its source is in the tree
    assert any("git submodule" in what for what, _ in review.extensions)
    text = render_markdown(review)
    assert "| Compiled op (custom op) | `nativedet._C.roi_pool (roi_pool_forward)`" in text


def test_a_legacy_reduction_switch_that_is_set_is_an_unsupported_parameter(review) -> None:
    items = [i for i in review.work if i.kind == "unsupported-param"]
    assert [i.what for i in items] == [
        "torch.nn.functional.binary_cross_entropy_with_logits(size_average=False)"
    ]
    assert "reduction='sum'" in items[0].why
    # size_average=True is the default: dropping it changes nothing
    assert not [i for i in items if "smooth_l1_loss" in i.what]


def test_a_weights_file_read_as_arrays_is_a_checkpoint_to_convert(review) -> None:
    items = [i for i in review.work if i.kind == "checkpoint"]
    assert [i.what for i in items] == [
        "weights read as arrays into the parameters: load_flat_weights"
    ]
    assert [str(w) for w in items[0].where] == ["nativedet/weights.py:12"]
    assert "MindSpore's Parameters" in items[0].why
    # load_weights_from_keras is never called: it loads nothing
    assert "keras" not in items[0].what
