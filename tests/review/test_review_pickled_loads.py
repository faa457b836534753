"""Whole networks read with ``torch.load`` into a module's attributes, on
fixtures/pickledload: ``Released`` holds ``self.enc = load_net(...)`` (a repository function
returning ``torch.load(f)``) and calls it in its forward: a pickled-networks checkpoint;
``Tuned`` keeps a state dict it hands to ``load_state_dict`` (never called), and the training
script loads a state dict: the plain checkpoint item, which names the weights file the
documented training command (run.sh) starts from."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/pickledload")


def test_a_module_holding_what_torch_load_returns_reads_pickled_networks(review) -> None:
    # VALID: self.enc = load_net(...), then self.enc(x); INVALID: self.weights =
    # torch.load(...) handed to load_state_dict, model.load_state_dict(torch.load(...))
    items = [
        (i.what, [str(w) for w in i.where], i.uses) for i in review.work if i.kind == "checkpoint"
    ]
    assert items == [
        (
            "pickled networks (whole modules read with torch.load, not state dicts)",
            ["model.py:7", "model.py:15"],
            2,
        ),
        ("torch.load", ["model.py:28", "train.py:9", "run.sh:2"], 2),
    ]
    (whole,) = [i for i in review.work if i.what.startswith("pickled networks")]
    assert "no state-dict conversion applies" in whole.why


def test_the_weights_the_training_command_starts_from_are_named(review) -> None:
    # VALID: run.sh's ``python train.py --init_weights weights/base_coco.pth``; INVALID: its
    # ``python evaluate.py --weights weights/last.pth`` (no training)
    (plain,) = [i for i in review.work if i.what == "torch.load"]
    assert plain.why.endswith(
        "The documented training starts from a weights file: --init_weights "
        "weights/base_coco.pth (run.sh:2): a PyTorch file to convert once (or to make again "
        "with the ported code) and check against PyTorch's outputs before the MindSpore "
        "training starts from it"
    )
    assert "last.pth" not in plain.why
