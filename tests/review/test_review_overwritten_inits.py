"""The initialisers of an architecture that its builder then fills with pretrained weights (a
copied torchvision builder: ``Net(...)`` then ``load_state_dict`` of the released file) set
nothing the training starts from: their rows say the weights replace them. A network's own
head, built and initialised where no weights are loaded, keeps its rows as they were."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

BACKBONE = """
import torch
import torch.nn as nn
from torch.hub import load_state_dict_from_url

model_urls = {"net11": "https://example.org/net11-0000.pth"}


class Net(nn.Module):
    def __init__(self, init_weights=True):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        if init_weights:
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")


def _net(arch, pretrained, **kwargs):
    if pretrained:
        kwargs["init_weights"] = False
    model = Net(**kwargs)
    if pretrained:
        state_dict = load_state_dict_from_url(model_urls[arch])
        model.load_state_dict(state_dict)
    return model


def net11(pretrained=False):
    return _net("net11", pretrained)
"""

MODEL = """
import torch.nn as nn
from backbone import net11


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = nn.Conv2d(8, 2, 1)
        nn.init.normal_(self.out.weight, std=0.01)

    def forward(self, x):
        return self.out(x)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = net11(pretrained=True)
        self.head = Head()

    def forward(self, x):
        return self.head(self.backbone.conv(x))
"""

TRAIN = """
import torch
from model import Model


def main():
    model = Model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(10):
        loss = model(torch.randn(2, 3, 16, 16)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""


def test_initialisers_the_pretrained_weights_replace_are_told_so(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path / "repo", {"backbone.py": BACKBONE, "model.py": MODEL, "train.py": TRAIN}
    )
    review = build_review(str(root))
    assert [i.kind for i in review.work if i.kind == "pretrained-backbone"]
    inits = {r.name: r for r in review.recipe if r.category == "init"}
    kaiming = inits["torch.nn.init.kaiming_normal_"]
    assert "overwritten: the pretrained weights loaded at backbone.py:" in kaiming.note
    # the head's own initialiser runs on weights nobody loads: unchanged
    assert "overwritten" not in inits["torch.nn.init.normal_"].note


def test_a_non_strict_load_replaces_only_what_the_checkpoint_holds(tmp_path: Path) -> None:
    # a detector built around the backbone's architecture, its ImageNet weights loaded with
    # strict=False: the heads the checkpoint lacks keep their initialisers' values
    partial = BACKBONE.replace(
        "model.load_state_dict(state_dict)", "model.load_state_dict(state_dict, strict=False)"
    )
    assert partial != BACKBONE
    root = write_repo(
        tmp_path / "repo", {"backbone.py": partial, "model.py": MODEL, "train.py": TRAIN}
    )
    review = build_review(str(root))
    kaiming = next(r for r in review.recipe if r.name == "torch.nn.init.kaiming_normal_")
    assert "partly overwritten: the pretrained weights loaded at backbone.py:" in kaiming.note
    assert "(strict=False)" in kaiming.note
    assert "start as set here" in kaiming.note
