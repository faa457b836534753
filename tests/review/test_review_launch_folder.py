"""Launch scripts that change folder before running the training, whose options live in a
module of their own (issue 20, the recipe from what runs).

fixtures/launchcd: ``experiments/*.sh`` run ``cd src`` then ``python main.py TASK --lr ...``;
``src/main.py`` reads the options ``class opts`` declares in ``src/opts.py``; ``src/test.py``
(an evaluation importing the same options) is launched with other values that must not count,
and ``experiments/elsewhere.sh`` runs a ``main.py`` at the root (none) or from a folder the
scan cannot know."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.review.commands import launches

LAUNCH = Path(__file__).resolve().parents[2] / "fixtures" / "launchcd"


def _value(review, name: str, key: str) -> str:
    rows = [i for i in review.recipe if i.name == name]
    assert rows, name
    return dict(rows[0].values)[key]


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(LAUNCH))


def test_a_script_run_after_cd_is_launched_from_that_folder() -> None:
    runs = launches(LAUNCH, "src/main.py")
    # the README names detect.sh first; elsewhere.sh's main.py is the root's (none) or unknown
    assert [(r.path, r.line) for r in runs] == [
        ("experiments/detect.sh", 3),
        ("experiments/track.sh", 2),
    ]
    # the positional task comes first: the options still read
    assert runs[0].words[0] == "det"
    assert runs[0].given(("--lr",)) == ("5e-4",)
    assert [(r.path, r.line) for r in launches(LAUNCH, "src/test.py")] == [
        ("experiments/detect.sh", 5)
    ]
    # without a cd the script is the root's; a cd to a folder the scan cannot place (a shell
    # variable, an absolute path) leaves the old reading, a path from the root
    assert [(r.path, r.line) for r in launches(LAUNCH, "main.py")] == [
        ("experiments/elsewhere.sh", 2),
        ("experiments/elsewhere.sh", 4),
        ("experiments/elsewhere.sh", 6),
    ]


def test_the_options_module_takes_the_launches_of_the_training_importing_it(review) -> None:
    lr = _value(review, "torch.optim.Adam", "lr")
    assert lr.startswith("5e-4 (opt.lr: --lr in experiments/detect.sh:3")
    assert "default 1.25e-4" in lr
    assert _value(review, "torch.utils.data.DataLoader", "batch_size").startswith(
        "128 (opt.batch_size: --batch_size in experiments/detect.sh:3; experiments/track.sh: 64"
    )
    assert _value(review, "argparse --num_epochs", "launched") == (
        "default (experiments/detect.sh:3; experiments/track.sh: 140)"
    )


def test_the_evaluation_and_unknown_folders_give_nothing(review) -> None:
    values = [v for i in review.recipe for _, v in i.values]
    # test.py's --lr 0.9/--flip 0.25 are the evaluation's; elsewhere.sh's runs are no launch
    for wrong in ("0.9", "0.25", "7e-3", "8e-3", "9e-3"):
        assert all(wrong not in v for v in values), wrong
    assert dict(next(i for i in review.recipe if i.name == "argparse --flip").values) == {
        "default": "0.5"
    }
