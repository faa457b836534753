"""The recipe from what runs when the documented command runs a wrapper of the training
script, and the network builders a key picks from a module read whole (issue 20).

fixtures/wrapperlaunch: ``cluster_launch.py`` imports ``main_train`` and hands its parsed
options to ``main_train.main(args)``, which trains; its documented command's values are the
run's. ``show_options.py`` imports the same module to print the parser: it trains nothing,
and its command changes no value. fixtures/namespacepick: ``nets.__dict__[args.arch]()``
picks a builder by name: every public builder of ``nets.py`` is reached, its private helper
nothing calls is not."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import uncalled_functions


def _value(review, name: str, key: str) -> str:
    rows = [i for i in review.recipe if i.name == name]
    assert rows, name
    return dict(rows[0].values)[key]


@pytest.fixture(scope="module")
def wrapped():
    return review_fixture("fixtures/wrapperlaunch")


def test_a_launcher_handing_its_options_to_the_training_gives_the_run_values(wrapped) -> None:
    assert _value(wrapped, "argparse --epochs", "launched") == "300 (TRAINING.md:6)"
    lr = _value(wrapped, "torch.optim.SGD", "lr")
    assert lr.startswith("0.5 (args.lr: --lr in TRAINING.md:6")
    assert "default 0.1" in lr


def test_a_script_only_reading_the_parser_runs_no_training(wrapped) -> None:
    # show_options.py --epochs 7: no launch of the training
    assert all("7 (" not in v for i in wrapped.recipe for _, v in i.values)


def test_a_module_read_whole_by_a_key_has_its_public_builders_reached() -> None:
    fixture = REPO_ROOT / "fixtures" / "namespacepick"
    result, analyses = scan_with_facts(ScanOptions(str(fixture), cache_dir=None, jobs=1))
    dead = {name for (path, name) in uncalled_functions(analyses, result)}
    assert "net_small" not in dead
    assert "net_large" not in dead
    assert "_widen" in dead


def test_timms_parameter_groups_are_a_piece_of_training() -> None:
    """timm's ``optim_factory.add_weight_decay(model, wd)`` handed to a torch optimizer
    (no weight decay on norms and biases) is timm code the port writes; the optimizer
    factory stays its own piece, and timm's layers are no piece of training."""
    from apiscan.review.oplibs import TRAINING_PIECES, training_piece

    groups = training_piece("timm.optim.optim_factory.add_weight_decay")
    assert groups is not None and "parameter groups" in TRAINING_PIECES[groups][1]
    assert training_piece("timm.optim.param_groups_layer_decay") == groups
    assert training_piece("timm.optim.create_optimizer_v2") not in (None, groups)
    assert training_piece("timm.models.layers.trunc_normal_") is None
