"""One loader of released weights with two branches (a local copy or the download) is one
conversion, not a download plus a second checkpoint to convert."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

MODEL = """
import torch
from torch import nn
from torch.utils import model_zoo

url_map = {{"net-b0": "https://example.org/releases/net-b0-355c32eb.pth"}}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x)

    @classmethod
    def from_pretrained(cls, weights_path=None):
        model = cls()
        load_pretrained_weights(model, "net-b0", weights_path)
        return model


def load_pretrained_weights(model, model_name, weights_path=None):
    if isinstance(weights_path, str):
        state_dict = torch.load(weights_path)
    else:
        state_dict = model_zoo.load_url(url_map[model_name])
    model.load_state_dict(state_dict, strict=False)
{resume}
"""

RESUME = """

def resume(model, path):
    model.load_state_dict(torch.load(path)["model"])
"""

TRAIN = """
import torch
from model import Net, resume


def main():
    net = Net.from_pretrained()
    {call}
    print(net(torch.zeros(1, 3, 8, 8)))


if __name__ == "__main__":
    main()
"""


def _weights(tmp_path: Path, resume: bool) -> list[tuple[str, list[int]]]:
    files = {
        "model.py": MODEL.format(resume=RESUME if resume else ""),
        "train.py": TRAIN.format(call='resume(net, "last.pth")' if resume else "pass"),
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    return [
        (i.kind, sorted(w.line for w in i.where))
        for i in review.work
        if i.kind in ("pretrained-backbone", "checkpoint")
    ]


def test_the_local_branch_of_a_download_is_the_same_conversion(tmp_path: Path) -> None:
    # torch.load (line 25) and load_url (line 27) of one loader: one item, both places
    assert _weights(tmp_path, resume=False) == [("pretrained-backbone", [25, 27])]


def test_a_checkpoint_loaded_elsewhere_stays_its_own_item(tmp_path: Path) -> None:
    # INVALID: a resume function's torch.load is the training's own checkpoint
    items = _weights(tmp_path, resume=True)
    assert ("pretrained-backbone", [25, 27]) in items
    assert ("checkpoint", [32]) in items


EXAMPLE = """
import argparse

import torch
from model import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--weights", default="")
    args = parser.parse_args()
    net = Net.from_pretrained()
    if args.resume:
        net.load_state_dict(torch.load(args.resume)["state_dict"])
    {released}
    torch.save({{"state_dict": net.state_dict()}}, "checkpoint.pth")


if __name__ == "__main__":
    main()
"""


def _example_weights(tmp_path: Path, released: str) -> list[tuple[str, str, list[int]]]:
    files = {
        "model.py": MODEL.format(resume=""),
        "train.py": TRAIN.format(call="pass"),
        "examples/imagenet/main.py": EXAMPLE.format(released=released),
    }
    review = build_review(str(write_repo(tmp_path, files)), jobs=1)
    return [
        (i.kind, i.where[0].path, sorted(w.line for w in i.where))
        for i in review.work
        if i.kind in ("pretrained-backbone", "checkpoint")
    ]


def test_an_examples_resume_is_no_released_checkpoint(tmp_path: Path) -> None:
    # an example's training resumes from the file it saves itself: nothing released
    assert _example_weights(tmp_path, "pass") == [("pretrained-backbone", "model.py", [25, 27])]


def test_an_examples_released_weights_stay_a_checkpoint(tmp_path: Path) -> None:
    # INVALID: the example loads weights given by another option: released ones to convert
    items = _example_weights(tmp_path, "net.load_state_dict(torch.load(args.weights))")
    assert ("checkpoint", "examples/imagenet/main.py", [15]) in items
