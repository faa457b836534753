"""The model tree on repository shapes the review met late: classes reached through star
imports, builders picked from a dict at run time, and a library module's ``__main__``
self-test, each on a tiny repository written for the case."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review.build import INFERENCE_ONLY_PART, build_review
from apiscan.review.structure import module_nodes

_BLOCKS = """
    import torch.nn as nn

    class ConvPair(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, cout, 3), nn.ReLU())

        def forward(self, x):
            return self.body(x)

    class Shrink(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.step = nn.Sequential(nn.MaxPool2d(2), ConvPair(cin, cout))

        def forward(self, x):
            return self.step(x)

    def _private():
        return None
"""


def _parts(review: object, cls: str) -> dict[str, str]:
    top = next(m for m in review.top_models if m.cls == cls)  # type: ignore[attr-defined]
    return dict(top.parts)


def test_classes_reached_through_a_relative_star_import_are_parts(tmp_path: Path) -> None:
    """``from .blocks import *`` binds every public class of blocks.py: the constructor's
    ``ConvPair(...)`` is a call of ``seg.blocks.ConvPair`` (the scan's call facts), the
    model's children and parts, and the model is the top model the training script builds."""
    write_repo(
        tmp_path,
        {
            "seg/__init__.py": "",
            "seg/blocks.py": _BLOCKS,
            "seg/net.py": """
                import torch.nn as nn
                from .blocks import *

                class SegNet(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.stem = ConvPair(3, 8)
                        self.down = Shrink(8, 16)
                        self.out = nn.Conv2d(16, 2, 1)

                    def forward(self, x):
                        return self.out(self.down(self.stem(x)))
            """,
            "train.py": """
                import torch
                from seg.net import SegNet

                def main():
                    model = SegNet()
                    opt = torch.optim.SGD(model.parameters(), lr=0.1)
                    opt.step()

                if __name__ == "__main__":
                    main()
            """,
        },
    )
    _, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    net = next(fa for fa in analyses if fa.path == "seg/net.py")
    called = {c.callee for c in net.calls if c.caller == "SegNet.__init__"}
    assert {"seg.blocks.ConvPair", "seg.blocks.Shrink"} <= called
    assert not any("_private" in name for name, _ in net.exports)  # not bound by `import *`

    review = build_review(str(tmp_path), jobs=1)
    nodes = {m.cls: m for m in review.modules}
    assert nodes["seg.net.SegNet"].children == ("seg.blocks.ConvPair", "seg.blocks.Shrink")
    assert nodes["seg.net.SegNet"].role == "model"
    assert _parts(review, "seg.net.SegNet") == {"stem": "ConvPair", "down": "Shrink"}


def test_star_imports_chain_through_a_package_and_a_namespace_directory(tmp_path: Path) -> None:
    """A script star-imports a module that star-imports the blocks (``from lib.common import
    *``, common.py: ``from lib.blocks import *``), in directories without ``__init__.py``
    whose files import each other relatively (``from .blocks import *`` is resolved from the
    root-relative name ``lib.net``, the only one under which a relative import runs)."""
    write_repo(
        tmp_path,
        {
            "lib/blocks.py": _BLOCKS,
            "lib/net.py": """
                import torch.nn as nn
                from .blocks import *

                class Net(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.stem = ConvPair(3, 8)
                        self.down = Shrink(8, 16)

                    def forward(self, x):
                        return self.down(self.stem(x))
            """,
            "lib/common.py": """
                from lib.net import Net
                from lib.blocks import *
            """,
            "experiments/small.py": """
                import torch
                from lib.common import *

                def init_model():
                    model = Net()
                    return model

                def main():
                    model = init_model()
                    torch.optim.SGD(model.parameters(), lr=0.1).step()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    nodes = {m.cls: m for m in review.modules}
    net = next(cls for cls in nodes if cls.endswith(".Net"))
    assert {c.rpartition(".")[2] for c in nodes[net].children} == {"ConvPair", "Shrink"}
    top = review.top_models[0]
    assert top.cls == net
    assert top.builder == "init_model"
    assert dict(top.parts) == {"stem": "ConvPair", "down": "Shrink"}


_TRUNKS = """
    import torch.nn as nn

    class LightTrunk(nn.Module):
        def __init__(self, cin):
            super().__init__()
            self.conv = nn.Conv2d(cin, 8, 3)

        def forward(self, x):
            return self.conv(x)

    class WideTrunk(nn.Module):
        def __init__(self, cin):
            super().__init__()
            self.conv = nn.Conv2d(cin, 32, 3)

        def forward(self, x):
            return self.conv(x)
"""


def test_a_part_picked_from_a_dict_of_classes_is_the_class_its_key_selects(
    tmp_path: Path,
) -> None:
    """``self.trunk = TRUNKS[self.arch](cin)`` over a module-level ``TRUNKS = {"light":
    LightTrunk, "wide": WideTrunk}`` (imported from the package): the part is the class the
    default key selects; the model is built only by a demo (counted apart), which still
    names the repository's model."""
    write_repo(
        tmp_path,
        {
            "mat/__init__.py": "",
            "mat/trunks/__init__.py": """
                from .impl import *

                TRUNKS = {"light": LightTrunk, "wide": WideTrunk}
            """,
            "mat/trunks/impl.py": _TRUNKS,
            "mat/net.py": """
                import torch.nn as nn
                from .trunks import TRUNKS

                class Branch(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 1, 1)

                    def forward(self, x):
                        return self.conv(x)

                class Matter(nn.Module):
                    def __init__(self, cin=3, arch="wide"):
                        super().__init__()
                        self.arch = arch
                        self.trunk = TRUNKS[self.arch](cin)
                        self.branch = Branch()

                    def forward(self, x):
                        return self.branch(self.trunk(x))
            """,
            "demo/run.py": """
                from mat.net import Matter

                net = Matter()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    parts = _parts(review, "mat.net.Matter")
    # the key is an attribute set from a parameter: not known, the first entry's class
    assert parts["trunk"].startswith("LightTrunk (TRUNKS[self.arch](cin))"), parts
    assert parts["branch"] == "Branch"


def test_a_builder_returning_an_entry_of_its_own_dict_of_builders(tmp_path: Path) -> None:
    """``def make_encoder(name): zoo = {"s": enc_small, "b": enc_base}; return
    zoo[name](...)`` where each builder returns ``Encoder(...)``: the encoder is a part of
    the model that calls ``make_encoder``, and the model, not the encoder its builders
    build, is the top model."""
    write_repo(
        tmp_path,
        {
            "depth/__init__.py": "",
            "depth/encoder.py": """
                import torch.nn as nn

                class Layer(nn.Module):
                    def __init__(self, dim):
                        super().__init__()
                        self.fc = nn.Linear(dim, dim)

                class Encoder(nn.Module):
                    def __init__(self, dim, depth):
                        super().__init__()
                        self.layers = nn.ModuleList([Layer(dim) for _ in range(depth)])

                    def forward(self, x):
                        return x

                def enc_small(**kw):
                    return Encoder(dim=64, depth=4, **kw)

                def enc_base(**kw):
                    return Encoder(dim=128, depth=8, **kw)

                def make_encoder(name):
                    zoo = {"s": enc_small, "b": enc_base}
                    return zoo[name](dropout=0.0)
            """,
            "depth/model.py": """
                import torch.nn as nn
                from .encoder import make_encoder

                class Decoder(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(64, 1, 1)

                class DepthNet(nn.Module):
                    def __init__(self, encoder="s"):
                        super().__init__()
                        self.encoder = make_encoder(name=encoder)
                        self.decoder = Decoder()

                    def forward(self, x):
                        return self.decoder(self.encoder(x))
            """,
            "train.py": """
                import torch
                from depth.model import DepthNet

                CONFIGS = {"s": {"encoder": "s"}, "b": {"encoder": "b"}}

                def main(size):
                    model = DepthNet(**CONFIGS[size])
                    torch.optim.AdamW(model.parameters()).step()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    top = review.top_models[0]
    assert top.cls == "depth.model.DepthNet"
    assert dict(top.parts) == {
        "encoder": "Encoder (make_encoder(name=encoder))",
        "decoder": "Decoder",
    }


def test_one_of_several_model_scripts_picked_at_run_time(tmp_path: Path) -> None:
    """A training script loads a model script by path, each script's ``init_model`` builds
    one model (three build ``BigNet``, one ``SmallNet``): the model most scripts build comes
    first and says how many other scripts build it; the parts of a repository base's
    constructor are the model's too."""
    nets = """
        import torch.nn as nn

        class Maps(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(2, 2, 1)

        class Base(nn.Module):
            def __init__(self):
                super().__init__()
                self.maps = Maps()

        class Extractor(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)

        class BigNet(Base):
            def __init__(self, width):
                super().__init__()
                self.extractor = Extractor()

        class SmallNet(Base):
            def __init__(self, width):
                super().__init__()
                self.extractor = Extractor()
                self.extra = Extractor()
    """
    script = """
        from nets import {cls}

        def init_model(cfg):
            model = {cls}(width={width})
            return model

        def main(cfg):
            model = init_model(cfg)
    """
    files = {"nets.py": nets}
    for i, cls in enumerate(["BigNet", "BigNet", "BigNet", "SmallNet"]):
        files[f"configs/exp{i}.py"] = script.format(cls=cls, width=8 * (i + 1))
    write_repo(tmp_path, files)
    review = build_review(str(tmp_path), jobs=1)
    first, second = review.top_models[:2]
    assert (first.cls, second.cls) == ("nets.BigNet", "nets.SmallNet")
    assert first.builder == "init_model"
    assert dict(first.parts) == {
        "extractor": "Extractor",
        "maps": "Maps",  # built by Base.__init__
        "also built by": "init_model in 2 other files",
    }
    assert "also built by" not in dict(second.parts)


_DIFFUSION = """
    import torch.nn as nn

    class Denoiser(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.conv = nn.Conv2d(dim, dim, 3)

        def forward(self, x):
            return self.conv(x)

    class Diffuser(nn.Module):
        def __init__(self, model, steps=10):
            super().__init__()
            self.model = model
            self.steps = steps

        def forward(self, x):
            return self.model(x)

    if __name__ == "__main__":
        net = Denoiser(8)
        diffusion = Diffuser(net, steps=4)
"""


def test_a_library_modules_self_test_is_not_the_entry_point(tmp_path: Path) -> None:
    """``Diffuser(Denoiser(8))`` under ``if __name__ == "__main__":`` in a package's module
    tries the module's classes out; the training script's ``Segmenter()`` is the model."""
    write_repo(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/diffusion.py": _DIFFUSION,
            "lib/seg.py": """
                import torch.nn as nn

                class Stem(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 8, 3)

                class Segmenter(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.stem = Stem()
                        self.out = nn.Conv2d(8, 2, 1)

                    def forward(self, x):
                        return self.out(self.stem(x))
            """,
            "train.py": """
                import torch
                from lib.seg import Segmenter

                def main():
                    model = Segmenter()
                    torch.optim.SGD(model.parameters(), lr=0.1).step()

                if __name__ == "__main__":
                    main()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    assert [m.cls for m in review.top_models] == ["lib.seg.Segmenter"]
    assert dict(review.top_models[0].parts) == {"stem": "Stem"}


def test_a_library_without_scripts_names_the_model_its_package_exports(tmp_path: Path) -> None:
    """Only self-tests build models (one in each of two modules, the second its own
    ``Diffuser``); the package exports the main module's ``Diffuser`` and ``Denoiser``: the
    exported ``Diffuser`` is the top model, its injected ``model`` named as the self-tests
    pass it, and the self-tests' models follow."""
    write_repo(
        tmp_path,
        {
            "diffkit/__init__.py": """
                from diffkit.diffkit import Diffuser, Denoiser
                from diffkit.extras import Helper
            """,
            "diffkit/diffkit.py": """
                import torch.nn as nn

                class Denoiser(nn.Module):
                    def __init__(self, dim):
                        super().__init__()
                        self.conv = nn.Conv2d(dim, dim, 3)

                class Diffuser(nn.Module):
                    def __init__(self, model, steps=10):
                        super().__init__()
                        self.model = model
            """,
            "diffkit/extras.py": """
                import torch.nn as nn

                class Helper(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 3, 1)
            """,
            "diffkit/guided.py": _DIFFUSION,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    first, *rest = review.top_models
    assert first.cls == "diffkit.diffkit.Diffuser"
    parts = dict(first.parts)
    assert parts["selected by"].startswith("the model the package exports (diffkit/__init__.py)")
    assert parts["model"].startswith("Denoiser (net), as the self-test at diffkit/guided.py:")
    assert [m.cls for m in rest] == ["diffkit.guided.Diffuser"]


def test_a_registry_pick_takes_the_parts_its_builder_chain_injects(tmp_path: Path) -> None:
    """``seg.zoo.__dict__[args.model](...)`` with the default ``seg_light`` → ``_load`` →
    ``_build_light`` → ``SegModel(Trunk(), Head())`` (three builders deep, the last two in
    branches): the pick is the top model, with the parts the builder on its way injects, and
    that builder's own entry is not listed again."""
    write_repo(
        tmp_path,
        {
            "seg/__init__.py": "from .zoo import *\n",
            "seg/zoo.py": """
                import torch.nn as nn

                class Trunk(nn.Module):
                    def __init__(self, wide=False):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 16 if wide else 8, 3)

                class Head(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 2, 1)

                class SegModel(nn.Module):
                    def __init__(self, trunk, head):
                        super().__init__()
                        self.trunk = trunk
                        self.head = head

                def _build_light(classes):
                    trunk = Trunk()
                    model = SegModel(trunk, Head())
                    return model

                def _build_wide(classes):
                    trunk = Trunk(wide=True)
                    model = SegModel(trunk, Head())
                    return model

                def _load(kind, classes):
                    if kind == "light":
                        model = _build_light(classes)
                    else:
                        model = _build_wide(classes)
                    return model

                def seg_light(classes=2):
                    return _load("light", classes)

                def seg_wide(classes=2):
                    return _load("wide", classes)
            """,
            "train.py": """
                import argparse
                import torch
                import seg

                def main():
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--model", default="seg_light")
                    args = parser.parse_args()
                    model = seg.zoo.__dict__[args.model](classes=3)
                    torch.optim.SGD(model.parameters(), lr=0.1).step()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    top = review.top_models[0]
    assert top.cls == "seg.zoo.SegModel"
    assert top.where.path == "train.py"
    parts = dict(top.parts)
    assert parts["selected by"].endswith("→ seg_light() → _build_light()"), parts
    assert parts["trunk"].startswith("Trunk") and parts["head"] == "Head"
    builders = [m.builder for m in review.top_models if m.cls == "seg.zoo.SegModel"]
    assert "_build_light" not in builders


_MOCO = {
    "vits.py": """
        import torch
        import torch.nn as nn
        from timm.models.vision_transformer import VisionTransformer
        from timm.models.layers import PatchEmbed

        class VisionTransformerMoCo(VisionTransformer):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.build_2d_sincos_position_embedding()

            def build_2d_sincos_position_embedding(self, temperature=10000.0):
                grid_w = torch.arange(16, dtype=torch.float32)
                self.pos_embed = nn.Parameter(torch.cat([grid_w, grid_w]))

        def vit_small(**kwargs):
            return VisionTransformerMoCo(embed_dim=384, **kwargs)
    """,
    "moco/__init__.py": "",
    "moco/builder.py": """
        import torch
        import torch.nn as nn

        class MoCo(nn.Module):
            def __init__(self, base_encoder, dim=256):
                super().__init__()
                self.base_encoder = base_encoder(num_classes=dim)
                self.momentum_encoder = base_encoder(num_classes=dim)
                self.predictor = nn.Linear(dim, dim)

            def forward(self, x1, x2):
                return self.predictor(self.base_encoder(x1)), self.momentum_encoder(x2)

        class MoCo_ViT(MoCo):
            def forward(self, x1, x2):
                return super().forward(x1, x2)
    """,
    "main_moco.py": """
        from functools import partial
        import torch
        import moco.builder
        import vits

        def main(args):
            model = moco.builder.MoCo_ViT(partial(vits.__dict__[args.arch]), args.dim)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            opt.step()
    """,
}


def test_a_subclass_of_a_third_party_module_class_is_a_module(tmp_path: Path) -> None:
    """``class VisionTransformerMoCo(timm...VisionTransformer)`` overrides no ``forward``, yet
    it is an ``nn.Module`` (timm's model is one): a node of the model tree, and its
    construction (the position-embedding builder its ``__init__`` calls) is network code,
    not host code."""
    write_repo(tmp_path, _MOCO)
    result, _ = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    scopes = {(f.function, f.api): f.scope for f in result.api_findings if f.path == "vits.py"}
    builder = "VisionTransformerMoCo.build_2d_sincos_position_embedding"
    assert scopes[(builder, "torch.arange")] == "network"
    assert scopes[(builder, "torch.cat")] == "network"
    review = build_review(str(tmp_path), jobs=1)
    assert "vits.VisionTransformerMoCo" in {m.cls for m in review.modules}


def test_known_third_party_module_classes() -> None:
    """Model zoos' models and layers are Modules; their configurations, weights enums and
    functions are not."""
    from apiscan.program.index import foreign_module

    for name in (
        "timm.models.vision_transformer.VisionTransformer",
        "timm.layers.PatchEmbed",
        "mmengine.model.BaseModule",
        "pytorch_lightning.LightningModule",
        "transformers.BertModel",
        "transformers.models.bert.modeling_bert.BertLayer",
    ):
        assert foreign_module(name), name
    for name in (
        "timm.models.create_model",
        "timm.data.Mixup",
        "timm.models.PretrainedCfg",
        "transformers.BertConfig",
        "transformers.PreTrainedModel.from_pretrained",
        "detectron2.layers.ShapeSpec",
        "sklearn.base.BaseEstimator",
    ):
        assert not foreign_module(name), name


def test_injected_encoders_and_a_second_leaf_model(tmp_path: Path) -> None:
    """moco-v3's ``MoCo_ViT`` builds its encoders from the class it is handed: it is the top
    model (built by the training script, of torch layers and injected parts), with the parts
    named as passed in. A script that also builds a refinement network of torch layers
    alone (CRAFT's ``RefineNet``) builds a second model, not an "other" class; a library
    module's ``__main__`` self-test trying the main model out does not hide the script that
    runs it; ENet's ``BottleNeck`` is a block, not a neck."""
    files = dict(_MOCO)
    files["moco/builder.py"] = files["moco/builder.py"].replace(
        "class MoCo_ViT(MoCo):",
        "class BottleNeck(nn.Module):\n"
        "            def __init__(self):\n"
        "                super().__init__()\n"
        "                self.conv = nn.Conv2d(4, 4, 1)\n\n"
        "        class MoCo_ViT(MoCo):",
    )
    files["craft.py"] = """
        import torch.nn as nn

        class Stem(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)

        class CRAFT(nn.Module):
            def __init__(self):
                super().__init__()
                self.basenet = Stem()

            def forward(self, x):
                return self.basenet(x)

        if __name__ == "__main__":
            model = CRAFT()
    """
    files["refinenet.py"] = """
        import torch.nn as nn

        class RefineNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.last_conv = nn.Sequential(nn.Conv2d(34, 64, 3), nn.ReLU())

            def forward(self, y):
                return self.last_conv(y)
    """
    files["run.py"] = """
        from craft import CRAFT
        from refinenet import RefineNet

        def main():
            net = CRAFT()
            refine_net = RefineNet()
            return net, refine_net
    """
    write_repo(tmp_path, files)
    review = build_review(str(tmp_path), jobs=1)
    roles = {m.cls: m.role for m in review.modules}
    assert roles["moco.builder.MoCo_ViT"] == "model"
    assert roles["refinenet.RefineNet"] == "model"
    assert roles["craft.CRAFT"] == "model"
    # ENet's ``BottleNeck`` is a block by its name, not a neck; built by nothing here, it is
    # no row of the review (issue 20)
    assert "moco.builder.BottleNeck" not in roles
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    api = load_torch_api()
    nodes = module_nodes(result, analyses, Hierarchy(analyses, ClassTable(analyses, api)), api)
    assert {m.cls: m.role for m in nodes}["moco.builder.BottleNeck"] == "block"
    passed = (
        "VisionTransformerMoCo (what most of vits's functions build; named at run time; "
        "base_encoder(...), passed in: partial(vits.__dict__[args.arch]))"
    )
    assert _parts(review, "moco.builder.MoCo_ViT") == {
        "base_encoder": passed,
        "momentum_encoder": passed,
    }
    craft = next(m for m in review.top_models if m.cls == "craft.CRAFT")
    assert craft.where.path == "run.py"
    # run.py is no training script and main_moco.py never reaches CRAFT: it only infers here
    assert dict(craft.parts) == {"basenet": "Stem", "trained by": INFERENCE_ONLY_PART[1]}
    moco = next(m for m in review.top_models if m.cls == "moco.builder.MoCo_ViT")
    assert INFERENCE_ONLY_PART not in moco.parts


def test_parts_bound_by_a_tuple_target_from_a_builder(tmp_path: Path) -> None:
    """DPT's ``self.pretrained, self.scratch = _make_encoder(...)``: both attributes are
    parts of the model, built by the repository's builder (which returns no class of its
    own: a timm model and a bare module of convolutions)."""
    write_repo(
        tmp_path,
        {
            "dpt/__init__.py": "",
            "dpt/blocks.py": """
                import timm
                import torch.nn as nn

                def _make_encoder(backbone, features):
                    pretrained = timm.create_model(backbone, pretrained=True)
                    scratch = nn.Module()
                    scratch.layer1_rn = nn.Conv2d(256, features, 3)
                    return pretrained, scratch
            """,
            "dpt/models.py": """
                import torch.nn as nn
                from .blocks import _make_encoder

                class DPT(nn.Module):
                    def __init__(self, features=256):
                        super().__init__()
                        self.pretrained, self.scratch = _make_encoder("vitb16_384", features)
                        self.head = nn.Conv2d(features, 1, 1)

                    def forward(self, x):
                        return self.head(self.scratch.layer1_rn(self.pretrained(x)))
            """,
            "run.py": """
                from dpt.models import DPT

                def run():
                    model = DPT()
                    return model
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    # the model builds no repository class: its torch layer is a part too
    assert _parts(review, "dpt.models.DPT") == {
        "pretrained": "_make_encoder(...)",
        "scratch": "_make_encoder(...)",
        "head": "torch.nn.Conv2d",
    }


def test_a_directory_on_sys_path_and_parts_built_in_either_branch(tmp_path: Path) -> None:
    """RAFT's scripts run ``sys.path.append('core')`` and import ``from raft import RAFT``;
    core/raft.py imports ``from update import BasicUpdateBlock``. Those names are core/'s
    modules (the scan adds them to the files' own names), so RAFT's constructor builds its
    parts, in an ``if args.small: ... else: ...``: each attribute lists both branches'."""
    write_repo(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/update.py": """
                import torch.nn as nn

                class SmallUpdateBlock(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 8, 3)

                class BasicUpdateBlock(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(16, 16, 3)
            """,
            "core/raft.py": """
                import torch.nn as nn
                from update import BasicUpdateBlock, SmallUpdateBlock

                class RAFT(nn.Module):
                    def __init__(self, args):
                        super().__init__()
                        if args.small:
                            self.update_block = SmallUpdateBlock()
                        else:
                            self.update_block = BasicUpdateBlock()
            """,
            "train.py": """
                import sys
                sys.path.append('core')
                import torch
                from raft import RAFT

                def train(args):
                    model = RAFT(args)
                    torch.optim.AdamW(model.parameters()).step()
            """,
        },
    )
    from apiscan.discovery import discover

    _, files, _ = discover(tmp_path)
    modules = {f.relpath: f.modules for f in files}
    assert modules["core/update.py"] == ("core.update", "update")
    assert modules["train.py"] == ("train",)
    review = build_review(str(tmp_path), jobs=1)
    assert _parts(review, "core.raft.RAFT") == {
        "update_block": "SmallUpdateBlock or BasicUpdateBlock"
    }


def test_models_a_package_exports_for_a_name_only_a_config_holds(tmp_path: Path) -> None:
    """pytorch-segmentation's train.py builds ``getattr(models, config['arch']['type'])
    (...)`` with the name in config.json: the models ``models/__init__.py`` exports are the
    candidates, each a top model with its parts (a block exported beside them is not)."""
    write_repo(
        tmp_path,
        {
            "models/__init__.py": "from .pspnet import PSPNet\nfrom .unet import UNet\n",
            "models/pspnet.py": """
                import torch.nn as nn

                class _PSPModule(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(8, 8, 1)

                class PSPNet(nn.Module):
                    def __init__(self, num_classes):
                        super().__init__()
                        self.master_branch = _PSPModule()
            """,
            "models/unet.py": """
                import torch.nn as nn

                class UNet(nn.Module):
                    def __init__(self, num_classes):
                        super().__init__()
                        self.final = nn.Conv2d(8, num_classes, 1)
            """,
            "train.py": """
                import json
                import torch
                import models

                def get_instance(module, name, config, *args):
                    return getattr(module, config[name]['type'])(*args)

                def main(config):
                    model = get_instance(models, 'arch', config, 21)
                    torch.optim.SGD(model.parameters(), lr=0.1).step()
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    roles = {m.cls: m.role for m in review.modules}
    assert roles["models.pspnet.PSPNet"] == roles["models.unet.UNet"] == "model"
    assert roles["models.pspnet._PSPModule"] == "block"
    parts = _parts(review, "models.pspnet.PSPNet")
    assert parts["master_branch"] == "_PSPModule"
    assert "train.py imports models/__init__.py" in parts["selected by"]
    assert {m.cls for m in review.top_models} == {"models.pspnet.PSPNet", "models.unet.UNet"}


def test_a_script_running_a_training_loop_trains_the_model_it_builds(tmp_path: Path) -> None:
    """improved-diffusion's ``scripts/image_train.py`` builds the UNet through
    ``script_util`` and runs ``train_util.TrainLoop``, the file with the optimizer and the
    backward pass, which never imports the UNet: the UNet is trained, not inference only."""
    write_repo(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/unet.py": """
                from torch import nn


                class UNet(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.conv = nn.Conv2d(3, 3, 3, padding=1)

                    def forward(self, x):
                        return self.conv(x)
            """,
            "pkg/script_util.py": """
                from pkg.unet import UNet


                def create_model():
                    return UNet()
            """,
            "pkg/train_util.py": """
                import torch


                class TrainLoop:
                    def __init__(self, model, data):
                        self.model, self.data = model, data
                        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

                    def run_loop(self):
                        for x in self.data:
                            loss = (self.model(x) - x).pow(2).mean()
                            self.opt.zero_grad()
                            loss.backward()
                            self.opt.step()
            """,
            "scripts/image_train.py": """
                import torch

                from pkg.script_util import create_model
                from pkg.train_util import TrainLoop


                def main():
                    model = create_model()
                    TrainLoop(model, [torch.zeros(1, 3, 8, 8)]).run_loop()


                if __name__ == "__main__":
                    main()
            """,
            "scripts/sample.py": """
                import torch

                from pkg.script_util import create_model


                if __name__ == "__main__":
                    print(create_model()(torch.zeros(1, 3, 8, 8)).shape)
            """,
        },
    )
    review = build_review(str(tmp_path), jobs=1)
    unet = next(m for m in review.top_models if m.cls == "pkg.unet.UNet")
    assert INFERENCE_ONLY_PART not in unet.parts
