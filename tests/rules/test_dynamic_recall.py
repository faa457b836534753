"""Facts that let the runtime-truth benchmark's missed source lines be found, one snippet per
fact: exactly the lines marked ``# expect: DSxxx`` are reported (static twins stay quiet).

Each snippet is a small program of our own in the shape the benchmark met the class in: a
detector's per-image lists of index tensors handed from function to function, types declared
only in containers or in TorchScript comments, a list element replaced image by image, a name
left ``None`` on the other branch, a size kept through a branch that rewrites it."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo, write_repo

CASES = {
    # elements of a list parameter (one index tensor per image) compared into masks: the
    # solver proves the list holds tensors, and the file is walked again with that fact
    "per_image_lists_compared_into_masks": """
        import torch
        from torch import nn


        class Assigner:
            def __call__(self, quality):
                best, idx = quality.max(dim=0)
                idx[best < 0.4] = -1
                return idx


        class Head(nn.Module):
            def loss(self, logits, assigned):
                total = []
                for lg, a in zip(logits, assigned):
                    fg = a >= 0
                    total.append(lg[fg].sum())  # expect: DS104
                    total.append(lg[a].sum())
                return total


        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
                self.assign = Assigner()

            def forward(self, images, count: int):
                feats = images.flatten(1)
                assigned = []
                for _ in range(count):
                    assigned.append(self.assign(torch.rand(5, 7)))
                return self.head.loss(feats, assigned)
    """,
    # ``list[Tensor]``, ``Optional[...]`` and TorchScript's type comments declare containers
    "declared_containers": """
        from typing import Optional

        import torch
        from torch import Tensor


        def by_annotation(scores: list[Tensor], extra: Optional[list[Tensor]] = None):
            return [s[s > 0.5] for s in scores]  # expect: DS104


        def by_comment(scores, limit):
            # type: (list[Tensor], int) -> list[Tensor]
            return [s[s > limit] for s in scores]  # expect: DS104


        def by_parameter_comment(
            self_like,
            scores,  # type: list[Tensor]
            shapes,  # type: list[tuple[int, int]]
        ):
            return [s[s > 0] for s in scores]  # expect: DS104


        def plain(scores, limit):
            return [s[s > limit] for s in scores]


        def first_rest(xs: list[Tensor]) -> Tensor:
            acc = xs[0]
            for x in xs[1:]:
                acc = acc + x
            return acc
    """,
    # ``boxes[i] = boxes[i][keep]``: the list now holds data-dependent tensors, and what is
    # built from it (their concatenation, sized by its length) downstream is too
    "list_element_replaced_per_image": """
        import torch


        def choose(scores: list[torch.Tensor]):
            picked = []
            for s in scores:
                picked.append(torch.where(s > 0)[0])  # expect: DS103
            return picked


        def subsample(boxes: list[torch.Tensor], scores: list[torch.Tensor]):
            picked = choose(scores)
            for i in range(len(boxes)):
                boxes[i] = boxes[i][picked[i]]  # expect: DS111
            return boxes


        def pool(boxes: list[torch.Tensor]):
            rois = torch.cat(boxes, dim=0)
            return torch.zeros((len(rois), 4))  # expect: DS113


        def fixed(boxes: list[torch.Tensor]):
            for i in range(len(boxes)):
                boxes[i] = boxes[i][:, :4]
            rois = torch.cat(boxes, dim=0)
            return torch.zeros((len(rois), 4))


        def run(boxes: list[torch.Tensor], scores: list[torch.Tensor]):
            return pool(subsample(boxes, scores)), fixed(boxes)
    """,
    # ``else: idxs = None``: after the ``if``, ``idxs`` is the list the other branch built
    "none_on_the_other_branch": """
        import torch


        def loss(logits, idxs):
            # type: (Tensor, list[Tensor]) -> Tensor
            labels = torch.cat([i for i in idxs], dim=0)
            return logits[torch.arange(labels.shape[0]), labels]  # expect: DS111, DS113


        def step(logits, labels: list[torch.Tensor], training: bool):
            if training:
                idxs = []
                for lab in labels:
                    idxs.append(torch.where(lab > 0)[0])  # expect: DS103
            else:
                idxs = None
            return loss(logits, idxs)
    """,
    # a branch that rewrites a size from data with a host expression leaves the size a value
    # read from data on the other path
    "size_kept_through_a_branch": """
        import torch


        def pad(targets: torch.Tensor, batch: int, device: torch.device):
            idx = targets[:, 0].long()
            _, counts = idx.unique(return_counts=True)  # expect: DS101
            n = counts.max()
            if device.type == "mps":
                n = 1 << (int(n) - 1).bit_length()
            width = targets.shape[1]
            if batch > 8:
                width = 6
            return torch.zeros(batch, n, 5), torch.zeros(batch, width)  # expect: DS113
    """,
    # a container of per-box tensors annotated as such, indexed by a data-dependent index
    "container_indexed_by_data": """
        from typing import List

        import torch


        class Boxes:
            def __init__(self, t):
                self.t = t

            def __getitem__(self, item):
                return Boxes(self.t[item])


        def visible(items: List[Boxes], scores: List[torch.Tensor]):
            out = []
            for it, s in zip(items, scores):
                keep = torch.nonzero(s > 0)[:, 0]  # expect: DS103
                out.append(it[keep])  # expect: DS111
                out.append(it[0])
            return out
    """,
    # a beam search's candidates kept as the keys of a dict (token sequences read from tensor
    # data): iterating the dict yields data, a branch on it is a branch on data, and the list
    # filled under that branch comes back to torch with a length the data chose; the twin
    # keys its dict by position and rebuilds a tensor of a fixed length
    "dict_keyed_by_data": """
        import torch


        def step(tokens: torch.Tensor, logprobs: torch.Tensor, eot: int):
            scores = {}
            for row in range(tokens.shape[0]):
                prefix = tokens[row].tolist()
                for logprob, token in zip(*logprobs[row].topk(3)):
                    scores[tuple(prefix + [token.item()])] = logprob.item()
            kept = []
            for sequence in sorted(scores, key=scores.get, reverse=True):
                if sequence[-1] == eot:  # expect: DS116
                    continue
                kept.append(sequence)
            return torch.tensor(kept)  # expect: DS121


        def step_static(tokens: torch.Tensor, eot: int):
            rows = {}
            for row in range(tokens.shape[0]):
                rows[row] = row * 2
            kept = []
            for key in sorted(rows):
                if key == eot:
                    continue
                kept.append(key)
            return torch.tensor(kept)
    """,
    # a collate function padding each batch to its longest item (VITS's TextAudioCollate):
    # the items' sizes read with ``.size(k)`` on untyped batch items, the buffers made with
    # the legacy typed constructors; given data, those constructors are no size
    "collate_padding_to_the_longest_item": """
        import torch


        class Collate:
            def __call__(self, batch):
                max_spec = max([x[1].size(1) for x in batch])
                max_wav = max(x[2].size(1) for x in batch)
                lengths = torch.LongTensor([x[1].size(1) for x in batch])
                spec = torch.FloatTensor(len(batch), 80, max_spec)  # expect: DS119
                wav = torch.zeros(len(batch), 1, max_wav)  # expect: DS119
                fixed = torch.FloatTensor(len(batch), 80, 400)
                return spec, wav, lengths, fixed


        def main(ds):
            return torch.utils.data.DataLoader(ds, batch_size=4, collate_fn=Collate())
    """,
    # a loss Module's ``forward`` argument compared with a number and used as a mask
    # (a detector's padded annotations, ``-1`` rows dropped per image): an argument may be a
    # number (``forward(self, x, h, w)``), so a branch on its comparison reads no tensor, but
    # only a boolean tensor indexes a tensor, and its True count is the caller's data. A
    # comparison with values the code decided (``torch.arange``) is a tensor's already.
    "forward_argument_compared_into_a_mask": """
        import torch
        from torch import nn


        class FocalLoss(nn.Module):
            def forward(self, classifications, annotations, labels):
                losses = []
                for j in range(classifications.shape[0]):
                    boxes = annotations[j, :, :]
                    boxes = boxes[boxes[:, 4] != -1]  # expect: DS104
                    if boxes.shape[0] == 0:  # expect: DS116
                        continue
                    losses.append(boxes.sum())
                wide = (annotations[:, :, 2] > 0) & (annotations[:, :, 3] > 0)
                kept = classifications[wide]  # expect: DS104
                return torch.stack(losses), kept, classifications[~(labels < 0)]  # expect: DS104


        class Crop(nn.Module):
            def forward(self, x, h, w):
                if h > 0:
                    x = x[:, :, :h]
                idx = torch.arange(x.shape[1])
                return x[:, idx != 0], x * (w > 1)
    """,
    # targets matched to anchors in a helper (a mask on one branch, all rows on the other),
    # handed back as per-level lists of index tuples: after the ``if``/``else`` the rows may be
    # the masked ones, so the gathers, the stores of tensors through them and a branch on
    # their count are data-dependent; a literal size of another dimension is static, and a
    # host value stored through the index fills a static tensor
    "matched_targets_through_lists": """
        import torch


        def build_targets(p, targets, levels: int):
            nt = targets.shape[0]
            cls, indices = [], []
            for i in range(levels):
                t = targets * 2
                if nt:
                    j = torch.max(t, 1.0 / t).max(2)[0] < 4
                    t = t[j]  # expect: DS104
                else:
                    t = targets[0]
                b, c = t[:, :2].long().T
                a = t[:, 6].long()
                indices.append((b, a))
                cls.append(c)
            return cls, indices


        def compute_loss(predictions, targets):
            cls, indices = build_targets(predictions, targets, 3)
            total = torch.zeros(1)
            for level, pred in enumerate(predictions):
                b, anchor = indices[level]
                obj = torch.zeros_like(pred[..., 0])
                n = b.shape[0]
                if n:  # expect: DS116
                    ps = pred[b, anchor]  # expect: DS111
                    obj[b, anchor] = ps[:, 4].detach()  # expect: DS111
                    if ps.size(1) - 5 > 1:
                        t = torch.zeros_like(ps[:, 5:])
                        t[range(n), cls[level]] = 1
                        total += (ps[:, 5:] - t).sum()
                total += obj.sum()
            return total
    """,
    # ``isinstance(n, torch.Tensor)`` of a shape's length is false in eager mode: the clamped
    # tensor of that branch never reaches ``topk`` or ``torch.full`` (no finding), while a count
    # read from data is a tensor and its branch runs (DS113); the helper moving both to a
    # device stays static for the images, padded to the largest of the batch (DS119)
    "tensor_test_of_a_host_length": """
        import torch


        def move_like(src, dst):
            return src.to(dst.device)


        def batch(tensors):
            image_sizes = [(im.shape[-2], im.shape[-1]) for im in tensors]
            max_size = torch.stack([torch.as_tensor(x) for x in image_sizes]).max(0).values
            shape = [len(tensors)] + list(tensors[0].shape[:-2]) + list(max_size)
            return tensors[0].new_full(shape, 0.0)  # expect: DS119


        def top_by_length(logits, topk: int):
            n = logits.shape[1]
            if isinstance(n, torch.Tensor):
                k = torch.clamp(n, max=topk)
            else:
                k = min(n, topk)
            scores, idx = logits.topk(k, dim=1)
            ids = move_like(torch.full((k,), 0, dtype=torch.int64), logits)
            return scores, ids


        def top_by_count(logits, topk: int):
            n = (logits > 0).sum()
            if torch.is_tensor(n):
                k = torch.clamp(n, max=topk)
            else:
                k = min(n, topk)
            return torch.full((k,), 0, dtype=torch.int64)  # expect: DS113


        def preprocess(batched_inputs, mean):
            images = [move_like(x["image"], mean) for x in batched_inputs]
            return batch(images)
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fact(tmp_path: Path, name: str) -> None:
    write_repo(tmp_path, {f"{name}.py": CASES[name]})
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=1)


#: torchvision scanned as a repository of its own: its names are torch's API for the report,
#: but its heads hand per-image boxes to its pooler (a module of another file held in an
#: attribute), and the pooler's size is read from what they hand it
OWN_PACKAGE = {
    "torchvision/__init__.py": "",
    "torchvision/ops/__init__.py": "from .pooling import BoxPool\n",
    "torchvision/ops/pooling.py": """
        import torch
        from torch import nn


        def to_rois(boxes: list[torch.Tensor]) -> torch.Tensor:
            return torch.cat(boxes, dim=0)


        class BoxPool(nn.Module):
            def forward(self, feats, boxes):
                rois = to_rois(boxes)
                out = torch.zeros((len(rois), feats.shape[1], 7, 7))  # expect: DS113
                fixed = torch.zeros((feats.shape[0], 7))
                return out, fixed
    """,
    "torchvision/models/heads.py": """
        import torch
        from torch import nn

        from torchvision.ops import BoxPool


        class Heads(nn.Module):
            def __init__(self, pool=None):
                super().__init__()
                if pool is None:
                    pool = BoxPool()
                self.pool = pool

            def forward(self, feats, boxes: list[torch.Tensor], scores: list[torch.Tensor]):
                kept = []
                for b, s in zip(boxes, scores):
                    kept.append(b[s > 0.5])  # expect: DS104
                return self.pool(feats, kept)
    """,
}


def test_torchvision_scanned_as_its_own_repository(tmp_path: Path) -> None:
    write_repo(tmp_path, OWN_PACKAGE)
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=2)


def test_a_helper_returning_its_argument_returns_each_callers_own(tmp_path: Path) -> None:
    """``maybe_cast`` is handed a static feature map by one call and data-dependent boxes by
    another: each call gets back what it passed, so the map's size stays static."""
    src = """
        import torch


        def maybe_cast(t):
            if torch.is_autocast_enabled():
                return t.float()
            return t


        def align(feature: torch.Tensor, scores: torch.Tensor):
            boxes = maybe_cast(torch.nonzero(scores > 0.5))  # expect: DS103
            feature = maybe_cast(feature)
            n, channels, h, w = feature.size()
            idx = torch.arange(channels)
            rows = torch.arange(boxes.shape[0])  # expect: DS113
            return idx, rows
    """
    write_repo(tmp_path, {"align.py": src})
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=2)


#: targets joined in a ``collate_fn`` cross the DataLoader into the training step: a method
#: of a dataset class in another file that tags each sample's rows with its position before
#: joining them (per-sample lengths), and a function returning indices from ``nonzero``; the
#: loss a step hands them to reads their row counts. The images, stacked, stay static.
LOADER_BOUNDARY = {
    "data.py": """
        import torch
        from torch.utils.data import Dataset


        class Boxes(Dataset):
            def __getitem__(self, i):
                return torch.zeros(3, 8, 8), torch.zeros(i % 4, 6)

            def collate_fn(self, batch):
                imgs, targets = list(zip(*batch))
                for i, boxes in enumerate(targets):
                    boxes[:, 0] = i
                targets = torch.cat(targets, 0)  # expect: DS120
                return torch.stack(imgs), targets


        def collate_masks(batch):
            imgs = torch.stack([b[0] for b in batch])
            masks = torch.stack([b[1] for b in batch])
            idx = masks.flatten().nonzero().flatten()  # expect: DS103
            return imgs, idx


        def collate_plain(batch):
            imgs, labels = list(zip(*batch))
            for i, img in enumerate(imgs):
                img[0] = 0
            return torch.cat(imgs, 0), torch.stack(labels)
    """,
    "loss.py": """
        import torch


        def compute_loss(pred, targets):
            nt = targets.shape[0]
            if nt:  # expect: DS116
                b = targets[:, 0].long()
                ps = pred[b]  # expect: DS111
                return ps.sum()
            return pred.sum()


        def patch_loss(out, idx):
            picked = torch.index_select(out.flatten(1), 1, idx)  # expect: DS111
            return picked.sum()


        def plain_loss(out, labels):
            if labels.shape[0]:
                return (out - labels).sum()
            return out.sum()
    """,
    "train.py": """
        import torch
        import tqdm
        from torch import nn
        from torch.utils.data import DataLoader

        from data import Boxes, collate_masks, collate_plain
        from loss import compute_loss, patch_loss, plain_loss


        def make_loader():
            ds = Boxes()
            return DataLoader(ds, batch_size=2, collate_fn=ds.collate_fn)


        def train(model: nn.Module, masks_ds, plain_ds):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for step, (imgs, targets) in enumerate(tqdm.tqdm(make_loader())):
                loss = compute_loss(model(imgs), targets)
                loss.backward()
                opt.step()
            for imgs, idx in DataLoader(masks_ds, batch_size=2, collate_fn=collate_masks):
                patch_loss(model(imgs), idx).backward()
            for imgs, labels in DataLoader(plain_ds, batch_size=2, collate_fn=collate_plain):
                plain_loss(model(imgs), labels).backward()
    """,
}


def test_collated_targets_cross_the_loader(tmp_path: Path) -> None:
    write_repo(tmp_path, LOADER_BOUNDARY)
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=5)
