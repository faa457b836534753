"""Third-party libraries of compiled network ops are one porting job each, sparse use and custom
extensions that MindTorch does not cover; constants, host queries, compositions and
differentiable collectives are no custom op or gap: fixtures/thirdops."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review
from apiscan.review.oplibs import NETWORK_OP_LIBRARIES, library_label, library_ops, library_what
from apiscan.rewrite import host_value


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/thirdops")


def test_each_library_the_network_uses_is_one_porting_job(review) -> None:
    # VALID: MinkowskiEngine and torch_scatter in the network's file, one item per library
    # listing its op kinds (``uses``), not one custom op per name; INVALID: the submodule
    # ``MEF`` is imported as, the library's network base class and its ``__init__``
    libraries = [i for i in review.work if i.kind == "op-library"]
    assert [(i.what, i.uses) for i in libraries] == [
        (
            "MinkowskiEngine (third-party compiled ops: MinkowskiEngine.MinkowskiConvolution, "
            "MinkowskiEngine.MinkowskiFunctional.relu, MinkowskiEngine.SparseTensor)",
            3,
        ),
        ("torch_scatter (third-party compiled ops: torch_scatter.scatter_mean)", 1),
    ]
    assert not any(i.kind == "compiled-custom-op" for i in review.work)
    assert review.effort.custom_ops == 4
    # each op kind at the line that first calls it, through the file's import alias (``ME.``)
    assert [[(w.path, w.line) for w in i.where] for i in libraries] == [
        [("sparsenet/model.py", 19), ("sparsenet/model.py", 50), ("sparsenet/model.py", 24)],
        [("sparsenet/model.py", 26)],
    ]
    # a sparse library is replaced by dense tensors and a mask; another by custom ops
    assert "dense tensors and a mask" in libraries[0].why
    assert "dense tensors" not in libraries[1].why
    assert "package of custom ops" in libraries[1].why
    # priced per library on its own curve: three kinds of MinkowskiEngine as 1.8, one of
    # torch_scatter as 1; the drivers name the libraries
    assert "4 library-op as 2.8 × 3–5" in review.effort.formula
    drives = next(s for s in review.effort.explanation if "What drives it" in s)
    assert "library-op of MinkowskiEngine, torch_scatter (4 as 2.8 × up to 5 = 14)" in drives
    assert any(
        "MinkowskiEngine: one porting job of 3 op kinds" in s for s in review.effort.explanation
    )
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
        "MinkowskiEngine.MinkowskiFunctional.relu, MinkowskiEngine.SparseTensor)",
        "torch_scatter (third-party compiled ops: torch_scatter.scatter_mean)",
    ]
    # MinkowskiEngine works on sparse tensors; torch_scatter does not make one
    assert [(w.path, w.line) for w in review.sparse] == [
        ("sparsenet/model.py", 19),
        ("sparsenet/model.py", 24),
        ("sparsenet/model.py", 50),
    ]


def test_mindtorch_does_not_cover_library_ops(review) -> None:
    effort = review.effort
    assert "torch_scatter.scatter_mean" in effort.mindtorch_lacks
    assert "MinkowskiEngine.MinkowskiConvolution" in effort.mindtorch_lacks
    assert effort.mindtorch_total - effort.mindtorch_covered >= 3
    assert any(
        "the ops of MinkowskiEngine, torch_scatter are ported on either route" in s
        for s in effort.explanation
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
    what = library_what("spconv", ["spconv.SubMConv3d", "spconv.SparseConvTensor"])
    assert what == "spconv (third-party compiled ops: spconv.SubMConv3d, spconv.SparseConvTensor)"
    assert library_label(what) == "spconv"
    assert library_ops(what) == ("spconv.SubMConv3d", "spconv.SparseConvTensor")
    # INVALID: a repository's own compiled op is no library
    assert library_label("nativedet._C.nms") == ""
    assert library_ops("nativedet._C.nms (nms_cuda)") == ()


def test_gaps_reached_only_under_a_switched_off_option_are_not_counted(review) -> None:
    # VALID: dcp.save runs every time; INVALID: dcp.load only under --resume (default None)
    gaps = next(s for s in review.effort.explanation if "gap site" in s)
    assert "torch.distributed.checkpoint.save" in gaps
    assert "torch.distributed.checkpoint.load" not in gaps
