"""A batch sampler the repository defines itself, built once for the training set and once
for the validation set (``sampler_val = GroupSampler(dataset_val, batch_size=1)``): only the
training one is the recipe's data loading, as with torch's own samplers (issue 20: a
detector's validation sampler with batch size 1 was listed beside the training one)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "data.py": """
        import torch
        from torch.utils.data import Dataset, Sampler


        class Boxes(Dataset):
            def __init__(self, split):
                self.split = split

            def __len__(self):
                return 8

            def __getitem__(self, i):
                return torch.zeros(3, 8, 8)


        class GroupSampler(Sampler):
            def __init__(self, data_source, batch_size, drop_last):
                self.data_source = data_source
                self.batch_size = batch_size
                self.drop_last = drop_last

            def __iter__(self):
                for i in range(0, len(self.data_source), self.batch_size):
                    yield list(range(i, i + self.batch_size))

            def __len__(self):
                return len(self.data_source) // self.batch_size
    """,
    "train.py": """
        import torch
        from torch.utils.data import DataLoader
        from data import Boxes, GroupSampler


        def main():
            dataset_train = Boxes('train')
            dataset_val = Boxes('val')
            sampler = GroupSampler(dataset_train, batch_size=2, drop_last=False)
            loader = DataLoader(dataset_train, num_workers=3, batch_sampler=sampler)
            sampler_val = GroupSampler(dataset_val, batch_size=1, drop_last=False)
            loader_val = DataLoader(dataset_val, num_workers=3, batch_sampler=sampler_val)
            model = torch.nn.Conv2d(3, 4, 1)
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-5)
            for batch in loader:
                loss = model(batch).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            with torch.no_grad():
                for batch in loader_val:
                    model(batch)


        if __name__ == '__main__':
            main()
    """,
}


def test_only_the_training_sampler_of_the_repository_is_a_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    samplers = [
        (str(i.where), dict(i.values).get("batch_size"))
        for i in review.recipe
        if i.category == "dataloader" and i.name.endswith("GroupSampler")
    ]
    assert samplers == [("train.py:9", "2")]
