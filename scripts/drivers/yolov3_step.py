"""A YOLOv3 of a standalone repository (``pytorchyolo``: ``compute_loss`` and its
``build_targets``, ``non_max_suppression`` and the evaluation's ``get_batch_statistics``) on
random data, on CPU, for the runtime tracers.

Runs from the root of a ``PyTorch-YOLOv3`` checkout (the tracers set the working directory to
the root) and imports ``pytorchyolo`` from there as its scripts do, with the tiny model of
``config/yolov3-tiny.cfg`` (for 5 classes). Its NMS comes from torchvision, given as an unpacked
wheel (``--torchvision``, with the stand-ins of ``tv_standins.py``); ``imgaug``, which its utilities
import only to seed it, is an empty module when not installed. Nothing of the repository is
copied here::

    python scripts/trace_shapes.py --root YOLOV3 --out t.jsonl -- \\
        /abs/path/scripts/drivers/yolov3_step.py --torchvision TV --seed 1

Same shapes for every seed: 2 images of 3 x 128 x 128 with 2 and 3 boxes (the targets table
has 5 rows); the seed changes the pixels, the boxes and their classes. Two SGD steps in
training mode, then one eval forward (output weights widened so that scores spread with the
pixels), NMS and the per-image true-positive statistics of ``test.py``.
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import os
import shutil
import sys
import tempfile
import types

import tv_standins

CLASSES = 5
QUANTILE = 0.5  # of the best scores, for the threshold
SPREAD = 0.05  # of the output layers' weights at inference


def tiny_config(classes: int) -> str:
    """``config/yolov3-tiny.cfg`` with `classes` classes (the heads' filters to match), in a
    temporary file: with the configuration's 80, a random label is almost never predicted and
    the evaluation's matching loop never runs."""
    with open("config/yolov3-tiny.cfg", encoding="utf-8") as f:
        text = f.read()
    text = text.replace("filters=255", f"filters={3 * (classes + 5)}")
    text = text.replace("classes=80", f"classes={classes}")
    folder = tempfile.mkdtemp(prefix="yolov3-cfg-")
    atexit.register(shutil.rmtree, folder, True)
    path = os.path.join(folder, "yolov3-tiny.cfg")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    tv_standins.import_torchvision(options.torchvision)
    if importlib.util.find_spec("imgaug") is None:
        sys.modules["imgaug"] = types.ModuleType("imgaug")
    sys.path.insert(0, os.getcwd())
    import torch
    from pytorchyolo.models import load_model
    from pytorchyolo.utils.loss import compute_loss
    from pytorchyolo.utils.utils import get_batch_statistics, non_max_suppression, xywh2xyxy

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    size = options.size
    model = load_model(tiny_config(CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    counts = (2, 3)
    model.train()
    for _ in range(2):
        images = torch.rand(len(counts), 3, size, size, generator=data)
        total = sum(counts)
        wh = torch.rand(total, 2, generator=data) * 0.4 + 0.05
        xy = wh / 2 + torch.rand(total, 2, generator=data) * (1 - wh)
        image = torch.cat([torch.full((n, 1), float(i)) for i, n in enumerate(counts)])
        cls = torch.randint(0, CLASSES, (total, 1), generator=data).float()
        targets = torch.cat([image, cls, xy, wh], dim=1)
        loss, _ = compute_loss(model(images), targets, model)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        # an untrained head's objectness and class scores all sit about 0.5: wider output
        # weights spread them with the pixels, and a threshold at the median best score of
        # other images (the same for every seed) keeps a number of boxes, and of classes per
        # box, that changes with the data
        for layer in model.modules():
            if isinstance(layer, torch.nn.Conv2d) and layer.out_channels == 3 * (CLASSES + 5):
                layer.weight.normal_(0, SPREAD)
        pred = model(images)
        reference = model(torch.rand(images.shape, generator=torch.Generator().manual_seed(0)))
        best = reference[..., 4] * reference[..., 5:].amax(-1)
        threshold = float(best.flatten().quantile(QUANTILE))
        detections = non_max_suppression(pred, conf_thres=threshold, iou_thres=0.45)
    # test.py's evaluation: targets in pixels, corners, then the true positives per image
    targets[:, 2:] = xywh2xyxy(targets[:, 2:])
    targets[:, 2:] *= size
    stats = get_batch_statistics(detections, targets, iou_threshold=0.1)
    kept = [int(d.shape[0]) for d in detections]
    hits = [int(s[0].sum()) for s in stats]
    print(f"seed {options.seed}: loss {float(loss.detach()):.3f}, detections {kept}, tp {hits}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
