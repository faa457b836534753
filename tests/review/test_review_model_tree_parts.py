"""The parts of a model's blocks (issue 20 point 5, ConvNeXt-V2), on fixtures/sparseblocks: a
block's own classes imported from ``models/utils.py`` while a top-level ``utils.py`` shares its
first module name are its children (not disconnected roots), and the layers of a model or
network-op library it builds in its constructor (timm's ``DropPath`` in a conditional,
MinkowskiEngine's layers) are its layers; settings objects and a library call made in
``forward`` are not."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/sparseblocks")


def _node(review, cls: str):
    return next(m for m in review.modules if m.cls == cls)


def test_a_class_of_a_file_sharing_its_first_module_name_is_a_part(review) -> None:
    # VALID: GRN and SparseGRN, imported ``from .utils`` beside a top-level utils.py
    assert _node(review, "net.Block").children == ("models.utils.GRN",)
    assert _node(review, "net.SparseBlock").children == ("models.utils.SparseGRN",)
    assert _node(review, "models.utils.GRN").role == "block"
    # INVALID: neither is a root of its own any more, and the top-level file's logger is
    # no module at all
    roots = {m.cls for m in review.modules if m.role == "other"}
    assert roots == set()
    assert not any(m.cls.endswith("MetricLogger") for m in review.modules)


def test_library_layers_built_in_a_constructor_are_the_blocks_layers(review) -> None:
    # VALID: timm's DropPath (one branch of a conditional) and MinkowskiEngine's layers,
    # imported by name or through the package's alias
    block = dict(_node(review, "net.Block").layers)
    assert block == {
        "timm.models.layers.DropPath": 1,
        "torch.nn.Conv2d": 1,
        "torch.nn.Identity": 1,
    }
    sparse = dict(_node(review, "net.SparseBlock").layers)
    assert sparse == {
        "MinkowskiEngine.MinkowskiGELU": 1,
        "MinkowskiEngine.MinkowskiLinear": 1,
    }
    # INVALID: ``EasyDict`` (no layer package), transformers' ``GenerationConfig`` (a
    # library's settings) and ``ME.SparseTensor`` called in forward
    assert not any("EasyDict" in k or "SparseTensor" in k for k in (*block, *sparse))
    net = dict(_node(review, "net.Net").layers)
    # torchvision's RoIPool once: the scan's findings count it, the library rule does not again
    assert net == {
        "torch.nn.Conv2d": 1,
        "torch.nn.Linear": 1,
        "torch.nn.Sequential": 1,
        "torchvision.ops.RoIPool": 1,
    }
    grn = dict(_node(review, "models.utils.SparseGRN").layers)
    assert "MinkowskiEngine.SparseTensor" not in grn
