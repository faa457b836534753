"""Recipe rows of code the defaults do not build (``fixtures/familyrecipe``): the model
families registered beside the one ``--model`` names by default (their initialisers, their
SyncBatchNorm), and a transform class nothing builds; with no default pick every family
stays, since which one trains is not known."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FAMILYRECIPE = Path(__file__).resolve().parents[2] / "fixtures" / "familyrecipe"


def recipe(root: Path) -> list[tuple[str, str, str]]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    items: tuple[RecipeItem, ...] = extract_recipe(result, analyses, root)
    return [
        (i.category, str(i.where), i.name)
        for i in items
        if i.category in ("init", "distributed", "augmentation")
    ]


def test_only_the_family_the_default_model_picks_gives_init_rows() -> None:
    assert recipe(FAMILYRECIPE) == [
        # ``always_flip`` (RandomHorizontalFlip(p=1.0)) is built by nothing: no row
        ("augmentation", "augment.py:14", "torchvision.transforms.ColorJitter"),
        ("augmentation", "augment.py:21", "composition in train_transform"),
        # BigNet's constant_ and its Stem's SyncBatchNorm: only big_net* build them
        ("init", "models.py:14", "torch.nn.init.normal_"),
    ]


def test_without_a_default_pick_every_family_stays(tmp_path: Path) -> None:
    root = tmp_path / "familyrecipe"
    shutil.copytree(FAMILYRECIPE, root)
    main = root / "main.py"
    main.write_text(main.read_text().replace('default="small_net"', "default=None"))
    assert recipe(root) == [
        ("distributed", "family.py:9", "torch.nn.SyncBatchNorm"),
        ("augmentation", "augment.py:14", "torchvision.transforms.ColorJitter"),
        ("augmentation", "augment.py:21", "composition in train_transform"),
        ("init", "family.py:24", "torch.nn.init.constant_"),
        ("init", "models.py:14", "torch.nn.init.normal_"),
    ]
