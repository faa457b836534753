"""Compiled ops of third-party packages installed beside the repository, on fixtures/extops:
a deformable convolution whose package's name says it is one (``from dcn_lib import DCN``)
and a layer of a package the README clones and builds with its ``make.sh`` (``warp_ops``),
both built in the network's constructor; beside them what is no such op: an NMS package
called only by host post-processing, a package the README clones without building, a
deformable convolution imported optionally; and a third-party layer the network class holds
as an attribute beside a text processor a network function builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.review.commands import built_packages, package_key


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/extops")


def _items(review) -> list[tuple[str, str, list[str]]]:
    return [
        (i.kind, i.what, [f"{w.path}:{w.line}" for w in i.where])
        for i in review.work
        if i.kind in ("compiled-op", "compiled-custom-op")
    ]


def test_the_readme_names_the_packages_it_clones_and_builds() -> None:
    # VALID: ``git clone ... WarpOps.git`` then ``./make.sh``; INVALID: a clone of images
    # with no build after it
    assert built_packages(Path(REPO_ROOT) / "fixtures/extops") == {"warpops": "README.md:6"}
    assert package_key("warp_ops") == package_key("WarpOps") == "warpops"
    assert built_packages(None) == {}


def test_third_party_compiled_ops_built_in_the_network_are_work_items(review) -> None:
    # VALID: DCN (its name: deformable_conv2d) and WarpLayer (built per the README: a custom
    # op); INVALID: nms_tools.nms (host post-processing), sample_images (cloned, never built,
    # no network use), deform_fast.DeformConv (an optional import)
    assert _items(review) == [
        ("compiled-op", "dcn_lib.DCN", ["model.py:22"]),
        ("compiled-custom-op", "warp_ops.WarpLayer", ["model.py:23"]),
    ]
    dcn = next(i for i in review.work if i.what == "dcn_lib.DCN")
    assert "mindspore.ops.deformable_conv2d" in dcn.why
    warp = next(i for i in review.work if i.what == "warp_ops.WarpLayer")
    assert "built as documented at README.md:6" in warp.why
    assert not any(
        p in i.what for i in review.work for p in ("nms_tools", "sample_images", "deform_fast")
    )


_ONCE = "and the checkpoint pattern, priced once by its work item"


def test_the_checkpoint_pattern_is_an_idiom_only_without_a_checkpoint_item(review) -> None:
    # INVALID: extops saves its weights (the checkpoint idiom) and loads none: no checkpoint
    # item, so the pattern keeps its idiom price (train step, checkpoint, Cell skeleton)
    assert not any(i.kind == "checkpoint" for i in review.work)
    assert not any(_ONCE in s for s in review.effort.explanation)
    assert "+ 3 idiom × 0.5–1 +" in review.effort.formula


def test_a_checkpoint_item_prices_the_checkpoint_pattern_once() -> None:
    # VALID: halfcasts loads a checkpoint in its model code: the checkpoint item (1–2)
    # prices the work, the idiom pattern of load/state_dict is not priced again beside it
    halfcasts = review_fixture("fixtures/halfcasts")
    assert [i.what for i in halfcasts.work if i.kind == "checkpoint"] == ["torch.load"]
    assert any(_ONCE in s for s in halfcasts.effort.explanation)
    assert "1 checkpoint × 1–2" in halfcasts.effort.formula
    assert "+ 3 idiom × 0.5–1 +" in halfcasts.effort.formula
    # tinydet's training reads back the file it just saved (its own, nothing to convert),
    # and so does its inference tool (``state["model"]``, the key the training saves; no
    # weights are released): no item, and the checkpoint pattern keeps its idiom price
    tinydet = review_fixture("fixtures/tinydet")
    assert [[w.path for w in i.where] for i in tinydet.work if i.kind == "checkpoint"] == []
    assert "checkpoint ×" not in tinydet.effort.formula
    assert not any(_ONCE in s for s in tinydet.effort.explanation)


def test_a_third_party_class_a_network_class_holds_is_a_layer(review) -> None:
    # VALID: ``self.pos = AxialEmbedding(...)`` in Net's constructor (never handed a
    # device); INVALID: textsplit's Splitter built in a network function but held by no
    # module (a text processor)
    assert [
        (i.what, [str(w) for w in i.where]) for i in review.work if i.kind == "third-party-layer"
    ] == [("posembed (posembed.AxialEmbedding)", ["model.py:25"])]
    assert not any("textsplit" in i.what for i in review.work)
