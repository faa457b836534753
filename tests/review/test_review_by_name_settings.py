"""Settings of objects a repository builds from a dotted class name (a settings dict
``EasyDict(class_name='pkg.loss.GanLoss', ...)`` handed to ``construct_class_by_name``):
the entries of a ``**table[key]`` the defaults pick, the numeric defaults of a repository
loss class the settings leave alone (its weights), and no ``None`` for an override written
under ``if x is not None``. A small repository inline."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

TRAIN = """
    import torch
    import util


    def setup(gamma=None, pipe=None, cfg=None):
        args = util.EasyDict()
        if cfg is None:
            cfg = 'auto'
        args.loss_kwargs = util.EasyDict(class_name='pkg.loss.GanLoss', r1_gamma=10)
        if cfg == 'small':
            args.loss_kwargs.pl_weight = 0
        if gamma is not None:
            args.loss_kwargs.r1_gamma = gamma
        if pipe is None:
            pipe = 'geom'
        specs = {
            'blit': dict(xflip=1, rotate90=1),
            'geom': dict(scale=1, rotate=1, aniso=1),
        }
        args.augment_kwargs = util.EasyDict(class_name='pkg.augment.AugmentPipe', **specs[pipe])
        return args


    def main():
        args = setup()
        loss = util.construct_class_by_name(**args.loss_kwargs)
        pipe = util.construct_class_by_name(**args.augment_kwargs)
        opt = torch.optim.Adam([torch.zeros(1)], lr=0.002)
        for step in range(10):
            value = loss.accumulate(pipe)
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


    class GanLoss:
        def __init__(self, device=None, style_mixing_prob=0.9, r1_gamma=10, pl_decay=0.01,
                     pl_weight=2, augment_pipe=None):
            self.style_mixing_prob = style_mixing_prob
            self.r1_gamma = r1_gamma
            self.pl_weight = pl_weight

        def accumulate(self, pipe):
            return torch.nn.functional.softplus(torch.zeros(1)).mean() * self.r1_gamma
"""
AUGMENT = """
    import torch


    class AugmentPipe(torch.nn.Module):
        def __init__(self, xflip=0, rotate90=0, scale=0, rotate=0, aniso=0):
            super().__init__()
            self.scale = scale

        def forward(self, images):
            return images * self.scale
"""


def test_a_table_pick_loss_defaults_and_no_none_override(tmp_path: Path) -> None:
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
    loss = items["pkg.loss.GanLoss"].values
    # the override under ``if gamma is not None`` never runs with gamma's default None
    assert [v for k, v in loss if k == "r1_gamma"] == ["10"]
    shown = dict(loss)
    assert shown["style_mixing_prob"].startswith("0.9 (default of the class's __init__ at ")
    assert shown["pl_decay"].startswith("0.01 (default")
    # the setting under ``if cfg == 'small'`` does not run with cfg 'auto': the default holds
    assert [v.split(" (")[0] for k, v in loss if k == "pl_weight"] == ["2"]
    assert "device" not in shown and "augment_pipe" not in shown
    pipe = dict(items["pkg.augment.AugmentPipe"].values)
    assert list(pipe) == ["scale", "rotate", "aniso"]
    assert pipe["scale"] == "1 (specs[pipe] with pipe = 'geom' (pipe set at train.py:15))"
