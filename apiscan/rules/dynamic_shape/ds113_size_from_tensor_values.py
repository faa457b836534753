from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class SizeFromTensorValues(Rule):
    """``reshape``/``view``/``expand``/``new_zeros``/``zeros``/``arange``... with a size read from
    tensor values.

    Sizes taken from a static tensor's shape (``x.view(b, -1)`` with ``b, c, h, w = x.shape``),
    literals and configuration are fine; a size that went through ``.item()``, ``int(t)``,
    ``t.max()`` or ``.tolist()`` is not. A module of no known class (an element of an
    ``nn.ModuleList``) whose result is unpacked (``x, thw = blk(x, thw)``) gives a tensor
    first; what follows is not known to be one (a list of shapes handed along the blocks).

    Why it breaks on MindSpore
    --------------------------
    The size argument becomes the output's shape. Read from a tensor's values, it is unknown
    until the step runs, so the compiler must give the result (a padded target buffer, a
    position index, a reshaped batch) a dynamic shape. The sequence mask built from
    ``lengths.max()`` is the NLP classic; target buffers sized by the largest number of ground
    truth boxes in the batch are the detection one.

    Example
    -------
    A padding mask sized by the longest sequence of the batch::

        max_len = int(lengths.max())
        mask = torch.arange(max_len)[None, :] < lengths[:, None]

    Instead
    -------
    Size by a fixed maximum (the padded length of the input, or a configured maximum number of
    boxes) and let the mask carry the real lengths::

        max_len = tokens.shape[1]                                 # static: the padded width
        mask = torch.arange(max_len)[None, :] < lengths[:, None]

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.reshape.html
    - https://pytorch.org/docs/stable/generated/torch.Tensor.view.html
    """

    id = "DS113"
    name = "size-from-tensor-values"
    message = "a size argument is read from tensor values: the result's shape is data"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.reshape",
        "torch.Tensor.reshape",
        "torch.Tensor.view",
        "torch.Tensor.expand",
        "torch.Tensor.repeat",
        "torch.Tensor.new_zeros",
        "torch.Tensor.new_ones",
        "torch.Tensor.new_full",
        "torch.Tensor.new_empty",
        "torch.zeros",
        "torch.ones",
        "torch.full",
        "torch.empty",
        "torch.arange",
        "torch.rand",
        "torch.randn",
    )
    mindspore_apis = (
        "mindspore.ops.reshape",
        "mindspore.ops.broadcast_to",
        "mindspore.ops.zeros",
        "mindspore.ops.full",
        "mindspore.ops.arange",
    )
    suggestion = (
        "size by a static shape or a configured maximum (padded length, max boxes) and carry "
        "the real extent in a mask"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class Flatten(nn.Module):
            def forward(self, x):
                b, c, h, w = x.shape
                flat = x.view(b, -1)
                pooled = x.reshape(b, c, h * w).mean(-1)
                zeros = x.new_zeros(b, 4)
                positions = torch.arange(h * w, device=x.device)
                return flat, pooled, zeros.expand(b, 4), positions, torch.zeros(b, c)
        """,
        """
        import torch


        def sequence_mask(lengths: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
            positions = torch.arange(tokens.shape[1], device=lengths.device)
            return positions[None, :] < lengths[:, None]
        """,
        """
        import torch


        def pick_one(visible: torch.Tensor) -> torch.Tensor:
            frames = torch.nonzero(visible)[:, 0]
            # the bound of the draw is data; the size drawn, one number, is not
            return frames[torch.randint(0, len(frames), (1,))]
        """,
        """
        import torch
        from torch import nn


        class Stage(nn.Module):
            def __init__(self, blocks):
                super().__init__()
                self.blocks = nn.ModuleList(blocks)

            def forward(self, x):
                b, c, t, h, w = x.shape
                x = x.flatten(2).transpose(1, 2)
                thw = [t, h, w]
                for blk in self.blocks:
                    x, thw = blk(x, thw)
                return x.transpose(1, 2).reshape(b, c, thw[0], thw[1], thw[2])
        """,
    )
    INVALID = (
        """
        import torch


        def sequence_mask(lengths: torch.Tensor) -> torch.Tensor:
            max_len = int(lengths.max())
            positions = torch.arange(max_len, device=lengths.device)  # error
            return positions[None, :] < lengths[:, None]
        """,
        """
        import torch
        from torch import nn


        class TargetBuffer(nn.Module):
            def forward(self, gt_boxes, num_gts):
                n = num_gts.max().item()
                targets = gt_boxes.new_zeros(gt_boxes.shape[0], n, 4)  # error
                weights = torch.ones(gt_boxes.shape[0], n)  # error
                grid = gt_boxes.view(-1, n, 4)  # error
                return targets, weights, grid.expand(2, -1, n, 4)  # error
        """,
        """
        import torch


        def draw(counts: torch.Tensor) -> torch.Tensor:
            n = int(counts.sum())
            return torch.randint(0, 10, (n,))  # error
        """,
        """
        import torch
        from torch import nn


        class Counter(nn.Module):
            def __init__(self, heads):
                super().__init__()
                self.heads = nn.ModuleList(heads)

            def forward(self, x):
                for head in self.heads:
                    scores = head(x)
                    n = int((scores > 0.5).sum())
                    x = x.new_zeros(n, 4)  # error
                return x
        """,
    )
