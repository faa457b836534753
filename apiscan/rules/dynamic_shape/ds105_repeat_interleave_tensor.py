from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class RepeatInterleaveTensor(Rule):
    """``repeat_interleave`` with a tensor of repeats makes an output as long as their sum.

    ``torch.repeat_interleave(counts)`` (one argument) and ``x.repeat_interleave(repeats)`` with
    ``repeats`` a tensor are flagged; an integer number of repeats (``repeat_interleave(2,
    dim=1)``, ``self.n_rep``) gives a fixed size and is fine.

    Why it breaks on MindSpore
    --------------------------
    The output length is ``repeats.sum()``, a value computed at run time, so the compiler must
    treat it and every later shape as dynamic. Length regulators (FastSpeech durations), ragged
    batch indices and per-image box counts all hit this.

    Example
    -------
    A text-to-speech length regulator expands each phoneme by its predicted duration::

        frames = torch.repeat_interleave(hidden, durations, dim=0)

    Instead
    -------
    Expand to a fixed maximum length and mask: build the frame → phoneme alignment with a
    cumulative sum and a comparison against ``arange(max_frames)``, then gather::

        ends = durations.cumsum(-1)                                       # (T,)
        frame_ids = (torch.arange(max_frames)[:, None] >= ends).sum(-1)    # (max_frames,)
        frames = hidden[frame_ids.clamp(max=hidden.shape[0] - 1)]
        mask = torch.arange(max_frames) < ends[-1]

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.repeat_interleave.html
    - https://pytorch.org/docs/stable/generated/torch.repeat_interleave.html
    """

    id = "DS105"
    name = "repeat-interleave-tensor"
    message = "repeat_interleave() with tensor repeats is as long as their sum: the length is data"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.repeat_interleave", "torch.Tensor.repeat_interleave")
    mindspore_apis = ("mindspore.ops.repeat_interleave",)
    suggestion = (
        "expand to a fixed maximum length (arange(max_len) compared with repeats.cumsum()) "
        "and carry a mask"
    )
    VALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class GroupedQueryAttention(nn.Module):
            def __init__(self, n_heads: int = 32, n_kv_heads: int = 8):
                super().__init__()
                self.n_rep = n_heads // n_kv_heads

            def forward(self, q, k, v):
                k = k.repeat_interleave(self.n_rep, dim=1)
                v = torch.repeat_interleave(v, 4, dim=1)
                return F.scaled_dot_product_attention(q, k, v)
        """,
        """
        import torch
        from torch.utils.data import Sampler


        class RepeatSampler(Sampler):
            def __init__(self, dataset, num_repeats=3):
                self.dataset = dataset
                self.num_repeats = num_repeats

            def __iter__(self):
                indices = torch.randperm(len(self.dataset))
                indices = torch.repeat_interleave(indices, repeats=int(self.num_repeats), dim=0)
                return iter(indices.tolist())
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class LengthRegulator(nn.Module):
            def forward(self, hidden, log_durations):
                durations = torch.round(log_durations.exp()).long()
                return torch.repeat_interleave(hidden, durations, dim=0)  # error
        """,
        """
        import torch


        def roi_batch_index(boxes_per_image: torch.Tensor) -> torch.Tensor:
            return torch.repeat_interleave(boxes_per_image)  # error
        """,
        """
        import torch


        def expand_queries(queries: torch.Tensor, num_boxes: torch.Tensor) -> torch.Tensor:
            return queries.repeat_interleave(num_boxes, dim=0)  # error
        """,
        """
        import torch


        def expand_by_count(feats: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
            return torch.repeat_interleave(feats, repeats=counts, dim=0)  # error
        """,
    )
