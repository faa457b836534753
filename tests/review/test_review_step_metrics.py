"""Host reads in what the training step calls, metrics read from a masked selection and the
learning rate read for a log: priced as the step's host reads and a rename, not as
dynamic-shape rewrites or gaps: fixtures/stepmetrics."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review
from apiscan.rewrite.known import gap_rewrite


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/stepmetrics")


def _sentence(review: Review, start: str) -> str:
    return next(s for s in review.effort.explanation if s.startswith(start))


def test_reads_in_functions_the_step_calls_are_step_syncs(review) -> None:
    syncs = [i for i in review.work if i.kind == "step-sync"]
    assert len(syncs) == 1
    # VALID: the loss's metrics (three .item() reads) and the logger's read, both called by
    # the loop that runs backward(); the loop around a nested step function (finetune.py's
    # _backward). INVALID: the no_grad validation the loop calls every N steps, a helper
    # no step calls (finetune.py's summary)
    assert syncs[0].what == (
        "5 host reads in the training step (finetune.py:finetune, "
        "flownet/losses.py:Logger.push, flownet/losses.py:sequence_loss)"
    )
    assert syncs[0].uses == 5
    assert [(w.path, w.line) for w in syncs[0].where] == [
        ("finetune.py", 20),
        ("flownet/losses.py", 9),
        ("flownet/losses.py", 11),
        ("flownet/losses.py", 12),
        ("flownet/losses.py", 13),
        ("flownet/losses.py", 31),
    ]
    assert "1 boolean-mask selection (flownet/losses.py:9) feeds only these metrics" in (
        syncs[0].why
    )
    assert "1 step-sync × 0.1–0.2" in review.effort.formula


def test_a_selection_read_only_on_the_host_is_no_shape_rewrite(review) -> None:
    # VALID: epe[valid] read only by .item(): a metrics computation, with the step's reads
    assert _sentence(review, "1 metrics computation").endswith(
        "not made static: flownet/losses.py:sequence_loss."
    )
    # INVALID: a selection differentiated in the loss whose count is read stays a rewrite
    assert _sentence(review, "1 dynamic-shape rewrite").endswith("flownet/losses.py:selected_loss.")
    assert review.effort.dynamic_shape_rewrites == 1
    assert "masked-reduction" not in review.effort.formula
    # both findings are still listed
    assert sorted(w.line for w, rule, *_ in review.dynamic_shape if rule == "DS104") == [9, 20]


def test_the_learning_rate_read_for_a_log_is_no_gap(review) -> None:
    assert _sentence(review, "Everywhere ported").endswith(
        "and 0 gap sites. Consistent rows need only the rename and are not counted."
    )
    assert "gap ×" not in review.effort.formula
    # VALID: get_lr of a scheduler MindSpore has (and of one it lacks) is get_last_lr
    how = gap_rewrite("torch.optim.lr_scheduler.LambdaLR.get_lr")
    assert how is not None and how[0] == "rewrite"
    assert how[1].startswith("mindspore.experimental.optim.lr_scheduler.LambdaLR.get_last_lr()")
    how = gap_rewrite("torch.optim.lr_scheduler.OneCycleLR.get_lr")
    assert how is not None and how[0] == "rewrite" and "LambdaLR" in how[1]
    # INVALID: a method that is no lr read stays unknown
    assert gap_rewrite("torch.optim.lr_scheduler.LambdaLR.print_lr") is None
