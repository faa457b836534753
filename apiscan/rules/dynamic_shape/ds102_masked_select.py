from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class MaskedSelect(Rule):
    """``masked_select`` returns as many elements as the mask has ``True`` values.

    Why it breaks on MindSpore
    --------------------------
    The output is a 1-D tensor whose length is the number of selected elements, known only once
    the mask has been computed. The migration guide lists ``MaskedSelect`` among the APIs that
    introduce a dynamic shape whenever they are used; what follows it (a mean, a loss, a
    concatenation) inherits the unknown length.

    Example
    -------
    Masked regression losses select the valid pixels or tokens before reducing::

        loss = (pred.masked_select(valid) - target.masked_select(valid)).abs().mean()

    Instead
    -------
    Keep the full tensor and zero out what the mask excludes, then normalise by the number of
    valid elements (a scalar, so the shapes stay fixed)::

        diff = (pred - target).abs().masked_fill(~valid, 0.0)
        loss = diff.sum() / valid.sum().clamp(min=1)

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.masked_select.html
    - https://pytorch.org/docs/stable/generated/torch.masked_select.html
    """

    id = "DS102"
    name = "masked-select"
    message = "masked_select() returns one element per True in the mask: its length is data"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.masked_select", "torch.Tensor.masked_select")
    mindspore_apis = ("mindspore.ops.masked_select",)
    suggestion = (
        "keep the full shape: masked_fill(~mask, 0) or where(mask, x, 0), then divide the sum "
        "by mask.sum()"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class MaskedL1Loss(nn.Module):
            def forward(self, pred, target, valid):
                diff = (pred - target).abs().masked_fill(~valid, 0.0)
                return diff.sum() / valid.sum().clamp(min=1)
        """,
        """
        import torch


        def masked_mean(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            weights = attention_mask.unsqueeze(-1).to(hidden.dtype)
            summed = torch.where(weights > 0, hidden, torch.zeros_like(hidden)).sum(1)
            return summed / weights.sum(1).clamp(min=1e-6)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class MaskedL1Loss(nn.Module):
            def forward(self, pred, target, valid):
                pred = torch.masked_select(pred, valid)  # error
                target = target.masked_select(valid)  # error
                return (pred - target).abs().mean()
        """,
        """
        import torch


        def positive_scores(logits: torch.Tensor, threshold: float = 0.5) -> torch.Tensor:
            probs = logits.sigmoid()
            return probs.masked_select(probs > threshold)  # error
        """,
    )
