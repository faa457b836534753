"""The training a repository's documentation launches (issue 20), on fixtures/docentry: a
package run as ``python -m docpkg_train.main`` (its README's command) beside a linear probe
under ``scripts/``, a profiler and a legacy loop, each a script with its own optimizer,
options or seed, and test modules defining stand-in networks and losses."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import documented_entry

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "docentry"


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(FIXTURE))


def _rows(review) -> list[tuple[str, str, str]]:
    return [(i.category, i.name, i.where.path) for i in review.recipe]


def test_the_readme_command_names_the_training_script(tmp_path: Path) -> None:
    scripts = {
        "docpkg_train.main": "src/docpkg_train/main.py",
        "src/docpkg_train/main.py": "src/docpkg_train/main.py",
        "docpkg_train.legacy_main": "src/docpkg_train/legacy_main.py",
    }
    assert documented_entry(FIXTURE, scripts) == "src/docpkg_train/main.py"
    # a launcher's path counts as its module does; ``python -m pytest`` launches nothing
    (tmp_path / "README.md").write_text(
        "    srun python -u src/docpkg_train/main.py --epochs 2\n"
        "    python -m docpkg_train.legacy_main --epochs 2\n"
        "    python -m pytest -x tests --maxfail 1\n",
        encoding="utf-8",
    )
    assert documented_entry(tmp_path, scripts) is None  # a tie names none
    (tmp_path / "README.md").write_text("    python -m pytest --maxfail 1\n", encoding="utf-8")
    assert documented_entry(tmp_path, scripts) is None


def test_other_scripts_give_no_recipe_row(review) -> None:
    rows = _rows(review)
    paths = {path for _, _, path in rows}
    assert not paths & {
        "scripts/linear_probe.py",
        "src/docpkg_train/legacy_main.py",
        "src/docpkg_train/profiler.py",
    }
    assert ("optimizer", "torch.optim.AdamW", "src/docpkg_train/main.py") in rows
    assert not [r for r in rows if r[0] == "scheduler"]  # the probe's CosineAnnealingLR
    seeds = [i for i in review.recipe if i.category == "seed" and i.name == "torch.manual_seed"]
    seed = "0 (args.seed: default of argparse --seed at src/docpkg_train/params.py:22)"
    assert [(i.where.path, i.values) for i in seeds] == [
        ("src/docpkg_train/main.py", (("seed", seed),))
    ]


def test_a_shared_function_reads_the_training_parser_not_another_scripts(review) -> None:
    loader = next(i for i in review.recipe if i.name == "torch.utils.data.DataLoader")
    assert dict(loader.values)["batch_size"].startswith("64 (args.batch_size: default of ")
    batches = [i.where.path for i in review.recipe if i.category == "batch_size"]
    assert batches == ["src/docpkg_train/params.py"]


def test_without_a_documented_command_every_script_stays(tmp_path: Path) -> None:
    """INVALID: no README, no launcher: nothing says which script trains, so the probe's
    rows are kept as before."""
    copy = tmp_path / "docentry"
    shutil.copytree(FIXTURE, copy)
    (copy / "README.md").unlink()
    paths = {path for _, _, path in _rows(review_fixture(str(copy)))}
    assert "scripts/linear_probe.py" in paths


def test_test_modules_give_no_model_node(review) -> None:
    classes = [m.cls for m in review.modules]
    assert classes == ["docpkg_train.model.Net"]
    assert not [t for t in review.top_models if t.where.path.startswith("tests/")]


def test_options_left_at_none_read_the_function_that_fills_them_in(review) -> None:
    """``--lr``/``--beta1``/``--beta2``/``--eps`` default to None and a loop sets each
    from ``get_default_params(args.model)``: the values are that function's dicts', one
    value where its returns agree, each return's where they differ (a test of the model's
    name picks one)."""
    adamw = next(i for i in review.recipe if i.name == "torch.optim.AdamW")
    values = dict(adamw.values)
    assert values["lr"].startswith("5.0e-4 (argparse --lr at src/docpkg_train/params.py:15 ")
    assert "args.lr filled in by get_default_params(args.model) at " in values["lr"]
    assert values["betas"].startswith("(0.9, 0.999 | 0.98) (")
    assert values["eps"].startswith("1.0e-8 | 1.0e-6 (")
    options = {i.name: dict(i.values)["default"] for i in review.recipe if "argparse" in i.name}
    assert options["argparse --lr"] == (
        "None, then 5.0e-4 (--lr filled in by get_default_params(args.model) at "
        "src/docpkg_train/params.py:25; same at src/docpkg_train/params.py:7)"
    )
    # INVALID: an option left at None that nothing fills in stays None
    assert options["argparse --batch-size"] == "64"


def test_a_loop_that_sets_no_attribute_fills_nothing_in(tmp_path: Path) -> None:
    """INVALID: the same loop printing the defaults instead of setting them."""
    copy = tmp_path / "docentry"
    shutil.copytree(FIXTURE, copy)
    params = copy / "src" / "docpkg_train" / "params.py"
    text = params.read_text(encoding="utf-8")
    params.write_text(text.replace("setattr(args, name, val)", "print(name, val)"), "utf-8")
    options = {
        i.name: dict(i.values)["default"]
        for i in review_fixture(str(copy)).recipe
        if "argparse" in i.name
    }
    assert options["argparse --lr"] == "None"


def test_a_composition_in_an_else_says_the_negated_test_and_its_steps_own_tests(review) -> None:
    """``Compose`` in the ``else`` of ``if use_timm:`` runs when ``not use_timm``; a step
    extended under a test the defaults fail (``USE_BLUR = False``) is not applied, one under
    a test they pass (``GRAY_PROB = 0.2``) is, and so is not one under a parameter the only
    call that runs (``image_transform(224, is_train=True)``) leaves at its None default."""
    row = next(i for i in review.recipe if i.name == "composition in image_transform")
    assert dict(row.values) == {
        "1": "RandomResizedCrop(224, scale=(0.9, 1.0))",
        "2": "RandomGrayscale(0.2)",
        "3": "ToTensor()",
        "when": "not use_timm",
    }
