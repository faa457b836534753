"""An SSD300 of a standalone repository (``ssd.py``, ``layers/``: ``MultiBoxLoss`` with its
per-image prior matching and hard-negative mining, and ``Detect`` with its own greedy NMS) on
random data, on CPU, for the runtime tracers.

Runs from the root of an ``ssd.pytorch`` checkout (the tracers set the working directory to
the root) and imports ``ssd`` and ``layers`` from there as ``train.py`` does; its data package
imports torchvision's transforms, given as an unpacked wheel (``--torchvision``, with the
stand-ins of ``tv_standins.py``), and reads a COCO label file under the home folder, which is
a temporary one here holding a one-line file. Nothing of the repository is copied here::

    python scripts/trace_shapes.py --root SSD --out t.jsonl -- \\
        /abs/path/scripts/drivers/ssd_step.py --torchvision TV --seed 1

Same shapes for every seed: 2 images of 3 x 300 x 300 (the only size the repository builds)
with 2 and 3 boxes; the seed changes the pixels, the boxes and their classes. The loss, written
for an old torch, stops on today's at its hard-negative mining (``loss_c[pos] = 0`` indexes a
column of ``batch * priors`` rows with a ``batch x priors`` mask): the lines before it run
(matching, the positives' localisation loss) and the step goes on without a backward pass.
Then ``Detect`` (built as the test phase builds it, called as a plain function: today's torch
refuses the legacy ``Function`` call) on the training outputs of one image, with a score
threshold the untrained model's class scores straddle.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile

import tv_standins

CLASSES = 21  # the VOC configuration: the one whose priors ``SSD`` builds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    options = parser.parse_args(argv)
    # its data package reads a COCO label file under the home folder when imported
    home = tempfile.mkdtemp(prefix="ssd-home-")
    atexit.register(shutil.rmtree, home, True)
    os.makedirs(os.path.join(home, "data", "coco"))
    with open(os.path.join(home, "data", "coco", "coco_labels.txt"), "w") as labels:
        labels.write("1,1,object\n")
    os.environ["HOME"] = home
    tv_standins.import_torchvision(options.torchvision)
    sys.path.insert(0, os.getcwd())
    import torch
    from layers.functions.detection import Detect
    from layers.modules import MultiBoxLoss
    from ssd import build_ssd

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    model = build_ssd("train", 300, CLASSES)
    criterion = MultiBoxLoss(CLASSES, 0.5, True, 0, True, 3, 0.5, False, use_gpu=False)
    counts = (2, 3)
    stopped = ""
    model.train()
    images = torch.rand(len(counts), 3, 300, 300, generator=data)
    targets = []
    for n in counts:
        wh = torch.rand(n, 2, generator=data) * 0.4 + 0.1
        xy = torch.rand(n, 2, generator=data) * (1 - wh)
        label = torch.randint(0, CLASSES - 1, (n, 1), generator=data).float()
        targets.append(torch.cat([xy, xy + wh, label], dim=1))
    out = model(images)
    try:
        criterion(out, targets)
    except IndexError as failure:  # the old-torch mask of the hard-negative mining
        stopped = str(failure).splitlines()[0][:60]
    detect = Detect(CLASSES, 0, 200, 0.06, 0.45)
    with torch.no_grad():
        loc, conf, priors = (t.detach() for t in out)
        scores = torch.softmax(conf[:1], dim=-1)
        found = Detect.forward(detect, loc[:1], scores, priors)
    kept = int((found[..., 0] > 0).sum())
    print(f"seed {options.seed}: loss stopped at {stopped!r}, detections {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
