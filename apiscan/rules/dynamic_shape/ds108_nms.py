from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class Nms(Rule):
    """Non-maximum suppression (``torchvision.ops.nms``, ``batched_nms``, the compiled operator
    ``torch.ops.torchvision.nms`` and look-alikes such as ``multiclass_nms``) returns the
    indices of the boxes that survive: as many as the scores and overlaps allow.

    Why it breaks on MindSpore
    --------------------------
    How many boxes survive depends on the boxes and scores, so the kept indices, and every
    gather done with them, have dynamic shapes. MindSpore's ``NMSWithMask`` instead returns a
    fixed-size result with a mask of the kept boxes, which is how its detectors stay static.

    Example
    -------
    Detector post-processing::

        keep = torchvision.ops.batched_nms(boxes, scores, labels, 0.5)
        return boxes[keep], scores[keep], labels[keep]

    Instead
    -------
    Keep a fixed number of candidates (``topk`` with a constant ``k``) and suppress by mask, as
    MindSpore's FasterRCNN ``multiclass_nms`` does with ``NMSWithMask``; or a "fast NMS" on the
    IoU matrix of the top-k boxes::

        scores, order = scores.topk(max_det)
        iou = box_iou(boxes[order], boxes[order]).triu(diagonal=1)
        keep = iou.max(dim=0).values < iou_thr                 # (max_det,) mask
        scores = scores * keep

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://gitee.com/mindspore/models/blob/master/official/cv/FasterRCNN/src/FasterRcnn/faster_rcnn.py
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.NMSWithMask.html
    - https://pytorch.org/vision/stable/generated/torchvision.ops.nms.html
    """

    id = "DS108"
    name = "nms"
    message = "nms() keeps as many boxes as survive suppression: the count is data"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torchvision.ops.nms", "torchvision.ops.batched_nms")
    mindspore_apis = ("mindspore.ops.NMSWithMask",)
    suggestion = (
        "keep a fixed top-k of candidates and suppress with a mask (NMSWithMask, or fast NMS "
        "on the top-k IoU matrix)"
    )
    VALID = (
        """
        import torch
        from torchvision.ops import box_iou


        def fast_nms(boxes: torch.Tensor, scores: torch.Tensor, max_det: int = 100):
            scores, order = scores.topk(max_det)
            boxes = boxes[order]
            iou = box_iou(boxes, boxes).triu(diagonal=1)
            keep = iou.max(dim=0).values < 0.5
            return boxes, scores * keep
        """,
    )
    INVALID = (
        """
        import torch
        import torchvision
        from torch import nn


        class Detector(nn.Module):
            def forward(self, images):
                boxes, scores = self.head(self.backbone(images))
                keep = torchvision.ops.nms(boxes, scores, iou_threshold=0.5)  # error
                return boxes[keep], scores[keep]
        """,
        """
        import torch
        from torchvision.ops import batched_nms


        def postprocess(boxes: torch.Tensor, scores: torch.Tensor, labels: torch.Tensor):
            keep = batched_nms(boxes, scores, labels, 0.6)  # error
            return boxes[keep], scores[keep], labels[keep]
        """,
        """
        import torch


        def nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float):
            # the compiled operator behind torchvision.ops.nms, called directly
            return torch.ops.torchvision.nms(boxes, scores, iou_threshold)  # error
        """,
    )
