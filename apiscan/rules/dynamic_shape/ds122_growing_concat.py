from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class GrowingConcat(Rule):
    """A tensor concatenated with its own previous value, so that it grows by a step each
    time: a key/value cache of past decoding steps (``k = torch.cat([k_top, k], dim=-2)`` of
    ``k_top`` read from a cache the function writes ``k`` back to; ``self.cache =
    torch.cat([self.cache, x])``), or the tokens of an autoregressive loop (``out =
    torch.cat((out, sample[:, None]), dim=-1)`` in ``for step in range(n)``).

    The place kept between calls is an attribute of ``self`` or an item of a parameter under
    a key the code computes (a cache dict the caller hands in on every step, keyed by
    layer); ``__init__`` builds once, and a record's field under a constant key
    (``target["boxes"]``) is rewritten once per sample. A loop counts when it runs over steps
    (``range``, ``while``): a loop over layers (a dense block joining each layer's channels)
    is fixed once the graph is unrolled. A name bound afresh in each iteration before the
    join starts again each time, and so does a store under the loop's own index
    (``output[i] = torch.cat((output[i], x))``).

    Why it breaks on MindSpore
    --------------------------
    Each step sees a tensor one step longer than the last, so a graph compiled for one step
    does not fit the next: every decoding step recompiles, or runs with dynamic shape. The
    number of steps is fixed by the code, but the shape changes inside the loop, which a
    static graph cannot express.

    Example
    -------
    Attention with a cache of the keys and values of past steps::

        if offset > 0:
            k_top, v_top = cache[cache_key]
            k = torch.cat([k_top, k], dim=-2)
            v = torch.cat([v_top, v], dim=-2)
        cache[cache_key] = k, v

    Instead
    -------
    Preallocate the cache at its largest length and write each step into its slot, masking
    the slots not written yet (MindSpore's incremental inference keeps a fixed-size cache)::

        k_cache[:, :, step] = k[:, :, 0]             # (batch, heads, max_len, dim)
        scores = scores.masked_fill(~written[:step + 1], float("-inf"))

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://pytorch.org/docs/stable/generated/torch.cat.html
    """

    id = "DS122"
    name = "growing-concat"
    message = "a tensor is concatenated with its own previous value: it grows on every step"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.cat", "torch.concat", "torch.concatenate")
    mindspore_apis = ("mindspore.mint.cat",)
    suggestion = (
        "preallocate the tensor at its largest length and write each step into its slot "
        "(a fixed-size cache with a mask of the steps written)"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class DenseBlock(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Conv2d(8 * (i + 1), 8, 1) for i in range(3)])

            def forward(self, x):
                for layer in self.layers:
                    x = torch.cat([x, layer(x)], dim=1)
                return x
        """,
        """
        import torch


        def decode(model, tokens, steps: int, cache_k):
            for step in range(steps):
                logits = model(tokens)
                window = tokens[:, -4:]
                window = torch.cat([window, logits.argmax(-1)[:, -1:]], dim=-1)
                cache_k[:, step] = logits[:, -1]
            return cache_k
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class CachedAttention(nn.Module):
            def __init__(self):
                super().__init__()
                self.to_kv = nn.Linear(16, 32)

            def forward(self, x, cache=None, cache_key=None):
                k, v = self.to_kv(x).chunk(2, dim=-1)
                if cache is not None and cache_key in cache:
                    k_top, v_top = cache[cache_key]
                    k = torch.cat([k_top, k], dim=-2)  # error
                    v = torch.cat([v_top, v], dim=-2)  # error
                if cache is not None:
                    cache[cache_key] = k, v
                return (k @ v.transpose(-1, -2)).softmax(-1)
        """,
        """
        import torch


        @torch.no_grad()
        def generate(model, tokens, steps: int):
            for _ in range(steps):
                logits = model(tokens)
                sample = logits[:, -1].argmax(-1)
                tokens = torch.cat((tokens, sample[:, None]), dim=-1)  # error
            return tokens
        """,
    )
