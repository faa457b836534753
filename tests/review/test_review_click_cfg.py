"""Recipe values given by click options and by a settings object filled by attribute, then
passed in ``**c`` (``fixtures/clickcfg``: stylegan3-shaped ``c.G_opt_kwargs =
dnnlib.EasyDict(class_name='torch.optim.Adam', ...)`` then ``c.G_opt_kwargs.lr = ...``;
``c.num_gpus = opts.gpus`` handed on to ``training_loop(rank=rank, **c)``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.extract.values import click_option
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "clickcfg"


def recipe_of(root: Path) -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, root)


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    return recipe_of(FIXTURE)


def by_line(items: tuple[RecipeItem, ...], name: str) -> dict[int, dict[str, str]]:
    return {i.where.line: dict(i.values) for i in items if i.name == name}


def test_a_click_option_is_read_as_an_option() -> None:
    _, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    (train,) = [fa for fa in analyses if fa.path == "train.py"]
    options = {
        o.dest: o
        for c in train.syntax.values.calls  # type: ignore[union-attr]
        if (o := click_option(c.expr)) is not None
    }
    assert sorted(options) == [
        "batch", "cfg", "data", "dlr", "glr", "gpus", "outdir", "resume", "seed"
    ]  # fmt: skip
    assert options["gpus"].required and options["gpus"].default is None
    assert options["dlr"].default is not None and options["dlr"].default.text == "0.002"
    assert not options["glr"].required and options["glr"].default is None
    # a call that is no click option
    calls = [c.expr for c in train.syntax.values.calls]  # type: ignore[union-attr]
    assert click_option(next(e for e in calls if e.func.text == "launch_training")) is None


def test_the_lr_set_after_the_dict_is_built(items: tuple[RecipeItem, ...]) -> None:
    adam = by_line(items, "torch.optim.Adam")
    # the nested ``a if t else b``: --glr not given, --cfg=fast from the README
    assert adam[28]["lr"] == (
        "0.0025 (opts.cfg == 'slow': False) (opts.glr is None: True) (set at train.py:33)"
    )
    # the click default; the write under ``if opts.resume is not None:`` does not run
    assert adam[29]["lr"] == (
        "0.002 (opts.dlr: default of click --dlr at train.py:22) (set at train.py:34)"
    )
    assert adam[29]["betas"] == "[0, 0.99]"


def test_an_object_passed_in_double_star_gives_the_parameters(
    items: tuple[RecipeItem, ...],
) -> None:
    (sampler,) = by_line(items, "torch.utils.data.DistributedSampler").values()
    assert sampler["num_replicas"] == (
        "8 (parameter num_gpus of training_loop(), passed in ** at train.py:8; c.num_gpus set "
        "at train.py:30; opts.gpus: --gpus in README.md:4; click --gpus at train.py:19)"
    )
    (loader,) = by_line(items, "torch.utils.data.DataLoader").values()
    assert loader["batch_size"] == "4 (= batch_size // num_gpus with batch_size = 32, num_gpus = 8)"


def test_click_options_give_rows_with_the_documented_values(
    items: tuple[RecipeItem, ...],
) -> None:
    (batch,) = [i for i in items if i.category == "batch_size"]
    assert dict(batch.values) == {"default": "no default", "launched": "32 (README.md:4)"}
    seeds = {i.name: dict(i.values) for i in items if i.category == "seed"}
    assert seeds["click --seed"] == {"default": "0"}


def test_without_the_command_required_options_stay_unknown(tmp_path: Path) -> None:
    root = tmp_path / "clickcfg"
    shutil.copytree(FIXTURE, root)
    (root / "README.md").write_text("# clickcfg\n", encoding="utf-8")
    items = recipe_of(root)
    (sampler,) = by_line(items, "torch.utils.data.DistributedSampler").values()
    # --gpus is required and no command gives it: no number is made up
    assert not sampler["num_replicas"].startswith(("8", "1 "))
    assert "c.num_gpus set at train.py:30" in sampler["num_replicas"]
