"""A dataset that makes its samples up (random features and random labels drawn for every
item, the index used only for sizes) draws its data, not an augmentation of it: no
augmentation row. A dataset that reads a stored sample (by the index, or by an index it
draws) and then jitters it keeps its row."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

DATA = """
    import random
    import numpy as np
    import torch

    def random_batch(n, dim):
        return torch.tensor(np.random.rand(n, dim)), torch.tensor(np.random.rand(n))

    class RandomDataset(torch.utils.data.Dataset):
        def __init__(self, size, batch):
            self.size = size
            self.batch = batch

        def __getitem__(self, index):
            if isinstance(index, slice):
                return [self[i] for i in range(index.start or 0, index.stop)]
            n = min(self.batch, self.size - index * self.batch)
            x, y = random_batch(n, 4)
            return x * np.random.uniform(0.5, 2.0), y

        def __len__(self):
            return self.size

    class NoisyDataset(torch.utils.data.Dataset):
        def __init__(self, samples):
            self.samples = samples

        def __getitem__(self, index):
            x = self.samples[random.randint(0, len(self.samples) - 1)]
            if np.random.rand() < 0.5:
                x = x + torch.randn(4) * 0.1
            return x

        def __len__(self):
            return len(self.samples)
"""

TRAIN = """
    import torch
    from data import NoisyDataset, RandomDataset

    def main():
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for data in (RandomDataset(10, 2), NoisyDataset([torch.zeros(4)])):
            for x in torch.utils.data.DataLoader(data):
                loss = model(x[0]).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()

    if __name__ == "__main__":
        main()
"""


def test_a_synthetic_dataset_draws_no_augmentation(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, {"data.py": DATA, "train.py": TRAIN})), jobs=1)
    rows = [i.name for i in review.recipe if i.category == "augmentation"]
    assert rows == ["NoisyDataset.__getitem__"], rows
