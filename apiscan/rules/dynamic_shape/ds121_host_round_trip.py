from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class HostRoundTrip(Rule):
    """Tensor data taken to the host, given a length there by a library (scipy's assignment
    solver, ``numpy.nonzero``/``unique``, a list comprehension filtered on tensor values) and
    brought back with ``torch.as_tensor``/``torch.tensor``/``torch.from_numpy``: a tensor
    whose length was decided by data.

    The finding is where the data comes back into torch, and names the host call that decided
    its length. A round trip that keeps the length (``torch.from_numpy(np.argmin(a, 1))``)
    is not reported, nor is host data that never comes back (a metric).

    Why it breaks on MindSpore
    --------------------------
    The graph stops at the host call: the tensor goes to the CPU, a Python library runs, and the
    result re-enters as a new input whose shape the compiled graph did not know — in the
    middle of every training step for a matcher. Both the synchronisation and the dynamic
    shape have to go.

    Example
    -------
    A bipartite matcher solved by scipy::

        rows, cols = linear_sum_assignment(cost.cpu())
        indices = torch.as_tensor(rows, dtype=torch.int64)

    Instead
    -------
    Keep the assignment on the device with a fixed number of outputs (one per query, with a
    "no object" label), e.g. a fixed-iteration auction or Sinkhorn assignment, or run the
    matcher outside the compiled graph and feed it padded index tensors with a mask::

        assign = sinkhorn(-cost, iters=50).argmax(-1)     # (num_queries,), always

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://pytorch.org/docs/stable/generated/torch.as_tensor.html
    - https://docs.scipy.org/doc/scipy/reference/generated/scipy.optimize.linear_sum_assignment.html
    """

    id = "DS121"
    name = "host-round-trip"
    message = "data sized on the host by a library comes back into torch: its length is data"
    severity_by_scope = GRAPH_SHAPE
    apis = ("torch.as_tensor", "torch.tensor", "torch.from_numpy", "torch.asarray")
    mindspore_apis = ("mindspore.tensor", "mindspore.Tensor.from_numpy")
    suggestion = (
        "keep the computation on the device with a fixed number of outputs and a mask, or "
        "run it outside the compiled graph and feed padded tensors"
    )
    VALID = (
        """
        import numpy as np
        import torch


        def nearest(cost: torch.Tensor):
            table = cost.detach().cpu().numpy()
            return torch.from_numpy(np.argmin(table, axis=1))
        """,
        """
        import torch
        from scipy.optimize import linear_sum_assignment


        def solve(cost: torch.Tensor):
            rows, cols = linear_sum_assignment(cost.cpu())
            return float(cost[rows, cols].sum())
        """,
        """
        import numpy as np
        import torch


        def other_views(n_views: int, view: int):
            return torch.from_numpy(np.delete(np.arange(n_views), view))
        """,
    )
    INVALID = (
        """
        import torch
        from scipy.optimize import linear_sum_assignment


        def match(cost: torch.Tensor):
            rows, cols = linear_sum_assignment(cost.cpu())
            return torch.as_tensor(rows, dtype=torch.int64)  # error
        """,
        """
        import numpy as np
        import torch


        def positives(scores: torch.Tensor):
            picked = np.nonzero(scores.numpy() > 0.5)[0]
            return torch.from_numpy(picked)  # error
        """,
        """
        import torch


        def confident(scores: torch.Tensor):
            keep = [i for i, s in enumerate(scores.tolist()) if s > 0.5]
            return torch.as_tensor(keep)  # error
        """,
        """
        import numpy as np
        import torch


        def histogram(labels: torch.Tensor):
            data = labels.cpu().numpy()
            return torch.from_numpy(np.bincount(data))  # error
        """,
    )
