"""Host reads of the training step that hide behind how the step is written
(fixtures/stepreads): a read in a helper a trainer inherits from its base class, a step whose
optimizer is named by its class (``torch.optim.Adam.step``) or run by a gradient scaler
(``scaler.step(optimizer)``) with the backward pass in a launcher's own method, and an ``if``
on tensor values in the training script's step code (a bad sample skipped)."""

from __future__ import annotations

from functools import cache

from scan_helpers import review_fixture

from apiscan.review.model import Review, Where
from apiscan.review.roles import STEP_RUN


@cache
def stepreads() -> Review:
    return review_fixture("fixtures/stepreads")


def test_the_step_runs_named_by_the_optimizer_or_the_scaler() -> None:
    assert STEP_RUN.match("torch.optim.Adam.step")
    assert STEP_RUN.match("torch.GradScaler.step")
    assert STEP_RUN.match("torch.cuda.amp.GradScaler.step")
    # INVALID: a scheduler's step and building an optimizer run no training step
    assert not STEP_RUN.match("torch.optim.lr_scheduler.StepLR.step")
    assert not STEP_RUN.match("torch.optim.Adam")
    assert not STEP_RUN.match("torch.GradScaler.update")


def test_inherited_helpers_and_script_tests_are_step_reads() -> None:
    """VALID: ``value.mean().item()`` in ``BaseModel.reduce_loss_dict``, which
    ``SRModel.optimize_parameters`` calls as ``self.reduce_loss_dict`` after
    ``self.optimizer.step()``; ``if torch.isnan(x).any() or x.abs().max() > 1500`` in the
    module-level ``forward_batch`` that ``Runner.run`` calls before ``scaler.step``.
    INVALID: the ``if`` on tensor values in ``Net.forward`` (the network's own branch, a
    dynamic-shape finding) and ``BaseModel.save``, which no step calls."""
    items = [i for i in stepreads().work if i.kind == "step-sync"]
    assert [(i.what, i.where, i.uses) for i in items] == [
        (
            "2 host reads in the training step (base.py:BaseModel.reduce_loss_dict, "
            "trainer.py:forward_batch)",
            (Where("base.py", 11), Where("trainer.py", 35)),
            2,
        )
    ]
    assert "tested by an if" in items[0].why and "loss.item()" in items[0].why
