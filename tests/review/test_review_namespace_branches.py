"""A model picked from a module's namespace by the option's default (issue 20):
``modeling.__dict__[args.model]()`` with ``--model seg_a_small``. The module's other public
builders are entries the run does not pick, and the shared builders they all call branch on
the arguments each entry passes (``if backbone_name == "small": ... elif
backbone_name.startswith("wide"): ...``, ``if kind == "a": ... else: ...``, the kind handed
on from the caller's own parameter). A branch no running call takes keeps nothing: the wide
backbone and the second head are alternatives, not priced; what the picked entry builds
stays."""

from __future__ import annotations

import pytest
from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "nets/__init__.py": "",
    "nets/backbones.py": """
import torch.nn as nn


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x)


class Wide(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.conv(x))


def small():
    return Small()


def wide():
    return Wide()
""",
    "nets/modeling.py": """
import torch.nn as nn

from nets import backbones


class Seg(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = backbone
        self.head = head

    def forward(self, x):
        return self.head(self.backbone(x))


class HeadA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        return self.conv(x)


class HeadB(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2)
        self.conv = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        return self.conv(self.up(x))


def _make(kind, backbone):
    if kind == "a":
        head = HeadA()
    else:
        head = HeadB()
    return Seg(backbone, head)


def _load(kind, backbone_name):
    if backbone_name == "small":
        return _make(kind, backbones.small())
    elif backbone_name.startswith("wide"):
        return _make(kind, backbones.wide())
    raise NotImplementedError(backbone_name)


def seg_a_small():
    return _load("a", "small")


def seg_b_wide():
    return Seg(backbones.wide(), HeadB())
""",
    "train.py": """
import argparse

import torch

from nets import modeling

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="seg_a_small")
parser.add_argument("--lr", type=float, default=0.01)


def main():
    args = parser.parse_args()
    model = modeling.__dict__[args.model]()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    for _ in range(10):
        loss = model(torch.randn(2, 3, 32, 32)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
""",
}


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_review(str(write_repo(tmp_path_factory.mktemp("nsbranches"), FILES)))


def _alternatives(review) -> str:  # type: ignore[no-untyped-def]
    found = [s for s in review.effort.explanation if s.startswith("Alternatives the run")]
    return found[0] if found else ""


def test_the_other_entries_of_the_namespace_are_alternatives(review) -> None:
    assert "nets.modeling.seg_b_wide" in review.alternatives
    assert "nets.modeling.seg_a_small" not in review.alternatives
    (top,) = [
        t for t in review.top_models if t.cls == "nets.modeling.Seg" and t.where.path == "train.py"
    ]
    assert "seg_a_small" in dict(top.parts)["selected by"]


def test_branches_no_running_call_takes_keep_nothing(review) -> None:
    listed = _alternatives(review)
    # the wide backbone: built only in the ``elif`` the picked entry's literal skips
    assert "nets/backbones.py:Wide" in listed
    # the second head: only in the ``else`` the kind handed on from the entry skips
    assert "nets/modeling.py:HeadB" in listed
    # what the picked entry builds stays
    for kept in ("Small", "HeadA", "Seg", "_make", "_load"):
        assert f":{kept}," not in listed + "," and not listed.endswith(f":{kept}.")
    network = {g.api for g in review.gaps}
    assert "torch.nn.GELU" not in network and "torch.nn.Upsample" not in network


def test_a_call_passing_what_cannot_be_told_keeps_every_branch(tmp_path) -> None:  # type: ignore[no-untyped-def]
    files = dict(FILES)
    files["train.py"] = (
        FILES["train.py"]
        .replace(
            "model = modeling.__dict__[args.model]()",
            "model = modeling._load(args.kind, args.backbone)",
        )
        .replace(
            'parser.add_argument("--model", default="seg_a_small")',
            'parser.add_argument("--kind")\nparser.add_argument("--backbone")',
        )
    )
    review = build_review(str(write_repo(tmp_path, files)))
    listed = _alternatives(review)
    assert "Wide" not in listed and "HeadB" not in listed


def test_parts_handed_only_in_left_out_code_are_no_children(review) -> None:
    # the unpicked entry hands the same wrapper the wide backbone and the second head: the
    # wrapper the run builds holds the picked entry's parts alone
    (seg,) = [m for m in review.modules if m.cls == "nets.modeling.Seg"]
    assert "nets.backbones.Wide" not in seg.children
    assert "nets.modeling.HeadB" not in seg.children
