"""A yacs training whose documented commands name their YAML (``--cfg experiments/...``,
none the default): the model settings row holds the keys of the ``MODEL`` section those
YAMLs set and the code reads, with each documented run's value (issue 20 point 5)."""

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
        _C.MODEL = CN()
        _C.MODEL.NUM_JOINTS = 17
        _C.MODEL.WIDTH = 32
        _C.MODEL.UNREAD = 1
        _C.MODEL.IMAGE_SIZE = [256, 256]
        _C.TRAIN = CN()
        _C.TRAIN.LR = 0.001
        cfg = _C
    """,
    "experiments/a.yaml": (
        "MODEL:\n  NUM_JOINTS: 16\n  WIDTH: 48\n  UNREAD: 2\n  IMAGE_SIZE: [256, 256]\n"
        "TRAIN:\n  LR: 0.001\n"
    ),
    "experiments/b.yaml": (
        "MODEL:\n  NUM_JOINTS: 17\n  WIDTH: 48\n  UNREAD: 2\n  IMAGE_SIZE: [192, 256]\n"
        "TRAIN:\n  LR: 0.001\n"
    ),
    "experiments/c.yaml": "MODEL:\n  NUM_JOINTS: 14\n  WIDTH: 64\n",
    "net.py": """
        import torch


        class Net(torch.nn.Module):
            def __init__(self, cfg):
                super().__init__()
                width = cfg.MODEL.WIDTH
                self.head = torch.nn.Conv2d(width, cfg.MODEL.NUM_JOINTS, 1)

            def forward(self, x):
                return self.head(x)
    """,
    "train.py": """
        import argparse
        import torch
        from lib.config import cfg
        from net import Net


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--cfg', required=True, type=str)
            args = parser.parse_args()
            cfg.merge_from_file(args.cfg)
            size = cfg.MODEL.IMAGE_SIZE
            model = Net(cfg)
            optimizer = torch.optim.Adam(model.parameters(), lr=cfg.TRAIN.LR)
            for epoch in range(10):
                loss = model(torch.ones(1, 32, *size)).sum()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_the_documented_yamls_model_section_is_the_model_settings(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    (row,) = [i for i in review.recipe if i.name == "config MODEL of the documented runs' YAML"]
    assert row.category == "model"
    values = dict(row.values)
    # VALID: each documented run's value; the one they share once
    assert values["MODEL.NUM_JOINTS"] == "16 in 1 of the 2 documented configs; 17 in 1"
    assert values["MODEL.WIDTH"] == "48"
    # INVALID: a key no code reads, the input size (its own row), an undocumented YAML's
    assert "MODEL.UNREAD" not in values
    assert "MODEL.IMAGE_SIZE" not in values
    assert "64" not in str(values) and "14" not in str(values)
