from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class Unique(Rule):
    """``unique`` returns one element per distinct value, so its length is decided by the data.

    Every variant counts: ``torch.unique``, ``Tensor.unique``, ``unique_consecutive``, with or
    without ``return_inverse`` / ``return_counts`` (the values and counts are as long as the
    number of distinct values; only ``inverse`` keeps the input's shape).

    Why it breaks on MindSpore
    --------------------------
    MindSpore compiles the network graph for fixed shapes. The migration guide lists ``Unique``
    among the APIs that introduce a dynamic shape whenever they are used: the compiler cannot
    give its output a size, so everything computed from it (per-class losses, gathers, stacks)
    becomes dynamic too. Operators then run on the slower dynamic-shape path on the backends
    that support it at all, and graph mode may refuse to compile.

    Example
    -------
    Class-balanced losses and per-instance pooling often iterate over the classes present in a
    batch::

        classes = torch.unique(labels)
        loss = sum(criterion(logits[labels == c], labels[labels == c]) for c in classes)

    Instead
    -------
    Iterate over a fixed set: the number of classes is a hyper-parameter. Count or pool with a
    one-hot matrix of fixed width, and mask the classes that are absent::

        onehot = F.one_hot(labels, num_classes)          # (N, C), static
        counts = onehot.sum(0)                           # (C,), zero for absent classes
        present = counts > 0                             # use as a mask, not as an index

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.unique.html
    - https://pytorch.org/docs/stable/generated/torch.unique.html
    """

    id = "DS101"
    name = "unique"
    message = "unique() returns one element per distinct value: its length depends on the data"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.unique",
        "torch.Tensor.unique",
        "torch.unique_consecutive",
        "torch.Tensor.unique_consecutive",
    )
    mindspore_apis = ("mindspore.ops.unique", "mindspore.ops.unique_consecutive")
    suggestion = (
        "loop over a fixed number of classes; count with one_hot(labels, num_classes).sum(0) "
        "and mask the absent ones"
    )
    VALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class ClassBalancedLoss(nn.Module):
            def __init__(self, num_classes: int):
                super().__init__()
                self.num_classes = num_classes

            def forward(self, logits, labels):
                counts = F.one_hot(labels, self.num_classes).sum(0)
                weight = 1.0 / counts.clamp(min=1).float()
                return F.cross_entropy(logits, labels, weight=weight)
        """,
        """
        import numpy as np
        import torch
        from torch.utils.data import Dataset


        class TokenDataset(Dataset):
            def __init__(self, sentences: list[list[str]]):
                words = np.unique(np.concatenate([np.array(s) for s in sentences]))
                self.vocab = {w: i for i, w in enumerate(words)}
                self.sentences = sentences

            def __getitem__(self, i):
                return torch.tensor([self.vocab[w] for w in self.sentences[i]])
        """,
    )
    INVALID = (
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class ClassBalancedLoss(nn.Module):
            def forward(self, logits, labels):
                classes = torch.unique(labels)  # error
                losses = [F.cross_entropy(logits[labels == c], labels[labels == c])
                          for c in classes]
                return torch.stack(losses).mean()
        """,
        """
        import torch


        def merge_repeated_tokens(token_ids: torch.Tensor, scores: torch.Tensor):
            tokens, counts = token_ids.unique_consecutive(return_counts=True)  # error
            levels, inverse = scores.unique(sorted=True, return_inverse=True)  # error
            return tokens, counts, levels, inverse
        """,
    )
