from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class VariableSegments(Rule):
    """Segment reductions (``scatter_add``/``index_add`` into a buffer, ``torch_scatter``'s
    ``scatter``) whose number of segments is read from the segment ids.

    Flagged: ``torch_scatter.scatter(x, index)`` without ``dim_size`` (it uses
    ``index.max() + 1``), and ``scatter_add``/``index_add`` into a buffer sized from tensor
    values. A buffer sized by configuration or a static shape, or ``dim_size=`` passed, is fine.

    Why it breaks on MindSpore
    --------------------------
    The output has one row per segment. The migration guide lists ``UnsortedSegmentX``
    (``UnsortedSegmentSum``, ``UnsortedSegmentMax``...) "when the segment is not fixed" among the
    APIs that change shapes during execution: with the segment count read from the ids, the
    pooled features of a graph batch or the per-image sums have a dynamic shape.

    Example
    -------
    Global mean pooling over the graphs of a batch (PyTorch Geometric style)::

        pooled = scatter(x, batch, dim=0, reduce="mean")           # batch.max() + 1 rows

    Instead
    -------
    Pass the number of segments as a fixed size (the padded batch size, a configured maximum)
    and mask empty segments; in MindSpore ``ops.unsorted_segment_sum(x, ids, num_segments)``
    takes it as an argument::

        pooled = scatter(x, batch, dim=0, dim_size=max_graphs, reduce="mean")

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.unsorted_segment_sum.html
    - https://pytorch.org/docs/stable/generated/torch.Tensor.index_add_.html
    - https://pytorch-scatter.readthedocs.io/en/latest/functions/scatter.html
    """

    id = "DS115"
    name = "variable-segments"
    message = "the number of segments is read from the segment ids: the output's length is data"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.scatter_add",
        "torch.Tensor.scatter_add",
        "torch.Tensor.scatter_add_",
        "torch.index_add",
        "torch.Tensor.index_add",
        "torch.Tensor.index_add_",
        "torch.scatter_reduce",
        "torch.Tensor.scatter_reduce",
        "torch.Tensor.scatter_reduce_",
        "torch_scatter.scatter",
        "torch_scatter.scatter_add",
        "torch_scatter.scatter_mean",
        "torch_scatter.scatter_max",
    )
    mindspore_apis = (
        "mindspore.ops.unsorted_segment_sum",
        "mindspore.ops.unsorted_segment_max",
        "mindspore.ops.index_add",
        "mindspore.ops.tensor_scatter_elements",
    )
    suggestion = (
        "pass a fixed number of segments (dim_size=, a buffer of configured size; MindSpore "
        "unsorted_segment_sum(x, ids, num_segments)) and mask empty ones"
    )
    VALID = (
        """
        import torch


        def segment_sum(values: torch.Tensor, segment_ids: torch.Tensor, num_segments: int):
            out = values.new_zeros(num_segments, values.shape[1])
            return out.index_add_(0, segment_ids, values)
        """,
        """
        import torch
        from torch import nn
        from torch_scatter import scatter


        class GlobalMeanPool(nn.Module):
            def forward(self, x, batch, num_graphs: int):
                return scatter(x, batch, dim=0, dim_size=num_graphs, reduce="mean")
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn
        from torch_scatter import scatter


        class GlobalMeanPool(nn.Module):
            def forward(self, x, batch):
                return scatter(x, batch, dim=0, reduce="mean")  # error
        """,
        """
        import torch


        def segment_sum(values: torch.Tensor, segment_ids: torch.Tensor) -> torch.Tensor:
            num_segments = int(segment_ids.max()) + 1
            out = values.new_zeros(num_segments, values.shape[1])
            return out.index_add_(0, segment_ids, values)  # error
        """,
        """
        import torch


        def per_image_loss(loss: torch.Tensor, image_ids: torch.Tensor) -> torch.Tensor:
            n = image_ids.max().item() + 1
            totals = torch.zeros(n, device=loss.device)
            return totals.scatter_add(0, image_ids, loss)  # error
        """,
    )
