"""A model built of parts that builders pick among several classes (issue 20 item 5).

fixtures/archbuild: train.py builds ``SegModel(net_encoder, net_decoder, crit)`` from parts
``Builder.build_encoder(arch=args.arch_encoder)`` and ``Builder.build_decoder(...)`` return,
each one class per ``if arch == ...`` branch bound to one local it returns: SegModel is the
top model, each part the builder's classes as alternatives with the argument that picks one;
the classes the builders construct are parts, never top models of their own.

fixtures/confbuild: a recursive ``model_from_config(config)`` dispatching on
``config.pop("name")`` builds ``Transmitter(encoder=..., renderer=...)`` from two parts it
builds by their own configs: each part is one of the classes it may return, picked at run
time, never its first branch's class."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def arch():
    return review_fixture("fixtures/archbuild")


@pytest.fixture(scope="module")
def conf():
    return review_fixture("fixtures/confbuild")


def _role(review, cls: str) -> str:
    return next(m.role for m in review.modules if m.cls == cls)


def test_injected_wrapper_is_the_top_model_with_alternatives(arch) -> None:
    # VALID: the module the training entry builds from the builders' parts
    assert [m.cls for m in arch.top_models] == ["segnet.models.SegModel"]
    top = arch.top_models[0]
    assert (top.where.path, top.where.line) == ("train.py", 13)
    assert top.parts == (
        (
            "net_enc",
            "SmallEncoder or DeepEncoder "
            "(picked by arch in Builder.build_encoder(arch=args.arch_encoder, width=64))",
        ),
        (
            "net_dec",
            "LinearHead or PyramidHead "
            "(picked by arch in Builder.build_decoder(arch=args.arch_decoder, num_class=10))",
        ),
    )
    # INVALID: the criterion handed in is no part of the model
    assert not any(name == "crit" for name, _ in top.parts)


def test_builder_candidates_are_parts_not_models(arch) -> None:
    assert _role(arch, "segnet.models.SegModel") == "model"
    # every class a builder may pick is a child of the model, none "other" or a model
    node = next(m for m in arch.modules if m.cls == "segnet.models.SegModel")
    assert set(node.children) == {
        "segnet.models.SmallEncoder",
        "segnet.models.DeepEncoder",
        "segnet.models.LinearHead",
        "segnet.models.PyramidHead",
    }
    assert _role(arch, "segnet.models.SmallEncoder") == "block"
    assert _role(arch, "segnet.models.DeepEncoder") == "block"
    # INVALID: a class nothing builds is no row of the network (issue 20)
    assert all(m.cls != "segnet.models.Plain" for m in arch.modules)


def test_recursive_config_builder_parts_are_one_of_its_classes(conf) -> None:
    assert [m.cls for m in conf.top_models] == ["gen.configs.Transmitter"]
    parts = dict(conf.top_models[0].parts)
    either = "PointEncoder or GridEncoder or Renderer"
    assert parts == {
        "encoder": f'{either} (picked at run time: model_from_config(config.pop("encoder")))',
        "renderer": f'{either} (picked at run time: model_from_config(config.pop("renderer")))',
    }
    # INVALID: neither part is its first branch's class alone, nor the Transmitter itself
    assert "PointEncoder (encoder)" not in parts.values()
    assert not any("Transmitter" in part for part in parts.values())
