"""A lead's reading of whole reviews on repositories new to the project: each test is one
class of error found there, on a small repository written for it (``fixtures/``)."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_the_model_a_training_script_builds_through_an_alias_comes_first() -> None:
    """yolov9: every training script builds ``Model(cfg, ch=3, nc=nc)``, ``Model`` a
    module-level alias of ``DetectionModel``; the checkpoint evaluated after training
    (``attempt_load(best)``, an ``Ensemble``) and a second task's classifier are no top
    model ahead of it, and a standard-library object (``Path(cfg).name``) is no part."""
    review = build_review(str(FIXTURES / "aliasmodel"))
    tops = [m.cls for m in review.top_models]
    assert tops[0] == "models.yolo.DetectionModel"
    assert review.top_models[0].where.path == "train.py"
    assert len(tops) == len(set(tops))  # one entry per class
    parts = dict(review.top_models[0].parts)
    assert parts["stem"] == "Conv"
    assert not any("pathlib" in part for _, part in review.top_models[0].parts)
    model = {m.cls: m.role for m in review.modules}
    assert model["models.yolo.DetectionModel"] == "model"
