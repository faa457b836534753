"""A loader wrapper hands its ``**kwargs`` on to the DataLoader.

``loader(dataset, shuffle=False, **kwargs)`` builds ``DataLoader(dataset, shuffle=shuffle,
**kwargs)``; the training calls it with ``batch_size=32, num_workers=4``: the data-loading
row shows those keywords with the values the caller passes, not ``** = kwargs``."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import review_fixture

DATA = """\
from torch.utils.data import DataLoader


def loader(dataset, *args, shuffle=False, **kwargs):
    return DataLoader(dataset, *args, shuffle=shuffle, **kwargs)
"""

TRAIN = """\
import torch

from data import loader


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def main():
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    dataset = [torch.randn(4) for _ in range(8)]
    batches = loader(dataset, batch_size=32, shuffle=True, num_workers=4)
    for epoch in range(2):
        for x in batches:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
"""


def test_keywords_handed_on_through_kwargs(tmp_path: Path) -> None:
    (tmp_path / "data.py").write_text(DATA)
    (tmp_path / "train.py").write_text(TRAIN)
    review = review_fixture(str(tmp_path))
    (row,) = [r for r in review.recipe if r.category == "dataloader"]
    values = dict(row.values)
    assert values["batch_size"].startswith("32 (passed at train.py:")
    assert values["num_workers"].startswith("4 (")
    assert "**" not in values
