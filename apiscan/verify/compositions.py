"""Reviewed compositions: PyTorch APIs MindSpore lacks, built from MindSpore ops it has.

Before a custom operator, a missing API gets a composition of existing ops when one computes
the same: ``torchvision.ops.batched_nms`` is ``ops.NMSWithMask`` on boxes shifted apart per
class, ``box_iou`` a few broadcast ops, ``Tensor.new`` is ``zeros``. Each function here is
the very code ``apiscan stub`` writes into the user's scaffold (its source is copied), and
each has a micro-test in :mod:`apiscan.verify.catalogue.compositions` that runs it against
PyTorch (or, for torchvision, against the pure-PyTorch reference in
:mod:`apiscan.verify.reference`, since torchvision's compiled ops need not be installed).

Every function imports MindSpore inside its body: this module is read by ``apiscan stub``
without MindSpore, and only the verification child calls the functions.
"""

from __future__ import annotations

from typing import Any


def nms(boxes: Any, scores: Any, iou_threshold: float) -> Any:
    """torchvision.ops.nms: indices (int64) of the kept boxes, by decreasing score.

    ``NMSWithMask`` takes ``(N, 5)`` boxes with their scores and returns a keep mask; its
    index output counts in the order it sorted the boxes into (on CPU), so the boxes are
    sorted by score first and the kept positions mapped back through that order. The output
    length depends on the data (a dynamic shape)."""
    import mindspore as ms
    from mindspore import ops

    if boxes.shape[0] == 0:
        return ops.zeros((0,), ms.int64)
    _, order = ops.sort(scores.astype(ms.float32), descending=True)
    ranked = ops.concat((boxes[order], scores[order].reshape(-1, 1)), axis=1)
    _, index, keep = ops.NMSWithMask(float(iou_threshold))(ranked.astype(ms.float32))
    return order[ops.masked_select(index, keep)].astype(ms.int64)


def batched_nms(boxes: Any, scores: Any, idxs: Any, iou_threshold: float) -> Any:
    """torchvision.ops.batched_nms: NMS per category, as torchvision's coordinate trick does
    it — every box shifted by ``idx * (max coordinate + 1)`` so that boxes of different
    categories never overlap, then one NMS. Data-dependent output length."""
    import mindspore as ms
    from mindspore import ops

    if boxes.shape[0] == 0:
        return ops.zeros((0,), ms.int64)
    offsets = idxs.astype(boxes.dtype) * (boxes.max() + 1)
    return nms(boxes + offsets.reshape(-1, 1), scores, iou_threshold)


def box_area(boxes: Any) -> Any:
    """torchvision.ops.box_area of ``(x1, y1, x2, y2)`` boxes."""
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def _inter_union(boxes1: Any, boxes2: Any) -> tuple[Any, Any]:
    from mindspore import ops

    area1, area2 = box_area(boxes1), box_area(boxes2)
    lt = ops.maximum(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = ops.minimum(boxes1[:, None, 2:], boxes2[None, :, 2:])
    wh = ops.clamp(rb - lt, min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter, area1[:, None] + area2[None, :] - inter


def box_iou(boxes1: Any, boxes2: Any) -> Any:
    """torchvision.ops.box_iou: the ``(N, M)`` IoU matrix."""
    inter, union = _inter_union(boxes1, boxes2)
    return inter / union


def generalized_box_iou(boxes1: Any, boxes2: Any) -> Any:
    """torchvision.ops.generalized_box_iou: IoU less the enclosing box's empty share."""
    from mindspore import ops

    inter, union = _inter_union(boxes1, boxes2)
    iou = inter / union
    lti = ops.minimum(boxes1[:, None, :2], boxes2[None, :, :2])
    rbi = ops.maximum(boxes1[:, None, 2:], boxes2[None, :, 2:])
    whi = ops.clamp(rbi - lti, min=0)
    areai = whi[:, :, 0] * whi[:, :, 1]
    return iou - (areai - union) / areai


def box_convert(boxes: Any, in_fmt: str, out_fmt: str) -> Any:
    """torchvision.ops.box_convert between ``xyxy``, ``xywh`` and ``cxcywh``."""
    from mindspore import ops

    x, y, a, b = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    if in_fmt == "xywh":
        x, y, a, b = x, y, x + a, y + b
    elif in_fmt == "cxcywh":
        x, y, a, b = x - 0.5 * a, y - 0.5 * b, x + 0.5 * a, y + 0.5 * b
    if out_fmt == "xywh":
        x, y, a, b = x, y, a - x, b - y
    elif out_fmt == "cxcywh":
        x, y, a, b = (x + a) / 2, (y + b) / 2, a - x, b - y
    return ops.stack((x, y, a, b), axis=-1)


def clip_boxes_to_image(boxes: Any, size: tuple[int, int]) -> Any:
    """torchvision.ops.clip_boxes_to_image: coordinates clamped into an ``(h, w)`` image."""
    from mindspore import ops

    height, width = size
    xs = ops.clamp(boxes[..., 0::2], min=0, max=width)
    ys = ops.clamp(boxes[..., 1::2], min=0, max=height)
    return ops.stack((xs, ys), axis=-1).reshape(boxes.shape)


def remove_small_boxes(boxes: Any, min_size: float) -> Any:
    """torchvision.ops.remove_small_boxes: indices (int64) of boxes at least ``min_size``
    wide and high. Data-dependent output length."""
    import mindspore as ms
    from mindspore import ops

    ws, hs = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    keep = ops.logical_and(ws >= min_size, hs >= min_size)
    return ops.masked_select(ops.arange(boxes.shape[0], dtype=ms.int64), keep)


def masks_to_boxes(masks: Any) -> Any:
    """torchvision.ops.masks_to_boxes: the ``(x1, y1, x2, y2)`` box around each mask (a
    non-empty ``(N, H, W)`` boolean stack), from coordinate grids and masked min/max."""
    import mindspore as ms
    from mindspore import ops

    n, height, width = masks.shape
    if n == 0:
        return ops.zeros((0, 4), ms.float32)
    ys = ops.arange(height, dtype=ms.float32).reshape(1, height, 1).broadcast_to(masks.shape)
    xs = ops.arange(width, dtype=ms.float32).reshape(1, 1, width).broadcast_to(masks.shape)
    big = float(max(height, width) + 1)
    x1 = ops.where(masks, xs, big).reshape(n, -1).min(axis=1)
    y1 = ops.where(masks, ys, big).reshape(n, -1).min(axis=1)
    x2 = ops.where(masks, xs, -1.0).reshape(n, -1).max(axis=1)
    y2 = ops.where(masks, ys, -1.0).reshape(n, -1).max(axis=1)
    return ops.stack((x1, y1, x2, y2), axis=1)


def tensor_new(x: Any, *args: Any) -> Any:
    """torch.Tensor.new: ``x.new(2, 3)`` / ``x.new((2, 3))`` is an uninitialised tensor of
    ``x``'s dtype (zeros here: the values are never meant to be read), ``x.new(data)``
    (a list) a tensor of that data in ``x``'s dtype, ``x.new()`` an empty one."""
    import mindspore as ms
    from mindspore import ops

    if not args:
        return ops.zeros((0,), x.dtype)
    if len(args) == 1 and isinstance(args[0], list):
        return ms.Tensor(args[0], x.dtype)
    shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], tuple) else args
    return ops.zeros(shape, x.dtype)


def _aa_weights(in_size: int, out_size: int) -> Any:
    """Row-normalised triangle-filter weights of PyTorch's antialiased bilinear resize
    (``align_corners=False``): ``(out_size, in_size)``, constant for given sizes."""
    import numpy as np

    scale = in_size / out_size
    support = scale if scale >= 1.0 else 1.0
    invscale = 1.0 / scale if scale >= 1.0 else 1.0
    weights = np.zeros((out_size, in_size), dtype=np.float64)
    for i in range(out_size):
        center = scale * (i + 0.5)
        lo = max(int(center - support + 0.5), 0)
        hi = min(int(center + support + 0.5), in_size)
        taps = np.array([max(0.0, 1.0 - abs((j - center + 0.5) * invscale)) for j in range(lo, hi)])
        total = taps.sum()
        weights[i, lo:hi] = taps / total if total else taps
    return weights


def interpolate_antialias(x: Any, size: tuple[int, int]) -> Any:
    """torch.nn.functional.interpolate(x, size, mode='bilinear', antialias=True) for NCHW
    input: separable resampling with PyTorch's antialiasing weights, two matmuls."""
    import mindspore as ms
    from mindspore import ops

    height, width = x.shape[-2:]
    rows = ms.Tensor(_aa_weights(height, size[0]), x.dtype)
    cols = ms.Tensor(_aa_weights(width, size[1]).T, x.dtype)
    return ops.matmul(ops.matmul(rows, x), cols)


#: APIs each composition stands for: (function, the MindSpore ops it is built from, what
#: the user must know about its output).
COMPOSED: dict[str, tuple[str, str, str]] = {
    "torchvision.ops.nms": (
        "nms",
        "ops.NMSWithMask on score-sorted boxes",
        "data-dependent output length",
    ),
    "torchvision.ops.batched_nms": (
        "batched_nms",
        "ops.NMSWithMask + per-category coordinate offsets (torchvision's own trick)",
        "data-dependent output length",
    ),
    "torchvision.ops.box_area": ("box_area", "slicing and products", ""),
    "torchvision.ops.box_iou": ("box_iou", "ops.maximum/minimum/clamp, broadcast", ""),
    "torchvision.ops.generalized_box_iou": (
        "generalized_box_iou",
        "ops.maximum/minimum/clamp, broadcast",
        "",
    ),
    "torchvision.ops.box_convert": ("box_convert", "slicing and ops.stack", ""),
    "torchvision.ops.clip_boxes_to_image": ("clip_boxes_to_image", "ops.clamp", ""),
    "torchvision.ops.remove_small_boxes": (
        "remove_small_boxes",
        "comparisons + ops.masked_select",
        "data-dependent output length",
    ),
    "torchvision.ops.masks_to_boxes": ("masks_to_boxes", "ops.where + min/max over a grid", ""),
    "torch.Tensor.new": ("tensor_new", "ops.zeros / Tensor(data, dtype): not a custom op", ""),
    "torch.nn.functional.interpolate": (
        "interpolate_antialias",
        "two ops.matmul with PyTorch's antialias weights (mode='bilinear', antialias=True)",
        "",
    ),
}
#: Helpers a composition calls, copied along with it.
HELPERS: dict[str, tuple[str, ...]] = {
    "batched_nms": ("nms",),
    "box_iou": ("box_area", "_inter_union"),
    "generalized_box_iou": ("box_area", "_inter_union"),
    "interpolate_antialias": ("_aa_weights",),
}
