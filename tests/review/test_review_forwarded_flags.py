"""Constructor switches that reach a layer through ``**kwargs`` and forwarded parameters: a
training script builds the model from a keyword dict whose ``zero_gamma`` key is set only
under an option off by default, a builder hands its ``**kwargs`` on to the network, and the
network forwards ``zero_gamma=self.zero_gamma`` and ``fancy=self.fancy`` to each block.
The block's ``if zero_gamma:`` initialisation and its ``if fancy:`` third-party conv never
run; the ``if wide:`` branch, which the dict sets on unconditionally, does."""

from __future__ import annotations

from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.work import defaulted_flags, name_values, switched_off_named

TRAIN = """\
import argparse

import torch

from model import build


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--zero-gamma", action="store_true")
    args = parser.parse_args()
    kwargs = {}
    if args.zero_gamma:
        kwargs["zero_gamma"] = True
    kwargs["wide"] = True
    model = build(**kwargs)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in [torch.randn(2, 3, 8, 8)]:
        loss = model(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""

MODEL = """\
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width, zero_gamma=False, fancy=False, wide=False):
        super().__init__()
        if fancy:
            from fancyconv import FancyConv
            self.conv = FancyConv(width, width, 3)
        else:
            self.conv = nn.Conv2d(width, width, 3)
        self.bn = nn.BatchNorm2d(width)
        if zero_gamma:
            from torch.nn.init import zeros_
            zeros_(self.bn.weight)
        if wide:
            nn.init.ones_(self.bn.bias)

    def forward(self, x):
        return self.bn(self.conv(x))


class Net(nn.Module):
    def __init__(self, block, depth, zero_gamma=False, fancy=False, wide=False):
        super().__init__()
        self.zero_gamma = zero_gamma
        self.fancy = fancy
        self.wide = wide
        self.blocks = self._make(block, depth)

    def _make(self, block, depth):
        return nn.Sequential(
            *[
                block(3, zero_gamma=self.zero_gamma, fancy=self.fancy, wide=self.wide)
                for _ in range(depth)
            ]
        )

    def forward(self, x):
        return self.blocks(x)


def build(**kwargs):
    return Net(Block, 2, **kwargs)
"""


def _review(tmp_path: Path):
    root = tmp_path / "forwarded"
    root.mkdir()
    (root / "train.py").write_text(TRAIN)
    (root / "model.py").write_text(MODEL)
    return build_review(str(root), jobs=1)


def test_switches_a_keyword_dict_and_forwarded_parameters_leave_off_are_no_work(
    tmp_path: Path,
) -> None:
    review = _review(tmp_path)
    rows = {(r.name, r.where.line) for r in review.recipe}
    # INVALID: zeros_ under ``if zero_gamma:``, the dict's key set only with --zero-gamma
    assert not any(name.endswith("zeros_") for name, _ in rows)
    # VALID: ones_ under ``if wide:``, the dict's key set on in every run
    assert any(name.endswith("ones_") for name, _ in rows)
    # INVALID: the third-party conv under ``if fancy:``, which no caller passes
    assert not [i for i in review.work if "fancyconv" in i.what]


def test_the_same_switches_passed_on_keep_their_branches(tmp_path: Path) -> None:
    # VALID: the dict sets the key on in every run and a caller passes fancy=True
    root = tmp_path / "forwarded"
    root.mkdir()
    (root / "train.py").write_text(
        TRAIN.replace(
            'kwargs["wide"] = True', 'kwargs["wide"] = True\n    kwargs["zero_gamma"] = 1'
        )
    )
    (root / "model.py").write_text(
        MODEL.replace("Net(Block, 2, **kwargs)", "Net(Block, 2, fancy=True, **kwargs)")
    )
    review = build_review(str(root), jobs=1)
    assert any(r.name.endswith("zeros_") for r in review.recipe)
    assert [i for i in review.work if "fancyconv" in i.what]


def test_a_computed_callee_may_pass_any_functions_positional_flag(tmp_path: Path) -> None:
    # VALID: ``getattr(model, name)(True)`` may be ``build(zero_gamma=True)``: the branch
    # stays; INVALID: ``fancy``, which no call passes by position or keyword
    root = tmp_path / "computed"
    root.mkdir()
    (root / "train.py").write_text(
        TRAIN.replace("from model import build", "import model as models").replace(
            "model = build(**kwargs)", 'model = getattr(models, "build")(True)'
        )
    )
    (root / "model.py").write_text(
        MODEL.replace(
            "def build(**kwargs):\n    return Net(Block, 2, **kwargs)",
            "def build(zero_gamma=False):\n    return Net(Block, 2, zero_gamma=zero_gamma)",
        )
    )
    analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))[1]
    options = name_values(analyses).argparse.values()
    flags = defaulted_flags(analyses, options, switched_off_named(analyses, options)[1])
    (fa,) = [fa for fa in analyses if fa.path == "model.py"]
    defs = fa.syntax.values.defs
    told = {defs[i].qual: set(names) for i, names in flags["model.py"].items()}
    assert "zero_gamma" not in told.get("build", set())
    assert "zero_gamma" not in told["Block.__init__"]
    assert "fancy" in told["Block.__init__"]
