"""Parameters a call really passes that MindSpore rejects: an integer ``scale_factor`` to
``Upsample``/``interpolate`` (measured: ``mint.nn.Upsample(scale_factor=2)`` raises, ``2.0``
runs; the mapping table calls the row consistent), and ``antialias=True``, which MindSpore's
interpolate lacks. A float, a computed value and a harmless literal are no work."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review
from apiscan.review.model import Review, WorkItem
from apiscan.verify.catalogue import float_only

NET = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, width, scale=2):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.up_float = nn.Upsample(scale_factor=2.0, mode="nearest")
        self.up_named = nn.Upsample(scale_factor=scale, mode="nearest")
        self.proj = nn.Conv2d(width, width, 1)

    def forward(self, x, level):
        y = self.up(self.proj(x)) + self.up_float(x) + self.up_named(x)
        y = F.interpolate(y, scale_factor=2 ** level, mode="nearest")
        z = F.interpolate(y, None, 4, "nearest")
        return F.interpolate(z, size=(8, 8), mode="bilinear", antialias=True, align_corners=False)
"""

TRAIN = """
import torch
from net import Decoder

model = Decoder(4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(1, 4, 8, 8), 1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


@cache
def _review(root: str) -> Review:
    return build_review(root)


def _params(tmp_path: Path) -> list[WorkItem]:
    root = write_repo(tmp_path / "up", {"net.py": NET, "train.py": TRAIN})
    return [i for i in _review(str(root)).work if i.kind == "unsupported-param"]


def test_the_catalogue_records_float_only_scale_factors() -> None:
    assert float_only("torch.nn.Upsample") == ("scale_factor",)
    assert float_only("torch.nn.functional.interpolate") == ("scale_factor",)
    assert float_only("torch.nn.Conv2d") == ()


def test_integer_scale_factors_are_work_and_floats_or_computed_values_are_not(
    tmp_path: Path,
) -> None:
    """``scale_factor=2`` literally and through ``scale=2`` (VALID), positionally to
    interpolate (VALID); ``2.0`` and ``2 ** level`` are not claimed (INVALID)."""
    items = {i.what: i for i in _params(tmp_path)}
    upsample = items["torch.nn.Upsample(scale_factor=2 | scale)"]
    assert [w.line for w in upsample.where] == [9, 11]
    assert "only as a float" in upsample.why and "measured" in upsample.why
    interpolate = items["torch.nn.functional.interpolate(scale_factor=4)"]
    assert [w.line for w in interpolate.where] == [17]
    assert "scale_factor=4.0, not 4" in interpolate.why
    assert not any("2 ** level" in what or "2.0" in what for what in items)


def test_antialias_true_is_an_unsupported_parameter(tmp_path: Path) -> None:
    items = [i for i in _params(tmp_path) if "antialias" in i.what]
    assert [(i.what, [w.line for w in i.where]) for i in items] == [
        ("torch.nn.functional.interpolate(antialias=True)", [18])
    ]
