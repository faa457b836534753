"""The dynamic-shape facts behind issue 19's classes, one snippet per class: exactly the lines
marked ``# expect: DSxxx`` are reported (the static twins beside them are not)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo, write_repo

CASES = {
    "per_sample_targets": """
        import torch
        from torch import nn


        class Matcher(nn.Module):
            def forward(self, logits, targets):
                labels = torch.cat([t["labels"] for t in targets])  # expect: DS120
                boxes = torch.cat([t["boxes"] for t in targets], 0)  # expect: DS120
                sizes = torch.stack([t["size"] for t in targets])
                wide = torch.cat([t["feat"] for t in targets], dim=1)
                counts = [len(t["boxes"]) for t in targets]
                parts = logits.split(counts, -1)  # expect: DS109
                fixed = logits.split(4, -1)
                for t in targets:
                    rows = logits.new_zeros(t["boxes"].shape[0])  # expect: DS113
                    cols = logits.new_zeros(t["boxes"].shape[1])
                    also = logits.new_zeros(t["boxes"].size(0), 4)  # expect: DS113
                return labels, boxes, sizes, wide, parts, fixed, rows, cols, also
    """,
    "feature_levels_are_not_samples": """
        import torch
        from torch import nn


        class Head(nn.Module):
            def forward(self, feats: list[torch.Tensor]):
                out = []
                for x in feats:
                    n, c, h, w = x.shape
                    out.append(x.view(n, c, -1))
                return torch.cat(out, dim=2), torch.cat([f for f in feats])
    """,
    "host_round_trips": """
        import numpy as np
        import torch
        from scipy.optimize import linear_sum_assignment


        def match(cost: torch.Tensor):
            rows, cols = linear_sum_assignment(cost.cpu())
            index = torch.as_tensor(rows, dtype=torch.int64)  # expect: DS121
            table = cost.detach().cpu().numpy()
            nearest = torch.from_numpy(np.argmin(table, axis=1))
            positive = torch.from_numpy(np.flatnonzero(table > 0))  # expect: DS121
            keep = [i for i, s in enumerate(cost.tolist()) if s > 0.5]  # expect: DS116
            kept = torch.tensor(keep)  # expect: DS121
            return index, nearest, positive, kept
    """,
    "masks_without_a_comparison": """
        import torch


        class Fields:
            def __init__(self, **items):
                self.items = dict(items)

            def filter(self, keep):
                for name, value in self.items.items():
                    self.items[name] = value[keep]  # expect: DS104


        def select(x: torch.Tensor, flags):
            allowed = torch.as_tensor(flags, dtype=torch.bool)
            a = x[allowed]  # expect: DS104
            b = x[~allowed]  # expect: DS104
            c = x[allowed & x.isfinite()]  # expect: DS104
            d = x[x.to(torch.bool)]  # expect: DS104
            e = x[x.long()]
            wide = torch.as_tensor([r[2] > r[0] for r in x.tolist()])
            f = x[wide]  # expect: DS104
            ends = torch.as_tensor([r[2] for r in x.tolist()])
            g = x[ends]
            fields = Fields(x=x)
            fields.filter(allowed)
            return a, b, c, d, e, f, g
    """,
    "sizes_from_tensor_values": """
        import torch
        import torch.nn.functional as F


        def paste(masks: torch.Tensor, size: torch.Tensor, canvas: torch.Tensor):
            h, w = size
            crop = canvas[:, :h, :w]  # expect: DS109
            fixed = canvas[:, :16, :16]
            full = F.interpolate(masks, tuple(size.tolist()))  # expect: DS113, DS118
            pad = int(size.max() - h)  # expect: DS118
            wide = F.pad(masks, [0, pad])  # expect: DS113
            same = F.pad(masks, [0, 2])
            return crop, fixed, full, wide, same
    """,
    "batch_max_padding": """
        import torch


        def collate(batch):
            images = [item[0] for item in batch]
            height = max(img.shape[1] for img in images)
            width = max(img.shape[2] for img in images)
            out = torch.zeros(len(images), 3, height, width)  # expect: DS119
            return out, [item[1] for item in batch]


        def pad_to(images, sizes):
            h = max(s[0] for s in sizes)
            w = max(s[1] for s in sizes)
            return torch.zeros(len(images), 3, h, w)  # expect: DS119


        def pad_like(images):
            largest = tuple(max(s) for s in zip(*[img.shape for img in images]))
            return images[0].new_zeros((len(images),) + largest)  # expect: DS119


        def stack_fixed(images):
            return images[0].new_zeros((len(images), 3, 64, 64))


        def pad_tokens(batch):
            longest = max(len(item[1]) for item in batch)
            tokens = torch.full((len(batch), longest), 0)  # expect: DS119
            fixed = torch.full((len(batch), 512), 0)
            return tokens, fixed
    """,
    "batch_max_in_tensors_and_loops": """
        import torch
        import torch.nn.functional as F


        def as_sizes(size):
            return torch.as_tensor(size)


        def stacked(tensors: list[torch.Tensor], stride: int = 32):
            image_sizes = [(im.shape[-2], im.shape[-1]) for im in tensors]
            max_size = torch.stack([as_sizes(x) for x in image_sizes]).max(0).values
            if stride > 1:
                max_size = (max_size + (stride - 1)).div(stride, rounding_mode="floor") * stride
            shape = [len(tensors)] + list(tensors[0].shape[:-2]) + list(max_size)
            return tensors[0].new_full(shape, 0.0)  # expect: DS119


        def listed(tensors: list[torch.Tensor]):
            sizes = torch.tensor([im.shape[-2:] for im in tensors])
            top = sizes.max(dim=0)[0].tolist()
            return tensors[0].new_zeros(len(tensors), top[0], top[1])  # expect: DS119


        def running(images: list[torch.Tensor]):
            h, w = 0, 0
            for img in images:
                h = max(h, img.shape[1])
                w = max(w, img.shape[2])
            return torch.zeros(len(images), 3, h, w)  # expect: DS119


        def one_image(images: list[torch.Tensor], boxes: torch.Tensor):
            out = []
            for img in images:
                side = max(img.shape[1], 32)
                out.append(F.pad(img, [0, side - img.shape[2]]))
            total = boxes.new_zeros(int(boxes.max()), 4)  # expect: DS113, DS118
            return out, total
    """,
    "branches_on_data": """
        import torch


        def prune(scores: torch.Tensor, labels: torch.Tensor, allowed):
            keep = scores > 0.5
            table = torch.as_tensor(allowed, dtype=torch.bool)
            total = 0
            for i in range(8):
                if keep[i]:  # expect: DS116
                    total += 1
            for label in labels:
                if not table[label.item()]:  # expect: DS116
                    total += 1
            while keep.any():  # expect: DS116
                keep = keep[1:]
            for i in range(8):
                if i % 2:
                    total += 1
            remain = scores.clone()
            while remain.numel() > 0:  # expect: DS116
                remain = remain[remain > 0.1]  # expect: DS104
            n = 0
            while n < 10:
                n += 1
            return total
    """,
    "one_element_of_an_index_is_static": """
        import torch


        def crops(masks: torch.Tensor, scores: torch.Tensor):
            keep = torch.nonzero(scores > 0.5).squeeze(1)  # expect: DS103
            out = []
            for i in keep:  # expect: DS116
                out.append(masks[i])
            first = masks[keep[0]]
            rows = masks[keep]  # expect: DS111
            return out, first, rows
    """,
    "int_of_a_forward_parameter": """
        import torch
        from torch import nn


        class Grid(nn.Module):
            def forward(self, x, size, scale: float = 2.0):
                n = int(size)  # expect: DS118
                grid = x.new_zeros(n, n)  # expect: DS113
                k = size.item()  # expect: DS118
                top = x.topk(k)  # expect: DS110
                flat = x.view(x.shape[0], -1)
                return grid, top, flat
    """,
    "host_lists_as_long_as_data": """
        import torch


        def labels_of(scores: torch.Tensor, c: int):
            keep = scores > 0.5
            n = keep.sum().item()
            labels = torch.LongTensor(n * [c])  # expect: DS121
            ids = torch.tensor([c] * n)  # expect: DS121
            order = torch.LongTensor(range(n))  # expect: DS121
            fixed = torch.LongTensor(4 * [c])
            return labels, ids, order, fixed
    """,
    # unpacking a packed sequence without total_length gives max(lengths), read from the
    # values of per-sample lengths; with total_length the shape is the code's, and packing
    # leaves no shape behind (MindSpore's RNNs take the padded batch and seq_length)
    "packed_sequences": """
        import torch
        from torch import nn
        from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(4, 4, batch_first=True)

            def forward(self, x, input_lengths):
                input_lengths = input_lengths.cpu().numpy()
                x = pack_padded_sequence(x, input_lengths, batch_first=True)
                outputs, _ = self.lstm(x)
                outputs, _ = pad_packed_sequence(outputs, batch_first=True)  # expect: DS113
                fixed = nn.utils.rnn.pack_padded_sequence(x, [4, 4], batch_first=True)
                full, _ = nn.utils.rnn.pad_packed_sequence(fixed, batch_first=True, total_length=4)
                return outputs, full
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_class(tmp_path: Path, name: str) -> None:
    write_repo(tmp_path, {f"{name}.py": CASES[name]})
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=0)


def test_a_finding_inside_an_f_string_is_placed_there(tmp_path: Path) -> None:
    """Nodes inside f-strings are numbered apart from the others of their kind; a dynamic-shape
    finding on one was once looked up among the others and reported on another line."""
    src = (
        "import torch\n\n\n"
        "def first_minus_last(a):\n"
        "    return a[-1] - a[0]\n\n\n"
        "def report(x: torch.Tensor, thr: float):\n"
        '    print(f"past={x[x > thr].mean():.3f}")\n'
    )
    write_repo(tmp_path, {"m.py": src})
    found = [(f.span.line, f.span.column, f.rule) for f in scan_repo(tmp_path).shape_findings]
    assert found == [(9, 19, "DS104")]
