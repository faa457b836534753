"""The parts a builder injects (issue 20 item 5), on two fixtures.

fixtures/injecttree: ``create_model(config)`` builds three encoders with a repository factory
that returns a timm model with its config (``encoder, cfg = create_backbone(preset=...)``),
hands two to ``PyramidEncoder(patch_encoder=..., image_encoder=...)`` and the third to
``DepthNet(encoder=..., decoder=..., fov_encoder=...)``: the third-party encoders are parts of
the model, and the injected encoder and decoder are its children, never free-standing roots;
the model handed to an EMA wrapper stays a root.

fixtures/blockpick: ``ResNet(num_classes, Bottleneck, [...])`` hands its block class in, and
train.py picks the builder in an ``if``/``elif`` chain on ``--depth`` (an int, default 50):
the tree's "selected by" and the recipe's downloaded weights are resnet50's, not those of the
first branch."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.structure import tree_roots


@pytest.fixture(scope="module")
def inject():
    return review_fixture("fixtures/injecttree")


@pytest.fixture(scope="module")
def blocks():
    return review_fixture("fixtures/blockpick")


def _node(review, cls: str):
    return next(m for m in review.modules if m.cls == cls)


def test_third_party_models_a_factory_returns_are_parts_of_the_model(inject) -> None:
    top = inject.top_models[0]
    assert top.cls == "injectnet.net.DepthNet"
    # VALID: followed through the builder's unpacked locals into the factory's return
    # the preset table's entry names the timm model (its ``timm_preset`` field)
    timm = "timm vit_large_patch14_dinov2"
    assert top.parts == (
        ("selected by", "create_model(Config()) in run.py → create_model()"),
        ("encoder", "PyramidEncoder (encoder)"),
        ("encoder.patch_encoder", f"create_backbone(preset=config.patch_preset) → {timm}"),
        ("encoder.image_encoder", f"create_backbone(preset=config.image_preset) → {timm}"),
        ("decoder", "FuseDecoder (decoder)"),
        ("fov_encoder", f"create_backbone(preset=config.fov_preset) → {timm}"),
        ("fov", "FieldHead"),
    )
    # INVALID: the encoder handed in is no top model of its own, nor is dims (a number)
    assert [m.cls for m in inject.top_models] == ["injectnet.net.DepthNet"]
    assert not any(name == "dims" for name, _ in top.parts)


def test_injected_classes_are_children_not_other_roots(inject) -> None:
    net = _node(inject, "injectnet.net.DepthNet")
    assert net.children == (
        "injectnet.parts.FieldHead",
        "injectnet.parts.FuseDecoder",
        "injectnet.parts.PyramidEncoder",
    )
    assert _node(inject, "injectnet.parts.PyramidEncoder").role == "block"
    assert _node(inject, "injectnet.parts.FuseDecoder").role == "block"
    roots, _ = tree_roots(inject.modules, inject.top_models, ())
    assert {m.cls for m in roots} == {"injectnet.net.DepthNet", "injectnet.ema.ModelEmaV2"}
    # INVALID: the model an EMA wrapper is handed stays the root, no part of the wrapper
    assert _node(inject, "injectnet.ema.ModelEmaV2").children == ()
    assert [m.cls for m in inject.modules if m.role == "other"] == ["injectnet.ema.ModelEmaV2"]


def test_a_class_passed_to_a_constructor_is_a_part(blocks) -> None:
    resnet = _node(blocks, "blocknet.resnet.ResNet")
    # VALID: both blocks a builder hands ResNet (resnet18's BasicBlock too) are its parts
    assert resnet.children == ("blocknet.resnet.BasicBlock", "blocknet.resnet.Bottleneck")
    assert {_node(blocks, f"blocknet.resnet.{c}").role for c in ("BasicBlock", "Bottleneck")} == {
        "block"
    }
    roots, _ = tree_roots(blocks.modules, blocks.top_models, ())
    assert [m.cls for m in roots] == ["blocknet.resnet.ResNet"]
    # the selected builder's block is named among the model's parts; the list (num_classes,
    # the layer counts) is no part
    assert blocks.top_models[0].parts[1:] == (("block", "Bottleneck"),)
    # INVALID: a builder construction whose only part is a class handed in uncalled is no
    # model of its own (no "ResNet by resnet18" beside the pick)
    assert [(m.cls, m.builder) for m in blocks.top_models] == [("blocknet.resnet.ResNet", "main")]


def test_an_int_default_picks_the_builder_branch(blocks) -> None:
    top = blocks.top_models[0]
    assert top.parts[0] == (
        "selected by",
        "resnet.resnet50(num_classes=10, pretrained=True) in train.py → resnet50()",
    )
    assert top.where.line == 17
    # the recipe's backbone row agrees: resnet50's weights, resnet18's left as an alternative
    (row,) = [r for r in blocks.recipe if r.category == "backbone"]
    assert 'model_urls["resnet50"]' in row.name
    assert (row.where.path, row.where.line) == ("blocknet/resnet.py", 63)
    assert "resnet18" not in row.name
    assert "weights downloaded at blocknet/resnet.py:56 (resnet18())" in row.note
