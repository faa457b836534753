"""A constructor that picks the class to build by a local bound in each branch of an ``if``
(``if net == "small": net_type = nets.small elif net == "big": net_type = nets.big`` then
``self.net = net_type(...)``) builds only the class of the branch the run's values take: the
other's pretrained backbone, its recipe row and its place in the model tree are no part of
the run. A demo building ``Metric(net="big")`` decides nothing, and neither does a launch
script handing on its own argument (``NET=${2}`` ... ``--net ${NET}``): the option's
default is the run's value."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.build import build_review
from apiscan.review.commands import launches

NETS = """import torch.nn as nn
from torchvision import models as tv


class big(nn.Module):
    def __init__(self, pretrained=True):
        super().__init__()
        self.body = nn.Sequential(*list(tv.vgg16(pretrained=pretrained).features))

    def forward(self, x):
        return self.body(x)


class small(nn.Module):
    def __init__(self, pretrained=True):
        super().__init__()
        self.body = nn.Sequential(*list(tv.alexnet(pretrained=pretrained).features))

    def forward(self, x):
        return self.body(x)
"""

METRIC = """import torch.nn as nn

from . import nets as pn


class Metric(nn.Module):
    def __init__(self, net="small"):
        super().__init__()
        if net == "small":
            net_type = pn.small
        elif net == "big":
            net_type = pn.big
        self.net = net_type(pretrained=True)
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        return self.head(self.net(x).mean((2, 3)))
"""

TRAIN = """import argparse

import torch

from pkg.metric import Metric

parser = argparse.ArgumentParser()
parser.add_argument("--net", type=str, default="small")
parser.add_argument("--epochs", type=int, default=10)
opt = parser.parse_args()

model = Metric(net=opt.net)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(opt.epochs):
    x = torch.randn(2, 3, 64, 64)
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""

DEMO = """import torch

from pkg.metric import Metric

loss_fn = Metric(net="big")
print(loss_fn(torch.randn(1, 3, 64, 64)))
"""


def _repo(root: Path, script: str | None) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "nets.py").write_text(NETS)
    (root / "pkg" / "metric.py").write_text(METRIC)
    (root / "train.py").write_text(TRAIN)
    (root / "demo_big.py").write_text(DEMO)
    if script is not None:
        (root / "scripts").mkdir()
        (root / "scripts" / "train_net.sh").write_text(script)
    return root


def _run(root: Path) -> tuple[list[str], dict[str, str], dict[str, tuple[str, ...]]]:
    review = build_review(str(root), jobs=1)
    backbones = [w.what for w in review.work if w.kind == "pretrained-backbone"]
    (top,) = [t for t in review.top_models if t.cls == "pkg.metric.Metric"]
    children = {m.cls: m.children for m in review.modules}
    return backbones, dict(top.parts), children


def test_only_the_taken_branch_class_is_built(tmp_path: Path) -> None:
    backbones, parts, children = _run(_repo(tmp_path / "repo", None))
    # VALID: the run's default builds ``small`` (alexnet); INVALID: ``big`` (vgg16), which
    # only the skipped branch and a demo build
    assert backbones == ["torchvision.models.alexnet(pretrained=pretrained)"]
    assert parts == {"net": "small (the branch the run's values take)"}
    assert children["pkg.metric.Metric"] == ("pkg.nets.small",)


def test_a_launch_handing_on_its_argument_tells_nothing(tmp_path: Path) -> None:
    script = "TRIAL=${1}\nNET=${2}\npython ./train.py --net ${NET} --epochs 3\n"
    root = _repo(tmp_path / "repo", script)
    (launch,) = launches(root, "train.py")
    assert launch.given(("--net",)) is None  # the caller's choice
    assert launch.given(("--epochs",)) == ("3",)  # still the script's own value
    backbones, _, _ = _run(root)
    assert backbones == ["torchvision.models.alexnet(pretrained=pretrained)"]


def test_a_launch_setting_the_option_picks_the_other_branch(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", "python ./train.py --net big --epochs 3\n")
    backbones, _, _ = _run(root)
    assert backbones == ["torchvision.models.vgg16(pretrained=pretrained)"]


def test_a_fallback_the_script_writes_stays(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", 'NET=${2:-big}\npython ./train.py --net "${2:-big}"\n')
    (launch,) = launches(root, "train.py")
    assert launch.given(("--net",)) == ("${2:-big}",)
