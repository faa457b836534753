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
    # and the training's input sizes (the short sides a sample's size is drawn from)
    assert values(items, "preprocessing", "config DATASET.imgSizes") == {
        "value": "(300, 375, 450)",
        "default": "(300, 400, 500) at segnet/config/defaults.py:6",
    }


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


# ----------------------------------------------------------------- OmegaConf target/params
OMEGA = FIXTURES / "omegatarget"


def rows_named(items: tuple[RecipeItem, ...], prefix: str) -> dict[str, RecipeItem]:
    return {i.name: i for i in items if i.name.startswith(prefix)}


def test_omegaconf_configs_give_the_recipe_of_each_model_they_build() -> None:
    items = recipe_of(OMEGA)
    rows = rows_named(items, "config ")
    # scripts/sample.py's --config default names the config it samples with: no training
    # runs there, so no config is picked
    assert "config model.base_learning_rate" not in rows
    # the model two configs build comes with its loss config's weights and its own values
    loss = rows["config model.params.lossconfig: gen.losses.PerceptualWithDisc (AutoEncoder)"]
    assert loss.category == "loss"
    assert dict(loss.values) == {
        "target": "'gen.losses.PerceptualWithDisc' (2 of 2 files)",
        "params.codebook_weight": "1.0 (2 of 2 files)",
        "params.disc_start": "30001 (1 of 2 files; also 50001)",
        "params.disc_weight": "0.75 (1 of 2 files; also 0.8)",
        "params.perceptual_weight": "0.5 (1 of 2 files)",
    }
    assert loss.note.startswith(
        "PerceptualWithDisc defined at gen/losses.py:10; configs/ae_depth.yaml (and 1 other "
        "config) build gen.models.autoencoder.AutoEncoder: 2 of 3 OmegaConf configs, none picked"
    )
    # the YAML that does not parse is named, the rest stands
    assert "1 file(s) not read: configs/broken.yaml (ParserError)" in loss.note
    lr = rows["config model.base_learning_rate (AutoEncoder)"]
    # 4.5e-06 and 4.5e-6 are one value
    assert (lr.category, dict(lr.values)) == ("optimizer", {"value": "4.5e-06 (2 of 2 files)"})
    # the training scales it: the value in the files is not the one it runs
    assert lr.note.endswith(
        "; the training reads it at main.py:21 as base_lr, then computes main.py:22 "
        "(model.learning_rate = bs * base_lr)"
    )
    batch = rows["config data.params.batch_size (AutoEncoder)"]
    assert dict(batch.values) == {"value": "3 (1 of 2 files; also 12)"}
    size = rows["config data.params.train.params.size (AutoEncoder)"]
    assert (size.category, dict(size.values)) == ("preprocessing", {"value": "256 (2 of 2 files)"})
    model = rows["config model: gen.models.autoencoder.AutoEncoder"]
    assert model.category == "backbone"
    assert dict(model.values)["params.lossconfig.target"] == (
        "'gen.losses.PerceptualWithDisc' (2 of 2 files)"
    )
    # the loss keys are the loss row's, the learning rate its own row's
    assert "params.lossconfig.params.disc_weight" not in dict(model.values)
    assert "base_learning_rate" not in dict(model.values)
    # the other model's rows; the loss config of the part it builds (a frozen first
    # stage's DummyLoss) is that part's training, no row
    assert dict(rows["config model.base_learning_rate (Generator)"].values) == {
        "value": "1.0e-4 (1 of 1 files)"
    }
    assert not [name for name in rows if "DummyLoss" in name]
    # INVALID: a value the training only passes on (no arithmetic on it) names no use
    size = rows["config data.params.train.params.size (AutoEncoder)"]
    assert "the training reads it" not in size.note
    # a YAML with no model target (a conda environment) is no config
    assert not [i for i in items if i.where.path == "environment.yaml"]


def test_the_config_an_option_names_by_default_is_the_recipe(tmp_path: Path) -> None:
    root = tmp_path / "omegatarget"
    shutil.copytree(OMEGA, root)
    main = root / "main.py"
    text = main.read_text(encoding="utf-8")
    main.write_text(
        text.replace('nargs="*", default=list()', 'default="configs/ae_faces.yaml"'),
        encoding="utf-8",
    )
    rows = rows_named(recipe_of(root), "config ")
    loss = rows["config model.params.lossconfig: gen.losses.PerceptualWithDisc"]
    assert dict(loss.values)["params.disc_weight"] == "0.8"
    assert loss.note.endswith(
        "read from configs/ae_faces.yaml, the default of --base at main.py:11; "
        "1 file(s) not read: configs/broken.yaml (ParserError)"
    )
    assert not [name for name in rows if "Generator" in name]


def test_omegaconf_files_are_not_read_without_target_and_params(tmp_path: Path) -> None:
    """INVALID: the same configs, loaded by OmegaConf but never built by their ``target``
    (the code builds its model itself): no config rows."""
    root = tmp_path / "omegatarget"
    shutil.copytree(OMEGA, root)
    (root / "gen" / "util.py").write_text(
        "def instantiate_from_config(config):\n    return config\n", encoding="utf-8"
    )
    items = recipe_of(root)
    assert not rows_named(items, "config ")


def test_the_top_model_is_the_class_most_configs_build() -> None:
    from apiscan.review.build import build_review

    review = build_review(str(OMEGA), jobs=1)
    tops = review.top_models
    first = tops[0]
    assert first.cls.rpartition(".")[2] == "AutoEncoder"
    assert dict(first.parts)["selected by"] == (
        "model.target: gen.models.autoencoder.AutoEncoder in 2 of 3 training OmegaConf config "
        "files (configs/ae_depth.yaml:3 first), none picked; the other files name Generator"
    )
    assert tops[1].cls.rpartition(".")[2] == "Generator"


# ------------------------------------------------------------ a YAML hyperparameter dict
HYP = FIXTURES / "hypyaml"


def test_reads_of_a_loaded_hyperparameter_yaml_show_the_files_values() -> None:
    items = recipe_of(HYP)
    sgd = values(items, "optimizer", "torch.optim.SGD")
    assert sgd["lr"] == (
        '0.01 (hyp["lr0"]: 0.01 in data/hyps/hyp.scratch.yaml:2, the default of --hyp at '
        "train.py:33)"
    )
    assert sgd["momentum"].startswith('0.937 (hyp["momentum"]: 0.937 in')
    # the dict handed on by name (``model.hyp = hyp``, ``h = model.hyp`` in the loss)
    bce = values(items, "loss", "torch.nn.BCEWithLogitsLoss")
    assert bce["pos_weight"] == (
        'torch.tensor([1.0]) (h["cls_pw"]: 1.0 in data/hyps/hyp.scratch.yaml:6, the default '
        "of --hyp at train.py:33)"
    )
    assert bce["weight"].startswith("0.05 (self.box_gain set in ComputeLoss.__init__")
    # an entry the training changes after loading says where and how
    assert sgd["weight_decay"].endswith(
        '; changed in place at train.py:17 (hyp["weight_decay"] *= opt.batch_size / 64))'
    )


def test_two_hyperparameter_files_named_leave_the_reads_as_written(tmp_path: Path) -> None:
    """INVALID: a second training script names another hyperparameter file by default:
    none is "the" file, the reads stay as written (the data YAML, not flat, is never one)."""
    root = tmp_path / "hypyaml"
    shutil.copytree(HYP, root)
    (root / "data" / "hyps" / "hyp.finetune.yaml").write_text(
        "lr0: 0.001\nmomentum: 0.9\n", encoding="utf-8"
    )
    text = (root / "train.py").read_text(encoding="utf-8")
    (root / "train_finetune.py").write_text(
        text.replace("hyp.scratch.yaml", "hyp.finetune.yaml"), encoding="utf-8"
    )
    items = recipe_of(root)
    lrs = {dict(i.values)["lr"] for i in items if i.name == "torch.optim.SGD"}
    assert lrs == {'hyp["lr0"]'}


def test_values_written_differently_are_counted_as_one() -> None:
    from apiscan.review.config_files import canon_value

    assert canon_value("5.0e-5") == canon_value("5.0e-05") == canon_value("0.00005")
    assert canon_value("False") == canon_value("false")
    assert canon_value("[1.]") == canon_value("[1.0]")
    # INVALID: different values, a quoted string and a number stay apart
    assert canon_value("0.02") != canon_value("0.01")
    assert canon_value("'5'") != canon_value("5")
