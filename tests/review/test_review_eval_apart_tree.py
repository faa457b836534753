"""Where nothing trains, the models the code builds are the run's path: an evaluation
classifier and its loss, which only an evaluation script counted apart builds (or nothing
builds), are no classes of the model's tree (a ``get_loss`` listed as the tree's loss in an
inference-only repository reads as training work). The small repository under
fixtures/evalapart/ was written for the case."""

from __future__ import annotations

from apiscan.review.build import build_review


def test_an_inference_repository_s_tree_leaves_out_what_only_its_evaluation_builds() -> None:
    review = build_review("fixtures/evalapart", jobs=1)
    assert review.inference_only
    assert [m.cls for m in review.top_models] == ["gen.models.Denoiser"]
    classes = {m.cls for m in review.modules}
    assert {"gen.models.Denoiser", "gen.models.Block"} <= classes
    assert "gen.evals.classifier.PointNet" not in classes
    assert "gen.evals.classifier.get_loss" not in classes


def test_an_inference_repository_s_gaps_leave_out_what_only_its_evaluation_runs() -> None:
    """The evaluation classifier's ``nn.Conv1d`` (a documented difference) is in code only
    the evaluation script runs: no gap of the network table, as the effort prices none."""
    review = build_review("fixtures/evalapart", jobs=1)
    assert not [g for g in review.gaps if any(w.path.startswith("gen/evals/") for w in g.where)]
