from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class BooleanMaskIndex(Rule):
    """Indexing with a boolean mask, ``x[mask]`` or ``x[mask] = v``, selects a data-dependent
    number of elements.

    Reading ``x[mask]`` is ``masked_select`` keeping the trailing dimensions. Writing keeps
    ``x``'s shape, and MindSpore 2.10 compiles the plain form, the mask as the only index and a
    host value (``x[mask] = 0``), to one ``Select`` over the whole tensor: static, not
    flagged. Other writes go through the list of selected positions (``NonZero``, then
    ``TensorScatterUpdate``, seen in the validated graph IR), which has a dynamic shape: the mask
    with other indices (``x[:, mask] = 1``, ``m[idx, mask] = 1``), a tensor value that may hold
    one row per ``True`` (``x[mask] = y``), and read-modify-write (``x[mask] += 1`` reads
    ``x[mask]`` first). A value read through the same mask (``x[mask] = y[mask]``) keeps
    ``x``'s shape: the finding stays (the write as written, and the read ``y[mask]``, have
    data-dependent shapes) and names the rewrite whose result is static,
    ``torch.where(mask, y, x)``.

    Why it breaks on MindSpore
    --------------------------
    The selected part has as many rows as the mask has ``True`` values, which the compiler
    cannot know; the graph needs a dynamic shape for it and for everything downstream (the
    loss on the selected logits, for instance). Even the assignment form builds such an index
    internally.

    Example
    -------
    Losses that ignore some targets select the valid ones first::

        valid = labels >= 0
        loss = F.cross_entropy(logits[valid], labels[valid])

    A mask the code decides without reading tensor values is no data: ``torch.arange(n) !=
    pos`` with ``n`` a static size and ``pos`` a constant (or an attribute set when the module
    is built) drops the same positions at every step, and so does one computed from such
    values by arithmetic and by ``&``/``|`` with no data in it (``(idx % 2 == 0) & (idx >
    1)``); the positions it picks (``keep = torch.arange(n)[mask]``) are positions the code
    decided. Integer positions are no mask whatever they are named (``keep_idx =
    scores.topk(k).indices``). Masks gathered into a list one by one (``masks.append(m >
    0)``, returned by a helper) are masks where the list is read back.

    Instead
    -------
    Compute on every element and mask the result; write with ``masked_fill`` / ``where``,
    which keep the shape::

        loss = F.cross_entropy(logits, labels.clamp(min=0), reduction="none")
        loss = loss.masked_fill(~valid, 0.0).sum() / valid.sum().clamp(min=1)
        targets = targets.masked_fill(ious < 0.4, 0)  # instead of targets[:, ious < 0.4] = 0

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.masked_select.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.masked_fill.html
    - https://pytorch.org/docs/stable/tensor_view.html
    """

    id = "DS104"
    name = "boolean-mask-index"
    message = "indexing with a boolean mask selects one row per True value: the count is data"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.Tensor.__getitem__", "torch.Tensor.__setitem__")
    mindspore_apis = ("mindspore.ops.masked_select", "mindspore.ops.masked_fill")
    suggestion = (
        "compute on all elements and mask the result; write with masked_fill(mask, v) or "
        "where(mask, v, x) instead of x[mask] = v"
    )
    VALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class CrossEntropyWithIgnore(nn.Module):
            def forward(self, logits, labels):
                valid = labels >= 0
                loss = F.cross_entropy(logits, labels.clamp(min=0), reduction="none")
                loss = loss.masked_fill(~valid, 0.0)
                return loss.sum() / valid.sum().clamp(min=1)
        """,
        """
        import torch
        from torch import nn


        class BoxDecoder(nn.Module):
            def forward(self, pred):
                boxes = pred[:, :4]
                objectness = pred[..., 4]
                scores = pred[:, 5:] * objectness[:, None]
                return boxes, scores.masked_fill(scores < 0.05, 0.0)
        """,
        """
        # file: det/geometry.py
        import torch


        def nearest(points: torch.Tensor, boxes: torch.Tensor):
            dist = (points[:, None] - boxes[None, :, :2]).abs().sum(dim=-1)
            return dist.argmin(dim=1), dist
        # file: det/head.py
        from torch import nn

        from det.geometry import nearest


        class Head(nn.Module):
            def forward(self, feats, points, boxes):
                index, _ = nearest(points, boxes)
                return feats[index]
        """,
        """
        import torch


        def encode_targets(targets: torch.Tensor, ious: torch.Tensor, ignore: int) -> torch.Tensor:
            targets[ious < 0.4] = 0
            targets[(ious >= 0.4) & (ious < 0.5)] = ignore
            return targets
        """,
        """
        import torch
        from torch import nn


        class PatchDropout(nn.Module):
            def forward(self, x):
                batch, tokens = x.shape[0], x.shape[1]
                rows = torch.arange(batch)[:, None]
                patch_indices_keep = torch.randn(batch, tokens).topk(tokens // 2, dim=-1).indices
                return x[rows, patch_indices_keep]


        class DropClsToken(nn.Module):
            def __init__(self, cls_position: int):
                super().__init__()
                self.cls_position = cls_position

            def forward(self, x):
                return x[:, torch.arange(x.shape[1]) != self.cls_position, :]
        """,
        """
        import torch
        from torch import nn


        class EveryOther(nn.Module):
            def __init__(self, frames: int = 16):
                super().__init__()
                self.frames = frames

            def forward(self, x):
                t = self.frames
                idx = torch.arange(t, device=x.device)
                keep = idx[(idx % 2 == 0) & (idx > 1)]
                return x[:, keep]
        """,
        """
        import torch
        from torch import nn


        class TopPerLevel(nn.Module):
            def forward(self, scores: torch.Tensor, feats: torch.Tensor):
                picks = []
                for level in range(scores.shape[1]):
                    picks.append(scores[:, level].topk(16).indices)
                return [feats[p] for p in picks]
        """,
    )
    INVALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class CrossEntropyWithIgnore(nn.Module):
            def forward(self, logits, labels):
                valid = labels >= 0
                logits = logits[valid]  # error
                labels = labels[valid]  # error
                return F.cross_entropy(logits, labels)
        """,
        """
        import torch


        def encode_targets(targets: torch.Tensor, ious: torch.Tensor) -> torch.Tensor:
            targets[:, ious < 0.4] = 0  # error
            targets[ious > 0.9] += 1  # error
            best = targets.max(dim=1).values
            targets[ious >= 0.5] = best[ious >= 0.5]  # error
            return targets
        """,
        """
        # file: det/geometry.py
        import torch


        def inside(points: torch.Tensor, boxes: torch.Tensor):
            lt = points[:, None] > boxes[None, :, :2]
            return lt.all(dim=-1).any(dim=1), lt
        # file: det/head.py
        from torch import nn

        from det.geometry import inside


        class Head(nn.Module):
            def forward(self, feats, points, boxes):
                mask, _ = inside(points, boxes)
                return feats[mask]  # error
        """,
        """
        import torch


        def valid_tokens(tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
            mask = torch.arange(tokens.shape[1])[None, :] < lengths[:, None]
            return tokens[mask]  # error
        """,
        """
        import torch
        from torch import nn


        class EveryOther(nn.Module):
            def __init__(self, frames: int = 16):
                super().__init__()
                self.frames = frames

            def forward(self, x, lengths):
                t = self.frames
                idx = torch.arange(t, device=x.device)
                keep = idx[(idx % 2 == 0) & (idx < lengths[0])]  # error
                return x[:, keep]
        """,
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class MaskedTargets(nn.Module):
            def __init__(self, sizes=(8, 4)):
                super().__init__()
                self.sizes = sizes

            def _masks(self, mask):
                out = []
                for size in self.sizes:
                    out.append(F.interpolate(mask, size=size).flatten(1).to(torch.bool))
                return out

            def forward(self, feats, mask):
                labels = []
                for m in self._masks(mask.float()):
                    labels.append(feats.flatten(1, 2)[m])  # error
                return labels
        """,
    )
