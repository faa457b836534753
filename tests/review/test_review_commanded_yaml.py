"""A training script that loads a YAML config named by its ``--config`` option
(``yaml.load(open(args.config))``, then ``config['init_lr']``): the file the documented
training command passes is the one the run reads, over the option's default (BLIP's README
fine-tunes ``train_retrieval.py --config ./configs/retrieval_coco.yaml``, its default the
Flickr file). A command that only evaluates (``--evaluate``) names no file the training
runs with."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse

    import torch
    import yaml
    from torch import nn


    def main(args, config):
        model = nn.Linear(4, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=config['init_lr'],
                                      weight_decay=config['weight_decay'])
        loss = model(torch.zeros(2, 4)).sum()
        loss.backward()
        optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--config', default='./configs/flickr.yaml')
        parser.add_argument('--evaluate', action='store_true')
        args = parser.parse_args()
        config = yaml.load(open(args.config, 'r'), Loader=yaml.Loader)
        main(args, config)
"""

CONFIGS = {
    "configs/flickr.yaml": "init_lr: 1e-5\nweight_decay: 0.05\n",
    "configs/coco.yaml": "init_lr: 2e-5\nweight_decay: 0.02\n",
}


def _lr(root: Path) -> str:
    (optimizer,) = [i for i in build_review(str(root)).recipe if i.category == "optimizer"]
    return dict(optimizer.values)["lr"]


def test_the_documented_training_commands_config_wins_over_the_default(tmp_path: Path) -> None:
    readme = """
        Evaluate:

            python train.py --config ./configs/flickr.yaml --evaluate

        Fine-tune:

            python train.py --config ./configs/coco.yaml --output_dir out
    """
    root = write_repo(tmp_path, {"train.py": TRAIN, "README.md": readme, **CONFIGS})
    lr = _lr(root)
    assert lr.startswith("2e-5 (config['init_lr']: 2e-5 in configs/coco.yaml:1")
    assert "--config of the training command at README.md:" in lr


def test_an_evaluation_command_names_no_trained_config(tmp_path: Path) -> None:
    readme = """
        Evaluate:

            python train.py --config ./configs/coco.yaml --evaluate
    """
    root = write_repo(tmp_path, {"train.py": TRAIN, "README.md": readme, **CONFIGS})
    assert _lr(root).startswith("1e-5 (config['init_lr']: 1e-5 in configs/flickr.yaml:1")
