from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class OneHotWithoutNumClasses(Rule):
    """``F.one_hot(t)`` without ``num_classes`` (or with ``-1``) is ``t.max() + 1`` wide, and
    ``F.one_hot(t, num_classes=int(t.max()) + 1)`` as wide as a value read from the data.

    Any ``num_classes`` that is not read from tensor values is fine: a literal, a constructor
    argument kept on ``self``, or ``logits.shape[-1]``. The message says which of the three
    forms the call is: a call that passes ``num_classes`` is never said to lack it.

    Why it breaks on MindSpore
    --------------------------
    PyTorch infers the number of classes from the largest label in the batch, so the width of
    the result changes from batch to batch. MindSpore's ``one_hot`` takes the depth as an
    argument; a width read from the data makes the result, and the loss built on it, dynamic.

    Example
    -------
    Label smoothing on a batch of targets::

        smooth = F.one_hot(target) * (1 - eps) + eps / n

    Instead
    -------
    Pass the number of classes, known from the model's output or its configuration::

        onehot = F.one_hot(target, num_classes=logits.shape[-1])

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.one_hot.html
    - https://pytorch.org/docs/stable/generated/torch.nn.functional.one_hot.html
    """

    id = "DS107"
    name = "one-hot-without-num-classes"
    message = "one_hot()'s width is read from the data: its result's shape is dynamic"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.nn.functional.one_hot",)
    mindspore_apis = ("mindspore.ops.one_hot",)
    suggestion = "pass num_classes (a constant, a config value or logits.shape[-1])"
    VALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class LabelSmoothing(nn.Module):
            def __init__(self, num_classes: int, eps: float = 0.1):
                super().__init__()
                self.num_classes = num_classes
                self.eps = eps

            def forward(self, logits, target):
                a = F.one_hot(target, 10)
                b = F.one_hot(target, num_classes=logits.shape[-1])
                c = F.one_hot(target, self.num_classes).float()
                smooth = c * (1 - self.eps) + self.eps / self.num_classes
                return -(smooth * logits.log_softmax(-1)).sum(-1).mean(), a, b
        """,
    )
    INVALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class LabelSmoothing(nn.Module):
            def forward(self, logits, target, eps: float = 0.1):
                onehot = F.one_hot(target).float()  # error
                smooth = onehot * (1 - eps) + eps / onehot.shape[-1]
                return -(smooth * logits.log_softmax(-1)).sum(-1).mean()
        """,
        """
        import torch
        import torch.nn.functional as F


        def targets_to_onehot(labels: torch.Tensor) -> torch.Tensor:
            return F.one_hot(labels, num_classes=-1)  # error
        """,
        """
        import torch
        import torch.nn.functional as F


        def merge_same_ids(features: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
            ids, inverse = torch.unique(labels, return_inverse=True)
            onehot = F.one_hot(inverse, num_classes=len(ids)).float()  # error
            return onehot.T @ features
        """,
        """
        import torch
        import torch.nn.functional as F


        def encode(x: torch.Tensor) -> torch.Tensor:
            return F.one_hot(x, num_classes=int(x.max()) + 1)  # error
        """,
    )
