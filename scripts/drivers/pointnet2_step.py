"""PointNet++ (single-scale grouping classifier) training steps and an eval pass on random point
clouds, on CPU, for the tracers: farthest point sampling, ball query and grouping in pure torch.

Runs from the root of a Pointnet_Pointnet2_pytorch checkout (the tracers set the working
directory to the root) and imports its ``models/`` and ``provider.py`` the way
``train_classification.py`` does; nothing of it is copied here. Every seed feeds 2 clouds of
``--points`` points with normals (same shapes); the points, their augmentation and the labels
change::

    python scripts/trace_shapes.py --root POINTNET2 --out t.jsonl -- \\
        /abs/path/scripts/drivers/pointnet2_step.py --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--points", type=int, default=512)
    options = parser.parse_args(argv)
    root = os.getcwd()
    sys.path[:0] = [root, os.path.join(root, "models")]
    import numpy as np
    import pointnet2_cls_ssg as net
    import provider
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)
    np.random.seed(options.seed)  # provider's augmentations draw from numpy's global state
    data = torch.Generator().manual_seed(1000 + options.seed)
    model = net.get_model(10, normal_channel=True)
    criterion = net.get_loss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for _ in range(2):
        points = torch.rand(2, options.points, 6, generator=data).numpy()
        points = provider.random_point_dropout(points)
        points[:, :, 0:3] = provider.random_scale_point_cloud(points[:, :, 0:3])
        points[:, :, 0:3] = provider.shift_point_cloud(points[:, :, 0:3])
        clouds = torch.Tensor(points).transpose(2, 1)
        target = torch.randint(0, 10, (2,), generator=data)
        pred, trans_feat = model(clouds)
        loss = criterion(pred, target.long(), trans_feat)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        pred, _ = model(torch.rand(2, 6, options.points, generator=data))
    print(f"seed {options.seed}: loss {float(loss):.3f}, classes {pred.argmax(1).tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
