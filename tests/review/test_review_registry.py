"""Top models built by name (fixtures/zoonet): a module's ``__dict__`` indexed by an argparse
option, ``create_model(name)`` over ``@register_model`` functions, a decorator registry
looked up with the configuration's default, ``importlib.import_module(args.model)``."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.build import build_review
from apiscan.review.model import Review, TopModel


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/zoonet")


def _top(review: Review, cls: str) -> TopModel:
    return next(m for m in review.top_models if m.cls == cls)


def test_module_dict_lookup_follows_the_argparse_default_and_aliases(review: Review) -> None:
    top = _top(review, "zoonet.vits.ViT")
    assert (str(top.where), top.builder) == ("train_vit.py:12", "main")
    selected = dict(top.parts)["selected by"]
    assert "args.model = 'vit_tiny'" in selected and selected.endswith("→ vit_tiny_d2()")
    assert top.parts[1:] == (("patch_embed", "PatchEmbed"), ("blocks", "Block"))


def test_registry_get_reads_the_config_default_and_from_config_parts(review: Review) -> None:
    top = _top(review, "zoonet.meta_arch.Detector")
    assert "cfg.MODEL.META_ARCHITECTURE = 'Detector'" in dict(top.parts)["selected by"]
    # the backbone goes through a second registry, keyed by cfg.MODEL.BACKBONE.NAME
    assert top.parts[1:] == (("backbone", "ResNet (backbone)"), ("head", "Head"))


def test_create_model_by_name_reaches_the_class_a_generic_builder_gets(review: Review) -> None:
    top = _top(review, "zoonet.resnet.ResNet")
    assert dict(top.parts)["selected by"].endswith("→ resnet10()")


def test_importlib_module_from_the_command_line(review: Review) -> None:
    top = _top(review, "zoonet.pointseg.get_model")
    assert top.parts[1:] == (("feat", "Block"),)
    assert "zoonet.pointseg.get_loss" not in {m.cls for m in review.top_models}


def test_the_classes_picked_are_models(review: Review) -> None:
    roles = {m.cls: m.role for m in review.modules}
    assert roles["zoonet.vits.ViT"] == roles["zoonet.meta_arch.Detector"] == "model"
    assert roles["zoonet.pointseg.get_model"] == "model"
    # a part of Detector, not the model: the part's name gives its role
    assert roles["zoonet.resnet.ResNet"] == "backbone"


def test_a_root_module_built_directly_is_the_model(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(
        "from torch import nn\n\n"
        "class Enc(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.l = nn.Linear(2, 2)\n\n"
        "class GPT(nn.Module):\n"
        "    def __init__(self, cfg):\n"
        "        super().__init__()\n"
        "        self.transformer = nn.ModuleDict(dict(h=nn.ModuleList([Enc()]), f=Enc()))\n"
    )
    (tmp_path / "train.py").write_text("from model import GPT\nmodel = GPT(None)\n")
    review = build_review(str(tmp_path), jobs=1)
    assert [(m.cls, str(m.where), m.parts) for m in review.top_models] == [
        ("model.GPT", "train.py:2", (("transformer", "Enc"),))
    ]
    assert {m.cls: m.role for m in review.modules}["model.GPT"] == "model"


@pytest.mark.parametrize("side", ["validate.py", "sample.py", "profile.py", "bench.py"])
def test_an_evaluation_scripts_pick_is_not_the_model(tmp_path: Path, side: str) -> None:
    """A top-level script that evaluates, samples from or times the trained model (timm's
    ``validate.py``, nanoGPT's ``sample.py``) picks its own model: the training's pick is
    the model (VALID), the side script's is not (INVALID). The model tree reads the recipe's
    list of such scripts (it had left ``sample.py`` out)."""
    (tmp_path / "models.py").write_text(
        "from torch import nn\n\n"
        "class Part(nn.Module):\n    pass\n\n"
        "class A(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.p = Part()\n\n"
        "class B(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.p = Part()\n\n"
        "def a():\n    return A()\n\n"
        "def b():\n    return B()\n"
    )
    script = (
        "import argparse\nimport models\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--model', default={!r})\n"
        "args = parser.parse_args()\n"
        "model = models.__dict__[args.model]()\n"
    )
    (tmp_path / "train.py").write_text(script.format("a"))
    (tmp_path / side).write_text(script.format("b"))
    review = build_review(str(tmp_path), jobs=1)
    assert [m.cls for m in review.top_models] == ["models.A"]
