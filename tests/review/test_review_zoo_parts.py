"""A model whose parts a zoo builds by name (issue 20): a contrastive learner given the
constructor ``torchvision.models.__dict__[args.arch]`` (the option's default picks
``resnet50``) builds two encoders from it. No call names the architecture, yet the port needs
a MindSpore counterpart of it: one backbone item, at the model's construction."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import BACKBONE_ARCHITECTURE, work_label

FILES = {
    "learner/__init__.py": "",
    "learner/builder.py": """
import torch
import torch.nn as nn


class Contrast(nn.Module):
    def __init__(self, base_encoder, dim=128):
        super().__init__()
        self.encoder_q = base_encoder(num_classes=dim)
        self.encoder_k = base_encoder(num_classes=dim)
        self.head = nn.Linear(dim, dim)

    def forward(self, a, b):
        q = nn.functional.normalize(self.head(self.encoder_q(a)), dim=1)
        k = nn.functional.normalize(self.encoder_k(b), dim=1)
        return torch.einsum("nc,nc->n", q, k)
""",
    "main.py": """
import argparse

import torch
import torchvision.models as models

import learner.builder

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet50")
parser.add_argument("--lr", default=0.03, type=float)


def main():
    args = parser.parse_args()
    model = learner.builder.Contrast(models.__dict__[args.arch])
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    for _ in range(10):
        loss = -model(torch.randn(2, 3, 32, 32), torch.randn(2, 3, 32, 32)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
""",
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("zooparts"), FILES)))


def test_an_architecture_a_zoo_builds_by_name_is_a_backbone_item(review) -> None:
    (top,) = [t for t in review.top_models if t.cls == "learner.builder.Contrast"]
    assert [p for p, _ in top.parts][:2] == ["encoder_q", "encoder_k"]
    items = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert [i.what for i in items] == [
        "torchvision.models.resnet50 as Contrast.encoder_q, Contrast.encoder_k"
    ]
    (item,) = items
    assert [(w.path, w.line) for w in item.where] == [(top.where.path, top.where.line)]
    # built from scratch: the architecture alone, no weights to convert
    assert work_label(item) == BACKBONE_ARCHITECTURE
    assert "counterpart of that architecture" in item.why
    assert "pretrained weights" not in item.why
