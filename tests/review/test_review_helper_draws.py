"""A dataset's hand-written augmentation through a helper that draws (issue 20 item 1):
dgcnn's ``__getitem__`` calls ``translate_pointcloud(pointcloud)`` (a scale drawn from
``np.random.uniform(low=2./3., high=3./2.)`` and a shift from ``np.random.uniform(low=-0.2,
high=0.2)``) then ``np.random.shuffle(pointcloud)``. The row shows the helper's draws with
their amounts, and the shuffle of the points; a helper defined but never called
(``jitter_pointcloud``) is no draw."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.review.build import build_review

REPO = {
    "data.py": """
        import numpy as np
        from torch.utils.data import Dataset
        def translate_pointcloud(pointcloud):
            xyz1 = np.random.uniform(low=2./3., high=3./2., size=[3])
            xyz2 = np.random.uniform(low=-0.2, high=0.2, size=[3])
            return np.add(np.multiply(pointcloud, xyz1), xyz2).astype('float32')
        def jitter_pointcloud(pointcloud, sigma=0.01, clip=0.02):
            return pointcloud + np.clip(sigma * np.random.randn(*pointcloud.shape), -clip, clip)
        class Points(Dataset):
            def __init__(self, num_points, partition='train'):
                self.data = np.zeros((10, 2048, 3), dtype='float32')
                self.num_points = num_points
                self.partition = partition
            def __getitem__(self, item):
                pointcloud = self.data[item][:self.num_points]
                if self.partition == 'train':
                    pointcloud = translate_pointcloud(pointcloud)
                    np.random.shuffle(pointcloud)
                return pointcloud, 0
            def __len__(self):
                return self.data.shape[0]
    """,
    "main.py": """
        import torch
        from torch.utils.data import DataLoader
        from data import Points
        def train():
            loader = DataLoader(Points(partition='train', num_points=1024), batch_size=32)
            model = torch.nn.Linear(3, 40)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for x, _ in loader:
                loss = model(x).sum()
                loss.backward()
                opt.step()
        if __name__ == "__main__":
            train()
    """,
}


def test_helper_draws_and_shuffle_are_shown(tmp_path: Path) -> None:
    review = build_review(str(write_repo(tmp_path, REPO)))
    rows = [i for i in review.recipe if i.category == "augmentation"]
    assert [i.name for i in rows] == ["Points.__getitem__"], review.recipe
    draws = [v for k, v in rows[0].values if k.startswith("draw ")]
    assert draws[0].startswith("pointcloud = translate_pointcloud(pointcloud)")
    assert "np.random.uniform(low=2./3., high=3./2., size=[3])" in draws[1]
    assert "np.random.uniform(low=-0.2, high=0.2, size=[3])" in draws[2]
    assert draws[3].startswith("np.random.shuffle(pointcloud)")
    assert not any("randn" in d or "jitter" in d for d in draws)


def test_a_shuffle_of_the_datasets_own_records_is_no_draw(tmp_path: Path) -> None:
    """``np.random.shuffle(self.list_sample)`` orders the records the dataset reads from (a
    scene-parsing dataset reshuffling its list when it wraps around): no augmentation row."""
    data = (
        REPO["data.py"]
        .replace(
            "            def __len__(self):",
            "            def _next_record(self):\n"
            "                np.random.shuffle(self.records)\n"
            "                return self.records[0]\n"
            "            def __len__(self):",
        )
        .replace(
            "                self.partition = partition\n",
            "                self.partition = partition\n"
            "                self.records = list(range(10))\n",
        )
        .replace(
            "                pointcloud = self.data[item][:self.num_points]\n",
            "                pointcloud = self.data[self._next_record()][:self.num_points]\n",
        )
    )
    review = build_review(str(write_repo(tmp_path, {**REPO, "data.py": data})))
    rows = [i for i in review.recipe if i.category == "augmentation"]
    assert [i.name for i in rows] == ["Points.__getitem__"]
    assert not any("self.records" in v for i in rows for _, v in i.values)
