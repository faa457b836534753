"""EfficientDet's training steps (the anchor labeler's IoU matching and the focal / box loss,
``DetBenchTrain``) and an inference pass (``DetBenchPredict``: top-k, NMS) on random data, on
CPU, for the tracers.

Runs from the root of an efficientdet-pytorch checkout (the tracers set the working directory
to the root) and imports ``effdet`` from there; its backbone comes from timm (``--timm``, a
pytorch-image-models checkout) and it imports torchvision (``--torchvision``, an unpacked
wheel, with the stand-ins of ``tv_standins.py``). Nothing of effdet is copied here::

    python scripts/trace_shapes.py --root EFFDET --out t.jsonl -- \\
        /abs/path/scripts/drivers/effdet_step.py --timm TIMM --torchvision TV --seed 1

Same shapes for every seed: 2 images of 3 x 128 x 128, targets padded to 4 rows with -1 (as
effdet's loader pads them); the seed changes the pixels, how many boxes each image has (1 to
4), where they are and their classes.
"""

from __future__ import annotations

import argparse
import os
import sys
import types

import tv_standins


def pycocotools_fallback() -> None:
    """``effdet`` imports pycocotools for its COCO evaluator and dataset parser, which this
    driver never uses: empty stand-in classes when it is not installed."""
    try:
        import pycocotools.cocoeval  # noqa: F401
    except ImportError:
        for name, cls in (("coco", "COCO"), ("cocoeval", "COCOeval")):
            module = types.ModuleType(f"pycocotools.{name}")
            setattr(module, cls, type(cls, (), {}))
            sys.modules[module.__name__] = module
        sys.modules["pycocotools"] = types.ModuleType("pycocotools")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timm", required=True, help="a pytorch-image-models checkout")
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    tv_standins.import_torchvision(options.torchvision)
    sys.path[:0] = [os.getcwd(), options.timm]
    pycocotools_fallback()
    import torch

    # effdet scripts its detection post-processing and loss at import: run them as Python,
    # so that their lines are traced like the rest
    torch.jit._state.disable()
    from effdet import DetBenchPredict, DetBenchTrain, EfficientDet, get_efficientdet_config

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    config = get_efficientdet_config("efficientdet_d0")
    config.update({"num_classes": 5, "image_size": (options.size, options.size)})
    # effdet's own default cap (100): NMS, not the cap, decides how many detections stay
    config.update({"fpn_channels": 16, "box_class_repeats": 1, "max_det_per_image": 100})
    model = EfficientDet(config, pretrained_backbone=False)
    bench = DetBenchTrain(model, create_labeler=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    rows = 4
    bench.train()
    for _ in range(2):
        # 1 to 4 boxes per image, padded to 4 rows: the shapes stay, the count changes
        counts = torch.randint(1, rows + 1, (2,), generator=data).tolist()
        images = torch.rand(len(counts), 3, options.size, options.size, generator=data)
        boxes = torch.full((len(counts), rows, 4), -1.0)
        classes = torch.full((len(counts), rows), -1.0)
        for i, n in enumerate(counts):
            hw = (torch.rand(n, 2, generator=data) * 0.4 + 0.1) * options.size
            yx = torch.rand(n, 2, generator=data) * (options.size - hw)
            boxes[i, :n] = torch.cat([yx, yx + hw], dim=1)  # y0, x0, y1, x1
            classes[i, :n] = torch.randint(1, 6, (n,), generator=data).float()
        losses = bench(images, {"bbox": boxes, "cls": classes})
        optimizer.zero_grad()
        losses["loss"].backward()
        optimizer.step()
    predict = DetBenchPredict(model)
    predict.eval()
    with torch.no_grad():
        detections = predict(images)
    kept = [int((d[:, 4] > 0.05).sum()) for d in detections]
    print(f"seed {options.seed}: loss {float(losses['loss']):.3f}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
