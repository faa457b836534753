"""A training script built on timm's machinery (issue 20: T2T-ViT, ConvNeXt), on
fixtures/timmtrain: the pieces of training timm builds are work items, the augmentation
settings a factory takes as keywords are recipe rows, an entry point that delegates the step
keeps its rows, and a model module registered by decorator that nothing imports is counted
apart with everything it would have given."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.work import UNIMPORTED

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "timmtrain"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/timmtrain")


def _variant(tmp_path: Path, path: str, old: str, new: str) -> Review:
    """The fixture with ``old`` replaced by ``new`` in ``path``, reviewed."""
    root = tmp_path / "timmtrain"
    shutil.copytree(FIXTURE, root)
    text = (root / path).read_text()
    assert old in text
    (root / path).write_text(text.replace(old, new))
    return build_review(str(root), jobs=1)


def _rows(review: Review, category: str) -> dict[str, dict[str, str]]:
    return {i.name: dict(i.values) for i in review.recipe if i.category == category}


def _machinery(review: Review) -> dict[str, list[tuple[str, int]]]:
    return {
        i.what: [(w.path, w.line) for w in i.where]
        for i in review.work
        if i.kind == "training-library"
    }


def test_each_piece_of_training_timm_builds_is_a_work_item(review: Review) -> None:
    found = _machinery(review)
    # VALID: the optimizer and scheduler factories, the EMA (a star import), mixup, the
    # loader building the transforms, the soft-target loss, each where it is built
    assert found == {
        "timm.optim.create_optimizer": [("main.py", 49)],
        "timm.scheduler.create_scheduler": [("main.py", 50)],
        "timm.utils.ModelEma": [("main.py", 53)],
        "timm.data.Mixup": [("main.py", 54)],
        "timm.data.create_loader": [("main.py", 56)],
        "timm.loss.SoftTargetCrossEntropy": [("main.py", 79)],
    }
    # INVALID: JsdCrossEntropy under ``if args.jsd:`` (off by default),
    # LabelSmoothingCrossEntropy in the ``else`` of ``elif mixup_active:`` (a local the
    # defaults make true) and in a function nothing calls, create_transform, imported and
    # never called: no work
    assert not any(
        word in what for what in found for word in ("Jsd", "create_transform", "LabelSmoothing")
    )
    item = next(i for i in review.work if i.what == "timm.data.Mixup")
    assert "MindSpore has no timm" in item.why and "MindCV's Mixup" in item.why
    assert "6 training-library as" in review.effort.formula


def test_a_piece_under_an_option_off_by_default_is_no_work_item(tmp_path: Path) -> None:
    review = _variant(
        tmp_path,
        "main.py",
        '"--model-ema", action="store_true", default=True',
        '"--model-ema", action="store_true", default=False',
    )
    assert "timm.utils.ModelEma" not in _machinery(review)
    assert "timm.data.Mixup" in _machinery(review)


def test_a_local_the_defaults_decide_picks_the_branch_built(tmp_path: Path) -> None:
    review = _variant(
        tmp_path,
        "main.py",
        "mixup_active = args.mixup > 0 or args.cutmix > 0",
        "mixup_active = args.mixup < 0 and args.cutmix < 0",
    )
    found = _machinery(review)
    assert found["timm.loss.LabelSmoothingCrossEntropy"] == [("main.py", 81)]
    assert "timm.loss.SoftTargetCrossEntropy" not in found


def test_the_augmentation_keywords_of_a_factory_are_recipe_rows(review: Review) -> None:
    aug = _rows(review, "augmentation")
    # VALID: options named for nothing alone, passed as RandomErasing's, RandAugment's and
    # the random resized crop's keywords (one through a local: interpolation=)
    assert aug["argparse --reprob"] == {"default": "0.25"}
    assert aug["argparse --remode"] == {"default": '"pixel"'}
    assert aug["argparse --recount"] == {"default": "1"}
    assert aug["argparse --aa"] == {"default": '"rand-m9-mstd0.5-inc1"'}
    assert aug["argparse --scale"] == {"default": "[0.08, 1.0]"}
    assert aug["argparse --ratio"] == {"default": "[3.0 / 4.0, 4.0 / 3.0]"}
    assert aug["argparse --train-interpolation"] == {"default": '"random"'}
    # a keyword named for a setting gives that setting's category
    assert _rows(review, "dataloader")["argparse --pin-mem"] == {"default": "False"}
    # INVALID: ``scale=`` of a viewer (no augmentation factory) and a keyword of the loader
    # named for nothing of the recipe
    names = {i.name for i in review.recipe}
    assert "argparse --vis-scale" not in names
    assert "argparse --multi-epochs" not in names


def test_an_entry_point_delegating_the_step_keeps_its_augmentation_rows(review: Review) -> None:
    # main.py runs the step in engine.py (ConvNeXt's layout): a script, no evaluation one
    aug = _rows(review, "augmentation")
    assert aug["argparse --mixup"] == {"default": "0.8"}
    assert aug["argparse --cutmix"] == {"default": "1.0"}
    assert aug["argparse --color-jitter"] == {"default": "0.4"}


def test_a_registered_model_module_nothing_imports_gives_nothing(review: Review) -> None:
    apart = dict(review.ancillary)
    # VALID: @register_model runs only when the module is imported; nothing imports it
    assert apart["models/old_vit.py"] == UNIMPORTED
    # and what only it imports
    assert apart["models/old_init.py"] == "unused (imported only from models/old_vit.py)"
    # INVALID: the model the package imports stays
    assert "models/net.py" not in apart
    assert not any(i.where.path.startswith("models/old_") for i in review.recipe)
    assert [i.what for i in review.work if i.kind == "zoo-layer"] == ["timm.models.layers.DropPath"]
    inits = [(i.name, i.where.path) for i in review.recipe if i.category == "init"]
    assert inits == [
        ("TinyNet._init_weights", "models/net.py"),
        ("torch.nn.init.constant_", "models/net.py"),
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("import argparse\n", "import argparse\nimport importlib\n"),
        (
            "    args = parser.parse_args()\n",
            "    args = parser.parse_args()\n    __import__(args.model)\n",
        ),
    ],
)
def test_a_repository_loading_modules_by_name_keeps_them(
    tmp_path: Path, old: str, new: str
) -> None:
    review = _variant(tmp_path, "main.py", old, new)
    apart = dict(review.ancillary)
    assert "models/old_vit.py" not in apart and "models/old_init.py" not in apart


def test_the_json_document_with_the_new_kind_follows_the_schema(review: Review) -> None:
    from jsonschema import Draft202012Validator

    from apiscan.review.json import document, load_schema

    doc = document(review)
    assert "training-library" in {w["kind"] for w in doc["work"]}
    assert [e.message for e in Draft202012Validator(load_schema()).iter_errors(doc)] == []


def test_mixup_is_a_recipe_row_with_its_values(review: Review) -> None:
    rows = _rows(review, "augmentation")
    assert rows["timm.data.Mixup"] == {
        "mixup_alpha": "0.8 (args.mixup: default of argparse --mixup at main.py:34)",
        "cutmix_alpha": "1.0 (args.cutmix: default of argparse --cutmix at main.py:35)",
        "label_smoothing": "0.1 (args.smoothing: default of argparse --smoothing at main.py:36)",
    }


YACS_CONFIG = """\
from yacs.config import CfgNode as CN

_C = CN()
_C.AUG = CN()
_C.AUG.MIXUP = 0.8
_C.AUG.CUTMIX = 1.0
_C.MODEL = CN()
_C.MODEL.EMA_DECAY = 0.9998
"""

YACS_TRAIN = """\
import torch
from fvcore.transforms import HFlipTransform
from timm.data import Mixup
from timm.utils import ModelEmaV2

from config import _C as config


class RandomFlip:
    def get_transform(self, image):
        return HFlipTransform(image.shape[1])


def main():
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    mixup_fn = Mixup(mixup_alpha=config.AUG.MIXUP, cutmix_alpha=config.AUG.CUTMIX)
    ema = ModelEmaV2(model, decay=config.MODEL.EMA_DECAY)
    x, y = mixup_fn(torch.ones(2, 2), torch.zeros(2))
    model(x).sum().backward()
    optimizer.step()
    ema.update(model)


if __name__ == "__main__":
    main()
"""


def test_a_yacs_configured_mixup_and_ema_show_the_config_values(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text(YACS_CONFIG)
    (tmp_path / "train.py").write_text(YACS_TRAIN)
    review = build_review(str(tmp_path), jobs=1)
    assert _rows(review, "augmentation")["timm.data.Mixup"] == {
        "mixup_alpha": "0.8 (config.AUG.MIXUP: default at config.py:5)",
        "cutmix_alpha": "1.0 (config.AUG.CUTMIX: default at config.py:6)",
    }
    assert _rows(review, "ema")["timm.utils.ModelEmaV2"] == {
        "arg1": "model",
        "decay": "0.9998 (config.MODEL.EMA_DECAY: default at config.py:8)",
    }
    # INVALID: the operation an augmentation class's method picks, and torch's own optimizer
    assert "fvcore.transforms.HFlipTransform" not in {i.name for i in review.recipe}
    assert "torch.optim.SGD" not in {i.name for i in review.recipe if i.note == "third-party"}
