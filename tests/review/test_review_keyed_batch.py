"""A training script that reads its batch sizes by key from the YAML config its option
loads (BLIP's ``config['batch_size_train']`` and ``config['batch_size_test']``, handed to
``create_loader`` as a list its ``zip`` loop unpacks into each ``DataLoader``): the training
batch size is a recipe row with the file's value; the evaluation's is none."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

TRAIN = """
    import argparse

    import torch
    import yaml
    from torch import nn
    from torch.utils.data import DataLoader


    def create_loader(datasets, batch_size):
        loaders = []
        for dataset, bs in zip(datasets, batch_size):
            loaders.append(DataLoader(dataset, batch_size=bs))
        return loaders


    def main(config):
        model = nn.Linear(4, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        train_loader, test_loader = create_loader(
            [[torch.zeros(4)], [torch.zeros(4)]],
            [config['batch_size_train'], config['batch_size_test']],
        )
        for epoch in range(config['max_epoch']):
            for x in train_loader:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('--config', default='./configs/train.yaml')
        args = parser.parse_args()
        config = yaml.load(open(args.config, 'r'), Loader=yaml.Loader)
        main(config)
"""


def test_the_training_batch_size_read_by_key_is_a_row(tmp_path: Path) -> None:
    config = "batch_size_train: 32\nbatch_size_test: 64\nmax_epoch: 6\n"
    root = write_repo(tmp_path, {"train.py": TRAIN, "configs/train.yaml": config})
    review = build_review(str(root))
    rows = {i.name: i for i in review.recipe if i.category == "batch_size"}
    assert set(rows) == {"config batch_size_train"}
    row = rows["config batch_size_train"]
    assert dict(row.values) == {"value": "32"}
    assert (row.where.path, row.where.line) == ("configs/train.yaml", 1)
    assert row.note.startswith("read by key; ")
