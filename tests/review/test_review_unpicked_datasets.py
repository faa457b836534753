"""The dataset a string-keyed choice of the loader builder leaves out with the run's values
(``elif args.dataset == 'city':`` with ``--dataset`` defaulting to ``voc``) is another run's:
the composition its training split builds is no row of this recipe, though its module tries
itself out under ``__main__`` (issue 20: a segmentation repository listed the compositions of
the Cityscapes and COCO datasets beside the default VOC's)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review


def _dataset(name: str, crop: int) -> str:
    return f"""
        from torch.utils.data import Dataset
        from torchvision import transforms
        from data import tfm


        class {name}(Dataset):
            def __init__(self, args, split):
                self.args = args
                self.split = split

            def __len__(self):
                return 10

            def __getitem__(self, i):
                return self.transform_tr({{'image': None}})

            def transform_tr(self, sample):
                composed = transforms.Compose([tfm.RandomFlip(), tfm.Crop(size={crop})])
                return composed(sample)


        if __name__ == '__main__':
            ds = {name}(None, 'train')
            print(ds[0])
    """


FILES = {
    "data/__init__.py": """
        from torch.utils.data import DataLoader
        from data import voc, city


        def make_loader(args):
            if args.dataset == 'voc':
                train_set = voc.VOC(args, 'train')
            elif args.dataset == 'city':
                train_set = city.City(args, 'train')
            else:
                raise NotImplementedError
            return DataLoader(train_set, batch_size=4, shuffle=True)
    """,
    "data/voc.py": _dataset("VOC", 321),
    "data/city.py": _dataset("City", 769),
    "data/tfm.py": """
        class RandomFlip(object):
            def __call__(self, sample):
                return sample


        class Crop(object):
            def __init__(self, size):
                self.size = size

            def __call__(self, sample):
                return sample
    """,
    "train.py": """
        import argparse
        import torch
        from data import make_loader


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--dataset', type=str, default='voc', choices=['voc', 'city'])
            args = parser.parse_args()
            model = torch.nn.Conv2d(3, 21, 1)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for batch in make_loader(args):
                loss = model(batch['image']).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_only_the_picked_dataset_composition_is_a_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = {i.where.path: dict(i.values) for i in review.recipe if i.category == "augmentation"}
    assert set(rows) == {"data/voc.py"}
    assert rows["data/voc.py"]["2"] == "Crop(size=321)"


LOSS_FILES = {
    "losses.py": """
        import torch.nn as nn


        class SegLosses(object):
            def __init__(self, ignore_index=255):
                self.ignore_index = ignore_index

            def build_loss(self, mode='ce'):
                if mode == 'ce':
                    return self.CrossEntropyLoss
                elif mode == 'focal':
                    return self.FocalLoss
                else:
                    raise NotImplementedError

            def CrossEntropyLoss(self, logit, target):
                criterion = nn.CrossEntropyLoss(ignore_index=self.ignore_index)
                return criterion(logit, target)

            def FocalLoss(self, logit, target, gamma=2):
                criterion = nn.CrossEntropyLoss(ignore_index=self.ignore_index, reduction='none')
                return criterion(logit, target).mean() * gamma
    """,
    "train.py": """
        import argparse
        import torch
        from losses import SegLosses


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--loss-type', type=str, default='ce', choices=['ce', 'focal'])
            args = parser.parse_args()
            model = torch.nn.Conv2d(3, 21, 1)
            criterion = SegLosses().build_loss(mode=args.loss_type)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for _ in range(3):
                loss = criterion(model(torch.zeros(1, 3, 4, 4)), torch.zeros(1, 4, 4).long())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_a_loss_method_only_the_untaken_mode_returns_gives_no_row(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, LOSS_FILES)), jobs=1)
    rows = [
        (str(i.where), i.note)
        for i in review.recipe
        if i.category == "loss" and i.name == "torch.nn.CrossEntropyLoss"
    ]
    # the cross-entropy mode's construction only: the focal mode's is another run's
    assert rows == [("losses.py:17", "")]


MODE_FILES = {
    "data.py": """
        import random
        from torch.utils.data import Dataset, DataLoader


        class Samples(Dataset):
            def __init__(self, mode):
                self.mode = mode

            def __len__(self):
                return 10

            def __getitem__(self, i):
                image = [float(i)] * 4
                if self.mode == 'train':
                    image = self.jitter(image)
                return image

            def jitter(self, image):
                gain = random.uniform(0.9, 1.1)
                return [v * gain for v in image]


        class Loader(object):
            def __init__(self, mode):
                if mode == 'train':
                    self.data = DataLoader(Samples(mode), batch_size=2, shuffle=True)
                else:
                    self.data = DataLoader(Samples(mode), batch_size=1)
    """,
    "train.py": """
        import torch
        import torch.nn.functional as F
        from data import Loader


        def main():
            model = torch.nn.Linear(4, 1)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            train = Loader('train').data
            for x in train:
                x = F.interpolate(x[None, None], size=4, mode='linear')[0, 0]
                loss = model(x).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            for x in Loader('eval').data:
                model(x)


        if __name__ == '__main__':
            main()
    """,
}


def test_a_library_calls_keyword_does_not_pick_a_datasets_mode(tmp_path) -> None:
    """``F.interpolate(..., mode='linear')`` says nothing of the dataset's ``if self.mode ==
    'train':``: the training split's random steps stay recipe rows (issue 20: a depth
    repository lost its whole augmentation to the ``mode='bilinear'`` of its resizes)."""
    review = build_review(str(write_repo(tmp_path, MODE_FILES)), jobs=1)
    rows = {i.name for i in review.recipe if i.category == "augmentation"}
    assert "Samples.jitter" in rows
