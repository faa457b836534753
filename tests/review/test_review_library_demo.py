"""A dataset module the training imports, with its own ``if __name__ == "__main__":`` demo
(a few samples shown): it is the training's library, not a script beside it, so the
composition its training split builds is the recipe's augmentation row (issue 20: a
segmentation repository's flip, random scale crop, blur and normalisation were absent
because each dataset file had a demo block). A script that trains nothing and that the
training does not import keeps out of the recipe."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "data/__init__.py": "",
    "data/voc.py": """
        from torch.utils.data import Dataset
        from torchvision import transforms
        from data import tfm


        class VOC(Dataset):
            def __init__(self, args, split):
                self.args = args
                self.split = split

            def __len__(self):
                return 10

            def __getitem__(self, i):
                sample = {'image': None, 'label': None}
                if self.split == 'train':
                    return self.transform_tr(sample)
                return self.transform_val(sample)

            def transform_tr(self, sample):
                composed = transforms.Compose([
                    tfm.RandomFlip(),
                    tfm.RandomScaleCrop(base_size=self.args.base_size, crop_size=321),
                    tfm.Normalize(mean=(0.5, 0.5, 0.5), std=(0.2, 0.2, 0.2))])
                return composed(sample)

            def transform_val(self, sample):
                composed = transforms.Compose([tfm.FixCrop(crop_size=321)])
                return composed(sample)


        if __name__ == '__main__':
            import argparse
            args = argparse.Namespace(base_size=400)
            ds = VOC(args, 'train')
            for i in range(3):
                print(ds[i])
    """,
    "data/tfm.py": """
        import random


        class RandomFlip(object):
            def __call__(self, sample):
                return sample


        class RandomScaleCrop(object):
            def __init__(self, base_size, crop_size):
                self.base_size = base_size
                self.crop_size = crop_size

            def __call__(self, sample):
                return sample


        class Normalize(object):
            def __init__(self, mean, std):
                self.mean = mean

            def __call__(self, sample):
                return sample


        class FixCrop(object):
            def __init__(self, crop_size):
                self.crop_size = crop_size

            def __call__(self, sample):
                return sample
    """,
    "show.py": """
        from torchvision import transforms
        from data import tfm

        if __name__ == '__main__':
            t = transforms.Compose([tfm.RandomFlip(), tfm.FixCrop(crop_size=64)])
            print(t)
    """,
    "train.py": """
        import argparse
        import torch
        from torch.utils.data import DataLoader
        from data.voc import VOC


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--base-size', type=int, default=513)
            args = parser.parse_args()
            model = torch.nn.Conv2d(3, 21, 1)
            loader = DataLoader(VOC(args, 'train'), batch_size=4, shuffle=True)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for batch in loader:
                loss = model(batch['image']).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            main()
    """,
}


def test_the_training_split_composition_of_an_imported_module_with_a_demo_is_a_row(
    tmp_path,
) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    rows = {
        f"{i.where.path}:{i.where.line}": dict(i.values)
        for i in review.recipe
        if i.category == "augmentation"
    }
    assert set(rows) == {"data/voc.py:21"}
    steps = rows["data/voc.py:21"]
    assert steps["1"] == "RandomFlip()"
    assert steps["2"].startswith("RandomScaleCrop(base_size=513")
    assert steps["3"] == "Normalize(mean=(0.5, 0.5, 0.5), std=(0.2, 0.2, 0.2))"
