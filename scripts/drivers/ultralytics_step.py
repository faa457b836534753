"""An ultralytics YOLOv8 detector's training steps (the v8 detection loss with its
task-aligned assigner) and an inference pass with NMS on random data, on CPU, for the tracers.

Runs from an unpacked ultralytics wheel (the tracers set the working directory to the root,
the folder holding ``ultralytics/``), with torchvision from an unpacked wheel given by
``--torchvision`` and the stand-ins of ``tv_standins.py``. Nothing of ultralytics is copied
here: it builds ``yolov8n.yaml`` and calls ``DetectionModel.loss`` as its trainer does::

    python scripts/trace_shapes.py --root UL_ROOT --out t.jsonl -- \\
        /abs/path/scripts/drivers/ultralytics_step.py --torchvision TV_ROOT --seed 1

Same shapes for every seed: 2 images of 3 x 128 x 128 and 5 boxes; the seed changes the
pixels, the boxes, their classes and how the 5 boxes fall to the 2 images (each batch draws
its own split, as a real loader's batches do; an image may have none): the loss pads the
targets to the batch's largest count, which so varies with the data as in training, while the
input tensors keep their shapes.
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
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    settings = tempfile.mkdtemp(prefix="ultralytics-settings-")
    atexit.register(shutil.rmtree, settings, True)
    os.environ.setdefault("YOLO_CONFIG_DIR", settings)  # never the user's settings
    os.environ.setdefault("YOLO_OFFLINE", "1")
    tv_standins.import_torchvision(options.torchvision)
    sys.path.insert(0, os.getcwd())
    import torch
    from ultralytics.cfg import get_cfg
    from ultralytics.nn.tasks import DetectionModel
    from ultralytics.utils.nms import non_max_suppression

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    model = DetectionModel("yolov8n.yaml", nc=5, verbose=False)
    model.args = get_cfg()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    total = 5
    model.train()
    for _ in range(2):
        first = int(torch.randint(0, total + 1, (1,), generator=data))
        counts = (first, total - first)  # boxes per image: this batch's own split
        images = torch.rand(len(counts), 3, options.size, options.size, generator=data)
        wh = torch.rand(total, 2, generator=data) * 0.4 + 0.05
        xy = wh / 2 + torch.rand(total, 2, generator=data) * (1 - wh)
        batch = {
            "img": images,
            "batch_idx": torch.cat([torch.full((n,), float(i)) for i, n in enumerate(counts)]),
            "cls": torch.randint(0, 5, (total, 1), generator=data).float(),
            "bboxes": torch.cat([xy, wh], dim=1),
        }
        loss, _ = model.loss(batch)
        optimizer.zero_grad()
        loss.sum().backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        preds = model(images)
        # an untrained head scores about 0.5 after its bias prior: a threshold at the median
        # keeps a number of boxes that changes with the data
        scores = preds[0] if isinstance(preds, tuple | list) else preds
        threshold = float(scores[:, 4:].amax(1).median())
        detections = non_max_suppression(preds, conf_thres=threshold, iou_thres=0.5)
    kept = [int(d.shape[0]) for d in detections]
    print(f"seed {options.seed}: loss {float(loss.sum()):.3f}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
