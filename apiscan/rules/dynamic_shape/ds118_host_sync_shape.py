from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class HostSyncShape(Rule):
    """A host sync (``.item()``, ``int(t)``, ``.tolist()``) whose result is then used as a size,
    a slice bound, a ``k`` or a sample count.

    The finding points at the sync, in the function where it is written (a helper that
    returns ``t.item()`` to a caller that slices with it, in this file or another), once per
    line; the op that receives the number is reported by its own rule (DS109, DS110, DS113,
    DS114...). A sync whose value only goes to logging or a metric (``total += loss.item()``)
    is not flagged, nor is a length read from a shape, ``len(keep)`` or ``x.size(1)`` of a
    data-dependent tensor: the shape is known on the host once the tensor exists, so no value
    is read there; the op that sizes with it is reported (DS109 for ``x[:n]``, DS110 for
    ``topk(x, min(10, ious.size(1)))``).

    Why it breaks on MindSpore
    --------------------------
    Reading a tensor value into Python stops the device pipeline until the value is ready; in a
    compiled graph there is no Python at that point, so the number becomes a run-time scalar and
    every shape computed from it is dynamic. This is the usual root of the dynamic shapes the
    other rules find: fix the number here and the ops downstream become static.

    Example
    -------
    A count read back from the device to size the next step::

        num = int((heatmap > 0.3).sum())
        scores, idx = heatmap.flatten().topk(num)

    Instead
    -------
    Keep the number on the device and use it in a mask against a fixed maximum, instead of as a
    size::

        scores, idx = heatmap.flatten().topk(max_det)
        valid = torch.arange(max_det) < (heatmap > 0.3).sum()

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://pytorch.org/docs/stable/generated/torch.Tensor.item.html
    - https://pytorch.org/docs/stable/generated/torch.Tensor.tolist.html
    """

    id = "DS118"
    name = "host-sync-shape"
    message = "a tensor value is read on the host and then used as a shape, bound or count"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.Tensor.item",
        "torch.Tensor.tolist",
        "torch.Tensor.__int__",
        "torch.Tensor.__len__",
    )
    mindspore_apis = ("mindspore.Tensor.item", "mindspore.Tensor.tolist")
    suggestion = (
        "keep the number on the device: compare it with arange(max_n) to build a mask over a "
        "fixed maximum instead of using it as a size"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class RegressionHead(nn.Module):
            def forward(self, x, targets):
                n = len(x)
                b = int(x.shape[0])
                loss = (x[:n] - targets[:b]).pow(2).mean()
                self.last_loss = loss.item()
                return loss
        """,
        """
        import torch


        def train_one_epoch(model, loader, optimizer) -> float:
            total = 0.0
            for images, targets in loader:
                loss = model(images, targets)
                loss.backward()
                optimizer.step()
                total += loss.item()
            return total / len(loader)
        """,
        """
        # file: det/assign.py
        import torch


        def assign(scores: torch.Tensor):
            return int((scores > 0.5).sum())


        def log_positives(scores: torch.Tensor) -> str:
            return f"{assign(scores)} positives"
        # file: det/head.py
        from torch import nn

        from det.assign import log_positives


        class Head(nn.Module):
            def forward(self, scores):
                self.note = log_positives(scores)
                return scores
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class CenterDecoder(nn.Module):
            def forward(self, heatmap, boxes):
                num = int((heatmap > 0.3).sum())  # error
                k = (heatmap > 0.5).sum().item()  # error
                return heatmap.flatten().topk(num), boxes[:k]
        """,
        """
        import torch


        def split_proposals(proposals: torch.Tensor, image_ids: torch.Tensor, scores: torch.Tensor):
            keep = torch.nonzero(scores > 0.05).squeeze(1)
            counts = image_ids[keep].bincount().tolist()  # error
            n = len(keep)  # a length of a data-dependent shape: DS109 at the slice, no sync
            return proposals[keep].split(counts), proposals[:n]
        """,
        """
        import torch
        from torch import nn


        def rand_box(h: int, w: int):
            cx = torch.randint(0, w, (1,))
            cy = torch.randint(0, h, (1,))
            x1, y1 = torch.clamp(cx - 8, 0, w), torch.clamp(cy - 8, 0, h)
            return x1.item(), y1.item(), (x1 + 16).item(), (y1 + 16).item()  # error


        class TokenMix(nn.Module):
            def forward(self, x):
                x1, y1, x2, y2 = rand_box(x.shape[1], x.shape[2])
                mixed = x.clone()
                mixed[:, x1:x2, y1:y2] = x.flip(0)[:, x1:x2, y1:y2]
                return mixed
        """,
        """
        # file: det/assign.py
        import torch


        def count_positives(scores: torch.Tensor):
            return int((scores > 0.5).sum())  # error
        # file: det/head.py
        from torch import nn

        from det.assign import count_positives


        class Head(nn.Module):
            def forward(self, scores, boxes):
                n = count_positives(scores)
                return boxes[:n]
        """,
    )
