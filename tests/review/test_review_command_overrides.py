"""A yacs config picked by the README's training command, whose ``KEY VALUE`` pairs after
the options replace the file's values (``fixtures/yacscmd``); a switch computed from a
top-level key's default; a sampler's generator seed; enumeration tags named like a flip."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.commands import command_overrides
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "yacscmd"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, FIXTURE)


def row(items: tuple[RecipeItem, ...], name: str) -> RecipeItem:
    (found,) = [i for i in items if i.name == name]
    return found


def test_the_command_s_overrides_replace_the_file_s_values(items: tuple[RecipeItem, ...]) -> None:
    sgd = dict(row(items, "torch.optim.SGD").values)
    assert sgd["lr"] == (
        "0.0025 (cfg.SOLVER.BASE_LR: 0.0025 on the training command at README.md:6, "
        "over 0.02 in configs/e2e_box.yaml:2)"
    )
    steps = dict(row(items, "torch.optim.lr_scheduler.MultiStepLR").values)
    assert steps["milestones"].startswith("(480000, 640000) (cfg.SOLVER.STEPS")
    length = row(items, "config SOLVER.MAX_ITER")
    assert dict(length.values)["value"] == "720000 (on the training command at README.md:6)"
    assert dict(length.values)["in configs/e2e_box.yaml"] == "90000"
    # the key the file leaves at its default gets a row: the command's 2, over 16
    batch = row(items, "config SOLVER.IMS_PER_BATCH")
    assert batch.category == "batch_size"
    assert dict(batch.values) == {
        "value": "2 (on the training command at README.md:6)",
        "default": "16 at det/config/defaults.py:9",
    }
    # INVALID: a word that is no key of the config is no override
    assert "NOT_A_KEY" not in length.note


def test_only_known_keys_after_the_command_s_options(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(
        "```\npython train.py --config-file a.yaml SOLVER.LR 0.1 --resume x MODEL.X 3\n"
        "python train.py --config-file a.yaml\n```\n"
    )
    keys = {"SOLVER.LR", "MODEL.X", "MODEL.Y"}
    assert command_overrides(tmp_path, "README.md:2", keys) == [
        ("SOLVER.LR", "0.1"),
        ("MODEL.X", "3"),
    ]
    assert command_overrides(tmp_path, "README.md:3", keys) == []  # none passed
    assert command_overrides(tmp_path, "README.md:9", keys) == []  # no command there


def test_a_switch_computed_from_a_top_level_key(items: tuple[RecipeItem, ...]) -> None:
    scaler = dict(row(items, "torch.cuda.amp.GradScaler").values)
    assert scaler["enabled"] == (
        'False (use_mixed_precision set at tools/train_net.py:19; cfg.DTYPE == "float16"; '
        "cfg.DTYPE: default at det/config/defaults.py:15)"
    )


def test_a_generator_seeded_for_a_shuffle_is_no_run_seed(items: tuple[RecipeItem, ...]) -> None:
    seeds = {i.where.path: i for i in items if i.name == "torch.Generator.manual_seed"}
    # the sampler's generator goes with the data loading
    assert seeds["det/data/samplers.py"].category == "dataloader"
    assert seeds["det/data/samplers.py"].note == (
        "a generator seeded for a shuffle order, not the run's seed; "
        "no global seed is set (torch.manual_seed, numpy, random)"
    )
    # another class's generator stays a seed row, said to be no global seed
    assert seeds["det/noise.py"].category == "seed"
    assert seeds["det/noise.py"].note.startswith("a generator seeded for its own draws, not")


def test_flip_tags_are_no_augmentation_settings(items: tuple[RecipeItem, ...]) -> None:
    settings = {i.name: dict(i.values) for i in items if i.category == "augmentation"}
    # INVALID: FLIP_LEFT_RIGHT = 0 / FLIP_TOP_BOTTOM = 1, compared in ``transpose``
    assert "FLIP_LEFT_RIGHT" not in settings and "FLIP_TOP_BOTTOM" not in settings
    # VALID: one flip setting, and a family whose values are no numbering 0, 1...
    assert settings["FLIP_EVERY"] == {"value": "2"}
    assert settings["FLIP_WARMUP_ITERS"] == {"value": "5"}
    # a class's table of names swapped under a flip is none; its flip probability is one
    assert "Keypoints.FLIP_MAP" not in settings
    assert settings["Keypoints.FLIP_PROB"] == {"value": "0.5"}


def test_a_test_time_augmentation_is_no_training_row(items: tuple[RecipeItem, ...]) -> None:
    compositions = {i.name: i.where.path for i in items if i.name.startswith("composition in")}
    # VALID: the training's transforms; INVALID: the rescaled copy only the test path builds
    assert compositions == {"composition in build_transforms": "det/data/transforms.py"}
