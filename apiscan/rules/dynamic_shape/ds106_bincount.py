from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class Bincount(Rule):
    """``bincount`` has ``max(input) + 1`` bins: its length is read from the values.

    ``minlength`` does not fix it: the output is ``max(minlength, input.max() + 1)`` long, so a
    value at or above ``minlength`` still grows it.

    Why it breaks on MindSpore
    --------------------------
    The number of bins is a value of the input tensor, so the output shape is unknown when the
    graph is compiled; histograms, class frequencies and per-image counts built this way make
    every consumer dynamic as well.

    Example
    -------
    Class frequencies for a balanced loss::

        counts = torch.bincount(labels.flatten(), minlength=num_classes)

    Instead
    -------
    Count into a tensor of fixed size (values known to lie in ``[0, num_classes)``)::

        ones = torch.ones_like(labels, dtype=torch.float)
        counts = torch.zeros(num_classes).scatter_add_(0, labels, ones)
        counts = F.one_hot(labels, num_classes).sum(0)            # same, for small num_classes

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.bincount.html
    - https://pytorch.org/docs/stable/generated/torch.bincount.html
    """

    id = "DS106"
    name = "bincount"
    message = "bincount() has max(input) + 1 bins: its length is read from the values"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.bincount", "torch.Tensor.bincount")
    mindspore_apis = ("mindspore.ops.bincount",)
    suggestion = (
        "count into a fixed-size tensor: zeros(num_classes).scatter_add_(0, x, ones) or "
        "one_hot(x, num_classes).sum(0)"
    )
    VALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class ClassFrequency(nn.Module):
            def __init__(self, num_classes: int = 80):
                super().__init__()
                self.num_classes = num_classes

            def forward(self, labels):
                ones = torch.ones_like(labels, dtype=torch.float32)
                counts = torch.zeros(self.num_classes).scatter_add_(0, labels, ones)
                return counts, F.one_hot(labels, self.num_classes).sum(0)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class ClassFrequency(nn.Module):
            def forward(self, labels):
                counts = torch.bincount(labels.flatten())  # error
                return counts.float() / counts.sum()
        """,
        """
        import torch


        def image_histogram(image: torch.Tensor, num_bins: int = 256) -> torch.Tensor:
            return image.flatten().long().bincount(minlength=num_bins)  # error
        """,
    )
