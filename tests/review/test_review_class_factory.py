"""A factory that picks a model class into a variable and builds it from a config dict is
where the top model is built: fixtures/cfgfactory."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/cfgfactory")


def test_the_composite_a_factory_builds_is_the_top_model(review) -> None:
    # VALID: ``model_class = DualEncoder`` in the fallback branch, ``model_class(**cfg)``;
    # its towers (one through a builder) are its parts, the other class an alternative
    (top,) = review.top_models
    assert (top.cls, top.builder, top.where.path, top.where.line) == (
        "pkg.model.DualEncoder",
        "create_model",
        "pkg/factory.py",
        19,
    )
    assert top.parts == (
        (
            "selected by",
            "model_class = DualEncoder, the fallback of create_model's branches on its "
            "config, built from a config dict",
        ),
        ("visual", "Tower (_build_tower(vision_cfg))"),
        ("text", "TextTower"),
        ("alternatives", "CaptionEncoder"),
    )


def test_a_local_callable_that_is_no_model_class_builds_no_model(review) -> None:
    # INVALID: ``make = torch.optim.AdamW; make(..., **settings)``, the towers themselves and
    # a generator class picked the same way but handed the models (``gen_cls(models, **x)``)
    assert {m.cls for m in review.top_models} == {"pkg.model.DualEncoder"}
    roles = {m.cls: m.role for m in review.modules}
    assert roles["pkg.model.DualEncoder"] == "model"
