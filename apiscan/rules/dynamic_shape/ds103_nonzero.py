from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class Nonzero(Rule):
    """``nonzero``, ``argwhere`` and one-argument ``torch.where(cond)`` list the positions of the
    true elements: one row per hit, however many there are.

    ``torch.where(cond)`` with only a condition is ``cond.nonzero(as_tuple=True)``; the
    three-argument ``torch.where(cond, x, y)`` keeps the shape of its inputs and is fine, and so
    is ``torch.nonzero_static(x, size=...)``, which pads to a fixed size.

    Why it breaks on MindSpore
    --------------------------
    The number of positions is known only after the condition has been evaluated. The migration
    guide lists ``NonZero`` among the APIs that introduce a dynamic shape whenever they are used,
    and its indices usually feed gathers and scatters that become dynamic in turn: the classic
    case is a detector's label assignment (positive and negative anchor indices).

    Example
    -------
    Label assignment picks the anchors above an IoU threshold::

        pos_inds = torch.nonzero(max_iou >= pos_thr).squeeze(1)
        loss = criterion(pred[pos_inds], target[pos_inds])

    Instead
    -------
    Keep every anchor and carry a mask (weight the loss by it), or pad the positions to a fixed
    maximum with ``torch.nonzero_static`` (MindSpore: a fixed ``k`` with ``topk`` on the mask)::

        pos_mask = max_iou >= pos_thr
        loss = (criterion(pred, target, reduction="none") * pos_mask).sum() / pos_mask.sum()

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.nonzero.html
    - https://pytorch.org/docs/stable/generated/torch.nonzero.html
    - https://pytorch.org/docs/stable/generated/torch.nonzero_static.html
    """

    id = "DS103"
    name = "nonzero"
    message = "nonzero()/argwhere()/where(cond) return one row per True element: the count is data"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.nonzero",
        "torch.Tensor.nonzero",
        "torch.argwhere",
        "torch.Tensor.argwhere",
        "torch.where",
    )
    mindspore_apis = ("mindspore.ops.nonzero", "mindspore.ops.argwhere")
    suggestion = (
        "keep a boolean mask and weight by it, or pad to a fixed size with "
        "torch.nonzero_static(x, size=max_n) / topk on the mask"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class ScoreFilter(nn.Module):
            def forward(self, scores, boxes):
                keep = scores > 0.05
                scores = torch.where(keep, scores, torch.zeros_like(scores))
                idx = torch.nonzero_static(keep, size=100, fill_value=-1)
                return scores, boxes, idx
        """,
        """
        import torch


        def assign(ious: torch.Tensor, pos_thr: float):
            max_iou, argmax = ious.max(dim=0)
            pos_mask = max_iou >= pos_thr
            labels = torch.where(pos_mask, argmax + 1, torch.zeros_like(argmax))
            return labels, pos_mask.float()
        """,
    )
    INVALID = (
        """
        import torch


        def assign(ious: torch.Tensor, pos_thr: float):
            max_iou, argmax = ious.max(dim=0)
            pos_inds = torch.nonzero(max_iou >= pos_thr, as_tuple=False).squeeze(1)  # error
            neg_inds = (max_iou < pos_thr).nonzero().squeeze(1)  # error
            return pos_inds, neg_inds, argmax
        """,
        """
        import torch
        from torch import nn


        class PeakPicker(nn.Module):
            def forward(self, heatmap):
                ys, xs = torch.where(heatmap > 0.5)  # error
                peaks = torch.argwhere(heatmap == heatmap.max())  # error
                return ys, xs, peaks
        """,
    )
