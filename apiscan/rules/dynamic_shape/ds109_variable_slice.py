from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class VariableSlice(Rule):
    """A slice, ``narrow`` or ``split`` whose bounds or sizes are read from tensor values.

    ``x[:k]``, ``x[a:b]``, ``x.narrow(dim, 0, n)`` and ``x.split(sizes)`` are flagged when
    ``k``, ``a``, ``b``, ``n`` or ``sizes`` come from tensor data (``.item()``, ``int(t)``,
    ``.tolist()``, the length of a data-dependent tensor). Constant slices (``x[:, :4]``,
    ``x[..., 0]``, ``x[:, 5:]``) and bounds computed from a static tensor's shape
    (``x[: x.shape[0] // 2]``) or from configuration (``x[:, : self.max_len]``) are fine.

    Why it breaks on MindSpore
    --------------------------
    MindSpore's ``StridedSlice``/``Slice`` give the output a size from the bounds; when a bound
    is a run-time value, the size is unknown at compile time. The migration guide's own example
    is ``x[:k]`` with ``k`` a tensor: the shape of ``x[:k]`` and of everything computed from it
    changes with ``k``.

    Example
    -------
    Extracting an answer span, or splitting proposals per image::

        start, end = int(start_logits.argmax()), int(end_logits.argmax()) + 1
        span = hidden[:, start:end]
        per_image = rois.split(counts.tolist())

    Instead
    -------
    Slice a fixed maximum and mask what lies outside the real bounds; keep per-image tensors
    padded to a fixed number of boxes::

        pos = start + torch.arange(max_span)                  # fixed width
        span = hidden[:, pos.clamp(max=hidden.shape[1] - 1)]
        span_mask = pos < end

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/zh-CN/r1.10/migration_guide/analysis_and_preparation.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.narrow.html
    - https://pytorch.org/docs/stable/generated/torch.narrow.html
    """

    id = "DS109"
    name = "variable-slice"
    message = "a slice, narrow or split has bounds read from tensor values: its length is data"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.Tensor.__getitem__",
        "torch.narrow",
        "torch.Tensor.narrow",
        "torch.split",
        "torch.Tensor.split",
        "torch.tensor_split",
        "torch.Tensor.tensor_split",
    )
    mindspore_apis = (
        "mindspore.ops.strided_slice",
        "mindspore.ops.narrow",
        "mindspore.ops.split",
        "mindspore.ops.tensor_split",
    )
    suggestion = (
        "slice a fixed maximum length and mask the positions past the real bound; pad "
        "per-item groups to a fixed size"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class YoloHead(nn.Module):
            def forward(self, pred):
                n = pred.shape[0]
                boxes = pred[:, :4]
                objectness = pred[..., 4]
                classes = pred[:, 5:]
                xy, wh = boxes.split(2, dim=-1)
                first_half = pred[: n // 2]
                return xy, wh, objectness, classes, first_half, pred.narrow(0, 0, n - 1)
        """,
        """
        import torch
        from torch import nn


        class Truncate(nn.Module):
            def __init__(self, max_len: int = 128):
                super().__init__()
                self.max_len = max_len

            def forward(self, input_ids, attention_mask):
                return input_ids[:, : self.max_len], attention_mask[:, : self.max_len]
        """,
        """
        # file: nlp/spans.py
        def first_tokens(hidden, length):
            return hidden[:, :length]
        # file: nlp/model.py
        from torch import nn

        from nlp.spans import first_tokens


        class Reader(nn.Module):
            def __init__(self, max_len: int = 128):
                super().__init__()
                self.max_len = max_len

            def forward(self, hidden):
                return first_tokens(hidden, self.max_len)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class SpanExtractor(nn.Module):
            def forward(self, hidden, start_logits, end_logits):
                start = int(start_logits.argmax())
                end = int(end_logits.argmax()) + 1
                span = hidden[:, start:end]  # error
                prefix = hidden.narrow(1, 0, end)  # error
                return span.mean(1), prefix
        """,
        """
        import torch


        def split_per_image(rois: torch.Tensor, image_ids: torch.Tensor, num_images: int):
            counts = (image_ids[:, None] == torch.arange(num_images)).sum(0).tolist()
            return rois.split(counts, dim=0)  # error
        """,
        """
        import torch
        from torch import nn


        class TopScoring(nn.Module):
            def forward(self, scores, boxes):
                num_pos = int((scores > 0.5).sum())
                order = scores.argsort(descending=True)
                return boxes[order[:num_pos]]  # error
        """,
        """
        # file: nlp/spans.py
        def first_tokens(hidden, length):
            return hidden[:, :length]  # error
        # file: nlp/model.py
        from torch import nn

        from nlp.spans import first_tokens


        class Reader(nn.Module):
            def forward(self, hidden, lengths):
                return first_tokens(hidden, int(lengths.max()))
        """,
    )
