"""YOLOv5's training steps (``ComputeLoss`` and its ``build_targets``) and an inference pass
with ``non_max_suppression`` on random data, on CPU, for the tracers.

Runs from the root of a yolov5 checkout (the tracers set the working directory to the root)
and imports ``models.yolo`` and ``utils`` from there as ``train.py`` does; that code imports
ultralytics and torchvision, given as unpacked wheels (``--ultralytics``, ``--torchvision``,
the latter with the stand-ins of ``tv_standins.py``). Nothing of yolov5 is copied here::

    python scripts/trace_shapes.py --root YOLOV5 --out t.jsonl -- \\
        /abs/path/scripts/drivers/yolov5_step.py --ultralytics UL --torchvision TV --seed 1

Same shapes for every seed: 2 images of 3 x 128 x 128 with 2 and 3 boxes (the targets table
has 5 rows); the seed changes the pixels, the boxes and their classes.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile

import tv_standins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--ultralytics", required=True, help="an unpacked ultralytics wheel")
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    settings = tempfile.mkdtemp(prefix="ultralytics-settings-")
    atexit.register(shutil.rmtree, settings, True)
    os.environ.setdefault("YOLO_CONFIG_DIR", settings)  # never the user's settings
    os.environ.setdefault("YOLO_OFFLINE", "1")
    tv_standins.import_torchvision(options.torchvision)
    sys.path[:0] = [os.getcwd(), options.ultralytics]
    import torch
    import yaml
    from models.yolo import Model
    from utils.general import non_max_suppression
    from utils.loss import ComputeLoss

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    with open("data/hyps/hyp.scratch-low.yaml", encoding="utf-8") as f:
        hyp = yaml.safe_load(f)
    model = Model("models/yolov5n.yaml", ch=3, nc=5)
    model.hyp = hyp
    criterion = ComputeLoss(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    counts = (2, 3)
    model.train()
    for _ in range(2):
        images = torch.rand(len(counts), 3, options.size, options.size, generator=data)
        total = sum(counts)
        wh = torch.rand(total, 2, generator=data) * 0.4 + 0.05
        xy = wh / 2 + torch.rand(total, 2, generator=data) * (1 - wh)
        image = torch.cat([torch.full((n, 1), float(i)) for i, n in enumerate(counts)])
        cls = torch.randint(0, 5, (total, 1), generator=data).float()
        targets = torch.cat([image, cls, xy, wh], dim=1)
        loss, _ = criterion(model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(images)[0]
        # an untrained head's objectness sits about one value: a threshold at the median
        # keeps a number of boxes that changes with the data
        threshold = float((pred[..., 4] * pred[..., 5:].amax(-1)).median())
        detections = non_max_suppression(pred, conf_thres=threshold, iou_thres=0.45)
    kept = [int(d.shape[0]) for d in detections]
    print(f"seed {options.seed}: loss {float(loss):.3f}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
