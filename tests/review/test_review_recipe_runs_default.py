"""The recipe rows the default run has, and the name each is shown under
(``fixtures/ganrecipe``): a method called only under a branch the defaults skip adds no rows
though its class is built, one thing built alike in the body and the ``else`` of one ``if``
is one row, a seed fixing the data split is data loading (the training's seed stays a
seed), a GAN's critic steps are its update alternation (no optimizer setting), an
iteration count is the training length, an LR decayed by hand in the loop is a schedule (no
constant), and a loss or transform class built with no arguments carries the numbers it
keeps for itself; a parameter holds what the callers that run pass (a method the defaults
never call passes nothing)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RECIPE_CATEGORIES, RecipeItem
from apiscan.review.recipe import _setting_category, extract_recipe

GANRECIPE = Path(__file__).resolve().parents[2] / "fixtures" / "ganrecipe"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(GANRECIPE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, GANRECIPE)


def rows(items: tuple[RecipeItem, ...], category: str) -> dict[str, RecipeItem]:
    return {f"{i.name} @ {i.where}": i for i in items if i.category == category}


def test_a_method_called_only_in_an_untaken_branch_adds_no_rows(items) -> None:
    losses = rows(items, "loss")
    # train_multi runs only with --dataset Both (CelebA by default): its l1_loss is no row
    assert not [k for k in losses if "l1_loss" in k]
    # train, called in the branch the default takes, keeps its loss
    assert "torch.nn.functional.mse_loss @ solver.py:38" in losses


def test_one_thing_built_in_both_branches_of_an_if_is_one_row(items) -> None:
    parallel = rows(items, "distributed")
    assert parallel["torch.nn.DataParallel @ solver.py:17"].note == (
        "or at solver.py:19 (the other branch of if torch.cuda.is_available())"
    )
    assert "torch.nn.DataParallel @ solver.py:19" not in parallel
    # wrapped twice one after the other, both run: two rows
    assert {"torch.nn.DataParallel @ solver.py:20", "torch.nn.DataParallel @ solver.py:21"} <= (
        set(parallel)
    )


def test_a_seed_that_fixes_the_data_split_is_no_training_seed(items) -> None:
    split = rows(items, "dataloader")["random.seed @ loader.py:6"]
    assert dict(split.values) == {"seed": "1234"}
    assert split.note == (
        "seeds the shuffle at loader.py:7 that orders the data (a fixed data split), "
        "not the training's seed"
    )
    seeds = rows(items, "seed")
    assert "random.seed @ loader.py:6" not in seeds
    # the entry point's seed, nothing shuffled after it in its function: the training's seed
    assert dict(seeds["random.seed @ main.py:33"].values)["seed"].startswith("7 (config.seed")


def test_critic_steps_and_iterations_are_named_for_what_they_are(items) -> None:
    assert "argparse --n_critic @ main.py:25" in rows(items, "alternation")
    assert not [k for k in rows(items, "optimizer") if "n_critic" in k]
    assert "argparse --num_iters @ main.py:26" in rows(items, "epochs")
    assert RECIPE_CATEGORIES["epochs"] == "Training length"
    assert _setting_category("d_steps") == "alternation"
    assert _setting_category("num_iters") == "epochs"
    assert _setting_category("beta1") == "optimizer"


def test_an_lr_decayed_by_hand_in_the_loop_is_a_schedule(items) -> None:
    row = rows(items, "scheduler")["solver.Solver.update_lr @ solver.py:43"]
    assert dict(row.values)["g_lr"] == (
        "starts at 0.0001 (self.g_lr set in Solver.__init__ at solver.py:13; config.g_lr: "
        "default of argparse --g_lr at main.py:29); linear decay: "
        "g_lr -= (self.g_lr / float(self.num_iters_decay)) when (i + 1) % self.lr_update_step "
        "== 0 and (i + 1) > (self.num_iters - self.num_iters_decay); applied 10 times, "
        "i = 1099 to 1999, every 100, ending at 9.9e-05"
    )
    assert row.note == "sets the LR as the training loop changes it, defined at solver.py:26"


def test_a_loss_class_carries_the_numbers_its_forward_keeps(items) -> None:
    focal = rows(items, "loss")["losses.FocalLoss @ solver.py:24"]
    assert focal.values == (
        ("alpha", "0.25"),
        ("gamma", "2.0"),
        ("torch.clamp at losses.py:9", "1e-4, 1.0 - 1e-4"),
        # the CUDA and the CPU branch write the same std: once
        ("torch.Tensor at losses.py:12", "[[0.1, 0.2]]"),
        ("torch.le at losses.py:16", "1.0 / 9.0"),
    )
    # an ignore label (-1.0), a reduction's dim=1, a product inside an expression: no setting


def test_a_transform_built_bare_shows_the_numbers_its_constructor_sets(items) -> None:
    composed = rows(items, "augmentation")["composition in main @ main.py:15"]
    assert dict(composed.values)["1"] == (
        "Normalizer(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])"
    )  # its name attribute is a string: no number


def test_fractional_constants_and_numeric_settings() -> None:
    from apiscan.extract.values import Expr
    from apiscan.review.recipe import _fractional, _numeric_setting

    def const(value: object) -> Expr:
        return Expr("Constant", repr(value), 1, 0, 1, 1, literal=True, value=value)

    assert _fractional(const(0.4))
    assert not _fractional(const(1.0))
    assert not _fractional(const(4))
    assert not _fractional(const("0.4"))
    seq = Expr("List", "[0.5, 0.5]", 1, 0, 1, 9, parts=(const(0.5), const(0.5)), literal=True)
    assert _fractional(seq)
    assert _numeric_setting(seq)
    func = Expr("Name", "array", 1, 0, 1, 5, name="array")
    call = Expr("Call", "array([0.5, 0.5])", 1, 0, 1, 17, parts=(func, seq))
    assert not _fractional(call)
    assert _numeric_setting(call)  # np.array([0.5, 0.5]): the list it wraps
    assert not _numeric_setting(const("imagenet"))
    steps = Expr("List", "[1, 2]", 1, 0, 1, 6, parts=(const(1), const(2)), literal=True)
    assert not _numeric_setting(steps)  # step indices, no setting


def test_a_parameter_takes_what_the_running_callers_pass(items) -> None:
    """``classification_loss(logit, target, dataset='CelebA')`` is called from ``train``
    (leaving the default) and from ``train_multi`` (passing 'RaFD'), which runs only with
    ``--dataset Both``: the caller that runs decides, so the binary cross-entropy is the
    branch taken and the softmax one is no row."""
    losses = rows(items, "loss")
    bce = losses["torch.nn.functional.binary_cross_entropy_with_logits @ solver.py:54"]
    assert bce.note.endswith("the branch taken with the defaults: if dataset == 'CelebA'")
    assert not [k for k in losses if k.startswith("torch.nn.functional.cross_entropy ")]


def test_with_the_other_method_running_its_value_decides(tmp_path: Path) -> None:
    """INVALID for the default: with ``--dataset Both`` only ``train_multi`` runs and it
    passes 'RaFD': the softmax cross-entropy is the branch taken."""
    copy = tmp_path / "ganrecipe"
    shutil.copytree(GANRECIPE, copy)
    main = copy / "main.py"
    main.write_text(main.read_text("utf-8").replace("default='CelebA'", "default='Both'"), "utf-8")
    result, analyses = scan_with_facts(ScanOptions(str(copy), cache_dir=None, jobs=1))
    losses = rows(extract_recipe(result, analyses, copy), "loss")
    ce = losses["torch.nn.functional.cross_entropy @ solver.py:56"]
    assert ce.note.endswith("the branch taken with the defaults: if dataset == 'RaFD'")
    assert not [k for k in losses if "binary_cross_entropy_with_logits" in k]
