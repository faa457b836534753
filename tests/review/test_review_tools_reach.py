"""Code only tools reach, compiled ops built at import and second-order gradients (issue 20),
on fixtures/gantools: a stylegan2-like layout with ``train.py`` at the root beside tool
scripts (``fid.py`` and ``calc_inception.py`` reaching a pretrained Inception, ``ppl.py``
reaching a perceptual metric package that trains its own calibration layers), and ``op/``
modules building CUDA extensions at import with a native twin or a CPU path."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.model import ApiFinding, Span
from apiscan.review.gaps import counted, loader_attribute_read
from apiscan.review.work import TOOLS_ONLY, UNIMPORTED


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/gantools")


def test_modules_only_tools_reach_are_counted_apart_with_them(review) -> None:
    apart = dict(review.ancillary)
    # a root script reaching a training step only through the metric's own trainer is a tool
    assert apart["ppl.py"] == "tools"
    assert apart["fid.py"] == apart["calc_inception.py"] == "tools"
    assert apart["inception.py"] == f"{TOOLS_ONLY} (calc_inception.py, fid.py)"
    for path in ("percept/__init__.py", "percept/dist_model.py", "percept/networks.py"):
        assert apart[path] == f"{TOOLS_ONLY} (ppl.py)", path
    # what the training script reaches stays ported
    for path in ("train.py", "model.py", "op/fused_act.py", "op/upfirdn2d.py"):
        assert path not in apart, path


def test_what_tools_reach_adds_no_work_custom_op_gap_or_recipe_row(review) -> None:
    places = {w.path for item in review.work for w in item.where}
    assert not places & {"inception.py", "percept/networks.py", "percept/dist_model.py"}
    assert not any(i.kind == "pretrained-backbone" for i in review.work)
    assert "torch.nn.DataParallel.forward" not in review.effort.formula
    assert review.recipe
    assert not any(r.where.path.startswith("percept/") for r in review.recipe)


def test_a_notebook_beside_the_training_is_counted_apart_facts_and_all() -> None:
    """fixtures/nbprobe: ``train.py`` trains; ``eval/linear_probe.ipynb`` loads the
    checkpoint and fits a linear probe with its own optimizer."""
    review = review_fixture("fixtures/nbprobe")
    assert dict(review.ancillary)["eval/linear_probe.ipynb"] == "notebook"
    assert not any(w.path.endswith(".ipynb") for item in review.work for w in item.where)
    assert not any(item.kind == "checkpoint" for item in review.work)
    assert not any(r.where.path.endswith(".ipynb") for r in review.recipe)
    assert any(r.name == "torch.optim.Adam" for r in review.recipe)


def test_extensions_built_at_import_are_compiled_op_work_with_their_native_path(review) -> None:
    ops = {i.what: i for i in review.work if i.kind == "compiled-op"}
    # the kernel's CPU path (``F.leaky_relu`` before an early return) computes the op with
    # tensor ops: the composition to port, no custom op
    fused = ops["op.fused_act.fused (built at import by torch.utils.cpp_extension.load)"]
    assert [(w.path, w.line) for w in fused.where] == [
        ("op/fused_act.py", 12),
        ("op/fused_act.py", 21),
    ]
    assert "own PyTorch path (fused_leaky_relu)" in fused.why
    # an op MindSpore composes from its own ops is priced as that counterpart
    up = ops["op.upfirdn2d.upfirdn2d (built at import by torch.utils.cpp_extension.load)"]
    assert "(upfirdn2d_native)" in up.why
    assert "a composition: zero-insertion upsampling" in up.why
    assert "compiled-custom-op" not in review.effort.formula
    assert "2 compiled-op as" in review.effort.formula
    # the autograd.Function wrappers are that op's work, not gaps of their own
    assert " gap × " not in review.effort.formula


def test_second_order_gradients_through_custom_functions_are_a_work_item(review) -> None:
    (item,) = [i for i in review.work if i.kind == "second-order-grad"]
    assert item.where[0].path == "train.py" and item.where[0].line == 12
    assert "FusedLeakyReLUFunction, UpFirDn2d" in item.what
    assert "1 second-order-grad × 2–4" in review.effort.formula


def test_a_package_module_nothing_imports_is_counted_apart() -> None:
    """fixtures/nbprobe's ``lib/activations.py`` (an autograd.Function) beside the
    ``lib/net.py`` that train.py imports."""
    review = review_fixture("fixtures/nbprobe")
    apart = dict(review.ancillary)
    assert apart["lib/activations.py"] == UNIMPORTED
    assert "lib/net.py" not in apart and "lib/__init__.py" not in apart
    assert "gap" not in review.effort.formula


@pytest.mark.parametrize(
    ("api", "usage", "read"),
    [
        ("torch.utils.data.DataLoader.dataset", "reference", True),
        ("torch.utils.data.DataLoader.sampler", "reference", True),
        ("torch.utils.data.TensorDataset", "call", False),
        ("torch.autograd.Function", "base_class", False),
    ],
)
def test_a_loader_attribute_read_is_no_gap_to_port(api: str, usage: str, read: bool) -> None:
    f = ApiFinding(
        path="train.py",
        span=Span(3, 0, 3, 10),
        api=api,
        status="missing",
        mindspore_api=None,
        confidence="high",
        note="",
        usage=usage,
        namespace="torch",
        disposition="gap",
    )
    assert loader_attribute_read(f) is read
    assert counted(f) is not read


def test_tensors_sent_to_the_host_into_a_repository_metric_in_the_loss_are_a_round_trip() -> None:
    """fixtures/nbprobe's ``MultiTaskLoss`` feeds ``.cpu()`` tensors into a NumPy metric and
    adds its IoU to the loss."""
    review = review_fixture("fixtures/nbprobe")
    (trip,) = [i for i in review.work if i.kind == "host-round-trip"]
    assert trip.what == (
        "MultiTaskLoss.forward: tensor data to the host into SegmentationMetric.add_batch"
    )
    assert [(w.path, w.line) for w in trip.where] == [("lib/loss.py", 13)]
    assert "1 host-round-trip × 1–2" in review.effort.formula
