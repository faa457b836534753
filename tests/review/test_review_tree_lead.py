"""Classes of error a lead found in the model tree and the work items of real repositories,
one small fixture each: a class takes the role its base class's name gives
(fixtures/rolebase: detectron2's ``ResNet(Backbone)`` built as an FPN's ``bottom_up``), and
a memoised NumPy constant is no host round trip (fixtures/memomask: PixelSNAIL's
``@lru_cache def causal_mask(size)``)."""

from __future__ import annotations

from scan_helpers import review_fixture


def test_a_class_takes_the_role_its_base_class_names() -> None:
    review = review_fixture("fixtures/rolebase")
    roles = {m.cls.rpartition(".")[2]: m.role for m in review.modules}
    # VALID: ResNet(Backbone), stored as FPN's bottom_up: a backbone, not a block
    assert roles["ResNet"] == "backbone"
    # its own name first: FPN(Backbone) is a neck
    assert roles["FPN"] == "neck"
    # INVALID: Stem(BlockBase): a base whose name says nothing; built by ResNet: a block
    assert roles["Stem"] == "block"
    assert roles["Detector"] == "model"


def test_a_memoised_numpy_constant_is_no_host_round_trip() -> None:
    review = review_fixture("fixtures/memomask")
    trips = [i.what for i in review.work if i.kind == "host-round-trip"]
    # INVALID: causal_mask is cached by its size (lru_cache): built once per shape
    # VALID: schedule_at makes its NumPy table a tensor on every call
    assert trips == ["schedule_at: NumPy array to a tensor (torch.from_numpy)"]
