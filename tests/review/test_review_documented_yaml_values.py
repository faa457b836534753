"""A yacs key the documented training commands' YAMLs set to different values (no YAML the
default): the value a row shows is those values as alternatives, never the Python default
that every documented run overrides (issue 20 point 1)."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "README.md": """
        # Keypoints

        ```
        python train.py --cfg experiments/a.yaml
        python train.py --cfg experiments/b.yaml
        ```
    """,
    "lib/config.py": """
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.DATASET = CN()
        _C.DATASET.SCALE_FACTOR = 0.25
        _C.DATASET.FLIP = True
        _C.TRAIN = CN()
        _C.TRAIN.LR = 0.001
        cfg = _C
    """,
    "experiments/a.yaml": "DATASET:\n  SCALE_FACTOR: 0.3\nTRAIN:\n  LR: 0.001\n",
    "experiments/b.yaml": "DATASET:\n  SCALE_FACTOR: 0.35\nTRAIN:\n  LR: 0.001\n",
    "data.py": """
        import random

        import numpy as np
        import torch


        class Joints(torch.utils.data.Dataset):
            def __init__(self, cfg):
                self.scale_factor = cfg.DATASET.SCALE_FACTOR
                self.flip = cfg.DATASET.FLIP

            def __len__(self):
                return 10

            def __getitem__(self, i):
                s = np.clip(np.random.randn() * self.scale_factor + 1, 0.5, 1.5)
                if self.flip and random.random() <= 0.5:
                    s = -s
                return torch.ones(3) * s
    """,
    "train.py": """
        import argparse
        import torch
        from lib.config import cfg
        from data import Joints


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--cfg', required=True, type=str)
            args = parser.parse_args()
            cfg.merge_from_file(args.cfg)
            model = torch.nn.Linear(3, 1)
            loader = torch.utils.data.DataLoader(Joints(cfg), batch_size=2)
            optimizer = torch.optim.Adam(model.parameters(), lr=cfg.TRAIN.LR)
            for x in loader:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_the_documented_runs_values_not_the_default(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    shown = [
        v
        for i in review.recipe
        if i.category == "augmentation"
        for k, v in i.values
        if "scale_factor" in k or i.name.endswith("scale_factor")
    ]
    assert shown
    for value in shown:
        # VALID: each documented run's value
        assert value.startswith("0.3 | 0.35 (")
        # INVALID: the Python default, which neither documented run keeps
        assert "default at" not in value
