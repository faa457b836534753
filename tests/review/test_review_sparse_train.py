"""A network built on a sparse library and a loss whose host round trips come back as indexes
and masks: fixtures/sparsetrain (a MinkowskiEngine U-Net whose trainer builds the
``ME.SparseTensor`` input, a k-means step grouping labels with scipy in a helper of another
file, negatives filtered with ``np.isin``), against fixtures/thirdops (a sparse layer inside a
dense encoder's ``forward``)."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.effort import RATES
from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/sparsetrain")


def test_network_built_on_a_sparse_library_is_priced_as_its_port(review: Review) -> None:
    # VALID: the training step (it runs the backward pass) builds the model's input as the
    # library's tensor: every layer runs on it, one item on top of the op kinds
    found = [i for i in review.work if i.kind == "library-foundation"]
    assert [(i.what, [(w.path, w.line) for w in i.where], i.uses) for i in found] == [
        (
            "MinkowskiEngine: the network's input is its MinkowskiEngine.SparseTensor",
            [("train.py", 12)],  # not evaluate's, which runs no step
            1,
        )
    ]
    assert "before any layer is ported" in found[0].why
    assert RATES["library-foundation"] == (15.0, 30.0)
    assert "1 library-foundation × 15–30" in review.effort.formula
    kinds = [i for i in review.work if i.kind == "op-library"]
    assert [i.uses for i in kinds] == [4]
    assert review.effort.person_days[0] >= 15 + 3


def test_a_sparse_layer_inside_a_dense_forward_is_no_foundation() -> None:
    # INVALID: thirdops builds its SparseTensor inside the encoder's forward, a part of the
    # network: the op kinds alone are priced
    other = review_fixture("fixtures/thirdops")
    assert not [i for i in other.work if i.kind == "library-foundation"]
    assert "library-foundation" not in other.effort.formula


def test_host_index_and_host_mask_round_trips_are_work_items(review: Review) -> None:
    trips = {i.what: i for i in review.work if i.kind == "host-round-trip"}
    # the labels leave the device for a helper in another file; scipy's rows come back as
    # the index of a gather: one item, named by the host call, at the gather
    assert sorted(trips) == [
        "centroids_loss: csr_matrix(...)",
        "negative_loss: numpy.isin, numpy.logical_not",
        "sampled_loss: np.asarray(pairs)[torch.from_numpy(keep)]",
    ]
    # no tensor goes to the host there: a selection decided on the host indexes the features
    sampled = trips["sampled_loss: np.asarray(pairs)[torch.from_numpy(keep)]"]
    assert sampled.why.startswith("an index array decided on the host (")
    assert "tensors leave the device" not in sampled.why
    item = trips["centroids_loss: csr_matrix(...)"]
    assert [(w.path, w.line) for w in item.where] == [("pointnet/loss.py", 14)]
    assert "the host's arrays index a tensor" in item.why
    # the same function's "tensor data to the host into rows_per_label" is that trip
    assert not any("into memory.rows_per_label" in what for what in trips)


def test_host_index_and_host_mask_are_dynamic_shapes(review: Review) -> None:
    shapes = {(w.path.rpartition("/")[2], w.line, rule) for w, rule, _, _ in review.dynamic_shape}
    assert shapes == {
        ("loss.py", 12, "DS116"),  # for k in range(len(where)): one step per label present
        ("loss.py", 13, "DS116"),  # if len(where[k][0]) > 0
        ("loss.py", 14, "DS111"),  # memory[where[k][0]]: a gather as long as the group
        ("loss.py", 23, "DS104"),  # dist[mask] with mask = torch.from_numpy(np.isin(...))
        ("loss.py", 30, "DS111"),  # feats[picked[:, 0]]: rows a host mask selected
        ("memory.py", 9, "DS116"),  # [... for row in m]: one row per label up to the largest
    }
