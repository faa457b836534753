"""Work counted once: the classes of one architecture file of a model zoo that the
repository extends are one port of that architecture, not one item per class."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import BACKBONE_ARCHITECTURE, work_label

#: A network cut from torchvision's Inception-v3 whose blocks are torchvision's with their
#: pooling changed (four classes over three blocks of ``torchvision/models/inception.py``),
#: beside a class extending torchvision's VGG (another file) and one extending timm's ViT.
BLOCKS = """
import torch.nn.functional as F
import torchvision


class PatchedA(torchvision.models.inception.InceptionA):
    def _forward(self, x):
        return F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)


class PatchedC(torchvision.models.inception.InceptionC):
    def _forward(self, x):
        return F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)


class PatchedE1(torchvision.models.inception.InceptionE):
    def _forward(self, x):
        return F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)


class PatchedE2(torchvision.models.inception.InceptionE):
    def _forward(self, x):
        return F.max_pool2d(x, 3, 1, 1)
"""

NET = """
import torch
from torch import nn
import torchvision

from blocks import PatchedA, PatchedC, PatchedE1, PatchedE2


def build():
    net = torchvision.models.inception_v3(num_classes=10, aux_logits=False, weights=None)
    net.Mixed_5b = PatchedA(192, pool_features=32)
    net.Mixed_6b = PatchedC(768, channels_7x7=128)
    net.Mixed_7b = PatchedE1(1280)
    net.Mixed_7c = PatchedE2(2048)
    return net
"""

ONLY_BLOCKS = """
import torch
from torch import nn

from blocks import PatchedA, PatchedC, PatchedE1, PatchedE2


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = PatchedA(192, pool_features=32)
        self.c = PatchedC(768, channels_7x7=128)
        self.e = nn.Sequential(PatchedE1(1280), PatchedE2(2048))

    def forward(self, x):
        return self.e(self.c(self.a(x)))
"""

OTHERS = """
import timm
import torchvision


class SmallVGG(torchvision.models.vgg.VGG):
    pass


class TaggedViT(timm.models.vision_transformer.VisionTransformer):
    pass
"""

MAIN = """
import torch

from {module} import {builder}
import others


def main():
    net = {call}
    vgg = others.SmallVGG(torch.nn.Identity())
    vit = others.TaggedViT()
    print(net(torch.zeros(1, 3, 299, 299)), vgg, vit)


if __name__ == "__main__":
    main()
"""


def _backbones(tmp_path: Path, module: str, builder: str, call: str) -> list[tuple[str, str]]:
    files = {
        "blocks.py": BLOCKS,
        f"{module}.py": NET if module == "net" else ONLY_BLOCKS,
        "others.py": OTHERS,
        "main.py": MAIN.format(module=module, builder=builder, call=call),
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    return sorted((work_label(i), i.what) for i in review.work if i.kind == "pretrained-backbone")


def test_the_blocks_of_one_architecture_file_join_its_constructor(tmp_path: Path) -> None:
    items = _backbones(tmp_path, "net", "build", "build()")
    inception = [what for _, what in items if "Inception" in what]
    # VALID: one item for torchvision's inception.py: the constructor with the four classes
    assert inception == [
        "torchvision.models.inception_v3 with torchvision.models.InceptionA | InceptionC | "
        "InceptionE extended by PatchedA, PatchedC, PatchedE1, PatchedE2"
    ]
    # INVALID: classes of other files stay items of their own (VGG's file, timm's ViT)
    assert (BACKBONE_ARCHITECTURE, "torchvision.models.VGG (extended by SmallVGG)") in items
    assert any("VisionTransformer (extended by TaggedViT)" in what for _, what in items)
    assert len(items) == 3


def test_the_extended_blocks_alone_are_one_architecture(tmp_path: Path) -> None:
    items = _backbones(tmp_path, "model", "Net", "Net()")
    inception = [(label, what) for label, what in items if "Inception" in what]
    assert inception == [
        (
            BACKBONE_ARCHITECTURE,
            "torchvision.models.InceptionA | InceptionC | InceptionE "
            "(extended by PatchedA, PatchedC, PatchedE1, PatchedE2)",
        )
    ]
    assert len(items) == 3


def test_a_dataset_reading_its_label_cache_back_loads_no_checkpoint(tmp_path: Path) -> None:
    """``torch.load`` of the label cache a dataset's ``__init__`` wrote on a first run is data
    (INVALID checkpoint); the training script's ``torch.load`` of its weights is the one
    checkpoint site (VALID)."""
    files = {
        "data.py": """
            import os

            import numpy as np
            import torch
            from torch.utils.data import Dataset


            class Labelled(Dataset):
                def __init__(self, files):
                    self.files = files
                    cache_path = os.path.dirname(files[0]) + ".cache"
                    if os.path.isfile(cache_path):
                        cache = torch.load(cache_path)
                    else:
                        cache = {f: np.loadtxt(f) for f in files}
                        torch.save(cache, cache_path)
                    self.labels = list(cache.values())

                def __len__(self):
                    return len(self.files)

                def __getitem__(self, i):
                    return torch.from_numpy(self.labels[i])
        """,
        "train.py": """
            import sys

            import torch
            from torch import nn
            from torch.utils.data import DataLoader

            from data import Labelled


            def main(weights):
                net = nn.Linear(5, 1)
                net.load_state_dict(torch.load(weights)["model"])
                opt = torch.optim.SGD(net.parameters(), lr=0.01)
                for x in DataLoader(Labelled(sys.argv[2:]), batch_size=4):
                    loss = net(x.float()).mean()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()


            if __name__ == "__main__":
                main(sys.argv[1])
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    (item,) = [i for i in review.work if i.kind == "checkpoint"]
    assert [str(w) for w in item.where] == ["train.py:12"]


DATA = """
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Boxes(Dataset):
    def __init__(self, labels, rect=False):
        self.labels = labels
        self.rect = rect

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        labels = torch.from_numpy(self.labels[i])
        out = torch.zeros(len(labels), 6)
        out[:, 1:] = labels
        return torch.zeros(3, 64, 64), out

    @staticmethod
    def collate_fn(batch):
        img, label = zip(*batch)
        for i, l in enumerate(label):
            l[:, 0] = i
        return torch.stack(img, 0), torch.cat(label, 0)


class Boxes2(Boxes):
    @staticmethod
    def collate_fn(batch):
        img, label = zip(*batch)
        for i, l in enumerate(label):
            l[:, 0] = i
        return torch.stack(img, 0), torch.cat(label, 0)


def create_loader(labels, batch_size, rect=False):
    dataset = Boxes(labels, rect=rect)
    return DataLoader(dataset, batch_size=batch_size, collate_fn=Boxes.collate_fn)


def create_loader2(labels, batch_size, rect=False):
    dataset = Boxes2(labels, rect=rect)
    return DataLoader(dataset, batch_size=batch_size, collate_fn=Boxes2.collate_fn)
"""

TRAIN = """
import argparse

import numpy as np
import torch
from torch import nn

from data import {loader} as create_loader
import test


def train(opt):
    model = nn.Conv2d(3, 8, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    labels = [np.zeros((2, 5), dtype=np.float32)] * 8
    loader = create_loader(labels, opt.batch_size)
    val_loader = create_loader(labels, opt.batch_size, rect=True)
    for epoch in range(opt.epochs):
        for imgs, targets in loader:
            loss = model(imgs).mean() + targets.sum() * 0
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        test.test(model, val_loader)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=3)
    train(parser.parse_args())
"""

TEST = """
import argparse

import numpy as np
import torch

from data import create_loader


def test(model, loader=None):
    if loader is None:
        labels = [np.zeros((2, 5), dtype=np.float32)] * 8
        loader = create_loader(labels, 4, rect=True)
    with torch.no_grad():
        for imgs, _ in loader:
            print(model(imgs).mean())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", default="last.pt")
    model = torch.load(parser.parse_args().weights)["model"]
    test(model)
"""


def test_one_pipeline_per_loader_and_dataset_the_training_runs(tmp_path: Path) -> None:
    """The training's validation loader and the evaluation script's are one builder called
    with ``rect=True`` (one pipeline); a copy of the training script under another name
    that imports another loader is a variant of it, and the dataset only that copy builds
    is no pipeline of its own (INVALID items); the training's own collate is (VALID)."""
    files = {
        "data.py": DATA,
        "train.py": TRAIN.format(loader="create_loader"),
        "tune.py": TRAIN.format(loader="create_loader2"),
        "test.py": TEST,
        # the training is the documented entry; the copy is launched after it, to fine-tune
        "README.md": (
            "Train:\n\n```bash\npython train.py --batch-size 8\n```\n\n"
            "Multi-GPU:\n\n```bash\ntorchrun --nproc_per_node 8 train.py --batch-size 64\n```\n\n"
            "Fine-tune:\n\n```bash\npython tune.py --epochs 10\n```\n"
        ),
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    assert ("tune.py", "variant of train.py") in review.ancillary
    pipelines = next(e for e in review.effort.explanation if "input pipelines" in e)
    assert pipelines.startswith("2 input pipelines")
    assert "train.py:train (rect=True, line 16; also test.py:test line 12)" in pipelines
    assert "data.py:Boxes.collate_fn" in pipelines
    assert "Boxes2" not in pipelines and "tune.py" not in pipelines


def test_a_wrappers_star_args_is_no_pretrained_flag(tmp_path: Path) -> None:
    """``inception_v3(*args, **kwargs)`` in a wrapper its caller gives ``weights=None`` builds
    the architecture alone, and the weights come from the release URL loaded after it (the
    legacy torchvision spelling of ``load_state_dict_from_url``): an architecture item and a
    checkpoint item (VALID), no pretrained torchvision weights (INVALID); a positional
    ``True`` is still a pretrained backbone (VALID)."""
    files = {
        "net.py": """
            import torchvision

            try:
                from torchvision.models.utils import load_state_dict_from_url
            except ImportError:
                from torch.utils.model_zoo import load_url as load_state_dict_from_url

            WEIGHTS_URL = "https://example.org/releases/net_weights-1234.pth"


            def _inception(*args, **kwargs):
                return torchvision.models.inception_v3(*args, **kwargs)


            def build():
                net = _inception(num_classes=1008, aux_logits=False, weights=None)
                net.load_state_dict(load_state_dict_from_url(WEIGHTS_URL, progress=True))
                return net


            def build_other():
                return torchvision.models.resnet50(True)
        """,
        "main.py": """
            import torch

            from net import build, build_other


            if __name__ == "__main__":
                with torch.no_grad():
                    x = torch.zeros(1, 3, 299, 299)
                    print(build()(x), build_other()(x))
        """,
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    items = sorted((work_label(i), i.what) for i in review.work)
    assert (BACKBONE_ARCHITECTURE, "torchvision.models.inception_v3") in items
    assert ("Pretrained backbone", "torchvision.models.resnet50(pretrained=True)") in items
    assert not any("pretrained=*args" in what for _, what in items)
    (checkpoint,) = [i for i in review.work if i.kind == "checkpoint"]
    assert checkpoint.what == "torchvision.models.utils.load_state_dict_from_url"
    assert [str(w) for w in checkpoint.where] == ["net.py:17"]
