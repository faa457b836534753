"""Settings the defaults resolve (``fixtures/builtconfig``): a config builder returning an
object built by keywords is a config, whatever class builds it (its attribute reads show the
keyword's value); a seed passed by keyword shows it; seeds under ``if args.seed is not
None:`` with ``--seed`` left at None and a statement written by assignment under such a
test are no rows; arithmetic on settings that all reach numbers is folded, shown with the
expression; an LR only the defaults' branch sets, written into the param groups every step,
is no schedule; a test on a repository ``Enum``'s member is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

BUILTCONFIG = Path(__file__).resolve().parents[2] / "fixtures" / "builtconfig"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(BUILTCONFIG), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, BUILTCONFIG)


def row(items: tuple[RecipeItem, ...], name: str, where: str) -> RecipeItem:
    return next(i for i in items if i.name == name and str(i.where) == where)


def test_an_attribute_of_a_keyword_built_config_is_its_keyword(items) -> None:
    sgd = dict(row(items, "torch.optim.SGD", "train.py:19").values)
    assert sgd["weight_decay"] == (
        "1e-6 (hparams.weight_decay: built by create_hparams() at train.py:42; "
        "keyword weight_decay= at hparams.py:7)"
    )
    # an option of the same name (--seed) does not stand for the config's seed
    seed = dict(row(items, "torch.manual_seed", "train.py:12").values)
    assert seed["seed"].startswith("1234 (hparams.seed: built by create_hparams()")


def test_an_attribute_the_builder_does_not_set_stays_as_written(items) -> None:
    loader = dict(row(items, "torch.utils.data.DataLoader", "train.py:20").values)
    assert loader["num_workers"] == "hparams.workers"


def test_a_branch_on_a_built_config_is_weighed(items) -> None:
    clips = [i for i in items if i.category == "grad_clip"]
    # ``if hparams.fp16_run:`` (False): only the else's clipping runs
    assert [(str(i.where), dict(i.values)["max_norm"]) for i in clips] == [("train.py:32", "5.0")]


def test_seeding_under_a_seed_left_at_none_is_no_row(items) -> None:
    seeds = {f"{i.name} @ {i.where}" for i in items if i.category == "seed"}
    assert "random.seed @ train.py:15" not in seeds
    assert "torch.backends.cudnn.deterministic @ train.py:16" not in seeds
    # the unconditional seed stays, and the option says what it would switch on
    assert "torch.manual_seed @ train.py:12" in seeds
    option = row(items, "argparse --seed", "train.py:40")
    assert option.note == (
        "optional, off by default: if args.seed is not None builds random.seed (train.py:15)"
    )


def test_a_seed_passed_by_keyword_has_its_value(items) -> None:
    assert dict(row(items, "numpy.random.seed", "train.py:13").values) == {"seed": "7"}


def test_arithmetic_on_known_settings_is_folded(items) -> None:
    sgd = dict(row(items, "torch.optim.SGD", "train.py:19").values)
    assert sgd["lr"] == (
        "0.1 (lr set at train.py:18; = args.lr * args.batch_size / 256 with "
        "args.lr = 0.05, args.batch_size = 512)"
    )
    # a value per epoch is no one number, though the epoch's first value is known
    seed = dict(row(items, "torch.manual_seed", "tune.py:15").values)
    assert seed["seed"] == "hparams.seed + epoch"
    # a name that reaches no number (the device count) leaves the expression as written,
    # with what the settings in it hold
    loader = dict(row(items, "torch.utils.data.DataLoader", "train.py:20").values)
    assert loader["batch_size"] == (
        "args.batch_size * torch.cuda.device_count() (with args.batch_size = 512 "
        "(args.batch_size: default of argparse --batch-size at train.py:39))"
    )


def test_a_constant_lr_set_every_step_is_no_schedule(items) -> None:
    # ``learning_rate = torch.load(...)`` runs only when resuming (checkpoint_path None,
    # though the name is reused for the saves later): one constant, re-set each step
    assert not [i for i in items if i.category == "scheduler"]
    (adam,) = [i for i in items if i.name == "torch.optim.Adam"]
    assert dict(adam.values)["lr"].startswith("1e-3 (learning_rate set at tune.py:7;")


def test_a_branch_on_an_enum_member_is_weighed(items) -> None:
    samplers = {i.name for i in items if i.name.endswith("Sampler")}
    # ``kind = SamplerKind.SEQUENTIAL``: the RANDOM branch is not taken, the ``in`` one is
    assert samplers == {"torch.utils.data.SequentialSampler"}
