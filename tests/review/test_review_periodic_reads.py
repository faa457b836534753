"""Host reads that run every N steps are not per-step synchronisations, on
fixtures/periodicread: a training loop reading ``loss.item()`` on every step past the tenth
(a per-step read), under ``if i % 10 == 0`` (a log line every 10 steps) and, through a
function of its own, under ``if (i + 1) % args.log_every == 0``."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.work import _PERIODIC


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/periodicread")


def test_only_the_reads_of_every_step_are_a_step_sync(review) -> None:
    # VALID: ``total += loss.item()`` under ``if i > 10`` (every step once past it);
    # INVALID: ``print(i, loss.item())`` under ``if i % 10 == 0`` (line 37) and
    # ``describe(logits)``'s ``.tolist()`` called only under ``(i + 1) % args.log_every``
    (item,) = [i for i in review.work if i.kind == "step-sync"]
    assert item.what == "1 host read in the training step (train.py:main)"
    assert [str(w) for w in item.where] == ["train.py:35"]
    assert item.uses == 1


@pytest.mark.parametrize(
    ("test", "periodic"),
    [
        ("i % 10 == 0", True),
        ("(step + 1) % args.log_every == 0", True),
        ("i % SAVE_EVERY_N_STEPS == 0 and is_root", True),
        ("not it % 100", True),
        # a period computed in the test: ten times an epoch of num_batches steps
        ("i % (num_batches // 10) == 0", True),
        ("(i + 1) % (len(loader) // 4) == 0", True),
        ("i > 10", False),
        ("i % 2 == 1", False),
        ("epoch == 0", False),
    ],
)
def test_a_test_that_holds_every_n_steps(test: str, periodic: bool) -> None:
    assert bool(_PERIODIC.search(test)) is periodic
