"""The model tree on the classes of repository a lead found it wrong on, each a small
repository under fixtures/modeltree/ written for the case: a builder returning a timm
backbone and a module of convolutions (DPT), a JSON config naming one of a package's models
(pytorch-segmentation), a table of meta-architectures and a registry of backbone builders
reached from a training script's ``build_detection_model(cfg)`` (maskrcnn-benchmark, FCOS),
a model factory dict keyed by an argparse default cut at its ``_`` (CenterTrack), and a
yacs-configured ``build_model`` whose pre-training branch returns early, with blocks
appended to a ``ModuleList`` (Swin-Transformer, ConvNeXt); heads set by name in a loop over a
dict (CenterTrack's ``self.__setattr__(head, fc)``), a yacs config named only by the README's
training command whose keys decide which branches build parts (FCOS: ``RPN_ONLY``,
``FCOS_ON``), and stages built by the class's own ``_make_stage`` method (HRNet)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.model import Review

_ROOT = "fixtures/modeltree"


@pytest.fixture(scope="module")
def reviews() -> dict[str, Review]:
    names = (
        "encoderbuilder",
        "jsonarch",
        "metaarch",
        "factory",
        "yacsbuild",
        "cfgbranch",
        "stagebuild",
    )
    return {name: build_review(f"{_ROOT}/{name}", jobs=1) for name in names}


def _top(review: Review) -> tuple[str, dict[str, str]]:
    first = review.top_models[0]
    return first.cls, dict(first.parts)


def test_a_builder_part_names_the_timm_backbone_it_creates(reviews: dict[str, Review]) -> None:
    """``self.pretrained, self.scratch = _make_encoder(...)``: the builder is followed into
    each branch's ``_make_pretrained_*`` to ``timm.create_model("vit_base_resnet50_384")``
    (the readout ``Slice`` built beside it is a piece, not shown); ``scratch`` is what
    ``_make_scratch`` returns, a module of convolutions named by its builder. run.py builds
    ``DepthModel(backbone="vitb_rn50_384")``: the ``vitl16_384`` branch does not run, so
    its ViT-L is no alternative (the work items' reading of the same branches)."""
    cls, parts = _top(reviews["encoderbuilder"])
    assert cls == "dpt.models.DepthModel"
    assert parts["pretrained"] == "_make_encoder(...) → timm vit_base_resnet50_384"
    assert parts["scratch"] == "_make_encoder(...) → _make_scratch(...)"


def test_a_json_config_singles_out_one_exported_model(reviews: dict[str, Review]) -> None:
    """``getattr(models, config['arch']['type'])`` with ``--config`` defaulting to
    config.json, whose ``arch.type`` is ``PSPNet``: PSPNet first, the other exports after it
    as alternatives."""
    review = reviews["jsonarch"]
    cls, parts = _top(review)
    assert cls == "models.pspnet.PSPNet"
    assert parts["selected by"].startswith("config.json: arch.type = 'PSPNet'")
    assert parts["master_branch"] == "_PSPModule"
    # ``model = getattr(resnet, backbone)(...)``; ``self.layer1 = model.layer1``...: the
    # backbone's stages, one entry (the class the module's builders return)
    assert parts["initial, layer1, layer2"] == (
        "ResNet (getattr(resnet, backbone)(pretrained=True))"
    )
    others = {m.cls: dict(m.parts)["selected by"] for m in review.top_models[1:]}
    assert set(others) == {"models.unet.UNet", "models.enet.ENet"}
    assert all(why.startswith("an alternative to PSPNet") for why in others.values())


def test_a_meta_architecture_table_and_a_backbone_registry(reviews: dict[str, Review]) -> None:
    """tools/train_net.py's ``build_detection_model(cfg)`` → ``meta_arch =
    _DETECTION_META_ARCHITECTURES[cfg.MODEL.META_ARCHITECTURE]; return meta_arch(cfg)``
    (the configuration's default) is the model, not an FPN a backbone builder wires up;
    ``registry.BACKBONES[cfg.MODEL.BACKBONE.CONV_BODY](cfg)`` is followed to the registered
    builder (``R-50-FPN``, the configuration's default) and what it builds together;
    ``build_rpn`` lists the module of each branch."""
    review = reviews["metaarch"]
    cls, parts = _top(review)
    assert cls == "detcore.modeling.detector.generalized.GeneralizedDetector"
    # the FPN the registered builder wires up (its top block injected) is a part, not a model
    assert [m.cls for m in review.top_models] == [cls]
    assert parts["selected by"] == (
        "build_detection_model(cfg) in tools/train_net.py → build_detection_model()"
    )
    assert parts["backbone"] == "build_backbone(...) → ResNet, FPN, LastLevelMaxPool"
    assert parts["rpn"].startswith("AnchorFreeModule or RPNModule (build_rpn(")


def test_a_globals_look_up_by_a_plain_name_lists_the_files_builders(tmp_path: Path) -> None:
    """CenterNet's ``self.base = globals()[base_name](pretrained=pretrained)``, the caller
    formatting the name: the classes the file's functions build (``dla34``, ``dla60``:
    DLA), never the class being built, which the file's own builder returns."""
    root = tmp_path / "factory"
    shutil.copytree(f"{_ROOT}/factory", root)
    dla = root / "lib" / "model" / "networks" / "dla.py"
    text = dla.read_text(encoding="utf-8")
    text = text.replace(
        "def __init__(self, num_layers, heads):",
        "def __init__(self, num_layers, heads, base_name='dla34'):",
    )
    text = text.replace('globals()["dla{}".format(num_layers)]', "globals()[base_name]")
    dla.write_text(text + "\n\ndef get_seg(heads):\n    return DLASeg(34, heads)\n", "utf-8")
    cls, parts = _top(build_review(str(root), jobs=1))
    assert cls == "lib.model.networks.dla.DLASeg"
    assert parts["base"] == "DLA (globals()[base_name])"


def test_a_factory_dict_keyed_by_the_argparse_default(reviews: dict[str, Review]) -> None:
    """``create_model(opt.arch, ...)`` with ``--arch`` defaulting to ``dla_34``; the builder
    cuts the depth off and builds ``_network_factory['dla']``: DLASeg, not the first entry;
    its backbone is the ``dla<N>`` function ``globals()`` gives it; its heads are set by
    name in its base class's constructor."""
    cls, parts = _top(reviews["factory"])
    assert cls == "lib.model.networks.dla.DLASeg"
    assert parts["dla_up"] == "DLAUp"
    # ``globals()["dla{}".format(num_layers)](...)``: the functions of that pattern's class
    assert parts["base"] == "DLA (globals()['dla{}'...])"
    assert parts["selected by"] == "create_model(opt.arch, 80) in main.py → create_model()"
    # the base class's heads, set by name in a loop over a dict (``self.__setattr__(head,
    # fc)``): one part per key, each branch's container; ``setattr(self, "refine",
    # nn.Identity())`` is a plain layer, as ``self.refine = nn.Identity()`` would be
    assert parts["head in self.heads"] == "torch.nn.Sequential or torch.nn.Conv2d"
    assert "refine" not in parts


def test_a_yacs_build_model_and_blocks_appended_to_a_module_list(
    reviews: dict[str, Review],
) -> None:
    """``build_model(config)``: the ``if is_pretrain:`` branch returns SimMIM itself, so the
    final ``return model`` reads the branches after it (SwinTransformer first); the blocks
    the constructor appends to ``self.layers`` are listed as what it also builds."""
    review = reviews["yacsbuild"]
    cls, parts = _top(review)
    assert cls == "models.swin.SwinTransformer"
    assert parts["patch_embed"] == "PatchEmbed"
    assert parts["also builds"] == "BasicLayer"
    roles = {m.cls: m.role for m in review.modules}
    assert roles["models.swin.SwinTransformer"] == "model"


def test_a_module_name_two_files_share_is_the_file_nearest_the_root() -> None:
    """ConvNeXt: ``models/convnext.py`` and an adapter copy in
    ``semantic_segmentation/backbone/convnext.py`` are both importable as ``convnext``. The
    class the entry builds (``create_model`` → the registered ``tiny_net`` → ``Net``) is the
    one in ``models/``, with its own parts; the copy keeps its own classes under its full
    module name and is no model."""
    review = build_review(f"{_ROOT}/sharedname", jobs=1)
    cls, parts = _top(review)
    assert cls == "net.Net"
    assert parts["blocks"] == "Block" and "stages" not in parts
    nodes = {m.cls: m for m in review.modules}
    assert nodes["net.Net"].where.path == "models/net.py"
    assert nodes["net.Net"].role == "model"
    assert nodes["net.Block"].where.path == "models/net.py"
    copy = nodes["seg.backbone.net.Net"]
    assert copy.where.path == "seg/backbone/net.py" and copy.role != "model"
    assert copy.children == ("seg.backbone.net.Block",)
    assert nodes["seg.backbone.net.Block"].children == ("seg.backbone.net.Norm",)


def test_a_class_named_by_its_dotted_path_for_a_by_name_builder_is_the_model() -> None:
    """stylegan2-ada: ``G_kwargs = dict(class_name='training.networks.Generator', ...)``
    built by ``dnnlib.util.construct_class_by_name(**G_kwargs)``. The generator (with its
    parts) and the discriminator (a dict literal's ``'class_name'`` entry) are the top
    models, picked where the training names them, not at the checkpoint converters that
    also construct them; the augmentation pipe built the same way is no model."""
    review = build_review(f"{_ROOT}/classname", jobs=1)
    tops = {m.cls: m for m in review.top_models}
    first = review.top_models[0]
    assert first.cls == "training.networks.Generator"
    assert str(first.where) == "train.py:9"
    parts = dict(first.parts)
    assert parts["selected by"] == (
        "class_name='training.networks.Generator' (train.py:9) → construct_class_by_name()"
    )
    assert parts["mapping"] == "MappingNetwork" and parts["synthesis"] == "SynthesisNetwork"
    assert str(tops["training.networks.Discriminator"].where) == "train.py:10"
    assert "training.augment.AugmentPipe" not in tops


def test_a_reloaded_checkpoint_is_no_model_and_yaml_parts_are_named() -> None:
    """yolov9: ``attempt_load(best)`` after training fills an ``Ensemble(nn.ModuleList)``
    with ``torch.load``-ed checkpoints to evaluate them: no top model. ``DetectionModel``
    builds its layers from the YAML its constructor reads, by ``parse_model(...)``: that is
    its part, not an empty list."""
    review = build_review(f"{_ROOT}/yamlparse", jobs=1)
    assert [m.cls for m in review.top_models] == ["models.yolo.DetectionModel"]
    assert dict(review.top_models[0].parts) == {
        "parts": "from the model YAML the constructor reads, by "
        "parse_model(deepcopy(self.yaml), ch=[ch])"
    }


def test_the_readme_training_command_picks_the_config_and_its_branches(
    reviews: dict[str, Review],
) -> None:
    """``--config-file`` defaults to ``""``: the README's training command names
    configs/cfgbranch/anchorfree_R_50.yaml (its evaluation command, another YAML, does not
    count). Its ``ANCHOR_FREE_ON: True`` picks ``build_rpn``'s first return; its ``RPN_ONLY:
    True`` skips the box head built under ``if not cfg.MODEL.RPN_ONLY:`` and the default
    ``MASK_ON = False`` the mask head: each is named with the test and the value, and the
    classes of the other returns are not listed as built."""
    review = reviews["cfgbranch"]
    cls, parts = _top(review)
    assert cls == "det.modeling.detector.Detector"
    chosen = "configs/cfgbranch/anchorfree_R_50.yaml"
    assert parts["rpn"] == (
        f"AnchorFreeModule (build_rpn(cfg, 256); MODEL.ANCHOR_FREE_ON = True at {chosen}:4 "
        "(the training command at README.md:11); not picked: RetinaModule, RPNModule)"
    )
    assert parts["roi_heads"] == (
        "build_roi_heads(...) → CombinedHeads; not built by the config: BoxHead (not "
        f"cfg.MODEL.RPN_ONLY: MODEL.RPN_ONLY = True at {chosen}:3 (the training command at "
        "README.md:11)), MaskHead (cfg.MODEL.MASK_ON: MODEL.MASK_ON = False at "
        "det/config/defaults.py:17 (the default))"
    )
    assert "also builds" not in parts
    # the recipe reads the same config: its learning rate, not the default's
    lrs = [v for item in review.recipe for k, v in item.values if k == "lr"]
    assert any("0.01" in v and chosen in v for v in lrs), lrs


def test_parts_built_by_the_class_s_own_builder_methods(reviews: dict[str, Review]) -> None:
    """HRNet's ``self.stage2, channels = self._make_stage(...)`` appends
    ``MultiBranchModule``s in a loop; ResNet-style ``self._make_layer(Bottleneck, 64, 4)``
    builds the block class it is handed: each part names its classes, the stem's and the
    final torch layers are no parts."""
    cls, parts = _top(reviews["stagebuild"])
    assert cls == "models.hrnet.PoseNet"
    assert parts["layer1"] == "_make_layer(...) → Bottleneck"
    assert parts["stage2"] == "_make_stage(...) → MultiBranchModule"
    assert not {"conv1", "final_layer", "also builds"} & set(parts)


UNPACKED_TABLE = {
    "nets.py": """
        import torch.nn as nn


        class Block(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.conv = nn.Conv2d(width, width, 3, padding=1)

            def forward(self, x):
                return self.conv(x)


        class Trunk(nn.Module):
            def __init__(self, depth):
                super().__init__()
                self.blocks = nn.Sequential(*[Block(8) for _ in range(depth)])

            def forward(self, x):
                return self.blocks(x)


        def trunk_small():
            return Trunk(2)


        def trunk_large():
            return Trunk(8)


        trunks = {
            'small': [trunk_small, 8],
            'large': [trunk_large, 8],
        }


        class Projector(nn.Module):
            def __init__(self, name='large', dim=16):
                super().__init__()
                trunk_fn, width = trunks[name]
                self.trunk = trunk_fn()
                self.head = nn.Linear(width, dim)

            def forward(self, x):
                return self.head(self.trunk(x).mean((2, 3)))
    """,
    "train.py": """
        import torch
        from nets import Projector


        def main():
            model = Projector()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            for _ in range(3):
                loss = model(torch.zeros(2, 8, 4, 4)).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_a_builder_unpacked_from_a_table_entry_list_is_the_part(tmp_path: Path) -> None:
    """``trunk_fn, width = trunks[name]; self.trunk = trunk_fn()`` over entries written
    ``[trunk_large, 8]``: the part is the class the picked builder returns (issue 20: a
    contrastive repository's encoder was missing from its top model's parts)."""
    from scan_helpers import write_repo

    review = build_review(str(write_repo(tmp_path, UNPACKED_TABLE)), jobs=1)
    cls, parts = _top(review)
    assert cls == "nets.Projector"
    assert parts["trunk"].startswith("Trunk")
