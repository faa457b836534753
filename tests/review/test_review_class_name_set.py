"""A dotted class name set on a settings dict by attribute, in the branch of an option's
``if``/``elif`` the defaults take (``kwargs.loss = EasyDict()`` then ``kwargs.loss.class_name
= 'pkg.loss.ScoreLoss'``), built by ``construct_class_by_name``: the loss the training runs,
a recipe row with its class's numeric defaults; the branches the defaults leave build none.
The entries a later ``update(...)`` writes on a settings dict are its settings too."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

TRAIN = """
    import argparse
    import torch
    import util


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--precond', default='score', choices=['plain', 'score'])
        parser.add_argument('--augment', type=float, default=0.1)
        opts = parser.parse_args()
        c = util.EasyDict()
        c.loss_kwargs = util.EasyDict()
        if opts.precond == 'plain':
            c.loss_kwargs.class_name = 'pkg.loss.PlainLoss'
        else:
            c.loss_kwargs.class_name = 'pkg.loss.ScoreLoss'
        c.augment_kwargs = util.EasyDict(class_name='pkg.augment.AugmentPipe', p=opts.augment)
        c.augment_kwargs.update(xflip=1, scale=2)
        loss_fn = util.construct_class_by_name(**c.loss_kwargs)
        pipe = util.construct_class_by_name(**c.augment_kwargs)
        opt = torch.optim.Adam([torch.zeros(1)], lr=0.001)
        for step in range(10):
            value = loss_fn(pipe(torch.zeros(2))).mean()
            value.backward()
            opt.step()


    if __name__ == '__main__':
        main()
"""
UTIL = """
    import importlib


    class EasyDict(dict):
        pass


    def construct_class_by_name(class_name, **kwargs):
        module, _, name = class_name.rpartition('.')
        return getattr(importlib.import_module(module), name)(**kwargs)
"""
LOSS = """
    import torch


    class PlainLoss:
        def __init__(self, beta=0.5):
            self.beta = beta

        def __call__(self, x):
            return x * self.beta


    class ScoreLoss:
        def __init__(self, P_mean=-1.2, P_std=1.2):
            self.P_mean = P_mean
            self.P_std = P_std

        def __call__(self, x):
            sigma = (torch.randn_like(x) * self.P_std + self.P_mean).exp()
            return (x * sigma) ** 2
"""
AUGMENT = """
    import torch


    class AugmentPipe(torch.nn.Module):
        def __init__(self, p=0, xflip=0, scale=0):
            super().__init__()
            self.p = p

        def forward(self, images):
            return images * self.p
"""


def test_a_class_name_set_by_attribute_is_the_loss_row(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "train.py": TRAIN,
            "util.py": UTIL,
            "pkg/__init__.py": "",
            "pkg/loss.py": LOSS,
            "pkg/augment.py": AUGMENT,
        },
    )
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    items = {i.name: i for i in extract_recipe(result, analyses, tmp_path)}
    # VALID: the branch the default 'score' takes names the loss, with its class's defaults
    loss = items["pkg.loss.ScoreLoss"]
    assert loss.category == "loss"
    shown = dict(loss.values)
    assert shown["P_mean"].startswith("-1.2 (default of the class's __init__ at ")
    assert shown["P_std"].startswith("1.2 (default")
    assert "c.loss_kwargs.class_name = 'pkg.loss.ScoreLoss'" in loss.note
    # INVALID: the branch the default leaves builds nothing
    assert "pkg.loss.PlainLoss" not in items
    # the entries a later update() writes are the augmentation's settings
    pipe = dict(items["pkg.augment.AugmentPipe"].values)
    assert pipe["xflip"].startswith("1 (set at train.py:")
    assert pipe["scale"].startswith("2 (set at train.py:")
