"""Mixed-precision rows on ``fixtures/halfcasts``: only what the training step runs in
reduced precision (GradScaler, autocast around the step or in a helper of it under
``no_grad``, a cast in the network's forward, a model and inputs cast to float16 that a step
trains on) is a row. A cast rounded back at
once, a copy or checkpoint entry cast before saving, a loaded checkpoint cast for
evaluation, a value cast straight into a save, an inference wrapper under ``no_grad``, a
profiler and an inference script are not the training's precision."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import Review
from apiscan.review.recipe import extract_recipe

HALFCASTS = Path(__file__).resolve().parents[2] / "fixtures" / "halfcasts"


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(HALFCASTS), jobs=1)


def test_only_the_training_precision_is_a_row(review: Review) -> None:
    rows = sorted((str(i.where), i.name) for i in review.recipe if i.category == "amp")
    assert rows == [
        # a model's autocast in a ``detectors/`` package: the folder is no inference place
        ("detectors/amp_net.py:13", "torch.cuda.amp.autocast"),
        ("model.py:13", "torch.Tensor.half"),  # the network's own cast
        # autocast(enabled=False) in a label assigner under no_grad: still the training step
        ("model.py:48", "torch.cuda.amp.autocast"),
        ("train.py:17", "torch.cuda.amp.GradScaler"),
        ("train.py:20", "torch.cuda.amp.autocast"),
        ("train.py:37", "torch.nn.Module.half"),  # net = Attention(8).half(), then trained
        ("train.py:40", "torch.Tensor.half"),  # its inputs, cast for the step
    ]


def test_casts_that_do_not_train_are_not_rows(review: Review) -> None:
    places = {str(i.where) for i in review.recipe if i.category == "amp"}
    for where in (
        "train.py:15",  # model.half().float(): rounds
        "train.py:26",  # deepcopy(model).half() in a checkpoint
        "train.py:28",  # evaluate(model=load(...).half())
        "train.py:31",  # torch.save(....half(), f)
        "model.py:25",  # autocast in a forward under @torch.no_grad(): an inference wrapper
        "model.py:31",  # a profiler's casts
        "model.py:32",
        "model.py:41",  # ckpt["model"].half() before saving again
        "detect.py:8",  # an inference script
        "detect.py:9",
    ):
        assert where not in places, where


def test_where_nothing_trains_the_inference_precision_is_the_row(tmp_path: Path) -> None:
    """Without a training step the inference path is what is ported: its autocast under
    ``no_grad`` and its ``.half()`` are the precision the port runs in, kept as rows."""
    (tmp_path / "model.py").write_text(
        "import torch\n"
        "from torch import nn\n"
        "\n"
        "\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n"
        "\n"
        "    @torch.no_grad()\n"
        "    def forward(self, x):\n"
        "        with torch.cuda.amp.autocast():\n"
        "            return self.fc(x)\n"
    )
    (tmp_path / "predict.py").write_text(
        "import torch\n"
        "from model import Net\n"
        "\n"
        "net = Net().half()\n"
        "print(net(torch.randn(1, 4).half()))\n"
    )
    review = build_review(str(tmp_path), jobs=1)
    assert review.inference_only
    amp = {str(i.where): i.note for i in review.recipe if i.category == "amp"}
    assert "model.py:12" in amp
    assert not any("not the training's" in note for note in amp.values())


def test_the_recipe_marks_the_inference_paths_precision_on_the_row() -> None:
    """The recipe itself keeps the inference path's casts as rows marked
    ``inference_precision`` (the review drops them where something trains, keeps them where
    nothing does): the mark is the row's field, its note says nothing of it. The training's
    own rows are not marked (VALID); an inference wrapper's, a profiler's and a checkpoint
    copy's are (INVALID as training settings)."""
    result, analyses = scan_with_facts(ScanOptions(str(HALFCASTS), cache_dir=None, jobs=1))
    amp = {
        str(i.where): i for i in extract_recipe(result, analyses, HALFCASTS) if i.category == "amp"
    }
    assert not amp["train.py:17"].inference_precision  # GradScaler
    assert not amp["model.py:13"].inference_precision  # the network's own cast
    marked = {where for where, i in amp.items() if i.inference_precision}
    assert {"model.py:25", "model.py:31", "train.py:26", "train.py:28"} <= marked
    assert not marked & {"train.py:17", "train.py:20", "train.py:37", "train.py:40"}
    assert not any("not the training's" in i.note for i in amp.values())
