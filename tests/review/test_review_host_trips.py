"""A host round trip is a tensor taken to a host library and brought back: fixtures/hosttrips
(a matching loss with scipy on its cost matrix, against a training function whose NumPy calls
read only the step number and host labels, and whose ``.cpu()`` feeds no host library)."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/hosttrips")


def test_a_loss_matching_on_the_host_is_a_round_trip(review: Review) -> None:
    # VALID: the cost matrix leaves the device for scipy and the indices come back
    trips = {i.what: i for i in review.work if i.kind == "host-round-trip"}
    item = trips["MatchLoss.forward: numpy.asarray, scipy.optimize.linear_sum_assignment"]
    assert [(w.path, w.line) for w in item.where] == [
        ("model.py", 20),
        ("model.py", 22),
    ]
    assert item.uses == 2


def test_numpy_on_host_values_in_a_training_function_is_no_round_trip(review: Review) -> None:
    # INVALID: ``np.interp(step, ...)``, ``np.concatenate(labels)`` and ``np.zeros`` read no
    # tensor; the weight taken to the host comes back through ``sorted``, no host library
    trips = [i.what for i in review.work if i.kind == "host-round-trip"]
    assert not [w for w in trips if w.startswith("train")], trips
    assert len(trips) == 1


def test_only_what_the_batch_loop_calls_reads_per_step(review: Review) -> None:
    # VALID: ``log_step`` runs in the loop over batches, its ``.item()`` every step, and so
    # does the ``__call__`` of the loss weighting object the step calls (no nn.Module);
    # INVALID: ``summarize`` runs once an epoch after that loop, its reads are no step's
    syncs = [i for i in review.work if i.kind == "step-sync"]
    assert [(i.what, [(w.path, w.line) for w in i.where]) for i in syncs] == [
        (
            "2 host reads in the training step (summary.py:Balance.__call__, summary.py:log_step)",
            [("summary.py", 9), ("summary.py", 19)],
        )
    ]


@pytest.fixture(scope="module")
def strings() -> Review:
    return review_fixture("fixtures/hoststrings")


def test_host_indices_gathering_from_a_parameter_are_a_round_trip(strings: Review) -> None:
    # VALID: indices decided by numpy on tensor data gather from a parameter in forward
    trips = {i.what: i for i in strings.work if i.kind == "host-round-trip"}
    item = trips["Tagger.forward: numpy.argwhere"]
    assert [(w.path, w.line) for w in item.where] == [("tagger.py", 50)]


def test_host_indices_picking_strings_are_no_round_trip(strings: Review) -> None:
    # INVALID: ``generate_tag`` picks tag names out of a numpy array of strings and returns
    # them joined: nothing comes back into torch; ``resize_table`` runs with scipy only while
    # a checkpoint loads (in ``__init__`` and in a loader calling ``torch.load``), not per step
    trips = sorted(i.what for i in strings.work if i.kind == "host-round-trip")
    assert trips == ["Tagger.forward: numpy.argwhere"]
