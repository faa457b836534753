"""Work items only for code that runs with the defaults, and third-party symbols classed by
what they are, on fixtures/judgeitems: apex's LARC optimizer wrapper is a piece of training
with a MindSpore counterpart (mindspore.nn.LARS), not a library of compiled ops, and one
built only under an ``if args.lars:`` that the option's default switches off is no item."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture, scan_repo, scan_snippet

from apiscan.review.build import build_review
from apiscan.review.gaps import _proposal
from apiscan.review.model import Review
from apiscan.review.oplibs import training_piece

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "judgeitems"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/judgeitems")


def review_fixture_scan():
    """The scan of the fixture (the records the review reads)."""
    return scan_repo(FIXTURE)


def _variant(tmp_path: Path, path: str, old: str, new: str) -> Review:
    """The fixture with ``old`` replaced by ``new`` in ``path``, reviewed."""
    root = tmp_path / "judgeitems"
    shutil.copytree(FIXTURE, root)
    text = (root / path).read_text()
    assert old in text
    (root / path).write_text(text.replace(old, new))
    return build_review(str(root), jobs=1)


def test_optimizer_wrappers_are_training_pieces_not_compiled_ops(review) -> None:
    # VALID: apex's fused optimizer, built unconditionally, is a piece of training priced as
    # one, with its MindSpore counterpart; INVALID: no op-library item, no custom extension
    assert [(i.kind, i.what) for i in review.work if "apex" in i.what] == [
        ("training-library", "apex.optimizers.FusedSGD")
    ]
    assert "mindspore.nn's optimizer of the same algorithm" in next(
        i.why for i in review.work if i.what == "apex.optimizers.FusedSGD"
    )
    assert not any(i.kind == "op-library" for i in review.work)
    assert not any("apex" in what for what, _ in review.extensions)
    # INVALID: apex's mixed precision imported in a try/except ImportError beside the
    # PyTorch path: optional, the port keeps the fallback
    assert not any("apex.amp" in i.what for i in review.work)
    assert review.effort.custom_ops == 0
    assert training_piece("apex.parallel.LARC.LARC") is not None
    # INVALID: a compiled op library's kernels stay ops
    assert training_piece("apex.normalization.FusedLayerNorm") is None
    assert training_piece("mmcv.ops.DeformConv2d") is None


def test_an_optimizer_wrapper_off_by_default_is_no_item(review, tmp_path) -> None:
    # INVALID: LARC under ``if args.lars:`` with ``--lars`` a store_true flag: not built
    assert not any("LARC" in i.what for i in review.work)
    # VALID: the same flag on by default builds it: a piece of training, mindspore.nn.LARS
    on = _variant(
        tmp_path,
        "train.py",
        'parser.add_argument("--lars", action="store_true")',
        'parser.add_argument("--lars", type=int, default=1)',
    )
    larc = [i for i in on.work if "LARC" in i.what]
    assert [(i.kind, i.what, [w.line for w in i.where]) for i in larc] == [
        ("training-library", "apex.parallel.LARC.LARC", [32])
    ]
    assert "mindspore.nn.LARS" in larc[0].why
    assert not any(i.kind == "op-library" for i in on.work)


def test_a_layer_whose_same_name_is_a_metric_is_composed(tmp_path) -> None:
    # torch.nn.CosineSimilarity has no Cell of its name (mindspore.nn.CosineSimilarity is a
    # metric): no candidate, a rewrite calling the functional op in construct
    found = [
        f
        for f in scan_snippet(
            tmp_path,
            "import torch.nn as nn\n\nclass Head(nn.Module):\n"
            "    def __init__(self):\n        super().__init__()\n"
            "        self.sim = nn.CosineSimilarity(dim=1)\n\n"
            "    def forward(self, a, b):\n        return self.sim(a, b)\n",
        )
        if f.api == "torch.nn.CosineSimilarity"
    ]
    assert [(f.status, f.mindspore_api) for f in found] == [("missing", None)]
    assert "mindspore.ops.cosine_similarity(x1, x2, dim, eps) in construct" in _proposal(found[0])


def test_labels_of_files_counted_apart_are_true(review) -> None:
    apart = dict(review.ancillary)
    # VALID: a module nothing imports is unused; one built on Keras adapts to TensorFlow
    assert apart["netpkg/extra.py"] == "unused (nothing imports it)"
    assert apart["netpkg/keras_twin.py"] == "adapter for tensorflow"
    # INVALID: the training loop's TensorBoard logger writing through tf.summary adapts
    # nothing, and a console script pyproject.toml declares is an entry point: both ported
    assert "netpkg/logger.py" not in apart
    assert "netpkg/predict.py" not in apart


def test_a_setup_py_console_script_is_an_entry_point(tmp_path) -> None:
    root = tmp_path / "judgeitems"
    shutil.copytree(FIXTURE, root)
    (root / "pyproject.toml").unlink()
    # INVALID: undeclared, the command-line module nothing imports is unused
    apart = dict(build_review(str(root), jobs=1).ancillary)
    assert apart["netpkg/predict.py"] == "unused (nothing imports it)"
    # VALID: declared by setup.py's entry_points
    (root / "setup.py").write_text(
        "from setuptools import setup\n\nsetup(name='judgeitems', entry_points={"
        "'console_scripts': ['judge-predict = netpkg.predict:run']})\n"
    )
    apart = dict(build_review(str(root), jobs=1).ancillary)
    assert "netpkg/predict.py" not in apart
    assert apart["netpkg/extra.py"] == "unused (nothing imports it)"


def test_a_training_steps_loss_computations_are_the_network(review) -> None:
    """stargan's solver: the models are ``self.D``/``self.G``, built in another method of
    the step's class; the step's inline reductions and the gradient penalty it calls lie
    between their outputs and ``backward()``: the network's loss, as a loss function is."""
    scopes = {
        (f.span.line, f.api): f.scope
        for f in review_fixture_scan().api_findings
        if f.path == "gan_solver.py"
    }
    # VALID: the penalty's gradient and reductions, and the step's inline loss terms
    for line, api in (
        (36, "torch.autograd.grad"),
        (39, "torch.mean"),
        (39, "torch.sqrt"),
        (44, "torch.mean"),
        (46, "torch.mean"),
        (46, "torch.Tensor.detach"),
        (48, "torch.Tensor.requires_grad_"),
    ):
        assert scopes[(line, api)] == "network", (line, api)
    # INVALID: the random interpolation weight is no model output, the optimizer's step and
    # the logging after the backward pass read no value the backward differentiates
    for line, api in (
        (47, "torch.rand"),
        (51, "torch.optim.Optimizer.zero_grad"),
        (52, "torch.Tensor.backward"),
        (53, "torch.optim.Adam.step"),
        (54, "torch.exp"),
    ):
        assert scopes[(line, api)] == "host", (line, api)


def test_the_scan_and_the_review_count_the_same_gap_sites(review) -> None:
    """A dtype's tensor constructor in a dataset and a picture saved for the logs have known
    ways: the scan disposes them so, and the review reads the same dispositions."""
    result = review_fixture_scan()
    disposed = {
        f.api: f.disposition
        for f in result.api_findings
        if f.api in ("torch.FloatTensor", "torchvision.utils.save_image")
    }
    # INVALID: neither is a gap any more; VALID: the way each is ported
    assert disposed == {"torch.FloatTensor": "rewrite", "torchvision.utils.save_image": "rewrite"}
    scan_gaps = sum(1 for f in result.api_findings if f.disposition == "gap")
    review_gaps = {d: n for d, _, n, _ in review.effort.by_disposition}["gap"]
    assert scan_gaps == review_gaps == 0


def test_a_random_size_drawn_only_off_by_default_is_no_input_pipeline(review, tmp_path) -> None:
    """The collate function draws a new size only under ``if self.multiscale and ...``;
    every construction of the dataset passes ``multiscale=`` the training's
    ``--multiscale_training`` flag, off by default: every batch has the configured size."""
    # INVALID: the DS119 finding stays in the scan, but no input pipeline is counted
    assert any(f.rule == "DS119" for f in review_fixture_scan().shape_findings)
    assert review.effort.input_shape_rewrites == 0
    assert "input-shape" not in review.effort.formula
    # VALID: the flag on by default draws the size: one input pipeline to bucket
    on = _variant(
        tmp_path,
        "train.py",
        'parser.add_argument("--multiscale_training", action="store_true")',
        'parser.add_argument("--multiscale_training", type=int, default=1)',
    )
    assert on.effort.input_shape_rewrites == 1
    assert "1 input-shape" in on.effort.formula
