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


def test_the_model_most_experiments_inherit_comes_first() -> None:
    """YOLOX-like experiments: three sizes inherit the base Exp's ``get_model``; two define
    their own (one with the same parts as the base's, one another backbone)."""
    review = review_fixture("fixtures/expbase")
    tops = [(m.where.path, dict(m.parts)["backbone"]) for m in review.top_models]
    # VALID: the base's construction, run by four classes, first, standing for the tiny
    # experiment's construction of the same parts; INVALID: a construction one class runs
    assert tops == [
        ("lib/exp/base_exp.py", "PAFPN (backbone)"),
        ("exps/net_v3.py", "DarkFPN (backbone)"),
    ]


def test_a_builder_handed_through_partial_and_a_module_dict_is_named() -> None:
    """moco-v3-like: ``PairResNet(partial(torchvision_models.__dict__[args.arch], ...))``
    with ``--arch`` defaulting to resnet50, and ``PairViT(partial(vits.__dict__[args.arch],
    ...))`` in the branch taken for ``vit*`` names."""
    review = review_fixture("fixtures/partialpick")
    first, second = review.top_models[:2]
    # VALID: the torchvision constructor the argparse default names
    assert first.cls.endswith("PairResNet")
    assert dict(first.parts)["base_encoder"].startswith(
        "torchvision.models.resnet50 (args.arch = 'resnet50', argparse default at main.py:11; "
        "base_encoder(...), passed in: partial(torchvision_models.__dict__[args.arch]"
    )
    # the default names none of vits' functions: the class they all build
    assert second.cls.endswith("PairViT")
    assert dict(second.parts)["momentum_encoder"].startswith(
        "ViTEncoder (what most of vits's functions build; 'resnet50' names none of them; "
    )
    roles = {m.cls.rpartition(".")[2]: m.role for m in review.modules}
    assert roles["ViTEncoder"] == "block"  # a part of PairViT, not a free-standing "other"
    # INVALID: the base class both derive from is no model
    assert roles["Pair"] == "other"
