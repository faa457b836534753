"""A RetinaNet of a standalone repository (``retinanet/model.py``, ``retinanet/losses.py``:
the focal loss with its per-image anchor assignment, and an inference pass with per-class
score thresholds and NMS) on random data, on CPU, for the runtime tracers.

Runs from the root of a ``pytorch-retinanet`` checkout (the tracers set the working directory
to the root) and imports ``retinanet`` from there as ``train.py`` does; its NMS comes from
torchvision, given as an unpacked wheel (``--torchvision``, with the stand-ins of
``tv_standins.py``). Nothing of the repository is copied here::

    python scripts/trace_shapes.py --root RETINANET --out t.jsonl -- \\
        /abs/path/scripts/drivers/retinanet_step.py --torchvision TV --seed 1

Same shapes for every seed: 2 images of 3 x 128 x 128 and annotations of 2 x 3 x 5, 1 to 3
boxes an image padded with -1 rows (as the repository's collater pads them); the seed changes
the pixels, how many boxes are real, where they are and their classes. Two SGD steps in
training mode, then one eval forward of one image (the model's inference path takes one image
at a time).
"""

from __future__ import annotations

import argparse
import math
import os
import sys

import tv_standins

CLASSES = 5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    tv_standins.import_torchvision(options.torchvision)
    sys.path.insert(0, os.getcwd())
    import torch
    from retinanet import model as retinanet_model

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    size = options.size
    model = retinanet_model.resnet18(num_classes=CLASSES, pretrained=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    batch, rows = 2, 3
    model.train()
    for _ in range(2):
        images = torch.rand(batch, 3, size, size, generator=data)
        annotations = torch.full((batch, rows, 5), -1.0)
        # 1 to 3 boxes an image, padded with -1 rows to 3: the tensors keep their shapes
        for i, n in enumerate(torch.randint(1, rows + 1, (batch,), generator=data).tolist()):
            wh = (torch.rand(n, 2, generator=data) * 0.5 + 0.1) * size
            xy = torch.rand(n, 2, generator=data) * (size - wh)
            cls = torch.randint(0, CLASSES, (n, 1), generator=data).float()
            annotations[i, :n] = torch.cat([xy, xy + wh, cls], dim=1)
        cls_loss, reg_loss = model([images, annotations])
        loss = cls_loss.mean() + reg_loss.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    # an untrained head scores every anchor at its prior (0.01), under the 0.05 threshold:
    # a bias at that threshold and small weights make the kept count change with the data
    head = model.classificationModel.output
    with torch.no_grad():
        head.bias.fill_(-math.log((1 - 0.05) / 0.05))
        head.weight.normal_(0, 0.01)
    model.eval()
    with torch.no_grad():
        scores = model(images[:1])[0]
    kept = int(scores.shape[0])
    print(f"seed {options.seed}: loss {float(loss.detach()):.3f}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
