from apiscan.rules.base import Rule
from apiscan.rules.dynamic_shape import GRAPH_SHAPE


class VariableLengthIndex(Rule):
    """``index_select``, ``gather``, ``take`` or ``x[idx]`` with an index whose length depends on
    data (it came from ``nonzero``, ``nms``, ``unique``, a variable slice..., or from numpy or
    scipy on the tensor's data taken to the host: ``emb[np.nonzero(labels == c)[0]]``, the
    rows of a sparse matrix sized by ``int(labels.max()) + 1``, also when a helper in another
    file computes them).

    The output of these ops is as long as the index, so an index of fixed length (from
    ``topk`` with a constant ``k``, ``argmax``, ``arange`` over a static size) is fine.

    Why it breaks on MindSpore
    --------------------------
    The migration guide lists ``Gather`` "when the index length is not fixed" among the APIs
    that change shapes during execution. Gathering with the indices of the positive anchors or
    of the boxes kept by NMS carries their unknown length into the features, losses and outputs
    computed next.

    Example
    -------
    Features of the positive proposals::

        pos = torch.nonzero(scores > 0.5).squeeze(1)
        pos_feats = features.index_select(0, pos)

    Instead
    -------
    Gather a fixed number of candidates and keep a mask of the real ones::

        pos_mask = scores > 0.5
        _, idx = (scores * pos_mask).topk(max_pos)             # fixed length
        pos_feats = features.index_select(0, idx)
        pos_valid = pos_mask[idx]

    References
    ----------
    - https://www.mindspore.cn/docs/en/r2.4.0/migration_guide/dynamic_shape.html
    - https://www.mindspore.cn/docs/en/r2.6.0/api_python/ops/mindspore.ops.gather.html
    - https://pytorch.org/docs/stable/generated/torch.index_select.html
    """

    id = "DS111"
    name = "variable-length-index"
    message = "the index has a data-dependent length, so the gathered result has one too"
    severity_by_scope = GRAPH_SHAPE
    apis = (
        "torch.index_select",
        "torch.Tensor.index_select",
        "torch.gather",
        "torch.Tensor.gather",
        "torch.take",
        "torch.Tensor.take",
        "torch.Tensor.__getitem__",
    )
    mindspore_apis = (
        "mindspore.ops.gather",
        "mindspore.ops.index_select",
        "mindspore.ops.gather_elements",
    )
    suggestion = (
        "gather a fixed number of indices (topk with a constant k, padded indices) and carry "
        "a validity mask"
    )
    VALID = (
        """
        import torch
        from torch import nn


        class AnchorGather(nn.Module):
            def forward(self, features, scores):
                _, idx = scores.topk(100)
                top_feats = features.index_select(0, idx)
                best = scores.argmax(dim=0, keepdim=True)
                every_other = torch.arange(0, features.shape[0], 2)
                picked = torch.gather(scores, 0, best)
                return top_feats, picked, features[every_other], features[idx]
        """,
        """
        import numpy as np
        import torch


        def one_at_a_time(emb: torch.Tensor, assign: torch.Tensor):
            labels = assign.cpu().numpy()
            keep = np.nonzero(labels > 0)[0]
            out = [emb[keep[j]] for j in range(3)]
            order = np.argsort(labels)
            others = np.delete(np.arange(emb.shape[0]), 0)
            return out, emb[order], emb[others], emb[labels.shape[0] - 1]
        """,
        """
        import numpy as np
        import torch


        def summarize(stats, thresholds, thr):
            precision = stats["precision"]  # a host array of the evaluation's
            t = np.where(thr == thresholds)[0]
            return torch.as_tensor(float(precision[t].mean()))
        """,
        """
        import numpy as np
        import torch


        def hits_on_host(output, target, ignore=255):
            output = output.reshape(output.size).copy()  # an array: tensors have no copy()
            return output[np.where(output == target)[0]]
        """,
        """
        import torch
        import torch.nn.functional as F


        def peak_scores(maps: torch.Tensor, sizes: torch.Tensor) -> torch.Tensor:
            k = maps.shape[1]
            idx = torch.arange(k)
            out = []
            for i in range(maps.shape[0]):
                roi = F.interpolate(maps[[i]], size=(int(sizes[i, 0]), int(sizes[i, 1])))[0]
                w = roi.shape[2]
                pos = roi.view(k, -1).argmax(1)
                out.append(roi[idx, pos // w, pos % w])
            return torch.stack(out)
        """,
    )
    INVALID = (
        """
        import torch
        from torch import nn


        class PositiveFeatures(nn.Module):
            def forward(self, features, scores):
                pos = torch.nonzero(scores > 0.5).squeeze(1)
                pos_feats = features.index_select(0, pos)  # error
                pos_scores = torch.gather(scores, 0, pos)  # error
                return pos_feats, pos_scores, features[pos]  # error
        """,
        """
        import torch
        from torchvision.ops import nms


        def filter_boxes(boxes: torch.Tensor, scores: torch.Tensor):
            keep = nms(boxes, scores, 0.5)
            kept_boxes = boxes[keep]  # error
            return kept_boxes, scores.index_select(0, keep)  # error
        """,
        """
        import torch


        def top_candidates(scores: torch.Tensor, boxes: torch.Tensor, thresh: float = 0.05):
            num = int((scores > thresh).sum())
            top_scores, idxs = scores.topk(num)
            picked = boxes[idxs]  # error
            return top_scores, picked, boxes[scores.topk(num).indices]  # error
        """,
        """
        import numpy as np
        import torch


        def cluster_sums(emb: torch.Tensor, assign: torch.Tensor, k: int):
            labels = assign.cpu().numpy()
            sums = torch.zeros(k, emb.shape[1])
            for c in range(k):
                rows = np.nonzero(labels == c)[0]
                sums[c] = emb[rows].sum(0)  # error
            return sums
        """,
        """
        import torch


        def anchors_of_targets(targets: torch.Tensor, anchors: torch.Tensor, nt: int):
            t = targets * 2.0
            if nt:
                t = t[t[:, 4] < 4.0]
            else:
                t = targets[0]
            return anchors[t[:, 5].long()]  # error
        """,
        """
        # file: memory.py
        import numpy as np
        from scipy.sparse import csr_matrix


        def rows_per_label(data):
            cols = np.arange(data.size)
            m = csr_matrix((cols, (data.ravel(), cols)), shape=(int(data.max()) + 1, data.size))
            return [np.unravel_index(row.data, data.shape) for row in m]
        # file: kmeans.py
        import torch
        from memory import rows_per_label


        def m_step(memory, centroids: torch.Tensor):
            _, assign = torch.mm(memory[0], centroids.t()).max(dim=1)
            where = rows_per_label(assign.cpu().numpy())
            sums = torch.zeros_like(centroids)
            for k in range(len(where)):
                sums[k] = torch.sum(memory[0][where[k][0]], dim=0)  # error
            return sums
        """,
    )
