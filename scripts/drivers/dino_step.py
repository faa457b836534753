"""DINO self-distillation steps (multi-crop student and teacher, the centred DINO loss, the
teacher's momentum update) on random crops, on CPU, for the tracers.

Runs from the root of a ``dino`` checkout (the tracers set the working directory to the root)
and imports ``main_dino``, ``utils`` and ``vision_transformer`` from there the way
``main_dino.py`` uses them; nothing of it is copied here. A one-process gloo group stands in
for the distributed run (the loss all-reduces its centre). Tiny ViTs (patch 8), two global
crops of 32 pixels and two local crops of 16; the seed changes pixels, never shapes::

    python scripts/trace_shapes.py --root DINO --out t.jsonl -- \\
        /abs/path/scripts/drivers/dino_step.py --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from timm_step import torchvision_fallback


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    torchvision_fallback()
    import main_dino
    import torch
    import torch.distributed as dist
    import utils
    import vision_transformer as vits

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = torch.Generator().manual_seed(1000 + options.seed)
    with tempfile.TemporaryDirectory(prefix="dino-") as tmp:
        dist.init_process_group("gloo", init_method=f"file://{tmp}/group", rank=0, world_size=1)
        try:
            loss = run(torch, main_dino, utils, vits, data)
        finally:
            dist.destroy_process_group()
    print(f"seed {options.seed}: loss {loss:.3f}")
    return 0


def run(torch, main_dino, utils, vits, data) -> float:  # type: ignore[no-untyped-def]
    def network():  # type: ignore[no-untyped-def]
        backbone = vits.VisionTransformer(
            img_size=[32],
            patch_size=8,
            embed_dim=64,
            depth=2,
            num_heads=2,
            mlp_ratio=2,
            drop_path_rate=0.1,
            qkv_bias=True,
        )
        head = vits.DINOHead(
            64, 128, use_bn=False, norm_last_layer=True, nlayers=2, hidden_dim=64, bottleneck_dim=32
        )
        return utils.MultiCropWrapper(backbone, head)

    student, teacher = network(), network()
    teacher.load_state_dict(student.state_dict())
    for p in teacher.parameters():
        p.requires_grad = False
    criterion = main_dino.DINOLoss(128, 4, 0.04, 0.04, 0, 2)
    optimizer = torch.optim.AdamW(utils.get_params_groups(student))
    momentum = utils.cosine_scheduler(0.996, 1, 2, 2)
    for it in range(2):
        crops = [torch.rand(2, 3, 32, 32, generator=data) for _ in range(2)]
        crops += [torch.rand(2, 3, 16, 16, generator=data) for _ in range(2)]
        teacher_output = teacher(crops[:2])
        student_output = student(crops)
        loss = criterion(student_output, teacher_output, 0)
        optimizer.zero_grad()
        loss.backward()
        utils.clip_gradients(student, 3.0)
        utils.cancel_gradients_last_layer(0, student, 1)
        optimizer.step()
        with torch.no_grad():
            m = momentum[it]
            for q, k in zip(student.parameters(), teacher.parameters(), strict=True):
                k.data.mul_(m).add_((1 - m) * q.detach().data)
    with torch.no_grad():
        features = teacher.backbone(torch.rand(2, 3, 48, 48, generator=data))
    return float(loss) + 0 * float(features.sum())


if __name__ == "__main__":
    sys.exit(main())
