"""The dynamic-shape section and the decoding work of a generator whose only changing
shape is its decoding cache (a KV cache sliced up to a Python position, a work item of its
own): "no findings" says where those shapes are, so the section does not contradict the
porting work; the item buckets the prompt where a step writes a run of positions; an
inference-only process group is no distributed training."""

from __future__ import annotations

from scan_helpers import review_fixture

from apiscan.review.html import render_html
from apiscan.review.markdown import render_markdown
from apiscan.review.model import shape_work_note


def test_no_rule_findings_points_to_the_shape_work_items() -> None:
    review = review_fixture("fixtures/textgen")
    assert any(i.kind == "growing-cache" for i in review.work)
    note = shape_work_note(review)
    assert note == (
        "Shapes that change at run time are listed under Porting work: "
        "Cache growing per decoding step."
    )
    assert not review.dynamic_shape
    assert f"No dynamic-shape findings. {note}" in render_markdown(review)
    assert note in render_html(review)


def test_no_note_without_shape_work() -> None:
    review = review_fixture("fixtures/textgen_trained")
    assert not review.dynamic_shape and not review.work
    assert shape_work_note(review) == ""
    assert "No dynamic-shape findings.\n" in render_markdown(review) + "\n"


def test_an_inference_only_process_group_is_no_distributed_training() -> None:
    """The generator sets up a process group to split its model over devices: the row's
    heading says so, not "Distributed training"."""
    review = review_fixture("fixtures/textgen")
    assert review.inference_only
    assert any(i.category == "distributed" for i in review.recipe)
    text = render_markdown(review)
    assert "| Distributed (multi-device inference) |" in text
    assert "Distributed training" not in text
    assert "Distributed (multi-device inference)" in render_html(review)


def test_a_cache_written_a_run_at_a_time_buckets_the_prompt() -> None:
    """``cache_k[:b, pos : pos + n] = k``: the first step writes the whole prompt, whose
    length changes per request, so the item says to bucket it; a cache written one
    position per step (``cache[:, pos] = k``) has no such step."""
    from apiscan.review.build import growing_caches
    from apiscan.review.model import RecipeItem, Where

    review = review_fixture("fixtures/textgen")
    (item,) = [i for i in review.work if i.kind == "growing-cache"]
    assert "pad the prompt to a few bucket lengths" in item.why

    one = RecipeItem(
        "decoding",
        "cache growing per step in Attention.forward",
        Where("model.py", 3),
        (("code", "self.cache[:b, pos] = k; self.cache[:b, : pos + 1]"),),
    )
    (single,) = growing_caches([one])
    assert "bucket" not in single.why
