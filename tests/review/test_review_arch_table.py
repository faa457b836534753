"""A network picked from a dict of classes by an option whose default is known: the
initialisers of the entries the default leaves out, and of what only they build, are no
recipe rows (``fixtures/archtable``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "archtable"


def _inits(root: Path) -> dict[str, tuple[str, int]]:
    review = build_review(str(root), jobs=1)
    return {i.name: (i.where.path, i.where.line) for i in review.recipe if i.category == "init"}


def test_only_the_picked_entry_gives_initialisation_rows() -> None:
    assert _inits(FIXTURE) == {"torch.nn.init.zeros_": ("nets/small.py", 8)}


def test_an_unknown_key_leaves_every_entry_a_row(tmp_path: Path) -> None:
    root = tmp_path / "archtable"
    shutil.copytree(FIXTURE, root)
    train = root / "train.py"
    # no default: the pick is not known, so no entry is left out
    train.write_text(train.read_text().replace('default="small_18"', "required=True"))
    assert _inits(root) == {
        "torch.nn.init.zeros_": ("nets/small.py", 8),
        "torch.nn.init.normal_": ("nets/big.py", 5),
        "torch.nn.init.kaiming_normal_": ("nets/big.py", 12),
    }


def test_the_model_names_the_other_entries_once() -> None:
    review = build_review(str(FIXTURE), jobs=1)
    (top,) = review.top_models
    assert top.cls == "nets.small.SmallNet"
    assert dict(top.parts)["alternatives"] == (
        "small picked by opt.arch = 'small_18', argparse default at train.py:10; also big"
    )
