"""RAFT (optical flow, the small model) training steps with ``train.py``'s ``sequence_loss``,
optimizer and logger, then ``evaluate.py``'s KITTI and Sintel validations on random frame
pairs, on CPU, for the tracers.

Runs from the root of a RAFT checkout (the tracers set the working directory to the root) and
imports ``train`` and ``evaluate`` from there with ``core`` on the path, as its scripts do;
nothing of RAFT is copied here. On a CPU torch the driver makes ``.cuda()`` a no-op, gives
``torch.utils.tensorboard`` an empty writer when tensorboard is missing, imports torchvision
(which the augmentor imports) from an unpacked wheel (``--torchvision``, with the stand-ins of
``tv_standins.py``), and gives ``datasets.KITTI`` and ``datasets.MpiSintel`` two random samples
each instead of files::

    python scripts/trace_shapes.py --root RAFT --out t.jsonl -- \\
        /abs/path/scripts/drivers/raft_step.py --torchvision TV --seed 1

Same shapes for every seed: pairs of 2 x 3 x 128 x 128 frames for training (124 x 140 frames,
padded by ``InputPadder``, for validation; smaller ones leave a 1 x 1 level of the correlation
pyramid, which samples to NaN); the seed changes the pixels, the flow and
which pixels are valid (and so how many the metrics average over).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import types
from typing import Any

import tv_standins

ITERS = 3  # refinement iterations (12 in training, 24 and 32 at evaluation)


class _Writer:
    """``SummaryWriter`` without tensorboard: the scalars go nowhere."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def add_scalar(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass


def _no_cuda() -> None:
    """``x.cuda()`` and ``model.cuda()`` keep a CPU torch's tensors where they are."""
    import torch

    torch.Tensor.cuda = lambda self, *a, **k: self  # type: ignore[method-assign]
    torch.nn.Module.cuda = lambda self, *a, **k: self  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torchvision", required=True, help="an unpacked torchvision wheel")
    parser.add_argument("--size", type=int, default=128)
    options = parser.parse_args(argv)
    tv_standins.import_torchvision(options.torchvision)
    if importlib.util.find_spec("tensorboard") is None:
        board = types.ModuleType("torch.utils.tensorboard")
        board.SummaryWriter = _Writer  # type: ignore[attr-defined]
        sys.modules["torch.utils.tensorboard"] = board
    root = os.getcwd()
    sys.path[:0] = [root, os.path.join(root, "core")]
    import numpy as np
    import torch

    _no_cuda()
    import datasets
    import evaluate
    import train
    from raft import RAFT

    torch.manual_seed(0)
    torch.set_num_threads(1)
    np.random.seed(options.seed)
    data = torch.Generator().manual_seed(1000 + options.seed)
    args = argparse.Namespace(
        small=True,
        mixed_precision=False,
        alternate_corr=False,
        dropout=0.0,
        lr=2e-4,
        wdecay=1e-5,
        epsilon=1e-8,
        num_steps=10,
        clip=1.0,
        gamma=0.8,
        iters=ITERS,
        add_noise=True,
    )
    model = torch.nn.DataParallel(RAFT(args))
    model.train()
    optimizer, scheduler = train.fetch_optimizer(args, model)
    logger = train.Logger(model, scheduler)
    size = options.size

    def frames(h: int, w: int, batch: int) -> list[torch.Tensor]:
        image1 = torch.rand(*batch, 3, h, w, generator=data) * 255
        image2 = torch.rand(*batch, 3, h, w, generator=data) * 255
        flow = (torch.rand(*batch, 2, h, w, generator=data) - 0.5) * 20
        valid = (torch.rand(*batch, h, w, generator=data) > 0.5).float()
        return [image1, image2, flow, valid]

    for _ in range(2):
        optimizer.zero_grad()
        image1, image2, flow, valid = frames(size, size, (2,))
        stdv = np.random.uniform(0.0, 5.0)
        image1 = (image1 + stdv * torch.randn(*image1.shape, generator=data)).clamp(0.0, 255.0)
        image2 = (image2 + stdv * torch.randn(*image2.shape, generator=data)).clamp(0.0, 255.0)
        predictions = model(image1, image2, iters=args.iters)
        loss, metrics = train.sequence_loss(predictions, flow, valid, args.gamma)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        scheduler.step()
        logger.push(metrics)
    samples = [tuple(frames(124, 140, ())) for _ in range(2)]
    datasets.KITTI = lambda *a, **k: samples  # type: ignore[attr-defined]
    datasets.MpiSintel = lambda *a, **k: samples  # type: ignore[attr-defined]
    kitti = evaluate.validate_kitti(model.module, iters=ITERS)
    sintel = evaluate.validate_sintel(model.module, iters=ITERS)
    print(f"seed {options.seed}: loss {float(loss.detach()):.3f}, {kitti}, {sintel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
