"""A yacs training whose epoch loop runs ``range(cfg.TRAIN.BEGIN_EPOCH, cfg.TRAIN.END_EPOCH)``:
the YAML configs' ``END_EPOCH`` is the training length (issue 20 point 1); its
``BEGIN_EPOCH`` (where a run starts) is none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "lib/config.py": """
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.TRAIN = CN()
        _C.TRAIN.LR = 0.001
        _C.TRAIN.BEGIN_EPOCH = 0
        _C.TRAIN.END_EPOCH = 140
        cfg = _C
    """,
    "experiments/a.yaml": "TRAIN:\n  LR: 0.001\n  BEGIN_EPOCH: 0\n  END_EPOCH: 210\n",
    "experiments/b.yaml": "TRAIN:\n  LR: 0.001\n  BEGIN_EPOCH: 0\n  END_EPOCH: 150\n",
    "train.py": """
        import argparse
        import torch
        from lib.config import cfg


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--cfg', required=True, type=str)
            args = parser.parse_args()
            cfg.merge_from_file(args.cfg)
            model = torch.nn.Linear(2, 2)
            optimizer = torch.optim.Adam(model.parameters(), lr=cfg.TRAIN.LR)
            for epoch in range(cfg.TRAIN.BEGIN_EPOCH, cfg.TRAIN.END_EPOCH):
                loss = model(torch.ones(2)).sum()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_the_end_epoch_key_is_the_training_length(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    epochs = [i for i in review.recipe if i.category == "epochs"]
    assert [i.name for i in epochs] == ["config TRAIN.END_EPOCH across YAML configs"]
    values = dict(epochs[0].values)
    assert values["values"] == "150 in 1 of 2 YAML configs; 210 in 1"
    # INVALID: where a run starts is no length
    assert not [i for i in review.recipe if "BEGIN_EPOCH" in i.name]
