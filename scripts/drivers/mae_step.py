"""MAE pre-training steps (per-sample random masking, the masked reconstruction loss) and an
eval forward on random images, on CPU, for the tracers.

Runs from the root of an ``mae`` checkout (the tracers set the working directory to the root)
and imports ``models_mae`` from there; its ViT blocks come from timm, given with ``--timm``
(a pytorch-image-models checkout; default: an installed timm). Nothing of either is copied
here. A tiny encoder and decoder (2 blocks, 32x32 images, patches of 8); the seed changes the
pixels and the masks, never a shape::

    python scripts/trace_shapes.py --root MAE --out t.jsonl -- \\
        /abs/path/scripts/drivers/mae_step.py --timm TIMM --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial

from timm_step import torchvision_fallback


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timm", help="a pytorch-image-models checkout (default: installed)")
    options = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    if options.timm:
        sys.path.append(options.timm)
    torchvision_fallback()
    import timm.models.vision_transformer as vit
    import torch

    class Block(vit.Block):  # type: ignore[misc]
        """timm's block, taking the ``qk_scale`` argument of the timm 0.3 that mae uses."""

        def __init__(self, *args, qk_scale=None, **kwargs):  # type: ignore[no-untyped-def]
            super().__init__(*args, **kwargs)

    vit.Block = Block
    import numpy as np

    if not hasattr(np, "float"):
        np.float = float  # type: ignore[attr-defined]  # util/pos_embed.py predates numpy 1.24
    from models_mae import MaskedAutoencoderViT

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    model = MaskedAutoencoderViT(
        img_size=32,
        patch_size=8,
        embed_dim=64,
        depth=2,
        num_heads=2,
        decoder_embed_dim=32,
        decoder_depth=1,
        decoder_num_heads=2,
        mlp_ratio=2,
        norm_layer=partial(torch.nn.LayerNorm, eps=1e-6),
        norm_pix_loss=True,
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95))
    torch.manual_seed(options.seed)  # the masks draw from the global generator
    model.train()
    for _ in range(2):
        images = torch.rand(2, 3, 32, 32, generator=data)
        loss, _, _ = model(images, mask_ratio=0.75)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        _, pred, mask = model(images, mask_ratio=0.75)
        restored = model.unpatchify(pred)
    print(
        f"seed {options.seed}: loss {float(loss):.3f}, {tuple(restored.shape)}, {int(mask.sum())}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
