"""Recipe values read by attribute name (``opt.eps``, ``opt.workers``) bind only to a parser
or a config object on the reader's own run (``fixtures/optbind``): the package's inference
CLI (``ocrpkg/cli.py``, ``--workers 0``, ``--batch_size 1``) and a loss module's ``self.eps``
are other objects that share the names. The recognizer's training reads ``opt`` from the
YAML its runner loads (``get_config("config_files/en_config.yaml")`` into an ``AttrDict``,
then ``train(opt, amp=False)``); the detector's training reads its own parser's defaults
and a plain settings class."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.inference import inference_steps
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "optbind"


@pytest.fixture(scope="module")
def items() -> tuple[RecipeItem, ...]:
    result, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    return extract_recipe(result, analyses, FIXTURE)


def row(items: tuple[RecipeItem, ...], name: str, path: str, line: int = 0) -> dict[str, str]:
    (found,) = [
        i for i in items if i.name == name and i.where.path == path and line in (0, i.where.line)
    ]
    return dict(found.values)


def test_the_yaml_the_runner_loads_gives_the_options(items: tuple[RecipeItem, ...]) -> None:
    adadelta = row(items, "torch.optim.Adadelta", "recog/train.py")
    # VALID: the file the runner passes, not a loss's ``self.eps = 1e-6`` nor another
    # training's settings class
    assert adadelta["eps"].startswith("0.00000001 (opt.eps: built by get_config()")
    assert "recog/config_files/en_config.yaml:5, loaded at recog/run.py:14" in adadelta["eps"]
    assert adadelta["lr"].startswith("1. ") and adadelta["rho"].startswith("0.95 ")
    loader = row(items, "torch.utils.data.DataLoader", "recog/train.py", 18)
    assert loader["num_workers"].startswith("int(6) (opt.workers: built by get_config()")
    assert loader["batch_size"].startswith("32 ")
    # INVALID: nothing bound to the inference CLI's defaults or the loss's attribute
    shown = " ".join([*adadelta.values(), *loader.values()])
    assert "ocrpkg/cli.py" not in shown and "losses.py" not in shown
    assert "settings.py" not in shown


def test_the_runs_own_parser_and_settings_still_bind(items: tuple[RecipeItem, ...]) -> None:
    loader = row(items, "torch.utils.data.DataLoader", "det/train_det.py")
    assert loader["num_workers"] == (
        "4 (args.workers: default of argparse --workers at det/opts.py:6)"
    )
    assert loader["batch_size"].startswith("8 (args.batch_size: default of argparse --batch_size")
    adam = row(items, "torch.optim.Adam", "det/train_det.py")
    assert adam["eps"] == "1e-5 (cfg.eps: Settings.__init__ sets it at det/settings.py:5)"


def test_an_inference_cli_option_is_no_recipe_row(items: tuple[RecipeItem, ...]) -> None:
    options = {(i.name, i.where.path) for i in items if i.name.startswith("argparse ")}
    # VALID: the training's parser; INVALID: the package's inference command line
    assert options == {
        ("argparse --workers", "det/opts.py"),
        ("argparse --batch_size", "det/opts.py"),
    }


def test_an_inference_data_parallel_wrap_is_no_distributed_row(
    items: tuple[RecipeItem, ...],
) -> None:
    wraps = [(i.name, i.where.path) for i in items if i.category == "distributed"]
    # VALID: the training's wrap; INVALID: the reader's ``nn.DataParallel(self.net)``
    assert wraps == [("torch.nn.DataParallel", "recog/train.py")]


def test_a_lone_top_k_is_a_selection_not_sampling() -> None:
    _, analyses = scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))
    rows = {(i.name, dict(i.values).get("top_k")) for i in inference_steps(analyses, (), _none)}
    # VALID: a decoder's temperature and top-k; INVALID: a keypoint head's ``top_k = 0``
    assert ("sampling settings in generate", "50") in rows
    assert not any("KeypointHead" in name for name, _ in rows)


def _none(path: str) -> bool:
    return False


def test_a_scaler_used_only_under_amp_off_says_so(items: tuple[RecipeItem, ...]) -> None:
    scalers = {
        i.where.line: i.note
        for i in items
        if i.where.path == "recog/train_amp.py" and i.category == "amp"
    }
    # INVALID as AMP: built, used only under ``if amp:`` with amp=False; VALID: used always
    assert scalers[8] == (
        "built, but every use of scaler is in a branch the defaults do not take: "
        "no loss scaling runs"
    )
    assert scalers[23] == ""


def test_a_per_element_batch_shows_the_setting_it_scales(items: tuple[RecipeItem, ...]) -> None:
    (loader,) = [
        dict(i.values)
        for i in items
        if i.name == "torch.utils.data.DataLoader" and i.where.line == 11
    ]
    # one batch per data set, scaled by its ratio (a loop's element): no one number, but
    # the setting it scales is the YAML's
    assert loader["batch_size"].startswith("max(round(opt.batch_size * float(ratio)), 1) (")
    assert (
        "with opt.batch_size = 32 (opt.batch_size: built by get_config()" in (loader["batch_size"])
    )
