"""Recipe rows of what a training step writes by hand (``fixtures/handrecipe``): parameter
groups built as ``dict(...)`` calls, a Noam schedule whose factor a helper method returns,
label smoothing blended by hand, a model-size coefficient that is no loss weight, and an
evaluation script that wraps the model in ``swa_utils.AveragedModel`` without training."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "handrecipe"
MS_GROUPS = "MindSpore optimizers take the same group dicts (params with lr, weight_decay)"


@pytest.fixture(scope="module")
def recipe() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(ROOT), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, ROOT)


def line_of(path: str, snippet: str) -> int:
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    hits = [n for n, line in enumerate(lines, 1) if snippet in line]
    assert len(hits) == 1, snippet
    return hits[0]


def row(recipe: tuple[RecipeItem, ...], category: str, name: str) -> RecipeItem:
    found = [i for i in recipe if i.category == category and i.name == name]
    assert len(found) == 1, [(i.category, i.name) for i in recipe]
    return found[0]


def test_entry_is_the_training_script_not_the_averaged_evaluation(
    recipe: tuple[RecipeItem, ...],
) -> None:
    # the README runs evaluate.py twice and train.py once; evaluate.py's AveragedModel
    # trains nothing, so train.py stays the training entry and its rows are the recipe
    paths = {i.where.path for i in recipe if i.category in ("optimizer", "loss", "scheduler")}
    assert "train.py" in paths
    assert "evaluate.py" not in paths


def test_groups_written_as_dict_calls(recipe: tuple[RecipeItem, ...]) -> None:
    sgd = row(recipe, "optimizer", "torch.optim.SGD")
    values = dict(sgd.values)
    built = line_of("train.py", "def param_groups(")
    assert values["params"] == f"2 parameter groups, built by param_groups() at train.py:{built}"
    assert values["group 2: weight_decay"] == "0.0"
    assert values["group 1: weight_decay"].startswith("1e-4 (parameter weight_decay")
    assert sgd.note == f"per-group keys: weight_decay; {MS_GROUPS}"


def test_backbone_group_at_its_own_lr(recipe: tuple[RecipeItem, ...]) -> None:
    adam = row(recipe, "optimizer", "torch.optim.Adam")
    values = dict(adam.values)
    assert values["params"] == "2 parameter groups"
    option = line_of("train.py", "'--lr_backbone'")
    assert values["group 1: lr"] == (
        f"1e-5 (args.lr_backbone: default of argparse --lr_backbone at train.py:{option})"
    )
    assert adam.note == f"per-group keys: lr; {MS_GROUPS}"


def test_noam_schedule_formula_and_values(recipe: tuple[RecipeItem, ...]) -> None:
    item = row(recipe, "scheduler", "hand.optim.ScheduledOptim._update_learning_rate")
    values = dict(item.values)
    assert values["shape"] == "warm-up then inverse square root of the step"
    assert values["step 1"] == "lr = self.lr_mul * self._get_lr_scale()"
    assert values["self._get_lr_scale()"] == (
        "(d_model ** -0.5) * min(n_steps ** (-0.5), n_steps * n_warmup_steps ** (-1.5))"
    )
    assert values["self.d_model"].startswith("512 (")
    assert values["self.n_warmup_steps"].startswith("4000 (")
    assert values["self.lr_mul"].startswith("2.0 (")
    # the step counter (``self.n_steps += 1``) is no setting: its 0 says nothing
    assert "self.n_steps" not in values


def test_label_smoothing_by_hand(recipe: tuple[RecipeItem, ...]) -> None:
    item = row(recipe, "loss", "hand.losses.cal_loss")
    values = dict(item.values)
    at = line_of("hand/losses.py", "one_hot = one_hot * (1 - eps)")
    assert values["label smoothing (by hand)"] == (
        "eps = 0.1 (eps set at hand/losses.py:7): one_hot = one_hot * (1 - eps) + "
        f"(1 - one_hot) * eps / (n_class - 1) at hand/losses.py:{at}, under if smoothing"
    )
    # the README's training command passes --label_smoothing: the run smooths
    assert values["smoothing"].startswith(
        "True (args.label_smoothing: --label_smoothing in README.md:7"
    )


def test_focal_alpha_is_no_smoothing(recipe: tuple[RecipeItem, ...]) -> None:
    values = dict(row(recipe, "loss", "hand.losses.focal_loss").values)
    assert "label smoothing (by hand)" not in values
    assert values["weight"].startswith("0.5 (args.focal_coef")


def test_model_size_coefficient_is_no_loss_weight(recipe: tuple[RecipeItem, ...]) -> None:
    names = {i.name for i in recipe if i.category == "loss"}
    # --scale_coef indexes tables, sizes the model and names the checkpoint: no loss row
    assert "argparse --scale_coef" not in names
    # --focal_coef multiplies a loss term: it stays
    assert "argparse --focal_coef" in names


@pytest.mark.parametrize(
    ("place", "inference"),
    [
        ("coco_eval.py:evaluate_coco", True),
        ("efficientdet_test_videos.py:", True),
        ("tools/model_demo.py:", True),
        ("train_eval.py:", False),
        ("train.py:", False),
        ("contest.py:", False),
    ],
)
def test_scripts_named_for_their_model_then_eval(place: str, inference: bool) -> None:
    from apiscan.review.recipe import _INFERENCE_PLACE

    assert bool(_INFERENCE_PLACE.search(place)) is inference


def test_deep_supervision_weight_of_an_injected_criterion(recipe: tuple[RecipeItem, ...]) -> None:
    # crit = CrossEntropyLoss(...) handed to WithLoss(model, crit, args.aux_scale), whose
    # forward adds ``loss_aux * self.aux_scale``: the weight followed to the argparse default
    ce = dict(row(recipe, "loss", "torch.nn.CrossEntropyLoss").values)
    built = line_of("train.py", "deep = WithLoss(")
    option = line_of("train.py", "'--aux_scale'")
    at = line_of("hand/model.py", "loss_aux = self.crit(")
    assert ce["ignore_index"] == "-1"
    # two constructions give aux_scale different values: this one's argument is shown
    assert built < line_of("train.py", "deep_env = WithLoss(")
    assert ce["weight in WithLoss.forward"] == (
        f"self.aux_scale = 0.4 (args.aux_scale: default of argparse --aux_scale at train.py:"
        f"{option}) "
        f"(self.crit(self.net.head(self.net.norm(self.net.backbone(x))), y), hand/model.py:{at})"
    )
    # a weight that reaches no literal: what this construction passes, not another's
    nll = dict(row(recipe, "loss", "torch.nn.NLLLoss").values)
    assert nll["weight in WithLoss.forward"].startswith(
        "self.aux_scale = float(os.environ.get('AUX', '0.4')) (self.crit("
    )
    # a criterion applied once, unweighted, by the module it is handed to: no weight
    assert dict(row(recipe, "loss", "torch.nn.MSELoss").values) == {}


def test_smoothing_given_as_an_argument_is_not_repeated(recipe: tuple[RecipeItem, ...]) -> None:
    # ``self.confidence = 1. - smoothing`` in __init__: the row already says smoothing 0.1
    item = row(recipe, "loss", "hand.losses.LabelSmoothingLoss")
    assert dict(item.values) == {"smoothing": "0.1"}


def test_weight_handed_to_a_loss_wrapper_stays(recipe: tuple[RecipeItem, ...]) -> None:
    # --task_loss_weight is an argument of a Module's constructor (TaskLoss) and indexes
    # nothing: a loss weight, not the model's size
    option = row(recipe, "loss", "argparse --task_loss_weight")
    assert dict(option.values) == {"default": "0.7"}


def test_loss_built_only_off_by_default_and_in_its_self_test(
    recipe: tuple[RecipeItem, ...],
) -> None:
    # InstanceLoss is built under ``if args.instance:`` (off) and in losses.py's own
    # ``__main__`` block: no run of the training computes its nll_loss
    assert "torch.nn.functional.nll_loss" not in {i.name for i in recipe}


def test_init_of_classes_built_only_by_uncalled_functions(
    recipe: tuple[RecipeItem, ...],
) -> None:
    inits = {i.name: dict(i.values) for i in recipe if i.category == "init"}
    # Net is built by the training: its initialiser is a row
    assert inits["Net._initialize_weights"] == {
        "m.weight.data.normal_": "0, 0.02",
        "m.bias.data.zero_": "",
    }
    # TinyNet is built only by tinynet(), which nothing calls
    assert "TinyNet._initialize_weights" not in inits


def test_stop_under_a_parameter_test_reads_the_callers() -> None:
    # ``check_mode('adam')`` raising under ``if mode not in (...)``: telling whether the
    # raise runs follows the callers of check_mode and of main (a regression: this once
    # read the modules' own ``__main__`` blocks before they were known)
    result, analyses = scan_with_facts(ScanOptions(str(ROOT), cache_dir=None, jobs=1))
    assert extract_recipe(result, analyses, ROOT)
