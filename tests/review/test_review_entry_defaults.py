"""Recipe values an entry function's parameter defaults give a config class
(``fixtures/entrydefaults``: litgpt-shaped ``setup(train: TrainArgs =
TrainArgs(global_batch_size=16, micro_batch_size=1, epochs=5))`` over the dataclass's own
``global_batch_size: int = 64``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "entrydefaults"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, FIXTURE)


def values(items: tuple[RecipeItem, ...], name: str) -> dict[str, str]:
    (found,) = [i for i in items if i.name == name]
    return dict(found.values)


def test_each_entry_s_default_is_shown_beside_the_field_default(
    items: tuple[RecipeItem, ...],
) -> None:
    assert values(items, "TrainArgs.global_batch_size") == {
        "value": "64",
        "entry defaults": "16 (setup() at pkg/finetune.py:8); 512 (setup() at pkg/pretrain.py:7)",
    }
    assert values(items, "TrainArgs.epochs") == {
        "value": "None",
        "entry defaults": "5 (setup() at pkg/finetune.py:8)",
    }
    # no entry sets the warm-up of the fine-tuning: only the pre-training's default shows
    assert values(items, "TrainArgs.lr_warmup_steps")["entry defaults"] == (
        "2000 (setup() at pkg/pretrain.py:7)"
    )
    # a field no entry overrides keeps the plain row
    rows = [i for i in items if i.name == "TrainArgs.max_norm"]
    assert all("entry defaults" not in dict(i.values) for i in rows)


def test_reads_of_the_default_instance_follow_it(items: tuple[RecipeItem, ...]) -> None:
    rows = {i.where.path: i for i in items if i.name == "gradient accumulation"}
    accumulation = rows["pkg/pretrain.py"]
    # the fine-tuning's loop of micro-batches before one step is accumulation too
    assert dict(rows["pkg/finetune.py"].values)["micro-batches"].startswith("16 (accumulate")
    # the keyword the default passes, and the class default for the field it leaves out
    assert dict(accumulation.values)["every"] == (
        "128 (= train.global_batch_size // train.micro_batch_size with "
        "train.global_batch_size = 512, train.micro_batch_size = 4)"
    )


def test_an_optimizer_named_by_a_string_default(items: tuple[RecipeItem, ...]) -> None:
    adamw = {i.where.path: i for i in items if i.name == "torch.optim.AdamW"}
    named = adamw["pkg/finetune.py"]
    assert (named.where.line, dict(named.values)) == (9, {"optimizer": "'AdamW'"})
    assert named.note == (
        "built by name, the default of parameter optimizer of setup(); settings not passed "
        "are torch's defaults"
    )
    # the constructed one keeps its own row; "Fancy" is no torch optimizer, and a string
    # default of another setting (``scheduler="fancy"``) is none
    assert dict(adamw["pkg/pretrain.py"].values)["lr"] == "4e-4"
    assert [i.name for i in items if i.category == "optimizer"] == ["torch.optim.AdamW"] * 2
