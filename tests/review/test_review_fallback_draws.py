"""A dataset that stands a random image in for a file that fails to load (``except:
random_img = np.random.rand(224, 224, 3) * 255`` in its loader method) draws nothing for
augmentation: neither the loader nor ``__getitem__`` calling it is a "random steps the
dataset draws" row. A draw outside the handler still is one."""

from __future__ import annotations

from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.recipe import extract_recipe
from apiscan.review.roles import HAND_DRAWN

DATASET = """
    import random

    import numpy as np
    import torch
    from PIL import Image


    class Folder(torch.utils.data.Dataset):
        def __init__(self, files):
            self.files = files

        def _load(self, path):
            try:
                im = Image.open(path)
            except:
                print("bad image", path)
                im = Image.fromarray(np.uint8(np.random.rand(224, 224, 3) * 255))
            return im

        def __getitem__(self, index):
            image = self._load(self.files[index]).convert('RGB')
            FLIP
            return image

        def __len__(self):
            return len(self.files)
"""

TRAIN = """
    import torch

    from data import Folder


    def main():
        loader = torch.utils.data.DataLoader(Folder(['a.png']), batch_size=2)
        model = torch.nn.Linear(2, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in loader:
            model(x).sum().backward()
            opt.step()


    if __name__ == '__main__':
        main()
"""


def _drawn(tmp_path: Path, flip: str) -> list[str]:
    files = {"data.py": DATASET.replace("FLIP", flip), "train.py": TRAIN}
    root = write_repo(tmp_path / "repo", files)
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return [i.name for i in extract_recipe(result, analyses, root) if i.note == HAND_DRAWN]


def test_a_stand_in_for_a_failed_load_is_no_augmentation(tmp_path: Path) -> None:
    assert _drawn(tmp_path, "pass") == []


def test_a_draw_outside_the_handler_still_is(tmp_path: Path) -> None:
    flip = "if random.random() < 0.5: image = image.transpose(Image.FLIP_LEFT_RIGHT)"
    assert _drawn(tmp_path, flip) == ["Folder.__getitem__"]
