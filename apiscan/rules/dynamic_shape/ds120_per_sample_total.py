from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class PerSampleTotal(Rule):
    """Per-sample tensors of their own lengths (a batch of targets kept as a list, each image
    with its own number of boxes) concatenated along their first dimension, or one sample's
    tensor computed with in the network: the total, or the shape, varies with the data.

    A per-sample value is an element of a batch kept as a sequence that is iterated (``for t
    in targets``, ``for item in batch``, or by position: ``targets[i]`` in ``for i in
    range(len(targets))``, or ``targets[idx]`` at any position of a list a collate returned
    unstacked) and a field read from one by key (``t["labels"]``). Where the fields are
    joined (``torch.cat``), the finding is at the join, and everything computed from the
    joined tensor (the cost matrix, the matched pairs, the loss) inherits its length
    without being reported again. One sample's own tensor of a list a collate left
    unstacked (the collate stacks what has one shape) that reaches a tensor op in a function
    the network runs is reported at the first such op of the function: its shape is the
    number of objects in that sample. Handed to a helper of the repository (a prior matcher
    called once per image, and the overlap function it calls), it stays that sample's, and
    the finding is where the helper computes with it; a size read from it is that sample's
    too (DS113, DS109 where it sizes a result). A ``range`` over one sample's own count
    counts a loop once per object. Reads that keep the sample (``t[:, :4]``, ``.cuda()``,
    ``.float()``) report nothing, nor do rows gathered from it by an index (as many as the
    index), a data pipeline computing on one sample at a time, or a field of some record
    read by key (``x["image"]``: images are often resized to one size before they are
    listed). ``torch.stack`` of per-sample tensors is static (stack needs equal shapes) and
    so is a ``cat`` along another dimension; so are padded targets (one ``(batch,
    max_boxes, 5)`` tensor) read row by row.

    Why it breaks on MindSpore
    --------------------------
    A graph compiled for one batch holds one length for the joined targets; the next batch has
    another number of boxes, so the graph is rebuilt (or runs with dynamic shape) every step,
    and every op that consumes the joined tensor sees a new shape too.

    Example
    -------
    A matcher joining every image's targets into one tensor::

        labels = torch.cat([t["labels"] for t in targets])
        boxes = torch.cat([t["boxes"] for t in targets])

    Instead
    -------
    Pad every image's targets to a fixed maximum in the data pipeline and carry a validity
    mask, so the batch is one tensor of a fixed shape::

        labels = padded_labels.flatten(0, 1)          # (batch * max_boxes,)
        valid = padded_valid.flatten(0, 1)            # mask out the padding in the costs

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://pytorch.org/docs/stable/generated/torch.cat.html
    """

    id = "DS120"
    name = "per-sample-total"
    message = "per-sample tensors of their own lengths reach the graph: shapes vary with data"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.cat", "torch.concat", "torch.concatenate")
    mindspore_apis = ("mindspore.mint.cat",)
    suggestion = (
        "pad each sample's targets to a fixed maximum in the data pipeline and carry a "
        "validity mask instead of joining lists of different lengths"
    )
    VALID = (
        """
        import torch


        def batch_sizes(targets):
            sizes = torch.stack([t["size"] for t in targets])
            feats = torch.cat([t["feat"] for t in targets], dim=1)
            return sizes, feats
        """,
        """
        import torch
        from torch import nn


        class PaddedLoss(nn.Module):
            def forward(self, loc, priors, targets):
                padded = torch.zeros(loc.size(0), 50, 5)
                for idx in range(loc.size(0)):
                    truths = padded[idx][:, :4]
                    loc = loc + (truths @ priors.t()).sum()
                return loc
        """,
        """
        import torch
        from torch import nn


        class Detector(nn.Module):
            def forward(self, batched_inputs, mean, std):
                images = [(x["image"].float() - mean) / std for x in batched_inputs]
                return torch.stack(images).sum()
        """,
        """
        import torch


        def pack(padded_labels, padded_valid):
            return padded_labels.flatten(0, 1), padded_valid.flatten(0, 1)
        """,
    )
    INVALID = (
        """
        import torch


        def join_targets(targets):
            labels = torch.cat([t["labels"] for t in targets])  # error
            return labels
        """,
        """
        import torch
        from torch import nn


        class Criterion(nn.Module):
            def forward(self, outputs, targets):
                boxes = torch.cat([t["boxes"] for t in targets], dim=0)  # error
                return (outputs[:, None] - boxes[None]).abs().sum()
        """,
        """
        import torch


        def join_by_position(targets, levels):
            labels = torch.cat([targets[i]["labels"] for i in range(len(targets))])  # error
            anchors = torch.cat([levels[i]["anchors"] for i in range(len(targets))])
            return labels, anchors
        """,
        """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader


        def collate(batch):
            images = torch.stack([b[0] for b in batch])
            return images, [torch.as_tensor(b[1]) for b in batch]


        class PriorLoss(nn.Module):
            def forward(self, loc, priors, targets):
                loss = loc.sum()
                for idx in range(loc.size(0)):
                    truths = targets[idx][:, :4].float()
                    loss = loss + (truths @ priors.t()).sum()  # error
                return loss


        def train(dataset, model, priors):
            criterion = PriorLoss()
            for images, targets in DataLoader(dataset, batch_size=4, collate_fn=collate):
                criterion(model(images), priors, targets).backward()
        """,
        """
        import torch
        from torch import nn


        class CountLoss(nn.Module):
            def forward(self, logits, targets):
                loss = logits.sum()
                for t in targets:
                    for j in range(len(t["labels"])):  # error
                        loss = loss + logits[j].sum()
                return loss
        """,
    )
