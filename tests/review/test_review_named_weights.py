"""Released backbone weights a repository's own loader reads from a file picked by the
architecture's name (``_vgg('vgg16', ...)`` → ``torch.load(model_paths[arch])``): a
pretrained backbone to convert, said to be loaded by name, not downloaded by URL."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

VGG = """
import torch
import torch.nn as nn

model_paths = {"vgg16": "/weights/vgg16-397923af.pth"}


class VGG(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, width, 3), nn.ReLU())

    def forward(self, x):
        return self.features(x)


def _vgg(arch, pretrained):
    model = VGG(8)
    if pretrained:
        state_dict = torch.load(model_paths[arch])
        model.load_state_dict(state_dict)
    return model


def vgg16(pretrained=False):
    return _vgg("vgg16", pretrained)
"""

TRAIN = """
import torch
import torch.nn as nn
import vgg


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = vgg.vgg16(pretrained=True)
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(1, 3, 8, 8)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def test_weights_picked_by_architecture_name_are_loaded_not_downloaded(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path / "named", {"vgg.py": VGG, "train.py": TRAIN})))
    items = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert [i.what for i in items] == [
        'pretrained weights loaded by architecture name: _vgg("vgg16")'
    ]
    assert "read from a file by its own function" in items[0].why
    assert "URL" not in items[0].what
