from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class VariableTopk(Rule):
    """``topk`` with a ``k`` read from tensor values returns a data-dependent number of elements.

    A literal ``k``, a ``k`` kept on ``self`` from the constructor, or one computed from a
    static tensor's shape (``min(self.max_det, x.shape[-1])``) is fine. ``kthvalue`` is not
    flagged: it returns one value per row whatever ``k`` is, so its shape never depends on
    ``k``.

    Why it breaks on MindSpore
    --------------------------
    ``TopK`` sizes its output by ``k``. The migration guide names ``TopK`` "when the value of K
    is not fixed" among the APIs that change shapes during execution: hard-negative mining
    (``k = 3 * num_pos``) and per-image proposal counts are typical.

    Example
    -------
    SSD-style hard negative mining keeps three negatives per positive::

        num_pos = int(pos_mask.sum())
        _, neg_idx = neg_loss.topk(3 * num_pos)

    Instead
    -------
    Fix a maximum ``k`` and mask the surplus, as the guide recommends (MindSpore's FasterRCNN
    ``multiclass_nms`` does this)::

        _, order = neg_loss.sort(descending=True)
        rank = order.argsort()
        neg_mask = rank < 3 * pos_mask.sum()          # a mask over all anchors, fixed shape

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.topk.html
    - https://pytorch.org/docs/stable/generated/torch.topk.html
    """

    id = "DS110"
    name = "variable-topk"
    message = "topk() with k read from tensor values returns a data-dependent number of elements"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.topk", "torch.Tensor.topk")
    mindspore_apis = ("mindspore.ops.topk",)
    suggestion = (
        "use a fixed maximum k and mask the surplus (rank < k as a mask), or sort and compare "
        "ranks instead of taking k elements"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class TopKDecoder(nn.Module):
            def __init__(self, max_det: int = 100):
                super().__init__()
                self.max_det = max_det

            def forward(self, heatmap):
                b = heatmap.shape[0]
                scores, idx = heatmap.view(b, -1).topk(self.max_det)
                top5 = torch.topk(scores, 5, dim=1).values
                k = min(self.max_det, heatmap.shape[-1])
                return scores, idx, top5, heatmap.flatten(1).topk(k)
        """,
        """
        import torch


        def median_threshold(scores: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
            k = int(valid.sum()) // 2 + 1
            return scores.kthvalue(k, dim=-1).values
        """,
        """
        # file: det/sampling.py
        import torch


        def hardest(neg_loss: torch.Tensor, k):
            return neg_loss.topk(k)
        # file: det/loss.py
        from torch import nn

        from det.sampling import hardest


        class Loss(nn.Module):
            def forward(self, neg_loss):
                return hardest(neg_loss, 16)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class HardNegativeMining(nn.Module):
            def forward(self, neg_loss, labels):
                num_pos = int((labels > 0).sum())
                num_neg = min(3 * num_pos, neg_loss.numel() - num_pos)
                _, neg_idx = neg_loss.topk(num_neg)  # error
                _, pos_idx = torch.topk(neg_loss * (labels > 0), k=num_pos)  # error
                return pos_idx, neg_idx
        """,
        """
        # file: det/sampling.py
        import torch


        def hardest(neg_loss: torch.Tensor, k):
            return neg_loss.topk(k)  # error
        # file: det/loss.py
        from torch import nn

        from det.sampling import hardest


        class Loss(nn.Module):
            def forward(self, neg_loss, labels):
                num_pos = int((labels > 0).sum())
                return hardest(neg_loss, 3 * num_pos)
        """,
    )
