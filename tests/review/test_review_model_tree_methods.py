"""A class built inside a method of another module class is a part of it (issue 20 item 5).

fixtures/methodparts: ``BindModel.__init__`` calls its own ``_create_preprocessors``, which
builds ``Preprocessor(stem=PatchStem(dim), ...)`` twice, and ``_create_trunks``, whose nested
``instantiate_trunk`` builds each ``Trunk``; the module-level ``bind_base(pretrained=False)``
builds ``BindModel`` and loads its checkpoint, and demo.py calls it. The top model is
``BindModel`` from ``bind_base``, never what the helper methods build."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/methodparts")


def test_the_builder_function_names_the_top_model(review) -> None:
    # VALID: the public builder that constructs the model and returns it
    top = review.top_models[0]
    assert (top.cls, top.builder, top.where.path, top.where.line) == (
        "bindnet.model.BindModel",
        "bind_base",
        "bindnet/model.py",
        31,
    )
    assert top.parts == (
        ("preprocessors", "_create_preprocessors(...) → Preprocessor, PatchStem"),
        ("also builds", "Trunk"),
    )


def test_what_a_models_methods_build_is_no_top_model(review) -> None:
    # INVALID: a preprocessor built (with its stem injected) in a method of the model, and a
    # trunk built in a def nested in one, are the model's parts
    assert [m.cls for m in review.top_models] == ["bindnet.model.BindModel"]
    roles = {m.cls: m.role for m in review.modules}
    assert roles == {
        "bindnet.model.BindModel": "model",
        "bindnet.parts.PatchStem": "block",
        "bindnet.parts.Preprocessor": "block",
        "bindnet.parts.Trunk": "block",
    }
    children = next(m.children for m in review.modules if m.cls == "bindnet.model.BindModel")
    assert children == (
        "bindnet.parts.PatchStem",
        "bindnet.parts.Preprocessor",
        "bindnet.parts.Trunk",
    )
