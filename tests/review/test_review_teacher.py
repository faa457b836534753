"""A pretrained model the training step runs beside the network it trains, its outputs the
targets of a loss (fixtures/distill: a CLIP teacher loaded in the training script, handed to
the training function and to a helper it calls): a third-party model item that says it is a
teacher, and a recipe row; the same package's model handed only to an evaluation is none."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where


@cache
def distill() -> Review:
    return review_fixture("fixtures/distill")


def test_a_model_the_training_step_runs_is_a_teacher_item() -> None:
    """VALID: ``teacher, _ = clip.load("ViT-B/16", device=device)`` (train.py:30), then
    ``teacher.encode_image(image)`` in ``train_one_epoch`` (line 16) and
    ``text_targets(teacher, captions)`` (line 17) whose ``teacher.encode_text`` (line 9)
    runs there too; INVALID: ``scorer = clip.load("ViT-L/14", ...)[0]`` (line 33), run
    only by ``evaluate``, which trains nothing."""
    items = [i for i in distill().work if i.kind == "third-party-model"]
    assert [(i.what, i.where) for i in items] == [
        (
            "clip (clip.load), teacher in the training step",
            (
                Where("train.py", 30),
                Where("train.py", 9),
                Where("train.py", 16),
                Where("train.py", 17),
            ),
        )
    ]
    assert "distillation" in items[0].why and "computed once beforehand" in items[0].why


def test_a_teacher_is_a_recipe_row() -> None:
    rows = [r for r in distill().recipe if r.category == "teacher"]
    assert [(r.name, r.where, r.values) for r in rows] == [
        (
            "clip (clip.load)",
            Where("train.py", 30),
            (("also at", "train.py:9, train.py:16, train.py:17"),),
        )
    ]
