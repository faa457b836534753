from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class BranchShapeMismatch(Rule):
    """A branch on tensor values whose two sides produce tensors of different shapes: an
    ``if``/``else`` assigning or returning them, or an ``if`` that returns early while the code
    after it returns something else.

    The finding points at the condition. A branch on a Python value (``if self.training:``,
    ``if x.shape[0] == 0:``) is fine even when the shapes differ: it is decided when the graph
    is compiled. Branches on tensor values whose sides agree are DS116 only.

    Why it breaks on MindSpore
    --------------------------
    MindSpore compiles both sides of a branch on data into one graph, so after the branch a
    tensor has whichever shape the taken side produced. The migration guide's example is
    exactly this: ``masked_select`` on one side and ``zeros_like`` on the other make the result
    dynamic twice over, through the op and through the control flow.

    Example
    -------
    From the migration guide::

        if (x > 0.5).any():
            y = torch.masked_select(x, x > 0.5)
        else:
            y = torch.zeros_like(x)

    Instead
    -------
    Give both sides the same static shape, then select without a branch::

        y = torch.where(x > 0.5, x, torch.zeros_like(x))          # one shape, no branch

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/zh-CN/r1.10/migration_guide/analysis_and_preparation.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.select.html
    """

    id = "DS117"
    name = "branch-shape-mismatch"
    message = "the branches of this data-dependent condition produce tensors of different shapes"
    severity_by_scope = GRAPH_SHAPE
    apis = ()
    mindspore_apis = ("mindspore.ops.select",)
    suggestion = (
        "make both branches produce the same static shape (mask instead of select) and pick "
        "with where/ops.select"
    )
    VALID = (
        """
        import torch


        def pick_boxes(boxes: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
            if boxes.shape[0] == 0:
                return boxes.new_zeros(0, 4)
            if scores.max() < 0.05:
                return torch.zeros_like(boxes)
            return boxes
        """,
        """
        import torch
        from torch import nn


        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(256, 80, 1)

            def forward(self, x):
                out = self.conv(x)
                if self.training:
                    return out
                return out.flatten(2).softmax(-1)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class PositiveSum(nn.Module):
            def forward(self, x):
                cond = (x > 0.5).any()
                if cond:  # error
                    y = torch.masked_select(x, x > 0.5)
                else:
                    y = torch.zeros_like(x)
                return y.sum()
        """,
        """
        import torch


        def confident_boxes(boxes: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
            if scores.max() < 0.05:  # error
                return boxes.new_zeros((0, 4))
            return boxes[scores >= 0.05]
        """,
    )
