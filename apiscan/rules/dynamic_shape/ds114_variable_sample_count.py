from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class VariableSampleCount(Rule):
    """Sampling a number of items read from tensor values: ``multinomial(p, n)``,
    ``randperm(n)``, ``random.sample(t.tolist(), n)``, ``random.choice`` / ``np.random.choice``
    over a tensor of data-dependent length.

    A count that is a literal, configuration, or a static tensor's shape is fine
    (``torch.randperm(x.shape[1])``, ``multinomial(p, 16)``).

    Why it breaks on MindSpore
    --------------------------
    The number of samples is the output's length. The migration guide lists samplers
    ("where, random.choice...") "when the sample quantity is not fixed" among the APIs that
    change shapes during execution. Proposal samplers that draw ``min(num_pos, budget)``
    positives are the usual case; ``randperm`` with a variable ``n`` also only supports dynamic
    shape on CPU in MindSpore's support list.

    Example
    -------
    An R-CNN sampler drawing a random subset of the positive proposals::

        pos = (labels > 0).nonzero().squeeze(1)
        perm = torch.randperm(pos.numel())[:num_pos]

    Instead
    -------
    Draw a fixed number of samples with a mask over the candidates, e.g. random scores on the
    candidates and a fixed ``topk`` (MindSpore's ``RandomChoiceWithMask`` does this)::

        noise = torch.rand(labels.shape) * (labels > 0)          # zero for non-candidates
        _, picked = noise.topk(budget)                            # fixed count
        picked_valid = noise[picked] > 0

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/dynamic_shape_func.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.choice_with_mask.html
    - https://pytorch.org/docs/stable/generated/torch.multinomial.html
    """

    id = "DS114"
    name = "variable-sample-count"
    message = "the number of samples is read from tensor values: the sample's length is data"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.multinomial",
        "torch.Tensor.multinomial",
        "torch.randperm",
        "random.sample",
        "random.choices",
        "numpy.random.choice",
    )
    mindspore_apis = (
        "mindspore.ops.multinomial",
        "mindspore.ops.randperm",
        "mindspore.ops.choice_with_mask",
    )
    suggestion = (
        "draw a fixed number of samples (random scores + topk with a constant k, "
        "choice_with_mask) and mask the invalid ones"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class TokenDrop(nn.Module):
            def forward(self, tokens):
                b, n, _ = tokens.shape
                keep = torch.randperm(n, device=tokens.device)[: n // 2]
                picked = torch.multinomial(torch.ones(b, n), 16)
                return tokens[:, keep], picked
        """,
    )
    INVALID = (
        """
        import torch


        def sample_positives(labels: torch.Tensor, num_samples: int = 512) -> torch.Tensor:
            pos = (labels > 0).nonzero().squeeze(1)
            num_pos = min(pos.numel(), num_samples // 4)
            perm = torch.randperm(pos.numel(), device=labels.device)  # error
            return pos[perm[:num_pos]]
        """,
        """
        import torch
        from torch import nn


        class NegativeSampler(nn.Module):
            def forward(self, weights, labels):
                num_neg = int((labels == 0).sum())
                return torch.multinomial(weights, num_neg, replacement=False)  # error
        """,
        """
        import random

        import torch


        def sample_negatives(neg_inds: torch.Tensor, num_pos: torch.Tensor) -> torch.Tensor:
            k = 3 * int(num_pos)
            chosen = random.sample(neg_inds.tolist(), k)  # error
            return torch.tensor(chosen)
        """,
    )
