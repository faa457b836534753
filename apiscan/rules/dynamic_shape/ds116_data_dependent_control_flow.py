from apiscan.rules.base import Rule, severities


class DataDependentControlFlow(Rule):
    """An ``if``, ``while`` or conditional expression whose condition reads tensor values
    (``if x.any():``, ``if t.item() > 0:``, ``while (a > b).sum():``, ``if keep[i]:``, and an
    operand of ``and``/``or``: ``if use_queue or not torch.all(q == 0):``), or a
    ``for`` loop (or comprehension) whose number of iterations is data: over a tensor of a
    data-dependent shape (``for i in keep`` after NMS) or a ``range`` of a number read from
    tensor data (``range(int(count))``). Python's ``max``/``min`` given a tensor
    (``max(num_pos.sum().float(), 1)``) compare it with the other arguments on the host to
    pick one: the same branch on its value, hidden in a builtin.

    Conditions on Python values are fine: ``if self.training:``, ``if mask is None:``, the
    length of a numpy array computed from numpy data (``np.unique(sizes, axis=0).shape[0]``
    of the arrays a dataset read: host work no graph compiles), a
    static tensor's shape or rank (``if x.shape[0] == 0:``, ``if x.dim() == 4:``), a
    configuration flag; so are loops over static tensors, shapes and per-sample lists, and
    ``max``/``min`` of host numbers and shapes (``max(x.size(0), 1)``, ``max(loss.item(), 1)``:
    the host read there is the ``.item()``) or ``torch.max``/``torch.clamp`` of tensors.

    Why it breaks on MindSpore
    --------------------------
    A graph compiled ahead of time cannot take a Python branch on a value that exists only when
    the step runs. MindSpore turns such a condition into control flow inside the graph (a
    conditional subgraph; for ``while``, a loop whose number of iterations is unknown when
    compiling), which costs compile time and speed, and the migration guide warns that when the
    condition is not fixed the branches may produce different shapes (see DS117).

    Example
    -------
    Zeroing a loss when there are no objects (the migration guide's own example)::

        if object_masks.sum() == 0:
            stage2_loss = stage2_loss * 0.0

    Instead
    -------
    Compute both outcomes and select, so the graph has no branch::

        stage2_loss = torch.where(object_masks.sum() == 0, stage2_loss * 0.0, stage2_loss)
        # MindSpore: ops.select(ops.equal(ops.reduce_sum(object_masks), 0), ..., stage2_loss)

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.select.html
    - https://pytorch.org/docs/stable/generated/torch.where.html
    """

    id = "DS116"
    name = "data-dependent-control-flow"
    message = "the condition reads tensor values: the graph branches on data at run time"
    # Control flow on data compiles (slowly) when the branches agree on shapes; DS117 rates the
    # case where they do not.
    severity_by_scope = severities(network="medium", data="low", host="low")
    apis = (
        "torch.Tensor.any",
        "torch.Tensor.all",
        "torch.any",
        "torch.all",
        "torch.Tensor.item",
        "torch.is_nonzero",
        "torch.equal",
    )
    mindspore_apis = ("mindspore.ops.select", "mindspore.ops.where")
    suggestion = (
        "compute both outcomes and pick with torch.where / ops.select; keep Python branches for "
        "Python values (self.training, shapes, config)"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class Stage2Loss(nn.Module):
            def forward(self, pred, target, object_masks, weight=None):
                loss = ((pred - target) ** 2).mean()
                if self.training and weight is not None:
                    loss = loss * weight
                if pred.dim() == 4 and pred.shape[1] > 1:
                    loss = loss / pred.shape[1]
                return torch.where(object_masks.sum() == 0, loss * 0.0, loss)
        """,
        """
        import torch


        def train_one_epoch(model, loader, optimizer, max_steps: int = 1000):
            step = 0
            while step < max_steps:
                for images, targets in loader:
                    loss = model(images, targets)
                    loss.backward()
                    optimizer.step()
                    step += 1
            return step
        """,
        """
        import argparse

        import torch


        class ParseKwargs(argparse.Action):
            def __call__(self, parser, namespace, values, option_string=None):
                kw = {}
                for value in values:
                    if not value:
                        continue
                    key, value = value.split("=")
                    kw[key] = value
                setattr(namespace, self.dest, kw)


        class EveryK(torch.optim.Optimizer):
            def __init__(self, params, lr=0.1, every=10):
                super().__init__(params, dict(lr=lr))
                self.every = every
                self.counter = 0

            @torch.no_grad()
            def step(self, closure=None):
                self.counter += 1
                do_update = self.counter % self.every == 0
                for group in self.param_groups:
                    for p in group["params"]:
                        state = self.state[p]
                        state["n"] = state.get("n", 0) + 1
                        if do_update and state["n"] > 1:
                            p.mul_(1.0 - group["lr"])
        """,
        """
        import torch


        def class_scores(pred: torch.Tensor, scores: torch.Tensor):
            ps = pred[torch.nonzero(scores > 0.5).squeeze(1)]
            if ps.size(1) > 5 and ps.dim() == 2:
                ps = ps[:, 5:]
            return ps


        def by_rows(emb: torch.Tensor):
            arr = emb.cpu().numpy()
            out = []
            for i in range(arr.shape[0]):
                if arr.ndim > 1 and len(arr) > 2:
                    out.append(emb[i])
            return out
        """,
        """
        import torch
        from torch import nn


        class NormalizedLoss(nn.Module):
            def __init__(self, scale: float = 2.0):
                super().__init__()
                self.scale = scale

            def forward(self, x, labels):
                n = max(x.size(0), 1)
                s = max(self.scale, 1.0)
                total = max(labels.sum().item(), 1)
                per = torch.clamp(labels.sum().float(), min=1.0)
                return x.sum() / (n * s * total * per)
        """,
        """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        def pad_to(img, size: int = 640, auto: bool = True, stride: int = 32):
            dh, dw = size - img.shape[0], size - img.shape[1]
            if auto:
                dh, dw = np.mod(dh, stride), np.mod(dw, stride)
            return np.pad(img, ((0, dh), (0, dw), (0, 0)))


        class Streams:
            def __init__(self, imgs):
                self.imgs = imgs
                sizes = np.stack([x.shape for x in imgs], 0)
                self.same = np.unique(sizes, axis=0).shape[0] == 1
                if not self.same:
                    print("streams of different sizes")

            def __next__(self):
                return torch.from_numpy(np.stack([pad_to(x, auto=self.same) for x in self.imgs]))


        class Labelled(Dataset):
            def __init__(self, labels):
                self.labels = labels
                self.dups = 0
                for lab in labels:
                    if np.unique(lab, axis=0).shape[0] < lab.shape[0]:
                        self.dups += 1

            def __getitem__(self, i):
                return torch.from_numpy(self.labels[i])
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class DiceLoss(nn.Module):
            def forward(self, output, target):
                # the range's ends are read from the labels: so is whether 255 is inside
                if 255 not in range(target.min(), target.max()):  # error
                    target = target.clamp(0, 1)
                return (output.softmax(1) * target).mean()
        """,
        """
        import torch
        from torch import nn


        class Stage2Loss(nn.Module):
            def forward(self, pred, target, object_masks):
                loss = ((pred - target) ** 2).mean()
                if object_masks.sum() == 0:  # error
                    loss = loss * 0.0
                return loss
        """,
        """
        import torch
        from torch import nn


        class GatedBlock(nn.Module):
            def forward(self, x, gate):
                if gate.any():  # error
                    x = x * gate
                if gate.max().item() > 0.5:  # error
                    x = x + 1
                return x if torch.isfinite(x).all() else torch.zeros_like(x)  # error
        """,
        """
        import torch


        def shrink_until_inside(a: torch.Tensor, b: torch.Tensor, step: float = 0.1):
            while (a > b).sum():  # error
                a = a - step
            return a
        """,
        """
        import torch
        from torchvision.ops import nms


        def keep_best(boxes: torch.Tensor, scores: torch.Tensor, masks: torch.Tensor):
            kept = nms(boxes, scores, 0.5)
            best = [masks[i] for i in kept]  # error
            count = (scores > 0.5).sum()
            for _ in range(int(count)):  # error
                scores = scores * 0.5
            return best, scores
        """,
        """
        import torch
        from torch import nn


        class QueuedHead(nn.Module):
            def forward(self, x, queue, use_queue: bool):
                if use_queue or not torch.all(queue[-1] == 0):  # error
                    x = torch.cat((queue, x))
                if x.numel() > 0 and (x > 0).any():  # error
                    x = x * 2
                return x
        """,
        """
        import numpy as np
        import torch


        def per_label(emb: torch.Tensor, assign: torch.Tensor):
            labels = assign.cpu().numpy()
            total = torch.zeros(emb.shape[1])
            for c in range(int(labels.max()) + 1):  # error
                rows = np.flatnonzero(labels == c)
                if len(rows) > 0:  # error
                    total += emb[c]
            for r in np.flatnonzero(labels):  # error
                total += emb[r]
            return total
        """,
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class PriorLoss(nn.Module):
            def forward(self, loc, loc_t, conf_t):
                pos = conf_t > 0
                num_pos = pos.long().sum(1, keepdim=True)
                n = max(num_pos.sum().float(), 1)  # error
                weight = min(1.0, pos.float().mean())  # error
                loss = F.smooth_l1_loss(loc * pos.unsqueeze(-1), loc_t, reduction="sum")
                return loss / n * weight
        """,
        """
        import numpy as np
        import torch


        def per_kind(emb: torch.Tensor, assign: torch.Tensor):
            kinds = np.unique(assign.cpu().numpy())
            if kinds.shape[0] > 1:  # error
                emb = emb * 2
            return emb
        """,
    )
