"""False dynamic-shape findings found on repositories nobody had tuned for, one snippet per
class of error: exactly the lines marked ``# expect: DSxxx`` are reported. Each snippet keeps a
twin that must still be reported, so that a fix which only silences is caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, scan_repo, write_repo

CASES = {
    # A detector's strides live in the model (a buffer or an attribute set when it is built):
    # reading one on the host reads a constant, and sizes computed from it are static. A
    # maximum read from the scores is data, and so is a learned parameter's value (an
    # adaptive attention span changes at every step).
    "model_state_is_no_data": """
        import torch
        from torch import nn


        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.stride = torch.tensor([8.0, 16.0, 32.0])

            def forward(self, x):
                return x * int(self.stride.max())


        class AdaptiveSpan(nn.Module):
            def __init__(self, size: int):
                super().__init__()
                self.span = nn.Parameter(torch.zeros(1) + 0.5)
                self.size = size

            def forward(self, key):
                trim = int(self.span.max().item() * self.size)  # expect: DS118
                return key[:, trim:]  # expect: DS109


        def warm_up(model, size: int, scores: torch.Tensor):
            grid = max(int(model.stride.max()), 32)
            side = size // grid * grid
            blank = torch.zeros(1, 3, side, side)
            top = int(scores.max())  # expect: DS118
            picked = torch.zeros(top)  # expect: DS113
            return blank, picked
    """,
    # A helper written for numpy arrays, whose methods share names with a tensor's, returns
    # an array when it is handed one: its comparisons branch on host numbers, not on data. The
    # same helper handed a tensor returns a tensor.
    "numpy_through_a_helper": """
        import numpy as np
        import torch


        def weighted(x):
            w = [0.1, 0.9]
            return (x[:, :2] * w).sum(1)


        def keep_best(results, best):
            score = weighted(np.array(results).reshape(1, -1))
            if score > best:
                best = score
            return best


        def keep_best_on_device(preds: torch.Tensor, best):
            score = weighted(preds)
            if score > best:  # expect: DS116
                best = score
            return best
    """,
    # A parameter annotated with a plain Python type is a host value, whatever a caller
    # passes for it (here a tensor, by mistake or through a keyword of the same name); an
    # unannotated one that receives a tensor reads data.
    "plain_annotation_wins": """
        import torch


        def step(x: torch.Tensor, use_cache: bool | None = None):
            if use_cache:
                x = x + 1
            return x


        def step_any(x: torch.Tensor, flag=None):
            if flag:  # expect: DS116
                x = x + 1
            return x


        def run(x: torch.Tensor):
            y = step(x, use_cache=(x > 0).any())
            return step_any(y, flag=(x > 0).any())
    """,
    # A mask a factory filled with constants selects a number of elements the code decides
    # (the tokens a decoder may emit): a static shape. Once an index read from data is stored
    # into it (NMS survivors), it is a data mask like any other.
    "constant_masks": """
        import torch


        def suppress(logits: torch.Tensor, banned: list[int]):
            allowed = torch.ones(logits.shape[-1], dtype=torch.bool)
            allowed[banned] = False
            logits[:, ~allowed] = -1e9
            return logits[:, allowed]


        def survivors(boxes: torch.Tensor, scores: torch.Tensor):
            order = scores.argsort(descending=True)
            kept = torch.nonzero(scores[order] > 0.5)  # expect: DS103
            keep_mask = torch.zeros_like(scores, dtype=torch.bool)
            keep_mask[kept] = True
            return boxes[keep_mask]  # expect: DS104


        def refilled(x: torch.Tensor, scores: torch.Tensor):
            picked = torch.zeros(x.shape[0], dtype=torch.bool)
            picked[:] = scores > 0.5
            return x[picked]  # expect: DS104
    """,
    # A host value stored through a boolean mask keeps the tensor's shape, but only the
    # mask-alone form compiles to one Select in MindSpore 2.10; with full slices or ``...``
    # beside the mask, or the mask on a later dimension, the graph goes through NonZero and
    # TensorScatterUpdate (the compiled IR: see ShapeTracker.settle_stores), so those stay
    # reported however alike they read.
    "masked_stores_of_host_values": """
        import torch


        def encode(targets: torch.Tensor, ious: torch.Tensor, ignore: int) -> torch.Tensor:
            targets[ious < 0.4] = 0
            targets[(ious >= 0.4) & (ious < 0.5)] = ignore
            targets[ious < 0.4, :] = 0  # expect: DS104
            targets[ious >= 0.5, ...] = 1  # expect: DS104
            targets[:, ious[0] < 0.4] = 1.0  # expect: DS104
            return targets
    """,
    # An array computed from an array kept in an attribute stays an array, and so does what
    # ``.numpy()`` hands back, whatever held it: their methods' results are host values, and
    # branches on them read no tensor data. A tensor's own reduction still counts.
    "arrays_stay_arrays": """
        import numpy as np
        import torch


        class Shapes:
            def __init__(self, sizes):
                self.sizes = np.array(sizes)

            def rect(self, batch):
                s = self.sizes
                ratios = s[:, 1] / s[:, 0]
                order = ratios.argsort()
                part = ratios[order][batch]
                low, high = part.min(), part.max()
                if high < 1:
                    return [high, 1]
                elif low > 1:
                    return [1, 1 / low]
                return [1, 1]


        def corners(x):
            y = x.copy()
            y[:, 2:] = x[:, :2] + x[:, 2:]
            return y


        def plot(targets, i):
            targets = targets.cpu().numpy()
            mine = targets[targets[:, 0] == i]
            boxes = corners(mine[:, 2:6]).T
            if boxes.max() <= 1.01:
                boxes = boxes * 640
            return boxes


        def gate(scores: torch.Tensor):
            if scores.max() < 1:  # expect: DS116
                return scores * 2
            return scores
    """,
    # A method only numpy's arrays have says the receiver is an array: what it returns,
    # and the comparisons of that, are host values.
    "numpy_only_methods": """
        import torch


        def paste(labels, segments, w: int, h: int):
            kept = []
            for j in range(len(segments)):
                row = labels[j]
                box = row[1].astype(int).clip(0, w - 1), row[2].astype(int).clip(0, h - 1)
                if box[1] <= box[0]:
                    continue
                kept.append(box)
            return kept


        def clipped(x: torch.Tensor):
            y = x.clip(0, 1)
            if y.sum() > 0:  # expect: DS116
                return y
            return x
    """,
    # Gathering rows of a tensor whose first dimension alone varies, with an index tensor of
    # static shape, gives the index's shape: the assigner's ``labels.flatten()[gt_idx]``.
    # Reading the varying length itself still is data.
    # topk with a static k gives indices of a static shape: named like a mask (``keep``),
    # they still hold integer positions, and gathering with them keeps the shape. A
    # comparison of scores is a mask of data, whatever it is named.
    "topk_indices_named_keep": """
        import torch
        from torch import nn


        class PatchDropout(nn.Module):
            def __init__(self, prob: float):
                super().__init__()
                self.prob = prob

            def forward(self, x):
                batch, tokens = x.size()[0], x.size()[1]
                rows = torch.arange(batch)[..., None]
                n_keep = max(1, int(tokens * (1 - self.prob)))
                patch_indices_keep = torch.randn(batch, tokens).topk(n_keep, dim=-1).indices
                return x[rows, patch_indices_keep]


        def drop_low(x: torch.Tensor, scores: torch.Tensor):
            keep = scores > 0.5
            return x[keep]  # expect: DS104
    """,
    # A mask compared from ``torch.arange`` of a static size and a constant (or an attribute
    # set at construction) holds no data: which tokens it drops is decided by the code. One
    # compared with lengths handed in (a tensor of data) is a data mask.
    "mask_from_arange_and_a_constant": """
        import torch
        from torch import nn


        class Tower(nn.Module):
            def __init__(self, pos: int):
                super().__init__()
                self.pos = pos

            def forward(self, x):
                seq_len = x.shape[1]
                no_cls = x[:, torch.arange(seq_len) != self.pos, :]
                firsts = x[:, torch.arange(seq_len) < 4]
                return no_cls, firsts


        def valid_tokens(x, lengths):
            mask = torch.arange(x.shape[1])[None, :] < lengths[:, None]
            return x[mask]  # expect: DS104


        def overwritten(x: torch.Tensor, scores: torch.Tensor):
            levels = torch.zeros(x.shape[0])
            levels[:] = scores
            return x[levels > 0]  # expect: DS104
    """,
    "gather_by_a_static_index": """
        import torch


        def assign(labels: torch.Tensor, valid: torch.Tensor, gt_idx: torch.Tensor):
            kept = labels[valid]  # expect: DS104
            flat = kept.flatten()
            picked = flat[gt_idx]
            scores = torch.zeros((picked.shape[0], picked.shape[1], 80))
            rows = kept[gt_idx]
            table = torch.zeros(rows.shape[0], 4)
            count = torch.zeros(flat.shape[0])  # expect: DS113
            return scores, table, count
    """,
    # A tensor made of the sizes of a list's tensors (the crop widths of a multi-crop batch)
    # holds shapes, not data: grouping it (``unique_consecutive``) and looping over the
    # groups is decided by the input shapes. Labels gathered from per-sample records are data.
    "sizes_in_a_tensor": """
        import torch
        from torch import nn


        class MultiCrop(nn.Module):
            def __init__(self, backbone):
                super().__init__()
                self.backbone = backbone

            def forward(self, crops):
                if not isinstance(crops, list):
                    crops = [crops]
                widths = torch.tensor([c.shape[-1] for c in crops])
                ends = torch.cumsum(torch.unique_consecutive(widths, return_counts=True)[1], 0)
                start, out = 0, []
                for end in ends:
                    out.append(self.backbone(torch.cat(crops[start:end])))
                    start = end
                return torch.cat(out)


        def present(targets):
            ids = torch.tensor([t["label"] for t in targets])
            return torch.unique(ids)  # expect: DS101
    """,
    # A forward argument is a tensor only by convention: a head that every caller hands
    # ``h // 14`` with ``h, w = x.shape[-2:]`` gets a size from shapes, and ``int()`` of it
    # reads no tensor. A head handed a count read from the scores still sizes by data.
    "forward_argument_passed_a_size": """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Head(nn.Module):
            def forward(self, out, patch_h, patch_w):
                return F.interpolate(out, (int(patch_h * 14), int(patch_w * 14)))


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()

            def forward(self, x):
                h, w = x.shape[-2:]
                patch_h, patch_w = h // 14, w // 14
                return self.head(x, patch_h, patch_w)


        class Picker(nn.Module):
            def forward(self, boxes, n):
                return boxes.new_zeros(int(n), 4)  # expect: DS113, DS118


        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.picker = Picker()

            def forward(self, boxes, scores):
                n = (scores > 0.5).sum().item()
                return self.picker(boxes, n)
    """,
    # A method called on a standard module's name the file never imports (``math`` used
    # without its import) is no tensor's: the grid side it computes from ``len()`` and a shape
    # is a host number. The same side computed from a tensor's values is still data.
    "unimported_module_is_no_tensor": """
        import torch
        import torch.nn.functional as F


        def resize(posemb, posemb_new):
            ntok_new = posemb_new.shape[1] - 1
            grid = posemb[0, 1:]
            gs_old = int(math.sqrt(len(grid)))
            gs_new = int(math.sqrt(ntok_new))
            grid = grid.reshape(1, gs_old, gs_old, -1).permute(0, 3, 1, 2)
            return F.interpolate(grid, size=(gs_new, gs_new), mode="bicubic")


        def side(counts: torch.Tensor, feats: torch.Tensor):
            n = int(counts.sum().sqrt())  # expect: DS118
            return feats.reshape(n, n, -1)  # expect: DS113
    """,
    # A library call documented to return (Tensor, int) hands back a host number second:
    # torchaudio.load's sample rate is an int, and a call of a library that is not torch's
    # never yields a data tensor by its position in the unpacking. The waveform is a tensor,
    # and a condition on its values still branches on data.
    "host_number_unpacked_from_a_call": """
        import librosa
        import soundfile
        import torch
        import torchaudio


        def load(path: str, sample_rate: int):
            waveform, sr = torchaudio.load(path)
            if sample_rate != sr:
                waveform = torchaudio.functional.resample(waveform, sr, sample_rate)
            if waveform.abs().max() > 1:  # expect: DS116
                waveform = waveform / 2
            return waveform


        def load_other(path: str, sample_rate: int):
            wav, sr = librosa.load(path)
            data, rate = soundfile.read(path)
            if sample_rate != sr or rate != sample_rate:
                wav = librosa.resample(wav, orig_sr=sr, target_sr=sample_rate)
            return torch.from_numpy(wav), data
    """,
    # ``int()`` of a quotient of shapes and forward arguments converts a float that plain
    # numbers give too (a true division): nothing is read from a tensor. ``int()`` of a
    # forward argument itself, or of a quotient of a tensor known as such, still is.
    "int_of_a_shape_quotient": """
        import torch
        from torch import nn


        def window_reverse(windows, window_size, H, W):
            B = int(windows.shape[0] / (H * W / window_size / window_size))
            return windows.view(B, H // window_size, W // window_size, -1)


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.window_size = 7
                self.proj = nn.Linear(4, 4)

            def forward(self, x, x_size, count):
                H, W = x_size
                y = window_reverse(self.proj(x), self.window_size, H, W)
                n = int(count)  # expect: DS118
                m = int(x.sum() / 2)  # expect: DS118
                return y.new_zeros(n), y.new_zeros(m)  # expect: DS113
    """,
    # Host data compared with values of unknown kind (``c`` of ``np.unique(labels)`` against
    # a caller's arrays): numpy compares them, and a branch on the counts is a host branch.
    # The same loop comparing a tensor known as such still branches on tensor data.
    "numpy_counts_per_class": """
        import numpy as np
        import torch
        import tqdm


        def ap_per_class(tp, conf, pred_cls, target_cls):
            i = np.argsort(-conf)
            tp, conf, pred_cls = tp[i], conf[i], pred_cls[i]
            ap = []
            for c in tqdm.tqdm(np.unique(target_cls), desc="AP"):
                i = pred_cls == c
                n_gt = (target_cls == c).sum()
                n_p = i.sum()
                if n_p == 0 and n_gt == 0:
                    continue
                ap.append(float(n_p) / max(float(n_gt), 1.0))
            return np.array(ap)


        def counts_per_class(scores: torch.Tensor, labels):
            out = []
            for c in np.unique(labels):
                n = (scores == c).sum()
                if n == 0:  # expect: DS116
                    continue
                out.append(n)
            return out
    """,
    # Step numbers made by the code (``torch.linspace`` of host numbers) and read back with
    # ``.tolist()`` are constants on the host: a branch on them (``if time_next < 0``) is plain
    # Python. The same branch on numbers read from what the network computed is data, and so
    # is one on a 0-d tensor of the schedule.
    "tolist_of_a_code_made_tensor": """
        import torch
        from torch import nn


        class Sampler(nn.Module):
            def forward(self, img, steps: int, total: int):
                times = torch.linspace(-1, total - 1, steps=steps + 1)
                times = list(reversed(times.int().tolist()))
                for time, time_next in zip(times[:-1], times[1:]):
                    if time_next < 0:
                        img = img * 0.5
                for t in times:
                    if t == 0:
                        img = img + 1
                for label in img.argmax(0).tolist():
                    if label > 2:  # expect: DS116
                        img = img - 1
                sigmas = torch.linspace(1.0, 0.0, steps + 1)
                if sigmas[1] == 0:  # expect: DS116
                    img = img * 2
                return img
    """,
    # A repository predicate handed one element's size (``is_batch_tensor(t, batch)``, whose
    # every return is a comparison or a constant) answers a question about shapes: it builds
    # no tensor of the sizes, and a branch on it reads no tensor data. A helper that reduces
    # the tensor's values is still a read of data.
    "predicate_of_an_element_size": """
        import torch
        from torch import is_tensor, nn


        def is_batch_tensor(t, b):
            if not is_tensor(t) or t.ndim == 0:
                return False
            batch = t.shape[0]
            return batch == b


        def any_positive(t, b):
            return (t[:b] > 0).any()


        class Wrap(nn.Module):
            def forward(self, xs):
                first = next(t for t in xs if is_tensor(t))
                batch = first.shape[0]
                out = [t * 2 if is_batch_tensor(t, batch) else t for t in xs]
                if any_positive(first, batch):  # expect: DS116
                    out.append(first)
                return out
    """,
    # A list built over range(masks.shape[0]) is as long as a tensor, not host data sized on
    # the host: a mask made of its comparisons (dtype=torch.bool) indexes as a mask (DS104),
    # with no round trip (DS121) and no second loop finding where the list is read. A loop
    # over range(int(count)) is counted by a number read from data: DS116 and its read DS118.
    # Twins: indices numpy sized from tensor data still come back (DS121) and gather (DS111).
    "host_built_masks_and_counted_loops": """
        import numpy as np
        import torch


        def areas_of(masks: torch.Tensor):
            ids = masks.argmax(0)
            return [ids.eq(i).sum().item() for i in range(masks.shape[0])]  # expect: DS116


        def prune(masks: torch.Tensor, scores: torch.Tensor, min_area: int):
            keep = masks.sum((1, 2)) > 0
            masks = masks[keep]  # expect: DS104
            scores = scores[keep]  # expect: DS104
            areas = areas_of(masks)
            small = torch.as_tensor([a <= min_area for a in areas], dtype=torch.bool)
            return scores[~small], masks[~small]  # expect: DS104


        def picked(labels: torch.Tensor, feats: torch.Tensor):
            ids = np.nonzero(labels.cpu().numpy() > 0)[0]
            rows = torch.as_tensor(ids)  # expect: DS121
            return feats[rows]  # expect: DS111


        def halve(x: torch.Tensor, gate: torch.Tensor):
            count = (gate > 0).sum()
            for _ in range(int(count)):  # expect: DS116, DS118
                x = x * 0.5
            for _ in range(x.shape[0]):
                x = x + 0
            return x
    """,
    # numpy over lists built in Python (the names a log holds, the keys a caller asks for)
    # gives a host array: its length is no tensor's shape. The same call given tensor data
    # taken to the host still decides a length from that data.
    "numpy_of_python_lists": """
        import numpy as np
        import torch
        from torch import nn


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(4, 4)

            def log_images(self, x, return_keys=None):
                log = dict()
                log["inputs"] = self.proj(x)
                if np.intersect1d(list(log.keys()), return_keys).shape[0] == 0:
                    return log
                if len(np.setdiff1d(["a", "b"], [k for k in log])) > 1:
                    return log
                y = self.proj(x)
                if np.unique(y.detach().cpu().numpy()).shape[0] > 1:  # expect: DS116
                    return log
                return {key: log[key] for key in return_keys}
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_class(tmp_path: Path, name: str) -> None:
    write_repo(tmp_path, {f"{name}.py": CASES[name]})
    assert_exactly_marked(scan_repo(tmp_path), tmp_path, at_least=1)


def test_a_sliced_mask_store_says_the_mask_alone_keeps_the_shape(tmp_path: Path) -> None:
    """``x[mask, :] = 0`` means ``x[mask] = 0``, whose graph is static: the finding says so.
    ``x[:, mask] = 1.0`` has no such spelling, and a tensor value may hold one row per
    ``True``: neither is told that."""
    write_repo(tmp_path, {"encode.py": CASES["masked_stores_of_host_values"]})
    words = {f.span.line: f.message for f in scan_repo(tmp_path).shape_findings}
    assert sorted(words) == [7, 8, 9]
    for line in (7, 8):
        assert "with the mask alone (x[mask] = v" in words[line]
        assert "NonZero, then TensorScatterUpdate" in words[line]
    assert "mask alone" not in words[9]
    tensor_value = """
        import torch


        def copy_rows(x: torch.Tensor, y: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
            x[m > 0, :] = y[m > 0]
            return x
    """
    write_repo(tmp_path, {"encode.py": tensor_value})
    told = [f.message for f in scan_repo(tmp_path).shape_findings if f.span.line == 5]
    assert told and not any("mask alone" in w for w in told)


def test_a_loop_counted_by_data_says_trip_count(tmp_path: Path) -> None:
    """``for _ in range(int(count))``: the finding names the trip count read from data."""
    write_repo(tmp_path, {"loops.py": CASES["host_built_masks_and_counted_loops"]})
    words = {(f.span.line, f.rule): f.message for f in scan_repo(tmp_path).shape_findings}
    assert "its trip count is read from tensor data" in words[(27, "DS116")]
    assert "a loop's trip count" in words[(27, "DS118")]


def test_a_store_of_a_value_read_through_the_same_mask_names_the_static_rewrite(
    tmp_path: Path,
) -> None:
    """``x[m] = y[m]`` keeps ``x``'s shape: still reported (MindSpore builds the selected
    positions for a tensor value, and ``y[m]`` has a data-dependent shape at run time), with
    ``torch.where`` as the rewrite; another value, or another mask, is not told that."""
    src = """
        import torch
        from torch import nn


        class Blend(nn.Module):
            def forward(self, x, y, other):
                mask = x > 0
                x[mask] = y[mask]
                z = x.clone()
                z[mask] = y
                w = x.clone()
                w[mask] = -y[mask] * 2
                v = x.clone()
                v[mask] = y[other > 0]
                return x + z + w + v
    """
    write_repo(tmp_path, {"blend.py": src})
    words = {f.span.line: (f.rule, f.message) for f in scan_repo(tmp_path).shape_findings}
    assert sorted(words) == [8, 10, 12, 14]
    assert {words[n][0] for n in words} == {"DS104"}
    for line in (8, 12):
        assert "the result keeps the target's static shape" in words[line][1]
        assert "torch.where(mask, value, target)" in words[line][1]
    for line in (10, 14):
        assert "static shape" not in words[line][1]


def test_one_hot_says_which_width_it_has(tmp_path: Path) -> None:
    """DS107's message says what the call does: a call passing num_classes computed from the
    data is never said to lack num_classes."""
    write_repo(
        tmp_path,
        {
            "enc.py": """
                import torch.nn.functional as F


                def encode(x, logits):
                    a = F.one_hot(x, num_classes=int(x.max()) + 1)
                    b = F.one_hot(x)
                    c = F.one_hot(x, -1)
                    d = F.one_hot(x, num_classes=logits.shape[-1])
                    return a, b, c, d
            """
        },
    )
    shapes = scan_repo(tmp_path).shape_findings
    found = {f.span.line: f.message for f in shapes if f.rule == "DS107"}
    # INVALID: each form of a data-wide one_hot, in its own words
    head = "one_hot()'s width is read from the data: its result's shape is dynamic"
    assert found[5] == (
        f"{head} (num_classes=`int(x.max()) + 1` is read from tensor data at run time)"
    )
    assert found[6] == f"{head} (without num_classes it is max(input) + 1)"
    assert found[7] == f"{head} (num_classes=-1 makes it max(input) + 1)"
    # VALID: a width from a static shape is no finding
    assert 8 not in found and "without num_classes" not in found[5]
