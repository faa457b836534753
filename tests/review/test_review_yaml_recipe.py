"""Recipe values kept in YAML files: yacs configs whose sections are upper case and whose
keys are not (``fixtures/cfgrecipe/yacslower``: ``_C.TRAIN.lr_encoder = 0.01`` with
``config/*.yaml`` merged over it by ``cfg.merge_from_file(args.cfg)``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.config_files import yacs_key
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cfgrecipe"


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def values(items: tuple[RecipeItem, ...], category: str, name: str) -> dict[str, str]:
    (found,) = [i for i in items if i.category == category and i.name == name]
    return dict(found.values)


def test_a_yacs_key_is_any_name_under_upper_case_sections() -> None:
    assert yacs_key(["cfg", "TRAIN", "lr_encoder"]) == ["TRAIN", "lr_encoder"]
    assert yacs_key(["cfg", "MODEL", "BACKBONE", "CONV_BODY"]) == [
        "MODEL",
        "BACKBONE",
        "CONV_BODY",
    ]
    # lower-case sections are an object's attributes, not a config's
    assert yacs_key(["self", "train", "lr"]) == []
    assert yacs_key(["cfg", "lr"]) == []


def test_the_default_yaml_gives_lower_case_keys_their_values() -> None:
    items = recipe_of(FIXTURES / "yacslower")
    sgd = values(items, "optimizer", "torch.optim.SGD")
    assert sgd["lr"] == (
        "0.02 (cfg.TRAIN.lr_encoder: 0.02 in config/seg-small.yaml:6, the default of --cfg at "
        "train.py:38, over the default 0.01 at segnet/config/defaults.py:10)"
    )
    # a key the YAML leaves alone keeps its Python default
    assert sgd["weight_decay"] == (
        "1e-4 (cfg.TRAIN.weight_decay: default at segnet/config/defaults.py:12)"
    )
    seed = values(items, "seed", "torch.manual_seed")
    assert seed["seed"].startswith("304 (cfg.TRAIN.seed: 304 in config/seg-small.yaml:8")
    # lower-case length and batch keys are summarised like BASE_LR and IMS_PER_BATCH
    assert values(items, "batch_size", "config TRAIN.batch_size_per_gpu") == {
        "value": "2",
        "default": "4 at segnet/config/defaults.py:8",
    }
    assert values(items, "epochs", "config TRAIN.num_epoch")["value"] == "20"


def test_with_no_default_yaml_each_value_is_counted(tmp_path: Path) -> None:
    root = tmp_path / "yacslower"
    shutil.copytree(FIXTURES / "yacslower", root)
    train = root / "train.py"
    text = train.read_text(encoding="utf-8")
    train.write_text(text.replace('default="config/seg-small.yaml", ', ""), encoding="utf-8")
    items = recipe_of(root)
    sgd = values(items, "optimizer", "torch.optim.SGD")
    assert sgd["lr"] == (
        "0.01 (cfg.TRAIN.lr_encoder: default at segnet/config/defaults.py:10; "
        "cfg.TRAIN.lr_encoder: 0.02 in 2 of 3 YAML configs; 0.005 in 1; none is the default)"
    )
    seed = values(items, "seed", "random.seed")
    assert seed["seed"].endswith(
        "304 in 2 of 3 YAML configs; 1 keeps the default; none is the default)"
    )
    assert (
        values(items, "batch_size", "config TRAIN.batch_size_per_gpu across YAML configs")["values"]
        == "2 in 2 of 3 YAML configs; 8 in 1"
    )


def test_lower_case_sections_are_not_yacs_keys(tmp_path: Path) -> None:
    """INVALID: the same layout with lower-case sections (``_C.train.lr_encoder``) is an
    object's attributes: no YAML is read for it and the value stays as written."""
    root = tmp_path / "yacslower"
    shutil.copytree(FIXTURES / "yacslower", root)
    for path in [root / "train.py", root / "segnet" / "config" / "defaults.py"]:
        text = path.read_text(encoding="utf-8").replace(".TRAIN.", ".train.")
        path.write_text(
            text.replace("_C.TRAIN =", "_C.train =").replace(".DATASET", ".dataset"),
            encoding="utf-8",
        )
    items = recipe_of(root)
    sgd = values(items, "optimizer", "torch.optim.SGD")
    assert "seg-small.yaml" not in sgd["lr"]
    assert not [i for i in items if i.name.startswith("config ")]
