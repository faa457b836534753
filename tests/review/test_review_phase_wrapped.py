"""A loader's arguments built in a ``phase == 'train'`` branch and its validation ``elif``
(``fixtures/phaseloader``), and a loss wrapped by a repository decorator that adds
parameters (``fixtures/wrappedloss``): the loader row keeps the training's branch, the loss
row binds the call to the wrapper's signature."""

from __future__ import annotations

import ast
from pathlib import Path

from apiscan.extract.values import file_values
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe
from apiscan.review.roles import train_switch

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _items(name: str) -> tuple[RecipeItem, ...]:
    root = FIXTURES / name
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def test_a_phase_compared_with_the_training_name_is_a_training_switch() -> None:
    src = "def f(phase, x):\n" + "".join(
        f"    if {t}:\n        g()\n"
        for t in (
            "phase == 'train'",
            "phase != 'train'",
            "phase in ['val', 'test']",
            "opt['phase'] == 'training'",
            "phase == 'fast'",
            "phase in ['train', 'val']",
            "x > 'train'",
        )
    )
    calls = file_values(ast.parse(src), src).calls
    assert [train_switch(c.ifs[0].test) for c in calls] == [
        True,
        False,
        False,
        True,
        # INVALID: another word, a mix of both sides, an order: no phase switch
        None,
        None,
        None,
    ]


def test_the_training_loader_keeps_the_training_branch() -> None:
    loaders = [i for i in _items("phaseloader") if i.name == "torch.utils.data.DataLoader"]
    train = dict(next(i for i in loaders if str(i.where) == "data/__init__.py:24").values)
    # the ``elif phase in ['val', 'test']`` dict (batch 1, no shuffle, no workers) is gone
    assert train["batch_size"].startswith("dataset_opt['batch_size_per_gpu'] * multiplier")
    assert train["num_workers"].startswith("dataset_opt['num_worker_per_gpu'] * multiplier")
    # ``if sampler is None: dataloader_args["shuffle"] = True``: shown with its test
    assert train["shuffle"] == "True (if sampler is None)"
    assert train["drop_last"] == "True"
    # INVALID: branches on a mode that is no phase, unresolved: the last writer, as before
    other = dict(next(i for i in loaders if str(i.where) == "data/__init__.py:33").values)
    assert other["batch_size"] == "8"


def test_a_call_through_a_decorator_binds_to_the_wrappers_parameters() -> None:
    losses = {i.name: dict(i.values) for i in _items("wrappedloss") if i.category == "loss"}
    wrapped = losses["losses.losses.charbonnier_loss"]
    # ``charbonnier_loss(pred, target, weight, eps=self.eps, reduction=self.reduction)``:
    # the third argument is the wrapper's ``weight``, never the wrapped function's ``eps``
    assert wrapped["weight"].startswith("None (default of parameter weight of")
    assert wrapped["eps"].startswith("1e-6 (self.eps set in CharbonnierLoss.__init__")
    assert wrapped["reduction"].startswith("'mean' ")
    # ``self.loss_weight * charbonnier_loss(...)``: the factor, named apart from ``weight``
    assert wrapped["loss weight"].startswith("1.0 (self.loss_weight")
    # INVALID: a wrapper taking ``*args`` passes the call on: the function's own names
    assert losses["losses.losses.huber_loss"]["delta"] == "0.5"
