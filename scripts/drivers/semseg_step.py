"""PSPNet (semantic segmentation, ResNet-50 deep base) trained and validated by ``tool/train.py``'s
own ``train`` and ``validate`` loops (cross entropy with an ignored label, the auxiliary loss,
``intersectionAndUnionGPU``), with ``util/transform.py``'s training augmentation, on random
images, on CPU, for the tracers.

Runs from the root of a semseg checkout (the tracers set the working directory to the root)
and imports ``tool/train.py`` as a module with the root on the path, as the script does;
nothing of the repository is copied here. Its configuration is
``config/voc2012/voc2012_pspnet50.yaml`` (21 classes) with a 65 x 65 crop, one process, no
pretrained backbone. On a CPU torch the driver makes ``.cuda()`` a no-op, gives ``tensorboardX``
an empty ``SummaryWriter`` when it is not installed, ``collections.Iterable`` back to the
augmentation on Python 3.10 and later, and ``torch.histc`` the integer label maps that only its
CUDA kernel counts::

    python scripts/trace_shapes.py --root SEMSEG --out t.jsonl -- \\
        /abs/path/scripts/drivers/semseg_step.py --seed 1

Same shapes for every seed: 2 images of 80 x 96 pixels with a label map, augmented (random
scale, rotation, blur, flip, crop padded with the ignored label) to 2 x 3 x 65 x 65, one batch
of training and one of validation; the seed changes the pixels, the labels and the
augmentation, and so how many pixels are ignored and how many the prediction gets right.
"""

from __future__ import annotations

import argparse
import collections
import collections.abc
import importlib.util
import os
import random
import sys
import types
from typing import Any

CROP = 65  # the model needs (size - 1) % 8 == 0


class _Writer:
    """``tensorboardX.SummaryWriter`` without tensorboardX: the scalars go nowhere."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def add_scalar(self, *args: Any, **kwargs: Any) -> None:
        pass


def _float_histc(histc: Any) -> Any:
    """``torch.histc`` that counts integer tensors too (label maps: CUDA counts them, the CPU
    kernel only floats), with the same result shape."""

    def counted(input: Any, bins: int = 100, min: float = 0, max: float = 0) -> Any:
        data = input if input.is_floating_point() else input.float()
        return histc(data, bins=bins, min=min, max=max)

    return counted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    if importlib.util.find_spec("tensorboardX") is None:
        board = types.ModuleType("tensorboardX")
        board.SummaryWriter = _Writer  # type: ignore[attr-defined]
        sys.modules["tensorboardX"] = board
    # the augmentation checks its arguments against ``collections.Iterable``, which Python
    # 3.10 moved to ``collections.abc`` only
    collections.Iterable = collections.abc.Iterable  # type: ignore[attr-defined]
    root = os.getcwd()
    sys.path.insert(0, root)
    import numpy as np
    import torch

    torch.Tensor.cuda = lambda self, *a, **k: self  # type: ignore[method-assign]
    torch.histc = _float_histc(torch.histc)  # type: ignore[assignment]
    spec = importlib.util.spec_from_file_location("semseg_train", os.path.join("tool", "train.py"))
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    from model.pspnet import PSPNet
    from util import config, transform

    torch.manual_seed(0)
    torch.set_num_threads(1)
    random.seed(options.seed)  # the augmentation draws from Python's global state
    np.random.seed(options.seed)
    args = config.load_cfg_from_cfg_file("config/voc2012/voc2012_pspnet50.yaml")
    args.update(
        train_h=CROP,
        train_w=CROP,
        multiprocessing_distributed=False,
        distributed=False,
        print_freq=1,
        epochs=1,
        train_gpu=[0],
    )
    train.args = args
    train.logger = train.get_logger()
    train.writer = _Writer()
    criterion = torch.nn.CrossEntropyLoss(ignore_index=args.ignore_label)
    model = PSPNet(
        layers=args.layers,
        classes=args.classes,
        zoom_factor=args.zoom_factor,
        criterion=criterion,
        pretrained=False,
    )
    backbone = (model.layer0, model.layer1, model.layer2, model.layer3, model.layer4)
    groups = [dict(params=m.parameters(), lr=args.base_lr) for m in backbone]
    heads = (model.ppm, model.cls, model.aux)
    groups += [dict(params=m.parameters(), lr=args.base_lr * 10) for m in heads]
    args.index_split = 5
    optimizer = torch.optim.SGD(
        groups, lr=args.base_lr, momentum=args.momentum, weight_decay=args.weight_decay
    )
    mean = [v * 255 for v in (0.485, 0.456, 0.406)]
    std = [v * 255 for v in (0.229, 0.224, 0.225)]
    augment = transform.Compose(
        [
            transform.RandScale([args.scale_min, args.scale_max]),
            transform.RandRotate(
                [args.rotate_min, args.rotate_max], padding=mean, ignore_label=args.ignore_label
            ),
            transform.RandomGaussianBlur(),
            transform.RandomHorizontalFlip(),
            transform.Crop(
                [CROP, CROP], crop_type="rand", padding=mean, ignore_label=args.ignore_label
            ),
            transform.ToTensor(),
            transform.Normalize(mean=mean, std=std),
        ]
    )
    rng = np.random.default_rng(1000 + options.seed)

    def batch() -> list[tuple[torch.Tensor, torch.Tensor]]:
        pairs = []
        for _ in range(2):
            image = rng.uniform(0, 255, (80, 96, 3)).astype(np.float32)
            label = rng.integers(0, args.classes, (80, 96)).astype(np.uint8)
            label[rng.uniform(size=label.shape) < 0.1] = args.ignore_label
            pairs.append(augment(image, label))
        images = torch.stack([p[0] for p in pairs])
        labels = torch.stack([p[1] for p in pairs])
        return [(images, labels)]

    result = train.train(batch(), model, optimizer, 0)
    val = train.validate(batch(), model, criterion)
    print(f"seed {options.seed}: train {result[0]:.3f}, val mIoU {val[1]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
