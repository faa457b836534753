"""YOLOv7's training steps with its OTA assignment (``ComputeLossOTA``: ``find_3_positive``,
the per-image cost matrix and ``dynamic_k`` top-k matching), then its evaluation ``test.test``
(NMS, the per-image true-positive matching, ``ap_per_class``) on random data, on CPU, for the
tracers.

Runs from the root of a yolov7 checkout (the tracers set the working directory to the root) and
imports ``models.yolo``, ``utils`` and ``test`` from there as ``train.py`` does; torchvision is
given as an unpacked wheel (``--torchvision``, with the stand-ins of ``tv_standins.py``).
Nothing of yolov7 is copied here::

    python scripts/trace_shapes.py --root YOLOV7 --out t.jsonl -- \\
        /abs/path/scripts/drivers/yolov7_step.py --torchvision TV --seed 1

Same shapes for every seed: 2 images of 3 x 128 x 128 with 4 and 6 boxes (the targets table
has 10 rows; with fewer, the targets of a class and the anchors claimed by two targets change
too rarely between seeds) of ``cfg/training/yolov7-tiny.yaml`` for 5 classes; the seed changes
the pixels, the boxes and their classes. Two SGD steps, then the evaluation of one batch with
the plain ``ComputeLoss`` as its loss, at a confidence threshold that keeps a number of boxes
that changes with the data.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import tv_standins

CLASSES = 5
SPREAD = 2.0  # of the output layers' weights at inference
CLASS_BIAS = 10.0  # of their class outputs: class scores about 1, confidence about objectness
QUANTILE = 0.95  # of the objectness of reference images, for the threshold


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    tv_standins.import_torchvision(options.torchvision)
    sys.path.insert(0, os.getcwd())
    import test as evaluation  # the repository's test.py
    import torch
    import yaml
    from models.yolo import Model
    from utils.loss import ComputeLoss, ComputeLossOTA

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    size = options.size
    with open("data/hyp.scratch.tiny.yaml", encoding="utf-8") as f:
        hyp = yaml.safe_load(f)
    model = Model("cfg/training/yolov7-tiny.yaml", ch=3, nc=CLASSES)
    model.hyp, model.gr, model.nc = hyp, 1.0, CLASSES
    model.names = [str(i) for i in range(CLASSES)]
    ota = ComputeLossOTA(model)
    plain = ComputeLoss(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    counts = (4, 6)

    def batch() -> tuple[torch.Tensor, torch.Tensor]:
        images = torch.rand(len(counts), 3, size, size, generator=data)
        total = sum(counts)
        wh = torch.rand(total, 2, generator=data) * 0.4 + 0.05
        xy = wh / 2 + torch.rand(total, 2, generator=data) * (1 - wh)
        image = torch.cat([torch.full((n, 1), float(i)) for i, n in enumerate(counts)])
        cls = torch.randint(0, CLASSES, (total, 1), generator=data).float()
        return images, torch.cat([image, cls, xy, wh], dim=1)

    model.train()
    for _ in range(2):
        images, targets = batch()
        loss, _ = ota(model(images), targets, images)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    # evaluation: an untrained head's objectness barely moves with the pixels, and its top
    # values sit in the same cells for any image; wide output weights make it follow the
    # pixels, class scores near 1 make the confidence (objectness times class score) pass
    # where the objectness does, and a threshold at a high quantile of the objectness of
    # other images (the same for every seed) keeps a number of boxes that changes with the data
    model.eval()
    with torch.no_grad():
        for layer in model.modules():
            if isinstance(layer, torch.nn.Conv2d) and layer.out_channels == 3 * (CLASSES + 5):
                layer.weight.normal_(0, SPREAD)
                layer.bias.zero_()
                layer.bias.view(3, -1)[:, 5:] = CLASS_BIAS
        reference = model(torch.rand(2, 3, size, size, generator=torch.Generator().manual_seed(0)))
        threshold = float(reference[0][..., 4].flatten().quantile(QUANTILE))
    images, targets = batch()
    shapes = [((size, size), ((1.0, 1.0), (0.0, 0.0))) for _ in counts]
    loader = [(images * 255, targets, [f"{i}.jpg" for i in range(len(counts))], shapes)]
    with tempfile.TemporaryDirectory(prefix="yolov7-test-") as folder:
        results, _, _ = evaluation.test(
            {"nc": CLASSES, "names": model.names},
            batch_size=len(counts),
            imgsz=size,
            conf_thres=threshold,
            iou_thres=0.45,
            model=model,
            dataloader=loader,
            save_dir=Path(folder),
            plots=False,
            compute_loss=plain,
            half_precision=False,
        )
    print(f"seed {options.seed}: loss {float(loss.detach()):.3f}, P R mAP50 {results[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
