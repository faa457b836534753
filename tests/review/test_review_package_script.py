"""A training script inside a package imports its siblings by their bare names (``from
model import Net``, ``from datasets import ClsDataset``): Python runs it with its own folder
on ``sys.path``, so they are the repository's modules. The model it trains is a top model,
the dataset module is no third-party data pipeline, and neither file is counted apart as
unused. The small repository under fixtures/pkgscript/ was written for the case."""

from __future__ import annotations

from apiscan.review.build import build_review


def test_a_package_script_s_bare_sibling_imports_are_the_repository_s() -> None:
    review = build_review("fixtures/pkgscript", jobs=1)
    tops = {m.cls: m for m in review.top_models}
    assert "track.deep.model.Net" in tops
    assert tops["track.deep.model.Net"].where.path == "track/deep/train.py"
    roles = {m.cls: m.role for m in review.modules}
    assert roles["track.deep.model.Net"] == "model"
    assert not [w for w in review.work if "datasets" in w.what]
    apart = dict(review.ancillary)
    assert "track/deep/model.py" not in apart
    assert "track/deep/datasets.py" not in apart
    assert "datasets" not in {t.package for t in review.third_party}


def test_a_constant_of_a_module_only_relatively_imported_tracking_code_reads_is_no_row() -> None:
    """``INFTY_COST = 1e5`` of the tracker's assignment module (imported by ``from . import
    linear_assignment``, run only by a demo counted apart) is read by code the training
    never runs: no loss row, though the name reads as a cost."""
    review = build_review("fixtures/pkgscript", jobs=1)
    assert not [r for r in review.recipe if r.name == "INFTY_COST"]
    assert [r for r in review.recipe if r.category == "loss"]  # the training's own stays


def test_a_training_step_module_nothing_imports_is_no_recipe_beside_the_running_script() -> None:
    """``track/segm/train_utils/engine.py`` runs a training step (autocast, backward) but
    nothing imports it and it runs nothing itself (its script was left out of the
    repository), while ``track/deep/train.py`` is the training that runs: its AMP row and
    its per-step host read are not this repository's, the file is counted apart."""
    review = build_review("fixtures/pkgscript", jobs=1)
    assert dict(review.ancillary)["track/segm/train_utils/engine.py"] == (
        "unused (nothing imports it)"
    )
    assert not [r for r in review.recipe if r.where.path.startswith("track/segm/")]
    assert not [w for w in review.work if any(p.path.startswith("track/segm/") for p in w.where)]


def test_a_function_subclass_of_a_class_nothing_reaches_is_no_extension() -> None:
    """``MemoryEfficientMish`` (with its nested ``torch.autograd.Function``) is defined in a
    module the model imports for another activation, but nothing builds it: no custom
    extension to port (the class is listed as not reached)."""
    review = build_review("fixtures/pkgscript", jobs=1)
    assert not [what for what, _ in review.extensions if "MemoryEfficientMish" in what]
