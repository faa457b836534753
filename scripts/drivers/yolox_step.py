"""A YOLOX training step and an inference pass on random data, on CPU, for the runtime tracers.

Runs from the root of a YOLOX checkout (the tracers set the working directory to the root they
trace); it imports ``yolox`` from there. Nothing of YOLOX is copied here: this only calls its
public entry points the way ``tools/train.py`` and ``tools/demo.py`` do, minus the data loader
(random images and labels instead) and the GPU::

    python scripts/trace_apis.py --root YOLOX_ROOT --out t.jsonl -- \\
        /abs/path/scripts/drivers/yolox_step.py --seed 1

Same input shapes for every seed (``--batch`` x 3 x ``--size`` x ``--size``, labels padded to
50 rows); what changes with the seed is the data: pixel values, the number of boxes per image
(1 to 8; with an even seed the first image of the first batch has none, so the training
``num_gt == 0`` branch runs) and their places, which is what makes SimOTA's shapes vary.
Two training iterations (the second with the L1 loss on, as in the last epochs), the EMA and
learning-rate updates, one ``model.visualize`` (label assignment drawing, written under the
temporary directory), one eval forward and ``postprocess``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile


def nms_fallback() -> None:
    """Register a minimal ``torchvision`` (``ops.nms``, ``ops.batched_nms``, greedy, pure torch)
    when the real one cannot load: the only torchvision wheels on the package index are CUDA
    builds, whose C ops do not load against the CPU torch. YOLOX calls nothing else of it on
    this path. Its torch calls are made from this file, outside the traced root."""
    try:
        import torchvision.ops  # noqa: F401

        return
    except (ImportError, OSError, RuntimeError):
        pass
    import types

    import torch

    def nms(boxes, scores, iou_threshold):  # type: ignore[no-untyped-def]
        order = scores.argsort(descending=True)
        keep = []
        while order.numel():
            i = order[0]
            keep.append(i)
            if order.numel() == 1:
                break
            rest = boxes[order[1:]]
            lt = torch.maximum(boxes[i, :2], rest[:, :2])
            rb = torch.minimum(boxes[i, 2:], rest[:, 2:])
            inter = (rb - lt).clamp(min=0).prod(dim=1)
            area = (boxes[:, 2:] - boxes[:, :2]).prod(dim=1)
            iou = inter / (area[i] + area[order[1:]] - inter)
            order = order[1:][iou <= iou_threshold]
        return torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)

    def batched_nms(boxes, scores, idxs, iou_threshold):  # type: ignore[no-untyped-def]
        offsets = idxs.to(boxes) * (boxes.max() + 1)
        return nms(boxes + offsets[:, None], scores, iou_threshold)

    package = types.ModuleType("torchvision")
    ops = types.ModuleType("torchvision.ops")
    ops.nms, ops.batched_nms = nms, batched_nms  # type: ignore[attr-defined]
    package.ops = ops  # type: ignore[attr-defined]
    sys.modules["torchvision"], sys.modules["torchvision.ops"] = package, ops


def random_targets(generator, batch: int, size: int, max_boxes: int, empty_first: bool):  # type: ignore[no-untyped-def]
    """Labels as YOLOX's data loader gives them: (batch, 50, 5) rows of class, cx, cy, w, h,
    zero rows as padding; 1..max_boxes boxes per image, none in the first with
    `empty_first` (an image without objects, as COCO has)."""
    import torch

    targets = torch.zeros(batch, 50, 5)
    for b in range(batch):
        count = int(torch.randint(1, max_boxes + 1, (1,), generator=generator))
        if b == 0 and empty_first:
            count = 0
        for i in range(count):
            w, h = (torch.rand(2, generator=generator) * 0.4 + 0.05) * size
            cx = float(torch.rand(1, generator=generator)) * (size - w) + w / 2
            cy = float(torch.rand(1, generator=generator)) * (size - h) + h / 2
            cls = int(torch.randint(0, 80, (1,), generator=generator))
            targets[b, i] = torch.tensor([cls, cx, cy, w, h])
    return targets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--size", type=int, default=320)
    parser.add_argument("--iters", type=int, default=2)
    parser.add_argument("--max-boxes", type=int, default=8)
    options = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())

    nms_fallback()
    import torch
    from yolox.exp import get_exp
    from yolox.utils import ModelEMA, postprocess

    torch.manual_seed(options.seed)
    random.seed(options.seed)
    data = torch.Generator().manual_seed(1000 + options.seed)
    torch.set_num_threads(1)

    exp = get_exp(None, "yolox-s")
    exp.input_size = (options.size, options.size)
    model = exp.get_model()
    optimizer = exp.get_optimizer(options.batch)
    ema = ModelEMA(model, 0.9998)
    scheduler = exp.get_lr_scheduler(exp.basic_lr_per_img * options.batch, options.iters)

    model.train()
    for it in range(options.iters):
        images = torch.rand(options.batch, 3, options.size, options.size, generator=data) * 255
        # even seeds: an image without boxes in the first batch (not in the last one, which
        # ``visualize`` draws: its num_gt == 0 branch leaves a name unbound and raises)
        empty = options.seed % 2 == 0 and it == 0
        targets = random_targets(data, options.batch, options.size, options.max_boxes, empty)
        images, targets = exp.preprocess(images, targets, exp.input_size)
        model.head.use_l1 = it > 0
        outputs = model(images, targets)
        optimizer.zero_grad()
        outputs["total_loss"].backward()
        optimizer.step()
        ema.update(model)
        lr = scheduler.update_lr(it + 1)
        for group in optimizer.param_groups:
            group["lr"] = lr

    with tempfile.TemporaryDirectory(prefix="yolox-vis-") as tmp, torch.no_grad():
        model.visualize(images, targets, save_prefix=os.path.join(tmp, "assign_"))

    model.eval()
    with torch.no_grad():
        predictions = model(images)
        # an untrained head scores every box alike (about 1e-4): a threshold at the median
        # score keeps about half the boxes, a number that changes with the data
        scores = predictions[..., 4] * predictions[..., 5:].max(dim=-1).values
        threshold = float(scores.median())
        detections = postprocess(predictions, exp.num_classes, threshold, exp.nmsthre)
    kept = [0 if d is None else int(d.shape[0]) for d in detections]
    print(f"seed {options.seed}: loss {float(outputs['total_loss']):.3f}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
