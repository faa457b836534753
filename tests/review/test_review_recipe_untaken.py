"""The recipe keeps only what training runs with the defaults, in every category: a single
``if`` whose test is false drops its rows (deit's ``if args.bce_loss:``), a value every
branch of the next ``if``/``elif``/``else`` replaces is dead, a function or class built only
from an untaken branch gives no rows (deit's ThreeAugment generator), the evaluation side of
``is_train`` is no augmentation, an option read only in an untaken branch is no row
(deep-text-recognition's ``--beta1``), an evaluation function's loss is no training loss, a
composition of input steps only is preprocessing. Small repositories written inline."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scan_helpers import write_repo

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import _setting_category, extract_recipe


def recipe(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def line_of(src: str, text: str) -> int:
    """The line of ``text`` in ``src`` as :func:`write_repo` writes it."""
    lines = textwrap.dedent(src).lstrip("\n").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def rows(items: tuple[RecipeItem, ...], category: str) -> list[tuple[str, str, int]]:
    return [(i.name, i.where.path, i.where.line) for i in items if i.category == category]


AUGMENT = """
    import random
    from torchvision import transforms


    class gray_scale(object):
        def __init__(self, p=0.2):
            self.p = p
            self.transf = transforms.Grayscale(3)

        def __call__(self, img):
            return self.transf(img) if random.random() < self.p else img


    def new_data_aug_generator(args):
        return transforms.Compose([
            transforms.RandomChoice([gray_scale(p=1.0)]),
            transforms.ColorJitter(args.color_jitter, args.color_jitter),
        ])
"""

DATASETS = """
    from torchvision import transforms


    def build_transform(is_train, args):
        resize_im = args.input_size > 32
        if is_train:
            transform = transforms.Compose([
                transforms.RandomResizedCrop(args.input_size),
                transforms.RandomHorizontalFlip(),
            ])
            if not resize_im:
                transform.transforms[0] = transforms.RandomCrop(args.input_size, padding=4)
            return transform

        t = []
        t.append(transforms.Resize(int(args.input_size / 0.875), interpolation=3))
        t.append(transforms.CenterCrop(args.input_size))
        return transforms.Compose(t)
"""

ENGINE = """
    import torch


    def train_one_epoch(model, criterion, loader, optimizer, args):
        if args.cosub:
            criterion = torch.nn.BCEWithLogitsLoss()
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    def evaluate(loader, model):
        criterion = torch.nn.CrossEntropyLoss()
        for x, y in loader:
            print(criterion(model(x), y).item())
"""

MAIN = """
    import argparse
    import torch
    from augment import new_data_aug_generator
    from datasets import build_transform
    from engine import evaluate, train_one_epoch


    class LabelSmoothingCrossEntropy(torch.nn.Module):
        def __init__(self, smoothing=0.1):
            super().__init__()
            self.smoothing = smoothing

        def forward(self, x, target):
            return torch.nn.functional.cross_entropy(x, target, label_smoothing=self.smoothing)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--lr', default=5e-4, type=float)
        parser.add_argument('--adam', action='store_true')
        parser.add_argument('--beta1', type=float, default=0.9)
        parser.add_argument('--smoothing', type=float, default=0.1)
        parser.add_argument('--mixup', type=float, default=0.0)
        parser.add_argument('--bce-loss', action='store_true')
        parser.add_argument('--cosub', action='store_true')
        parser.add_argument('--ThreeAugment', action='store_true')
        parser.add_argument('--color-jitter', type=float, default=0.3)
        parser.add_argument('--input-size', type=int, default=224)
        parser.add_argument('--repeated-aug', action='store_true')
        parser.add_argument('--no-repeated-aug', action='store_false', dest='repeated_aug')
        parser.set_defaults(repeated_aug=True)
        parser.add_argument('--imgH', type=int, default=32)
        parser.add_argument('--batch_max_length', type=int, default=25)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        train_tf = build_transform(True, args)
        val_tf = build_transform(False, args)
        if args.ThreeAugment:
            train_tf = new_data_aug_generator(args)
        if args.adam:
            optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(args.beta1, 0.999))
        else:
            optimizer = torch.optim.Adadelta(model.parameters(), lr=args.lr)
        criterion = LabelSmoothingCrossEntropy()
        if args.mixup > 0:
            criterion = torch.nn.KLDivLoss()
        elif args.smoothing:
            criterion = LabelSmoothingCrossEntropy(smoothing=args.smoothing)
        else:
            criterion = torch.nn.CrossEntropyLoss()
        if args.bce_loss:
            criterion = torch.nn.BCEWithLogitsLoss()
        if args.repeated_aug:
            sampler = torch.utils.data.RandomSampler(range(8))
        loader = torch.utils.data.DataLoader(range(8), sampler=sampler)
        train_one_epoch(model, criterion, loader, optimizer, args)
        evaluate(loader, model)


    if __name__ == '__main__':
        main()
"""


def test_rows_where_training_does_not_go_with_the_defaults(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {"augment.py": AUGMENT, "datasets.py": DATASETS, "engine.py": ENGINE, "main.py": MAIN},
    )
    items = recipe(tmp_path)
    losses = rows(items, "loss")
    # the elif taken with --smoothing 0.1 stays; the first assignment every branch replaces,
    # the BCE switches left off (a single if, false) and evaluate()'s loss are gone
    taken = line_of(MAIN, "LabelSmoothingCrossEntropy(smoothing=args.smoothing)")
    assert ("main.LabelSmoothingCrossEntropy", "main.py", taken) in losses
    for text in ("criterion = LabelSmoothingCrossEntropy()", "BCEWithLogitsLoss"):
        line = line_of(MAIN, text)
        assert not any(path == "main.py" and n == line for _, path, n in losses), losses
    assert not any(path == "engine.py" for _, path, _ in losses), losses
    assert not any("KLDivLoss" in name for name, _, _ in losses), losses
    augmentation = rows(items, "augmentation")
    # ThreeAugment (off): neither its generator's transforms nor its class's Grayscale
    assert not any(path == "augment.py" for _, path, _ in augmentation), augmentation
    # input_size 224 > 32: no RandomCrop; the is_train=False composition is the val set's
    names = [name for name, path, _ in augmentation if path == "datasets.py"]
    assert not any(n.rpartition(".")[2] == "RandomCrop" for n in names), names
    assert not any(n.rpartition(".")[2] in ("Resize", "CenterCrop") for n in names), names
    assert any("RandomResizedCrop" in n or n.startswith("composition") for n in names), names
    # --beta1 is read only by the Adam branch --adam leaves off; --lr is read by Adadelta
    optimizer = [name for name, _, _ in rows(items, "optimizer")]
    assert "argparse --beta1" not in optimizer
    assert "argparse --lr" in optimizer
    assert "torch.optim.Adam" not in optimizer
    # parser.set_defaults(repeated_aug=True): the sampler under ``if args.repeated_aug`` runs
    assert any("RandomSampler" in name for name, _, _ in rows(items, "dataloader"))
    # the input size and label length a text recogniser is trained at
    preprocessing = [name for name, _, _ in rows(items, "preprocessing")]
    assert {"argparse --imgH", "argparse --batch_max_length"} <= set(preprocessing)


VALIDATE = """
    import torch
    import torchvision.transforms as transforms
    from transforms import flip_back


    def validate(model, loader):
        for x, y in loader:
            out = model(x)
            flipped = flip_back(model(x.flip(3)))
            print((out + flipped) / 2)


    def main():
        normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
        tf = transforms.Compose([transforms.ToTensor(), normalize])
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        loader = torch.utils.data.DataLoader([tf])
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
        validate(model, loader)


    if __name__ == '__main__':
        main()
"""

FLIP = """
    def flip_back(output):
        return output[:, :, :, ::-1]
"""


def test_a_validation_flip_and_an_input_only_composition(tmp_path: Path) -> None:
    write_repo(tmp_path, {"train.py": VALIDATE, "transforms.py": FLIP})
    items = recipe(tmp_path)
    assert not any(i.name == "flip_back" for i in items), items
    composed = [i for i in items if i.name.startswith("composition in")]
    assert composed and all(i.category == "preprocessing" for i in composed), composed


def test_image_size_and_label_length_settings() -> None:
    assert _setting_category("imgH") == "preprocessing"
    assert _setting_category("imgW") == "preprocessing"
    assert _setting_category("batch_max_length") == "preprocessing"
    assert _setting_category("max_length_of_ride") is None


DEFAULTS = """
    from yacs.config import CfgNode as CN

    _C = CN()
    _C.DATASET = CN()
    _C.DATASET.SCALE_FACTOR = 0.25
    _C.DATASET.ROT_FACTOR = 30
"""

JOINTS = """
    from torch.utils.data import Dataset


    class JointsDataset(Dataset):
        def __init__(self, cfg, is_train):
            self.is_train = is_train
            self.scale_factor = cfg.DATASET.SCALE_FACTOR
            self.rotation_factor = cfg.DATASET.ROT_FACTOR
            self.output_path = cfg.OUTPUT_DIR
"""

TRAIN = """
    import argparse
    import torch
    from lib.config.default import _C as cfg
    from lib.dataset.joints import JointsDataset


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--cfg', required=True, type=str)
        args = parser.parse_args()
        cfg.merge_from_file(args.cfg)
        dataset = JointsDataset(cfg, True)
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for x in torch.utils.data.DataLoader(dataset):
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""

YAML = """
DATASET:
  SCALE_FACTOR: 0.35
  ROT_FACTOR: 45
"""


def test_a_datasets_augmentation_values_from_its_config(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {"lib/config/default.py": DEFAULTS, "lib/dataset/joints.py": JOINTS, "train.py": TRAIN},
    )
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "w32.yaml").write_text(YAML, encoding="utf-8")
    items = {i.name: dict(i.values) for i in recipe(tmp_path) if i.category == "augmentation"}
    assert set(items) >= {"JointsDataset.scale_factor", "JointsDataset.rotation_factor"}
    assert "JointsDataset.output_path" not in items
    # the Python default and what the YAML configs set it to
    assert "0.25" in items["JointsDataset.scale_factor"]["value"]
    assert "0.35" in items["JointsDataset.scale_factor"]["value"]
    assert "45" in items["JointsDataset.rotation_factor"]["value"]


def test_label_smoothing_is_a_loss_setting() -> None:
    assert _setting_category("smoothing") == "loss"
    assert _setting_category("label_smoothing") == "loss"
