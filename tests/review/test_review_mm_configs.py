"""A repository built on a config-driven framework (issue 20 items 1, 3, 4 and 5): its own
package is written with the framework's layers, registers its networks by name and is
trained by the framework's runner from a Python dict config that the README's training
command passes as the script's only argument. The documented config is the run's (its
optimizer, not the shortest-named config's); the framework is what the repository is built
on, not an adapter counted apart; the registry entries the config does not name are
alternatives; the framework's Python layers are no compiled ops, its runner is training
machinery to replace."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review

_REGISTRY = """
from mmcv.utils import Registry

BACKBONES = Registry('backbone')
HEADS = Registry('head')
SEGMENTORS = Registry('segmentor')


def build_backbone(cfg):
    return BACKBONES.build(cfg)


def build_head(cfg):
    return HEADS.build(cfg)


def build_segmentor(cfg):
    return SEGMENTORS.build(cfg)
"""

_BACKBONES = """
import torch.nn as nn
from mmcv.cnn import ConvModule

from .registry import BACKBONES


@BACKBONES.register_module()
class TinyNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.stem = ConvModule(3, width, 3, padding=1)
        self.conv = nn.Conv2d(width, width, 3, padding=1)

    def forward(self, x):
        return self.conv(self.stem(x))


@BACKBONES.register_module()
class BigNet(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.convs = nn.Sequential(*[nn.Conv2d(width, width, 3, padding=1) for _ in range(8)])
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(7)

    def forward(self, x):
        return self.pool(self.convs(self.stem(x)))
"""

_HEADS = """
import torch.nn as nn
import torch.nn.functional as F
from mmcv.ops import point_sample

from .registry import HEADS


@HEADS.register_module()
class SegHead(nn.Module):
    def __init__(self, in_channels=16, num_classes=4):
        super().__init__()
        self.cls = nn.Conv2d(in_channels, num_classes, 1)

    def forward(self, x):
        return self.cls(x)

    def loss(self, logits, target):
        return F.cross_entropy(logits, target, ignore_index=255)


@HEADS.register_module()
class PointHead(nn.Module):
    def __init__(self, in_channels=64, num_classes=4):
        super().__init__()
        self.fc = nn.Conv1d(in_channels, num_classes, 1)

    def forward(self, x, points):
        return self.fc(point_sample(x, points))
"""

_SEGMENTOR = """
import torch.nn as nn

from .registry import SEGMENTORS, build_backbone, build_head


@SEGMENTORS.register_module()
class Segmentor(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = build_backbone(backbone)
        self.head = build_head(head)

    def forward(self, img, target=None):
        logits = self.head(self.backbone(img))
        if target is None:
            return logits
        return self.head.loss(logits, target)
"""

_APIS = """
from mmcv.parallel import MMDataParallel
from mmcv.runner import build_optimizer, build_runner


def train_model(model, dataset, cfg):
    model = MMDataParallel(model.cuda(), device_ids=[0])
    optimizer = build_optimizer(model, cfg.optimizer)
    runner = build_runner(cfg.runner, default_args=dict(model=model, optimizer=optimizer))
    runner.register_training_hooks(cfg.lr_config, cfg.optimizer_config)
    runner.run([dataset], cfg.workflow)
"""

_TRAIN = """
import argparse

from mmcv import Config

from seglib.apis import train_model
from seglib.registry import build_segmentor


def parse_args():
    parser = argparse.ArgumentParser(description='Train a segmentor')
    parser.add_argument('config', help='train config file path')
    parser.add_argument('--work-dir', help='the dir to save logs and models')
    return parser.parse_args()


def main():
    args = parse_args()
    cfg = Config.fromfile(args.config)
    model = build_segmentor(cfg.model)
    train_model(model, None, cfg)


if __name__ == '__main__':
    main()
"""


def _config(backbone: str, head: str, lr: float) -> str:
    return f"""
model = dict(
    type='Segmentor',
    backbone=dict(type='{backbone}'),
    head=dict(type='{head}', num_classes=4))
optimizer = dict(type='AdamW', lr={lr}, weight_decay=0.01)
optimizer_config = dict()
lr_config = dict(policy='poly', power=1.0, min_lr=0.0, by_epoch=False)
runner = dict(type='IterBasedRunner', max_iters=160000)
"""


_README = """
# seglib

Train:

```
python tools/train.py configs/seg/tiny_net_512x512_160k.py
```
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> Review:
    root = write_repo(
        tmp_path_factory.mktemp("mm") / "repo",
        {
            "README.md": _README,
            "seglib/__init__.py": "",
            "seglib/registry.py": _REGISTRY,
            "seglib/backbones.py": _BACKBONES,
            "seglib/heads.py": _HEADS,
            "seglib/segmentor.py": _SEGMENTOR,
            "seglib/apis.py": _APIS,
            "tools/train.py": _TRAIN,
            # the shortest-named config is not the one the README trains
            "configs/big.py": _config("BigNet", "PointHead", 0.01),
            "configs/seg/tiny_net_512x512_160k.py": _config("TinyNet", "SegHead", 6e-5),
        },
    )
    return build_review(str(root), jobs=1)


def test_the_documented_config_is_the_runs(review: Review) -> None:
    optimizers = [r for r in review.recipe if r.category == "optimizer"]
    assert [r.where.path for r in optimizers] == ["configs/seg/tiny_net_512x512_160k.py"]
    assert dict(optimizers[0].values)["lr"] == "6e-05"
    assert "README.md" in optimizers[0].note


def test_the_framework_is_built_on_not_adapted_to(review: Review) -> None:
    apart = dict(review.ancillary)
    assert not [p for p in apart if p.startswith("seglib/")], apart


def test_registry_entries_the_config_leaves_out_are_alternatives(review: Review) -> None:
    assert "seglib.backbones.BigNet" in review.alternatives
    assert "seglib.heads.PointHead" in review.alternatives
    assert "seglib.backbones.TinyNet" not in review.alternatives


def test_python_layers_are_no_compiled_ops_and_the_runner_is_machinery(review: Review) -> None:
    # mmcv.cnn.ConvModule is Python; mmcv.ops.point_sample only the unpicked head uses
    libraries = [i for i in review.work if i.kind == "op-library"]
    assert not [i for i in libraries if "ConvModule" in i.what], libraries
    machinery = [i for i in review.work if i.kind == "training-library"]
    assert any("mmcv.runner.build_runner" in i.what for i in machinery)


def test_a_framework_the_repository_holds_gives_no_framework_item(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # the repository ships the framework's package itself (a fork of the segmentation
    # toolbox): its base classes are scanned code, not a framework to port apart
    root = write_repo(
        tmp_path_factory.mktemp("mmfork") / "repo",
        {
            "README.md": _README,
            "mmseg/__init__.py": "",
            "mmseg/base.py": "import torch.nn as nn\n\n\nclass BaseSegmentor(nn.Module):\n"
            "    def forward(self, img):\n        return self.encode(img)\n",
            "mmseg/segmentor.py": "import torch.nn as nn\n\nfrom mmseg.base import BaseSegmentor\n"
            "\n\nclass Segmentor(BaseSegmentor):\n    def __init__(self):\n        super()."
            "__init__()\n        self.conv = nn.Conv2d(3, 4, 1)\n\n    def encode(self, img):\n"
            "        return self.conv(img)\n",
            "tools/train.py": "import argparse\n\nfrom mmcv import Config\n\nfrom mmseg.segmentor"
            " import Segmentor\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('config')\n    cfg = Config.fromfile(parser.parse_args()"
            ".config)\n    model = Segmentor()\n    print(cfg, model)\n\n\nif __name__ == "
            "'__main__':\n    main()\n",
            "configs/seg/tiny_net_512x512_160k.py": _config("TinyNet", "SegHead", 6e-5),
        },
    )
    review = build_review(str(root), jobs=1)
    assert not [i for i in review.work if i.kind == "framework-network"]
