"""The model tree follows the run's values for the parts a constructor builds per branch,
on fixtures/branchparts: ``Model(opt)`` builds ``Warp`` only ``if opt.Transformation ==
"TPS"``, ``VGGFeatures`` or ``ResNetFeatures`` by ``opt.FeatureExtraction``, and ``nn.Linear``
or ``Attention`` by ``opt.Prediction``; the training's options default to ``None``, ``VGG``
and ``CTC``, as the recipe reads them."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "branchparts"


def _parts(root: Path) -> dict[str, str]:
    review = build_review(str(root), jobs=1)
    (top,) = [t for t in review.top_models if t.cls == "model.Model"]
    return dict(top.parts)


def test_the_parts_are_those_the_defaults_build() -> None:
    assert _parts(FIXTURE) == {
        # VALID: the branches taken; INVALID: Warp, ResNetFeatures and Attention, whose
        # branches the defaults skip, are no parts
        "Transformation": "none (the run's values skip the branch that builds it)",
        "FeatureExtraction": "VGGFeatures",
        "Prediction": "Linear (nn.Linear(8, 10): the branch the run's values take)",
    }


def test_other_defaults_pick_the_other_branches(tmp_path: Path) -> None:
    root = tmp_path / "branchparts"
    shutil.copytree(FIXTURE, root)
    train = root / "train.py"
    text = train.read_text()
    for old, new in (('"None"', '"TPS"'), ('"VGG"', '"ResNet"'), ('"CTC"', '"Attn"')):
        text = text.replace(old, new)
    train.write_text(text)
    assert _parts(root) == {
        "Transformation": "Warp",
        "FeatureExtraction": "ResNetFeatures",
        "Prediction": "Attention",
    }
