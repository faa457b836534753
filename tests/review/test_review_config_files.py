"""The recipe read from non-Python config files: yacs YAML merged over Python defaults
(``fixtures/cfgrecipe/yacsnet``) and a Darknet ``.cfg``'s ``[net]`` section
(``fixtures/cfgrecipe/darknet``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cfgrecipe"


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def row(items: tuple[RecipeItem, ...], category: str, name: str) -> RecipeItem:
    (found,) = [i for i in items if i.category == category and i.name == name]
    return found


def test_the_default_yaml_replaces_the_python_defaults_with_file_and_line() -> None:
    items = recipe_of(FIXTURES / "yacsnet")
    sgd = dict(row(items, "optimizer", "torch.optim.SGD").values)
    assert sgd["lr"].startswith("0.01 (cfg.SOLVER.BASE_LR: 0.01 in configs/tiny_R18_1x.yaml:6")
    assert "the default of --config-file at tools/train_net.py:12" in sgd["lr"]
    assert "over the default 0.001 at yacsnet/defaults.py:10" in sgd["lr"]
    # a key the YAML leaves alone keeps its Python default
    assert sgd["momentum"] == "0.9 (cfg.SOLVER.MOMENTUM: default at yacsnet/defaults.py:11)"
    # a key its _BASE_ sets: the base file's value and line
    steps = dict(row(items, "scheduler", "torch.optim.lr_scheduler.MultiStepLR").values)
    assert steps["milestones"].startswith(
        "(60000, 80000) (cfg.SOLVER.STEPS: (60000, 80000) in configs/Base-Tiny.yaml:5"
    )
    batch = row(items, "batch_size", "config SOLVER.IMS_PER_BATCH")
    assert dict(batch.values) == {"value": "8", "default": "16 at yacsnet/defaults.py:16"}
    assert (batch.where.path, batch.where.line) == ("configs/tiny_R18_1x.yaml", 8)
    iters = row(items, "epochs", "config SOLVER.MAX_ITER")
    assert dict(iters.values)["value"] == "90000"
    # the YAML that does not parse is named, the rest of the recipe stands
    assert "1 YAML file(s) not read: configs/broken.yaml (ParserError)" in iters.note


def test_with_no_default_yaml_the_defaults_stay_and_the_configs_differ(tmp_path: Path) -> None:
    root = tmp_path / "yacsnet"
    shutil.copytree(FIXTURES / "yacsnet", root)
    train = root / "tools" / "train_net.py"
    train.write_text(
        train.read_text(encoding="utf-8").replace(
            'default="configs/tiny_R18_1x.yaml"', 'default=""'
        ),
        encoding="utf-8",
    )
    (root / "configs" / "broken.yaml").unlink()
    items = recipe_of(root)
    sgd = dict(row(items, "optimizer", "torch.optim.SGD").values)
    assert sgd["lr"] == (
        "0.001 (cfg.SOLVER.BASE_LR: default at yacsnet/defaults.py:10; "
        "cfg.SOLVER.BASE_LR: 0.02 in 2 of 3 YAML configs; 0.01 in 1; none is the default)"
    )
    iters = row(items, "epochs", "config SOLVER.MAX_ITER across YAML configs")
    assert dict(iters.values) == {
        "default": "40000 at yacsnet/defaults.py:15",
        "YAML configs": "2 of 3 set it",
        "values": "90000 in 1 of 3 YAML configs; 270000 in 1; 1 keeps the default",
    }
    assert iters.note.startswith(
        "no YAML config is the default (--config-file at tools/train_net.py:12 names none)"
    )
    assert not [i for i in items if i.name == "config SOLVER.MAX_ITER"]


def test_yaml_files_are_not_read_without_a_yacs_merge(tmp_path: Path) -> None:
    root = tmp_path / "yacsnet"
    shutil.copytree(FIXTURES / "yacsnet", root)
    train = root / "tools" / "train_net.py"
    train.write_text(
        train.read_text(encoding="utf-8").replace("cfg.merge_from_file(args.config_file)", "pass"),
        encoding="utf-8",
    )
    shutil.rmtree(root / "demo")
    items = recipe_of(root)
    assert not [i for i in items if "YAML" in i.note or "yaml" in " ".join(v for _, v in i.values)]
    sgd = dict(row(items, "optimizer", "torch.optim.SGD").values)
    assert sgd["lr"] == "0.001 (cfg.SOLVER.BASE_LR: default at yacsnet/defaults.py:10)"


def test_darknet_net_section_of_the_default_cfg_gives_the_recipe_rows() -> None:
    items = recipe_of(FIXTURES / "darknet")
    note = "read from config/tiny.cfg, the default of --model at train.py:10"
    optimizer = row(items, "optimizer", "config [net] optimizer settings")
    assert dict(optimizer.values) == {
        "momentum": "0.9",
        "decay": "0.0005",
        "learning_rate": "0.001",
        # read with hyperparams.get("optimizer") and absent: the code's default branch
        "optimizer": "not set (the code's default applies)",
    }
    assert optimizer.note == note
    assert (optimizer.where.path, optimizer.where.line) == ("config/tiny.cfg", 10)
    batch = row(items, "batch_size", "config [net] batch and subdivisions")
    assert dict(batch.values) == {"batch": "64", "subdivisions": "16"}
    assert "batch / subdivisions" in batch.note
    assert dict(row(items, "warmup", "config [net] burn-in").values) == {"burn_in": "1000"}
    steps = row(items, "scheduler", "config [net] learning-rate steps")
    assert dict(steps.values) == {
        "max_batches": "50200",
        "policy": "steps",
        "steps": "40000,45000",
        "scales": ".1,.1",
    }
    size = row(items, "preprocessing", "config [net] input size")
    assert dict(size.values) == {"width": "320", "height": "320", "channels": "3"}
    # angle is in the [net] section but the code never reads it: no augmentation row
    assert not [i for i in items if i.name == "config [net] augmentation settings"]


def test_the_default_yaml_picks_the_registered_model() -> None:
    root = FIXTURES / "yacsnet"
    review = build_review(str(root), jobs=1)
    (top,) = review.top_models
    assert top.cls == "yacsnet.meta_arch.TinyRetina"  # the Python default names TinyRCNN
    (how,) = [part for parameter, part in top.parts if parameter == "selected by"]
    assert "cfg.MODEL.META_ARCHITECTURE = 'TinyRetina', default at configs/Base-Tiny.yaml:2" in how
    assert "(the default of --config-file at tools/train_net.py:12)" in how


def test_an_imgaug_sequence_a_transform_class_builds_is_expanded_into_its_steps() -> None:
    items = recipe_of(FIXTURES / "darknet")
    composition = row(items, "augmentation", "composition in module code")
    assert dict(composition.values) == {
        "1": "DefaultAug() = Sequential([Sharpen((0.0, 0.1)), Affine(rotate=(-0, 0), "
        "translate_percent=(-0.1, 0.1), scale=(0.8, 1.5)), Fliplr(0.5)])",
        "2": "Identity()",  # a plain list in its constructor is no imgaug sequence
    }


def test_a_demos_config_default_is_not_the_training_recipe(tmp_path: Path) -> None:
    """detectron2: the training's ``--config-file`` is declared in a shared parser with no
    default; only the demo names a YAML. No YAML is the config then."""
    root = tmp_path / "yacsnet"
    shutil.copytree(FIXTURES / "yacsnet", root)
    train = root / "tools" / "train_net.py"
    text = train.read_text(encoding="utf-8")
    text = text.replace(
        "from yacsnet.solver", "from yacsnet.args import parser_of\nfrom yacsnet.solver"
    )
    text = text.replace(
        "    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--config-file", default="configs/tiny_R18_1x.yaml", type=str)\n',
        "    parser = parser_of()\n",
    )
    train.write_text(text, encoding="utf-8")
    (root / "yacsnet" / "args.py").write_text(
        "import argparse\n\n\ndef parser_of():\n    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--config-file", default="")\n    return parser\n',
        encoding="utf-8",
    )
    items = recipe_of(root)
    sgd = dict(row(items, "optimizer", "torch.optim.SGD").values)
    assert "none is the default" in sgd["lr"]
    assert "demo" not in " ".join(i.note for i in items)
    (lr,) = [i for i in items if i.name.startswith("config SOLVER.BASE_LR")]
    assert lr.name == "config SOLVER.BASE_LR across YAML configs"
    assert lr.note.startswith("no YAML config is the default (--config-file at yacsnet/args.py:6")
