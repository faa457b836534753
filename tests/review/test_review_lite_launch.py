"""A training a library's launcher runs and a teacher model of another package (issue 20),
on fixtures/litelaunch: a LightningLite subclass whose ``run`` trains through
``self.setup`` and ``self.backward`` is training machinery of a library though no call
names the library's class, and a third-party class whose object gets a checkpoint's
weights is a pretrained model, not a layer."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/litelaunch")


def _items(review, kind: str) -> list[tuple[str, int, list[str]]]:
    return [
        (i.what, i.uses, [f"{w.path}:{w.line}" for w in i.where])
        for i in review.work
        if i.kind == kind
    ]


def test_a_launcher_subclass_and_its_strategy_are_training_machinery(review) -> None:
    # VALID: ``class Lite(LightningLite)`` (its class line and where it is built) and the
    # DDPStrategy handed to it; INVALID: the Fabric subclass of an export tool (counted apart)
    assert _items(review, "training-library") == [
        ("pytorch_lightning.lite.LightningLite", 2, ["train.py:10", "train.py:31"]),
        ("pytorch_lightning.strategies.DDPStrategy", 1, ["train.py:31"]),
    ]
    (lite, _) = [i for i in review.work if i.kind == "training-library"]
    assert "setup_dataloaders" in lite.why and "mindspore.value_and_grad" in lite.why
    assert not any("Fabric" in i.what or "export" in str(i.where) for i in review.work)


def test_a_third_party_class_given_weights_is_a_pretrained_model(review) -> None:
    # VALID: ``model = TeacherNet(depth=2)`` then ``model.load_state_dict(torch.load(...))``;
    # INVALID: convkit's Block built without weights nor a device (no pretrained model:
    # a layer the Teacher holds and runs, a third-party layer)
    assert _items(review, "third-party-model") == [
        ("teachkit (teachkit.models.TeacherNet)", 1, ["model.py:23"])
    ]
    assert [i.what for i in review.work if "convkit" in i.what] == [
        "convkit (convkit.layers.Block)"
    ]
    assert [i.kind for i in review.work if "convkit" in i.what] == ["third-party-layer"]
