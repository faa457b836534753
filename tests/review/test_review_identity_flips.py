"""A reversed slice is a random flip when a draw decides it (``if random.random() < 0.5:
img = img[:, ::-1]``), not when an identity test between two objects does (``if matrix is not
identity:``, a filter reversed for a resampling convolution): that is a state check."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe

DATASET = """
    import random
    import numpy as np
    import torch
    from torch.utils.data import Dataset

    TAPS = {'sym2': [0.1, 0.4, 0.4, 0.1]}


    class Images(Dataset):
        def __init__(self, items):
            self.items = items

        def __len__(self):
            return len(self.items)

        def __getitem__(self, index):
            img = self.items[index]
            if random.random() < 0.5:
                img = img[:, ::-1]
            identity = np.eye(3)
            matrix = identity
            if index % 3:
                matrix = matrix @ np.diag([2.0, 2.0, 1.0])
            if matrix is not identity:
                taps = np.asarray(TAPS['sym2'])
                kernel = taps[None, ::-1]
                img = np.convolve(img.ravel(), kernel.ravel(), 'same').reshape(img.shape)
            return torch.as_tensor(img.copy())
"""
TRAIN = """
    import torch
    from data import Images

    loader = torch.utils.data.DataLoader(Images([]), batch_size=4)
    net = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for x in loader:
        loss = net(x).mean()
        loss.backward()
        opt.step()
"""


def test_an_identity_test_decides_no_flip(tmp_path: Path) -> None:
    write_repo(tmp_path, {"data.py": DATASET, "train.py": TRAIN})
    result, analyses = scan_with_facts(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    flips = [
        dict(i.values)
        for i in extract_recipe(result, analyses, tmp_path)
        if i.name == "flip (reversed slice)"
    ]
    # VALID: the drawn flip; INVALID: the filter reversed under ``matrix is not identity``
    assert [f["expression"] for f in flips] == ["img[:, ::-1]"]
