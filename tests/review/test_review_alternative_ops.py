"""A compiled op is priced at the places the configured run builds, on fixtures/altops: the
training picks ``plain`` from a dict of factories by ``--arch``; ``dcn_v2.DCN`` is built by
the plain network and by two alternatives (the ``deform`` network, and a layer class the
``yolo`` network's parser builds by name through a star import), and ``roi_align.RoIAlign``
only by the ``deform`` network. The alternatives' places are listed beside the item, not
counted; an op only alternatives use is counted apart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.model import Review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "altops"


def _ops(review: Review) -> dict[str, tuple[str, list[str]]]:
    return {
        i.what: (i.kind, [str(w) for w in i.where])
        for i in review.work
        if i.kind in ("compiled-op", "compiled-custom-op", "alternative-op")
    }


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(FIXTURE), jobs=1)


def test_only_the_configured_places_are_priced(review) -> None:
    assert _ops(review) == {
        # VALID: the plain network's node; INVALID: the alternatives' places (listed)
        "dcn_v2.DCN": ("compiled-op", ["nets/plain.py:9"]),
        "roi_align.RoIAlign": ("alternative-op", ["nets/deform.py:11"]),
    }
    (dcn,) = [i for i in review.work if i.what == "dcn_v2.DCN"]
    assert dcn.uses == 1
    assert "nets/common.py:17 (DeConvDCN, reached only from the entries" in dcn.why
    assert "nets/deform.py:10 (DeformNet, reached only from the entries" in dcn.why
    assert "1 compiled-op × 1–2" in review.effort.formula
    assert "not counted: roi_align.RoIAlign (alternatives only)" in " ".join(
        review.effort.explanation
    )


def test_the_picked_alternative_prices_its_own_ops(tmp_path: Path) -> None:
    root = tmp_path / "altops"
    shutil.copytree(FIXTURE, root)
    train = root / "train.py"
    train.write_text(train.read_text().replace('default="plain"', 'default="deform"'))
    assert _ops(build_review(str(root), jobs=1)) == {
        "dcn_v2.DCN": ("compiled-op", ["nets/deform.py:10"]),
        "roi_align.RoIAlign": ("compiled-op", ["nets/deform.py:11"]),
    }


def test_an_op_only_alternatives_and_evaluation_call_is_counted_apart(tmp_path: Path) -> None:
    """An op of the repository's extension that only the unpicked model and an evaluation
    module call (detectron2's rotated-box IoU: the unpicked rotated detectors and a
    rotated-box evaluator nothing builds): the evaluation's use does not make it the run's
    op."""
    from registry_repo import FILES
    from scan_helpers import write_repo

    files = {
        **FILES,
        "vid/csrc/iou.cpp": "// the op's kernel\n",
        "vid/layers/__init__.py": "",
        "vid/layers/rot.py": """
            import torch


            def pairwise_iou(a, b):
                return torch.ops.vid.box_iou(a, b)
        """,
        "vid/evaluation/__init__.py": """
            from .plain_eval import PlainEvaluator
            from .rot_eval import RotatedEvaluator
        """,
        "vid/evaluation/plain_eval.py": """
            class PlainEvaluator:
                def process(self, a, b):
                    return (a - b).abs().mean()
        """,
        "vid/evaluation/rot_eval.py": """
            from vid.layers.rot import pairwise_iou


            class RotatedScorer:
                def compute_iou(self, a, b):
                    return pairwise_iou(a, b)


            class RotatedEvaluator:
                def process(self, a, b):
                    return RotatedScorer().compute_iou(a, b)
        """,
    }
    # the training evaluates through an evaluator it is handed: a ``process`` of any class
    files["tools/train_net.py"] = files["tools/train_net.py"].replace(
        "                optimizer.step()\n",
        "                optimizer.step()\n            evaluate(PlainEvaluator(), x)\n",
    ).replace(
        "from vid.models.build import build_model",
        "from vid.models.build import build_model\n"
        "        from vid.evaluation import PlainEvaluator",
    ) + (
        "\n\n        def evaluate(evaluator, batch):\n"
        "            return evaluator.process(batch, batch)\n"
    )
    files["vid/models/nets.py"] = (
        files["vid/models/nets.py"]
        .replace(
            "from .build import MODEL_REGISTRY",
            "from vid.layers.rot import pairwise_iou\n        from .build import MODEL_REGISTRY",
        )
        .replace(
            "return self.head(self.slow(x[0]) + self.fast(x[1]))",
            "return pairwise_iou(self.head(self.slow(x[0]) + self.fast(x[1])), x[2])",
        )
    )
    ops = _ops(build_review(str(write_repo(tmp_path, files)), jobs=1))
    assert ops["torch.ops.vid.box_iou"] == ("alternative-op", ["vid/layers/rot.py:5"])
