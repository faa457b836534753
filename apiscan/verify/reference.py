"""Pure-PyTorch references for torchvision ops, the torch side of composition micro-tests.

torchvision's compiled ops (``nms``) do not load on every torch build, and apiscan must not
need torchvision installed; these follow torchvision's documented definitions (greedy NMS that
suppresses a box whose IoU with a kept one is above the threshold; ``batched_nms`` per
category). Only the verification child imports this module.
"""

from __future__ import annotations

import torch


def box_area(boxes: torch.Tensor) -> torch.Tensor:
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def _inter_union(b1: torch.Tensor, b2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    lt = torch.max(b1[:, None, :2], b2[:, :2])
    rb = torch.min(b1[:, None, 2:], b2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter, box_area(b1)[:, None] + box_area(b2) - inter


def box_iou(b1: torch.Tensor, b2: torch.Tensor) -> torch.Tensor:
    inter, union = _inter_union(b1, b2)
    return inter / union


def generalized_box_iou(b1: torch.Tensor, b2: torch.Tensor) -> torch.Tensor:
    inter, union = _inter_union(b1, b2)
    lti = torch.min(b1[:, None, :2], b2[:, :2])
    rbi = torch.max(b1[:, None, 2:], b2[:, 2:])
    whi = (rbi - lti).clamp(min=0)
    areai = whi[:, :, 0] * whi[:, :, 1]
    return inter / union - (areai - union) / areai


def nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    """Greedy NMS, kept indices by decreasing score (torchvision's contract)."""
    order = torch.argsort(scores, descending=True, stable=True)
    iou = box_iou(boxes, boxes)
    suppressed = torch.zeros(len(boxes), dtype=torch.bool)
    keep = []
    for i in order.tolist():
        if suppressed[i]:
            continue
        keep.append(i)
        suppressed |= iou[i] > iou_threshold
    return torch.tensor(keep, dtype=torch.int64)


def batched_nms(
    boxes: torch.Tensor, scores: torch.Tensor, idxs: torch.Tensor, iou_threshold: float
) -> torch.Tensor:
    """NMS within each category independently (no coordinate trick: the definition)."""
    keep = torch.zeros(len(boxes), dtype=torch.bool)
    for category in torch.unique(idxs).tolist():
        members = torch.where(idxs == category)[0]
        keep[members[nms(boxes[members], scores[members], iou_threshold)]] = True
    kept = torch.where(keep)[0]
    return kept[scores[kept].argsort(descending=True, stable=True)]


def box_convert(boxes: torch.Tensor, in_fmt: str, out_fmt: str) -> torch.Tensor:
    x, y, a, b = boxes.unbind(-1)
    if in_fmt == "xywh":
        x, y, a, b = x, y, x + a, y + b
    elif in_fmt == "cxcywh":
        x, y, a, b = x - 0.5 * a, y - 0.5 * b, x + 0.5 * a, y + 0.5 * b
    if out_fmt == "xywh":
        x, y, a, b = x, y, a - x, b - y
    elif out_fmt == "cxcywh":
        x, y, a, b = (x + a) / 2, (y + b) / 2, a - x, b - y
    return torch.stack((x, y, a, b), dim=-1)


def clip_boxes_to_image(boxes: torch.Tensor, size: tuple[int, int]) -> torch.Tensor:
    height, width = size
    xs = boxes[..., 0::2].clamp(min=0, max=width)
    ys = boxes[..., 1::2].clamp(min=0, max=height)
    return torch.stack((xs, ys), dim=-1).reshape(boxes.shape)


def remove_small_boxes(boxes: torch.Tensor, min_size: float) -> torch.Tensor:
    ws, hs = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return torch.where((ws >= min_size) & (hs >= min_size))[0]


def masks_to_boxes(masks: torch.Tensor) -> torch.Tensor:
    boxes = torch.zeros((masks.shape[0], 4), dtype=torch.float32)
    for index, mask in enumerate(masks):
        y, x = torch.where(mask != 0)
        boxes[index] = torch.tensor([x.min(), y.min(), x.max(), y.max()], dtype=torch.float32)
    return boxes
