"""The model a training script's trainer class builds in its constructor is the top model
(``fixtures/trainerclass``, XMem's ``XMemTrainer``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "trainerclass"


def test_the_network_the_trainer_class_builds_is_the_top_model() -> None:
    tops = build_review(str(FIXTURE), jobs=1).top_models
    # the evaluator's SegModel is reached only by evaluate.py, a tool: counted apart with it
    assert [t.cls for t in tops] == ["model.network.Net"]
    net = tops[0]
    assert (net.where.path, net.where.line) == ("train.py", 4)
    assert net.parts == (
        ("selected by", "Trainer(config) in train.py → Trainer.__init__()"),
        ("encoder", "Encoder"),
        ("decoder", "Decoder"),
    )  # neither the loss nor the DistributedDataParallel wrapper


def test_a_runner_class_of_a_script_that_does_not_train_picks_nothing(tmp_path: Path) -> None:
    """INVALID: the same class built by a script named for no training (a runner or an
    evaluator builds a model to run or reload it): the builder's model stays first."""
    root = tmp_path / "trainerclass"
    shutil.copytree(FIXTURE, root)
    (root / "train.py").rename(root / "run_steps.py")
    tops = build_review(str(root), jobs=1).top_models
    assert [t.cls for t in tops] == ["interact.seg.SegModel"]
