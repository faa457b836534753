"""Recipe values of a YAML each training script loads into a dict and reads by key, the file
named by the documented command that runs that script (``fixtures/scriptyaml``: RAM-shaped
``pretrain.py --config tagger/configs/pretrain.yaml`` and ``finetune.py --config
tagger/configs/finetune.yaml``, both option defaults naming a folder that is not there), and
names a loop binds from ``zip`` over lists the callers write."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.commands import script_config
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "scriptyaml"


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


def rows(items: tuple[RecipeItem, ...], category: str, name: str) -> list[dict[str, str]]:
    return [dict(i.values) for i in items if i.category == category and i.name == name]


def by_path(items: tuple[RecipeItem, ...], category: str, name: str) -> dict[str, dict[str, str]]:
    return {
        i.where.path: dict(i.values) for i in items if i.category == category and i.name == name
    }


def test_the_command_running_a_script_names_its_config() -> None:
    assert script_config(FIXTURE, "pretrain.py", "--config") == (
        "tagger/configs/pretrain.yaml",
        "README.md:6",
    )
    assert script_config(FIXTURE, "finetune.py", "--config") == (
        "tagger/configs/finetune.yaml",
        "README.md:12",
    )
    # no command runs this script, or passes this flag
    assert script_config(FIXTURE, "tagger/data.py", "--config") is None
    assert script_config(FIXTURE, "pretrain.py", "--cfg") is None


def test_each_script_reads_the_yaml_its_command_passes() -> None:
    items = recipe_of(FIXTURE)
    adamw = by_path(items, "optimizer", "torch.optim.AdamW")
    assert adamw["pretrain.py"]["lr"] == (
        "1e-4 (config['init_lr']: 1e-4 in tagger/configs/pretrain.yaml:8, --config of the "
        "training command at README.md:6)"
    )
    assert adamw["finetune.py"]["lr"].startswith(
        "5e-6 (config['init_lr']: 5e-6 in tagger/configs/finetune.yaml:5, --config of the "
        "training command at README.md:12)"
    )
    assert adamw["finetune.py"]["weight_decay"].startswith("0.05 (config['weight_decay']")


def test_the_length_each_script_reads_by_key_is_a_row() -> None:
    items = recipe_of(FIXTURE)
    lengths = sorted(
        (i.where.path, i.where.line, dict(i.values)["value"], i.note)
        for i in items
        if i.category == "epochs"
    )
    assert lengths == [
        (
            "tagger/configs/finetune.yaml",
            6,
            "2",
            "read by key; --config of the training command at README.md:12",
        ),
        (
            "tagger/configs/pretrain.yaml",
            9,
            "5",
            "read by key; --config of the training command at README.md:6",
        ),
    ]


def test_a_helper_both_scripts_call_shows_each_value() -> None:
    items = recipe_of(FIXTURE)
    (loader,) = rows(items, "dataloader", "torch.utils.data.DataLoader")
    # the loop's ``bs`` is the element of the list each caller writes
    assert loader["batch_size"].startswith("26 (config['batch_size']: 26 in")
    assert (
        "| 52 (config['batch_size']: 52 in tagger/configs/pretrain.yaml:6" in (loader["batch_size"])
    )
    assert loader["batch_size"].endswith("(bs: an element of batch_size)")
    assert loader["num_workers"].startswith("4 (n_worker: an element of num_workers; same at")
    # a read in the shared helper: either file's value
    (crop,) = [
        dict(i.values)
        for i in items
        if i.category == "augmentation" and "create_transform" in i.name
    ]
    assert crop["1"] == "RandomResizedCrop(384 or 224)"


def test_without_a_command_the_reads_stay_as_written(tmp_path: Path) -> None:
    root = tmp_path / "scriptyaml"
    shutil.copytree(FIXTURE, root)
    (root / "README.md").write_text("# scriptyaml\n", encoding="utf-8")
    items = recipe_of(root)
    adamw = by_path(items, "optimizer", "torch.optim.AdamW")
    assert adamw["pretrain.py"]["lr"] == "config['init_lr']"
    assert not [i for i in items if i.category == "epochs"]
    # the zip is still followed to what the callers write
    (loader,) = rows(items, "dataloader", "torch.utils.data.DataLoader")
    assert loader["batch_size"] == (
        "config['batch_size'] (bs: an element of batch_size; same at pretrain.py:13)"
    )


def test_a_tie_between_commands_names_no_config(tmp_path: Path) -> None:
    root = tmp_path / "scriptyaml"
    shutil.copytree(FIXTURE, root)
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    # the pre-training documented once with each file: neither is its config
    readme.write_text(
        text + "\n```bash\npython pretrain.py --config tagger/configs/finetune.yaml\n```\n",
        encoding="utf-8",
    )
    assert script_config(root, "pretrain.py", "--config") is None
    items = recipe_of(root)
    adamw = by_path(items, "optimizer", "torch.optim.AdamW")
    assert adamw["pretrain.py"]["lr"] == "config['init_lr']"
