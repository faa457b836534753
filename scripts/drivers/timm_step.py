"""A timm classifier's training step and eval pass on random data, on CPU, for the tracers.

Runs from the root of a pytorch-image-models checkout (the tracers set the working directory
to the root they trace) and imports ``timm`` from there. Nothing of timm is copied here: it
calls the public entry points ``train.py`` uses (``create_model``, ``create_optimizer_v2``,
``create_scheduler_v2``, the label-smoothing loss, ``ModelEmaV3``, ``accuracy``)::

    python scripts/trace_apis.py --root TIMM_ROOT --out t.jsonl -- \\
        /abs/path/scripts/drivers/timm_step.py --model resnet18 --seed 1

Same input shapes for every seed (``--batch`` x 3 x ``--size`` x ``--size``); the seed changes
the pixels and the labels.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import os
import sys
import types
from typing import Any


class _Placeholder(type):
    """Any attribute of a stand-in class is another stand-in (``InterpolationMode.BILINEAR``
    at import time)."""

    def __getattr__(cls, name: str) -> Any:
        return _placeholder(name)


def _placeholder(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(name, (), {})


class _StandIn(importlib.abc.Loader, importlib.abc.MetaPathFinder):
    """Imports every ``torchvision`` module as a stand-in whose names are placeholders."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != "torchvision" and not fullname.startswith("torchvision."):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: Any) -> types.ModuleType:
        module = types.ModuleType(spec.name)
        module.__path__ = []  # type: ignore[attr-defined]
        module.__getattr__ = _placeholder  # type: ignore[attr-defined]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def torchvision_fallback() -> None:
    """Stand in for torchvision when it cannot load (the package index only has CUDA builds of
    it, which fail against the CPU torch). timm imports it for its data pipeline and to name
    ``FrozenBatchNorm2d``; a classifier's forward, loss and optimizer never call it."""
    try:
        import torchvision.ops.misc  # noqa: F401

        return
    except (ImportError, OSError, RuntimeError):
        for name in [n for n in sys.modules if n.split(".")[0] == "torchvision"]:
            del sys.modules[name]
    sys.meta_path.insert(0, _StandIn())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet18")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--classes", type=int, default=10)
    options = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    torchvision_fallback()

    import timm
    import torch
    from timm.loss import LabelSmoothingCrossEntropy
    from timm.optim import create_optimizer_v2
    from timm.scheduler import create_scheduler_v2
    from timm.utils import ModelEmaV3, accuracy

    torch.manual_seed(0)  # the same weights every run: only the data changes with the seed
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    extra = {"img_size": options.size} if options.model.startswith(("vit", "deit")) else {}
    model = timm.create_model(options.model, num_classes=options.classes, **extra)
    optimizer = create_optimizer_v2(model, "adamw", lr=1e-3, weight_decay=0.05)
    scheduler, _ = create_scheduler_v2(optimizer, "cosine", num_epochs=2, warmup_epochs=1)
    ema = ModelEmaV3(model, decay=0.99)
    criterion = LabelSmoothingCrossEntropy(smoothing=0.1)

    shape = (options.batch, 3, options.size, options.size)
    model.train()
    for epoch in range(2):
        images = torch.rand(shape, generator=data)
        labels = torch.randint(0, options.classes, (options.batch,), generator=data)
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(model, step=epoch)
        scheduler.step(epoch + 1)

    model.eval()
    with torch.no_grad():
        output = model(images)
        top1, _ = accuracy(output, labels, topk=(1, 5))
    print(f"{options.model} seed {options.seed}: loss {loss.item():.3f} top1 {float(top1):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
