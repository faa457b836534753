"""A RetinaFace (mobilenet0.25) training step and an inference pass on random data, on CPU, for
the runtime tracers.

Runs from the root of a Pytorch_Retinaface checkout (the tracers set the working directory to
the root they trace) and imports its packages from there; torchvision comes from an unpacked
wheel (``--torchvision``) with the stand-ins of ``tv_standins``. Nothing of the repository is
copied here: this calls what its ``train.py`` and ``detect.py`` call, minus the data loader
(random images instead, and per-image targets as its ``detection_collate`` returns them: a list
of ``(faces, 15)`` tensors, boxes, five landmarks and a label, each image with its own number of
faces) and the GPU::

    python scripts/trace_apis.py --root RETINAFACE_ROOT --out t.jsonl -- \\
        /abs/path/scripts/drivers/retinaface_step.py --torchvision TV --seed 1

Same input shapes for every seed (``--batch`` x 3 x ``--size`` x ``--size``); what changes with
the seed is the data: pixel values, the number of faces per image (1 to ``--max-faces``), their
places, which of them have landmarks. Two training iterations, then one inference pass decoded
and filtered as ``detect.py`` does (its host-side NumPy NMS included).

The loss moves a tensor to the GPU whatever its flag says (``torch.tensor(0).cuda()``): here
``Tensor.cuda`` hands the tensor back (set from this file, outside the traced root), and the
configuration's ``gpu_train`` and ``pretrain`` are turned off (no checkpoint is read).
"""

from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tv_standins  # a sibling file


def random_faces(generator, count: int):  # type: ignore[no-untyped-def]
    """One image's targets: ``count`` rows of x1, y1, x2, y2 (relative), five landmark
    points inside the box, and a label (1, or -1 for a face without landmarks)."""
    import torch

    rows = torch.zeros(count, 15)
    for i in range(count):
        w, h = (torch.rand(2, generator=generator) * 0.3 + 0.05).tolist()
        x1 = float(torch.rand(1, generator=generator)) * (1 - w)
        y1 = float(torch.rand(1, generator=generator)) * (1 - h)
        rows[i, :4] = torch.tensor([x1, y1, x1 + w, y1 + h])
        points = torch.rand(5, 2, generator=generator) * torch.tensor([w, h])
        rows[i, 4:14] = (points + torch.tensor([x1, y1])).flatten()
        rows[i, 14] = 1.0 if float(torch.rand(1, generator=generator)) > 0.2 else -1.0
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--size", type=int, default=160)
    parser.add_argument("--iters", type=int, default=2)
    parser.add_argument("--max-faces", type=int, default=6)
    options = parser.parse_args(argv)
    tv_standins.import_torchvision(options.torchvision)
    sys.path.insert(0, os.getcwd())
    import numpy as np
    import torch

    torch.Tensor.cuda = lambda self, *a, **k: self  # type: ignore[method-assign]
    from data import cfg_mnet
    from layers.functions.prior_box import PriorBox
    from layers.modules.multibox_loss import MultiBoxLoss
    from models.retinaface import RetinaFace
    from utils.box_utils import decode, decode_landm
    from utils.nms.py_cpu_nms import py_cpu_nms

    torch.manual_seed(0)
    random.seed(options.seed)
    data = torch.Generator().manual_seed(1000 + options.seed)
    torch.set_num_threads(1)

    cfg = dict(cfg_mnet, pretrain=False, gpu_train=False)
    net = RetinaFace(cfg=cfg)
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    criterion = MultiBoxLoss(2, 0.35, True, 0, True, 7, 0.35, False)
    with torch.no_grad():
        priors = PriorBox(cfg, image_size=(options.size, options.size)).forward()

    net.train()
    for _ in range(options.iters):
        images = torch.rand(options.batch, 3, options.size, options.size, generator=data) * 255
        counts = torch.randint(1, options.max_faces + 1, (options.batch,), generator=data)
        targets = [random_faces(data, int(n)) for n in counts]
        out = net(images)
        optimizer.zero_grad()
        loss_l, loss_c, loss_landm = criterion(out, priors, targets)
        loss = cfg["loc_weight"] * loss_l + loss_c + loss_landm
        loss.backward()
        optimizer.step()

    net.eval()
    with torch.no_grad():
        loc, conf, landms = net(images[:1])
        boxes = decode(loc.data.squeeze(0), priors.data, cfg["variance"]).numpy()
        scores = conf.squeeze(0).data.numpy()[:, 1]
        points = decode_landm(landms.data.squeeze(0), priors.data, cfg["variance"]).numpy()
    # an untrained head scores every prior alike: the median keeps about half of them, a
    # number that changes with the data
    inds = np.where(scores > np.median(scores))[0]
    order = scores[inds].argsort()[::-1][:500]
    boxes, points, scores = boxes[inds][order], points[inds][order], scores[inds][order]
    dets = np.hstack((boxes, scores[:, np.newaxis])).astype(np.float32, copy=False)
    keep = py_cpu_nms(dets, 0.4)
    faces = counts.tolist()
    print(f"seed {options.seed}: loss {float(loss.detach()):.3f}, faces {faces}, kept {len(keep)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
