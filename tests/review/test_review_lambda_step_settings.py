"""A transform step written as a lambda over the options (``transforms.Lambda(lambda img:
__scale_width(img, opt.load_size, method))``, ``__crop(img, pos, opt.crop_size)``) shows
the values the settings it reads take with the defaults, as a class step shows its
arguments' (issue 20)."""

from __future__ import annotations

from scan_helpers import write_repo

from apiscan.review.build import build_review

FILES = {
    "train.py": """
        import argparse

        import torch
        import torchvision.transforms as transforms
        from torch.utils.data import DataLoader, Dataset

        parser = argparse.ArgumentParser()
        parser.add_argument("--load_size", type=int, default=1024)
        parser.add_argument("--crop_size", type=int, default=512)
        opt = parser.parse_args()


        def scale_width(img, width):
            return img


        def crop(img, size):
            return img


        def get_transform(opt):
            steps = [
                transforms.Lambda(lambda img: scale_width(img, opt.load_size)),
                transforms.Lambda(lambda img: crop(img, opt.crop_size)),
                transforms.ToTensor(),
            ]
            return transforms.Compose(steps)


        class Images(Dataset):
            def __init__(self, opt):
                self.transform = get_transform(opt)

            def __len__(self):
                return 4

            def __getitem__(self, i):
                return self.transform(None)


        net = torch.nn.Linear(4, 1)
        optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        loader = DataLoader(Images(opt), batch_size=2)
        for epoch in range(3):
            for x in loader:
                optimizer.zero_grad()
                net(x).sum().backward()
                optimizer.step()
    """,
}


def test_a_lambda_step_shows_the_settings_it_reads(tmp_path) -> None:
    review = build_review(str(write_repo(tmp_path, FILES)), jobs=1)
    [row] = [r for r in review.recipe if r.name.startswith("composition")]
    steps = dict(row.values)
    assert "opt.load_size = 1024" in steps["1"], steps
    assert "opt.crop_size = 512" in steps["2"], steps
