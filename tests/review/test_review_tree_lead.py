"""Classes of error a lead found in the model tree and the work items of real repositories,
one small fixture each: a class takes the role its base class's name gives
(fixtures/rolebase: detectron2's ``ResNet(Backbone)`` built as an FPN's ``bottom_up``), and
a memoised NumPy constant is no host round trip (fixtures/memomask: PixelSNAIL's
``@lru_cache def causal_mask(size)``), the construction most experiment classes inherit
comes first (fixtures/expbase: YOLOX), encoders handed in through ``partial`` and a
module's ``__dict__`` are named (fixtures/partialpick: moco-v3), a timm preset held by a
settings field is named (fixtures/presetcfg: Depth Pro), and a model written as a
LightningModule is ported (fixtures/litmodel: taming-transformers)."""

from __future__ import annotations

import shutil

from scan_helpers import REPO_ROOT, review_fixture

from apiscan.review.build import build_review


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


def test_a_module_dict_entry_handed_without_partial_is_named(tmp_path) -> None:
    """moco-like: ``MoCo(models.__dict__[args.arch], dim)``: the part is named by the
    argparse default and said to be handed in, with no empty text after it."""
    repo = tmp_path / "partialpick"
    shutil.copytree(REPO_ROOT / "fixtures/partialpick", repo)
    main = repo / "main.py"
    source = main.read_text()
    handed = "partial(torchvision_models.__dict__[args.arch], zero_init_residual=True)"
    assert handed in source
    main.write_text(source.replace(handed, "torchvision_models.__dict__[args.arch]"))
    first = build_review(str(repo), jobs=1).top_models[0]
    assert dict(first.parts)["base_encoder"] == (
        "torchvision.models.resnet50 (args.arch = 'resnet50', argparse default at main.py:11; "
        "base_encoder(...), passed in)"
    )


def test_a_model_written_with_lightning_is_ported(tmp_path) -> None:
    """taming-transformers-like: the model is a LightningModule and the training entry runs
    Lightning's Trainer: the repository trains with Lightning, nothing is an adapter."""
    review = review_fixture("fixtures/litmodel")
    # VALID: the model and the training entry are ported
    assert not any(why.startswith("adapter for") for _, why in review.ancillary)
    assert review.effort.person_days[0] > 0
    # INVALID: beside a training loop of its own (no Lightning), a Lightning entry and the
    # LightningModule only it trains are an adapter (detectron2's lightning_train_net.py)
    repo = tmp_path / "litmodel"
    shutil.copytree(REPO_ROOT / "fixtures/litmodel", repo)
    (repo / "train.py").write_text(
        "import torch\n\nfrom litgan.modules.encoder import Decoder, Encoder\n\n\n"
        "def main():\n"
        "    net = torch.nn.Sequential(Encoder(), Decoder())\n"
        "    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)\n"
        "    x = torch.rand(8, 3, 32, 32)\n"
        "    loss = (net(x) - x).pow(2).mean()\n"
        "    optimizer.zero_grad()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    apart = dict(build_review(str(repo), jobs=1).ancillary)
    assert (
        apart["main.py"]
        == apart["litgan/models/autoencoder.py"]
        == ("adapter for pytorch_lightning")
    )
    assert "litgan/modules/encoder.py" not in apart


def test_a_timm_preset_held_by_a_settings_field_is_named() -> None:
    """Depth Pro-like: ``config = VIT_CONFIG_DICT[preset]``, then
    ``timm.create_model(config.timm_preset)``; a NamedTuple's field default too."""
    review = review_fixture("fixtures/presetcfg")
    parts = dict(review.top_models[0].parts)
    # VALID: the one entry of the preset table sets the keyword
    assert parts["encoder"] == "create_vit(preset) → timm vit_large_patch14_dinov2"
    # VALID: ``HeadConfig()`` passes nothing: the field's default
    assert parts["head"] == "create_head() → timm resnet18"
    # INVALID: two entries naming two models, picked by the caller's key: not guessed
    assert parts["aux"] == "create_mixed(aux) → timm.create_model(config.timm_preset)"
