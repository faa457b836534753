"""Third-party libraries of compiled network ops are custom-op work, sparse use and custom
extensions that MindTorch does not cover; constants, host queries, compositions and
differentiable collectives are no custom op or gap: fixtures/thirdops."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review
from apiscan.review.oplibs import NETWORK_OP_LIBRARIES, library_label
from apiscan.rewrite import host_value


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/thirdops")


def test_library_ops_the_network_uses_are_compiled_custom_ops(review) -> None:
    # VALID: MinkowskiEngine and torch_scatter in the network's file, one item per op
    assert [i.what for i in review.work if i.kind == "compiled-custom-op"] == [
        "MinkowskiEngine.MinkowskiConvolution (third-party compiled op of MinkowskiEngine)",
        "MinkowskiEngine.SparseTensor (third-party compiled op of MinkowskiEngine)",
        "torch_scatter.scatter_mean (third-party compiled op of torch_scatter)",
    ]
    assert review.effort.custom_ops == 3
    # each at the line that first calls it, through the file's import alias (``ME.``)
    assert [
        (i.where[0].path, i.where[0].line) for i in review.work if i.kind == "compiled-custom-op"
    ] == [("sparsenet/model.py", 19), ("sparsenet/model.py", 24), ("sparsenet/model.py", 26)]
    # INVALID: torch_geometric's data container in data code, an unknown helper package, an
    # optional import (xformers in a try: ... except ImportError, beside the PyTorch path)
    assert not any(
        lib in i.what
        for lib in ("torch_geometric", "plainhelpers", "xformers")
        for i in review.work
    )
    assert {t.package for t in review.third_party} >= {
        "plainhelpers",
        "torch_geometric",
        "xformers",
    }
    assert not any("xformers" in what for what, _ in review.extensions)


def test_library_ops_are_extensions_and_sparse_use(review) -> None:
    assert [what for what, _ in review.extensions] == [
        "MinkowskiEngine (third-party compiled ops: MinkowskiEngine.MinkowskiConvolution, "
        "MinkowskiEngine.SparseTensor)",
        "torch_scatter (third-party compiled ops: torch_scatter.scatter_mean)",
    ]
    # MinkowskiEngine works on sparse tensors; torch_scatter does not make one
    assert [(w.path, w.line) for w in review.sparse] == [
        ("sparsenet/model.py", 19),
        ("sparsenet/model.py", 24),
    ]


def test_mindtorch_does_not_cover_library_ops(review) -> None:
    effort = review.effort
    assert "torch_scatter.scatter_mean" in effort.mindtorch_lacks
    assert "MinkowskiEngine.MinkowskiConvolution" in effort.mindtorch_lacks
    assert effort.mindtorch_total - effort.mindtorch_covered >= 3
    assert any(
        "the ops of MinkowskiEngine, torch_scatter are custom ops" in s for s in effort.explanation
    )


def test_constants_host_queries_and_compositions_are_rewrites(review) -> None:
    by_api = {g.api: g.disposition for g in review.gaps}
    assert by_api["torch.inf"] == "rewrite"
    assert by_api["torch.is_grad_enabled"] == "rewrite"
    assert by_api["torch.nn.RMSNorm"] == "rewrite"
    assert not any(d in ("custom-op", "gap") for d in by_api.values())


def test_host_value_table() -> None:
    assert host_value("torch.inf") == ("math.inf", "a constant: math.inf (import math)")
    assert host_value("torch.is_grad_enabled")[0] == ""
    assert host_value("torch.are_deterministic_algorithms_enabled") is not None
    # INVALID: tensor computations and settings are not host values
    assert host_value("torch.cumsum") is None
    assert host_value("torch.set_grad_enabled") is None


def test_table_and_label() -> None:
    assert NETWORK_OP_LIBRARIES["MinkowskiOps"] == ("MinkowskiEngine", True)
    assert library_label("x.y (third-party compiled op of spconv)") == "spconv"
    assert library_label("nativedet._C.nms") == ""


def test_gaps_reached_only_under_a_switched_off_option_are_not_counted(review) -> None:
    # VALID: dcp.save runs every time; INVALID: dcp.load only under --resume (default None)
    gaps = next(s for s in review.effort.explanation if "gap site" in s)
    assert "torch.distributed.checkpoint.save" in gaps
    assert "torch.distributed.checkpoint.load" not in gaps
