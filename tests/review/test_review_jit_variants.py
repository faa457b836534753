"""An extension built at import once per device (fixtures/jitvariants: ``cpp_extension.load``
of ``deform_conv_cpu`` then ``deform_conv_cuda`` in one file, a precompiled module tried
first and its ``__file__`` logged): one op, priced by MindSpore's counterpart where there
is one; a sibling extension only classes nothing builds call is counted apart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.build import build_review
from apiscan.review.model import Review

FIXTURE = Path(__file__).parents[2] / "fixtures/jitvariants"
BUILT = " (built at import by torch.utils.cpp_extension.load)"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/jitvariants")


def _compiled(review: Review) -> dict[str, tuple[str, list[str], str]]:
    return {
        i.what: (i.kind, [str(w) for w in i.where], i.why)
        for i in review.work
        if i.kind.startswith("compiled")
    }


def test_cpu_and_cuda_builds_of_one_op_are_one_item_with_its_counterpart(review: Review) -> None:
    ops = _compiled(review)
    key = "jdet.ops.functions.deform_conv.deform_conv" + BUILT
    assert list(ops) == [key]
    kind, where, why = ops[key]
    assert kind == "compiled-op"
    assert where == [
        "jdet/ops/functions/deform_conv.py:13",  # the CPU build
        "jdet/ops/functions/deform_conv.py:23",  # the CUDA build
        "jdet/ops/functions/deform_conv.py:32",  # the autograd.Function calling them
    ]
    assert "mindspore.ops.deformable_conv2d" in why
    assert "2 builds, one per device" in why
    assert "1 compiled-op × 1–2" in review.effort.formula
    assert "compiled-custom-op" not in review.effort.formula
    assert review.effort.custom_ops == 0


def test_a_module_attribute_of_an_extension_is_no_op(review: Review) -> None:
    # ``warnings.warn(... deform_conv_cuda.__file__)`` names the module, not an op of it
    assert not [i for i in review.work if "__file__" in i.what]


def test_an_extension_only_unbuilt_classes_call_is_counted_apart(review: Review) -> None:
    apart = dict(review.ancillary)
    why = apart["jdet/ops/functions/deform_pool.py"]
    assert "DeformRoIPooling" in why and "nothing builds" in why
    assert apart["jdet/ops/modules/deform_pool.py"] == why
    # the convolution the network builds stays ported
    assert "jdet/ops/functions/deform_conv.py" not in apart
    assert "jdet/ops/modules/deform_conv.py" not in apart
    assert " gap" not in review.effort.formula


def test_an_extension_a_network_builds_is_priced(tmp_path: Path) -> None:
    # the same pooling layer, built by the network: its op is work, with no counterpart
    root = tmp_path / "jitvariants"
    shutil.copytree(FIXTURE, root)
    net = root / "jdet/net.py"
    net.write_text(
        net.read_text().replace(
            "        self.head = nn.Conv2d(8, 1, 1)\n",
            "        self.head = nn.Conv2d(8, 1, 1)\n"
            "        from .ops import DeformRoIPooling\n\n"
            "        self.pool = DeformRoIPooling(1.0, 7)\n",
        )
    )
    review = build_review(str(root), jobs=1)
    ops = _compiled(review)
    pool = "jdet.ops.functions.deform_pool.deform_pool" + BUILT
    assert ops[pool][0] == "compiled-custom-op"  # deformable RoI pooling: no MindSpore op
    assert ops[pool][1][:2] == [
        "jdet/ops/functions/deform_pool.py:13",
        "jdet/ops/functions/deform_pool.py:23",
    ]
    assert "jdet/ops/functions/deform_pool.py" not in dict(review.ancillary)
    assert len(ops) == 2
