from apiscan.rules.base import Rule, severities


class VariableAxes(Rule):
    """A reduction (``sum``, ``mean``, ``amax``...) or ``transpose``/``permute``/``movedim`` whose
    axes are read from tensor values.

    Axes that are literals, constructor arguments kept on ``self``, or derived from a static
    tensor's rank (``x.dim() - 1``) are fine; a random or data-chosen axis is not. ``flip`` is
    not flagged: it keeps the shape whatever the axes.

    Why it breaks on MindSpore
    --------------------------
    Which dimension disappears (a reduction) or where each dimension goes (a transpose) decides
    the output shape. The migration guide lists ``ReduceX`` and ``Transpose`` "when the axis is
    not fixed" among the APIs that change shapes during execution: with a run-time axis, the
    compiler cannot give the result a shape.

    Example
    -------
    A pooling "augmentation" that picks a spatial axis at random::

        axis = int(torch.randint(2, 4, (1,)))
        pooled = x.mean(dim=axis)

    Instead
    -------
    Compute every candidate with constant axes and choose between them with ``where`` (both
    branches must then have the same shape), or move the random choice out of the network into
    data processing::

        pooled = torch.where(pick_h, x.mean(dim=2), x.mean(dim=3))   # when H == W

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.transpose.html
    - https://pytorch.org/docs/stable/generated/torch.permute.html
    """

    id = "DS112"
    name = "variable-axes"
    message = "the axes of this reduction or transpose are read from tensor values"
    # The axis changes the rank layout, not the number of elements: a recompile per axis rather
    # than an unbounded size, so it rates below the size-changing rules inside the network.
    severity_by_scope = severities(network="medium", data="low", host="low")
    apis = (
        "torch.sum",
        "torch.Tensor.sum",
        "torch.mean",
        "torch.Tensor.mean",
        "torch.amax",
        "torch.Tensor.amax",
        "torch.amin",
        "torch.Tensor.amin",
        "torch.prod",
        "torch.Tensor.prod",
        "torch.logsumexp",
        "torch.Tensor.logsumexp",
        "torch.transpose",
        "torch.Tensor.transpose",
        "torch.permute",
        "torch.Tensor.permute",
        "torch.movedim",
        "torch.Tensor.movedim",
    )
    mindspore_apis = (
        "mindspore.ops.sum",
        "mindspore.ops.mean",
        "mindspore.ops.amax",
        "mindspore.ops.transpose",
        "mindspore.ops.permute",
        "mindspore.ops.movedim",
    )
    suggestion = (
        "use constant axes; compute each candidate and pick with where(), or move the random "
        "choice into data processing"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class Pool(nn.Module):
            def __init__(self, dim: int = -1):
                super().__init__()
                self.dim = dim

            def forward(self, x):
                y = x.sum(dim=self.dim)
                z = torch.mean(x, dim=(2, 3))
                last = x.amax(dim=x.dim() - 1)
                return y.transpose(1, 2), z.permute(1, 0), last
        """,
        """
        import torch
        from torch import nn


        class RandomFlip(nn.Module):
            def forward(self, images):
                axis = int(torch.randint(2, 4, (1,)))
                return images.flip(axis)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class RandomAxisPool(nn.Module):
            def forward(self, x):
                axis = int(torch.randint(2, 4, (1,)))
                pooled = x.mean(dim=axis)  # error
                order = torch.randperm(2).tolist()
                swapped = x.permute(0, 1, order[0] + 2, order[1] + 2)  # error
                return pooled, swapped
        """,
        """
        import torch


        def reduce_longest_axis(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
            axis = int(lengths.argmax()) + 1
            return torch.sum(x, dim=axis)  # error
        """,
    )
