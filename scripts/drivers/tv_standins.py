"""Pure-torch stand-ins for torchvision's compiled operators, so that its detection models run
(and can be traced) on a CPU torch its wheel's C++ extension does not load against.

Only the operators the detection models reach are given: ``torchvision::nms`` (and ``qnms``,
which torchvision's fake-tensor registrations name at import time) as a greedy NMS registered
under the operator's own name, so ``torchvision.ops.nms`` keeps calling
``torch.ops.torchvision.nms`` from its own line; and roi_align through torchvision's own
pure-Python ``_roi_align`` (its reference implementation, taken out of ``torch.compile``, with
a fixed sampling grid).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import torch

_LIBRARY: list[Any] = []  # keeps the operator definitions alive


def greedy_nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    """Indices of the boxes kept, by descending score: each drops the later ones that overlap
    it more than `iou_threshold` (what ``torchvision.ops.nms`` returns). The pairwise overlaps
    are one torch computation; the greedy pass runs in numpy, away from the tracer's hooks."""
    import numpy as np

    with torch.no_grad():
        order = scores.argsort(descending=True)
        b = boxes[order]
        area = (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)
        lt = torch.maximum(b[:, None, :2], b[None, :, :2])
        rb = torch.minimum(b[:, None, 2:], b[None, :, 2:])
        inter = (rb - lt).clamp(min=0).prod(dim=2)
        iou = (inter / (area[:, None] + area[None, :] - inter).clamp(min=1e-9)).numpy()
    over = iou > iou_threshold
    removed = np.zeros(len(over), dtype=bool)
    keep = []
    for i in range(len(over)):
        if not removed[i]:
            keep.append(i)
            removed |= over[i]
    return order[torch.as_tensor(keep, dtype=torch.long)]


def register_ops() -> None:
    """Define ``torchvision::nms`` and ``torchvision::qnms`` with the greedy NMS as their CPU
    kernel (before ``import torchvision``, whose fake registrations need them to exist)."""
    if _LIBRARY:
        return
    lib = torch.library.Library("torchvision", "DEF")
    for name in ("nms", "qnms"):
        lib.define(f"{name}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        lib.impl(name, greedy_nms, "CPU")
    _LIBRARY.append(lib)


def _ops_present() -> None:
    """``_assert_has_ops`` once the operators exist (a function TorchScript can compile)."""


def import_torchvision(root: str | None = None) -> Any:
    """Import torchvision from `root` (default: the working directory, an unpacked wheel) with
    the stand-ins in place."""
    register_ops()
    sys.path.insert(0, root or os.getcwd())
    import torchvision
    import torchvision.ops.boxes

    roi_align = sys.modules["torchvision.ops.roi_align"]  # the package re-exports a function
    torchvision.ops.boxes._assert_has_ops = _ops_present
    pure = getattr(roi_align._roi_align, "__wrapped__", roi_align._roi_align)

    def eager_roi_align(input, rois, scale, height, width, sampling_ratio, aligned):  # type: ignore[no-untyped-def]
        # eager, not torch.compile (no compiler under a tracer); an adaptive sampling grid
        # (ratio <= 0) is sized there by the whole feature map, hundreds of millions of
        # elements for Mask R-CNN's mask targets: 2 points per bin give the same shapes
        ratio = sampling_ratio if sampling_ratio > 0 else 2
        return pure(input, rois, scale, height, width, ratio, aligned)

    roi_align._roi_align = eager_roi_align
    return torchvision
