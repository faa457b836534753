"""A builder's branch picked by a parameter the running calls hand by position (``Backbone(
args.backbone, True)`` with ``--backbone`` defaulting to 'vgg11_bn', then ``if name ==
'vgg11_bn': ... elif name == 'vgg11':``): the other branch's architecture does not run, so
the pretrained weights item names only the one the run loads. A parameter some running
call hands an unknown value stays open (both branches)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

NETS = """
import torch
import torch.nn as nn

model_paths = {
    'vgg11': '/checkpoints/vgg11-397923af.pth',
    'vgg11_bn': '/checkpoints/vgg11_bn-6c64b313.pth',
}


class Small(nn.Module):
    def __init__(self, bn=False):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8) if bn else nn.ReLU())

    def forward(self, x):
        return self.features(x)


def _make_vgg(arch, bn, pretrained):
    model = Small(bn)
    if pretrained:
        model.load_state_dict(torch.load(model_paths[arch]))
    return model


def vgg11(pretrained=False):
    return _make_vgg('vgg11', False, pretrained)


def vgg11_bn(pretrained=False):
    return _make_vgg('vgg11_bn', True, pretrained)
"""

BACKBONE = """
import torch.nn as nn
import models.nets as nets


class Backbone(nn.Module):
    def __init__(self, name, train_backbone):
        super().__init__()
        if name == 'vgg11_bn':
            self.body = nets.vgg11_bn(pretrained=True)
        elif name == 'vgg11':
            self.body = nets.vgg11(pretrained=True)

    def forward(self, x):
        return self.body(x)


def build_backbone(args):
    return Backbone(args.backbone, True)


if __name__ == '__main__':
    Backbone('vgg11', True)
"""

TRAIN = """
import argparse
import torch
from models.backbone import build_backbone


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--backbone', default='vgg11_bn', type=str)
    parser.add_argument('--lr', default=1e-4, type=float)
    args = parser.parse_args()
    model = build_backbone(args)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for _ in range(10):
        loss = model(torch.randn(2, 3, 8, 8)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == '__main__':
    main()
"""


def _weights(root: Path) -> list[str]:
    return [i.what for i in build_review(str(root)).work if i.kind == "pretrained-backbone"]


def test_a_positional_option_value_picks_the_branch(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "models/__init__.py": "",
            "models/nets.py": NETS,
            "models/backbone.py": BACKBONE,
            "train.py": TRAIN,
        },
    )
    # VALID: the 'vgg11_bn' branch the default takes; INVALID: 'vgg11' (only the module's
    # self-test under ``__main__`` builds it)
    assert _weights(tmp_path) == [
        "pretrained weights loaded by architecture name: _make_vgg('vgg11_bn')"
    ]


def test_a_parameter_given_an_unknown_value_stays_open(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "models/__init__.py": "",
            "models/nets.py": NETS,
            "models/backbone.py": BACKBONE.replace(
                "return Backbone(args.backbone, True)",
                "return Backbone(args.backbone.split('-')[0], True)",
            ),
            "train.py": TRAIN,
        },
    )
    [what] = _weights(tmp_path)
    assert "_make_vgg('vgg11')" in what and "_make_vgg('vgg11_bn')" in what


def test_a_value_lower_cased_on_the_way_keeps_its_pick(tmp_path: Path) -> None:
    # ``args.backbone.lower()``: the default's value, lower-cased: still the one branch
    write_repo(
        tmp_path,
        {
            "models/__init__.py": "",
            "models/nets.py": NETS,
            "models/backbone.py": BACKBONE.replace(
                "return Backbone(args.backbone, True)",
                "return Backbone(args.backbone.lower(), True)",
            ),
            "train.py": TRAIN,
        },
    )
    assert _weights(tmp_path) == [
        "pretrained weights loaded by architecture name: _make_vgg('vgg11_bn')"
    ]
