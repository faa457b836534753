"""A repository trained by an installed framework (basicsr's ``train_pipeline`` given the
option file) whose option file picks the repository's own model class by name
(``model_type: TinyGANModel``): that class extends the framework's ``SRGANModel`` (its
optimizers, EMA and loop are inherited) and calls the framework's tensor code in its
training step (a JPEG simulator, a blur filter, a noise draw). Those are framework code the
port brings along too: the framework item names them and the effort prices them; the data
pipeline's calls into the framework are named, not priced. The random steps the picked model
class draws on each batch (a noise draw, a JPEG quality per image) are the training's
augmentation, with the option file's values of the keys they read. The training entry in a
package (``python tinysr/train.py -opt ...``), which nothing imports, is no unused module
(``fixtures/optfiles/frameworknet`` with one model class added)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.model import Review, WorkItem

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "optfiles" / "frameworknet"

MODEL = """\
import numpy as np
import torch
from srkit.data.degradations import random_add_noise_pt
from srkit.models.srgan_model import SRGANModel
from srkit.utils import DiffJPEG
from srkit.utils.img_process_util import filter2D
from srkit.utils.registry import MODEL_REGISTRY


@MODEL_REGISTRY.register()
class TinyGANModel(SRGANModel):
    def __init__(self, opt):
        super().__init__(opt)
        self.jpeger = DiffJPEG(differentiable=False)
        self.noise_scale = opt['noise_scale']

    def feed_data(self, data):
        self.gt = data['gt']
        out = filter2D(self.gt, data['kernel'])
        if np.random.uniform() < self.opt['noise_prob']:
            sigma_range = self.opt['noise_range']
            out = random_add_noise_pt(out, sigma_range=sigma_range, scale=self.noise_scale)
        jpeg_p = out.new_zeros(out.size(0)).uniform_(*self.opt['jpeg_range'])
        self.lq = self.jpeger(torch.clamp(out, 0, 1), quality=jpeg_p)
        self._shuffle_pool()

    def _shuffle_pool(self):
        self.pool = self.pool[torch.randperm(self.pool.size(0))]
"""

OPTIONS = """
noise_prob: 0.3
noise_range: [1, 30]
jpeg_range: [30, 95]
noise_scale: 2
"""


def _item(review: Review) -> WorkItem:
    (item,) = [w for w in review.work if w.kind == "framework-training"]
    return item


@pytest.fixture(scope="module")
def reviews(tmp_path_factory):  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("frameworksub") / "frameworknet"
    shutil.copytree(FIXTURE, root)
    (root / "tinysr" / "models").mkdir()
    (root / "tinysr" / "models" / "__init__.py").write_text(
        "from .gan_model import TinyGANModel  # noqa: F401\n"
    )
    (root / "tinysr" / "models" / "gan_model.py").write_text(MODEL)
    options = root / "options" / "train_tinysr_gan.yml"
    options.write_text(
        options.read_text().replace("model_type: SRGANModel", "model_type: TinyGANModel") + OPTIONS
    )
    return build_review(str(FIXTURE), jobs=1), build_review(str(root), jobs=1)


def test_the_framework_base_and_the_calls_of_the_picked_model_class_are_named(reviews) -> None:  # type: ignore[no-untyped-def]
    _, review = reviews
    what = _item(review).what
    assert "the base classes the repository's picked classes extend" in what
    assert "SRGANModel ← TinyGANModel (model_type)" in what
    called = "DiffJPEG, filter2D, random_add_noise_pt"
    assert f"what tinysr/models/gan_model.py (model_type) calls of it: {called}" in what
    # a registry is how classes are found by name: no code of the framework to port
    assert "REGISTRY" not in what
    # the data pipeline's call into the framework is named
    assert "what tinysr/data/paired_dataset.py (datasets.train) calls of it: augment" in what
    # the option file's line picking the class is one of the item's places
    assert "options/train_tinysr_gan.yml:3" in [str(w) for w in _item(review).where]


def test_the_base_and_the_model_calls_are_priced_the_data_calls_not(reviews) -> None:  # type: ignore[no-untyped-def]
    plain, review = reviews
    # the framework's own model class picked: only the data pipeline's call, not priced
    assert _item(plain).uses == 4
    # the base class and the model file's calls: two more pieces of the framework
    assert _item(review).uses == 6
    assert review.effort.person_days[0] > plain.effort.person_days[0]


def test_the_picked_model_class_draws_are_augmentation_with_the_option_values(reviews) -> None:  # type: ignore[no-untyped-def]
    plain, review = reviews
    rows = {i.name: i for i in review.recipe if i.category == "augmentation"}
    row = rows["TinyGANModel.feed_data"]
    values = dict(row.values)
    draws = [v for k, v in values.items() if k.startswith("draw ")]
    # a draw of the library's named for it, and a tensor's in-place random fill
    assert any(d.startswith("out = random_add_noise_pt(") for d in draws)
    assert any(".uniform_(*self.opt['jpeg_range'])" in d for d in draws)
    # the keys the draws read, with the option file's values
    assert values["self.opt['noise_prob']"] == "0.3"
    assert values["self.opt['noise_range']"] == "[1, 30]"
    assert values["self.opt['jpeg_range']"] == "[30, 95]"
    # an attribute the constructor sets from a key of the options: that key's value
    assert values["self.noise_scale"] == "2"
    assert row.where.path == "tinysr/models/gan_model.py"
    # the pool reshuffled by a method feed_data calls: one of its draws, no row of its own
    assert any("self._shuffle_pool()" in d for d in draws)
    assert "TinyGANModel._shuffle_pool" not in rows
    # the framework's own model class picked: nothing of the repository draws per batch
    assert not [i for i in plain.recipe if i.name.startswith("TinyGANModel")]


def test_the_documented_training_entry_in_a_package_is_no_unused_module(reviews) -> None:  # type: ignore[no-untyped-def]
    # ``python tinysr/train.py -opt ...``: a package's module nothing imports, run by the
    # documented training command (it hands the loop to the framework)
    for review in reviews:
        assert "tinysr/train.py" not in dict(review.ancillary)


def test_a_zoo_network_a_framework_loss_builds_is_a_pretrained_backbone(reviews) -> None:  # type: ignore[no-untyped-def]
    plain, _ = reviews
    # ``perceptual_opt: {type: PerceptualLoss, vgg_type: vgg19}``: the loss compares the
    # features of torchvision's pretrained VGG19; its other values (``criterion: l1``,
    # the layer weights) name no zoo network
    (item,) = [w for w in plain.work if w.kind == "pretrained-backbone"]
    assert item.what == (
        "torchvision.models.vgg19 pretrained (train.perceptual_opt: PerceptualLoss, vgg_type vgg19)"
    )
    assert item.where[0].path == "options/train_tinysr_gan.yml"
    assert "MindCV" in item.why
