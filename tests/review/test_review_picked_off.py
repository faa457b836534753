"""What the configured run never builds is not priced, whatever a forward would call: a
builder returning one module per config branch (``if cfg.MODEL.ALT_ON: return
build_alt(...)``, then the default module) builds the alternative only under a flag the
chosen config leaves off, so the alternative's files (its head, its loss, the
post-processing its forward calls) are counted apart as not reached by the shipped
configs, and their dynamic shapes are no rewrite (``fixtures/pickedoff``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.model import Review

PICKEDOFF = Path("fixtures/pickedoff")
ALT = "det/modeling/alt/"


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(PICKEDOFF), jobs=1)


def _priced(review: Review) -> str:
    return next(e for e in review.effort.explanation if "dynamic-shape rewrite" in e)


def test_an_alternative_the_config_does_not_pick_is_not_in_the_run(review: Review) -> None:
    apart = dict(review.ancillary)
    # VALID: the alternative's module file, told by the evaluated test, and the files only
    # it imports (its post-processing and its loss)
    assert apart[ALT + "alt.py"] == (
        "not reached by the shipped configs (AltModule: built only if cfg.MODEL.ALT_ON, but "
        "MODEL.ALT_ON = False at det/config/defaults.py:16 (the default))"
    )
    assert apart[ALT + "inference.py"] == (
        "not reached by the shipped configs (imported only from det/modeling/alt/alt.py)"
    )
    assert ALT + "loss.py" in apart
    priced = _priced(review)
    assert "AltPostProcessor" not in priced and "AltLoss" not in priced
    # INVALID: the module the config picks stays ported and its dynamic shape priced
    assert "det/modeling/rpn.py" not in apart
    assert "det/modeling/rpn.py:RPNModule.forward" in priced


def test_a_config_that_picks_the_alternative_ports_it(tmp_path: Path) -> None:
    """The training config sets ``ALT_ON: True``: the alternative is the module built, its
    files ported and its post-processing priced."""
    shutil.copytree(PICKEDOFF, tmp_path / "repo")
    config = tmp_path / "repo/configs/mask_R_50.yaml"
    config.write_text(config.read_text().replace("MODEL:\n", "MODEL:\n  ALT_ON: True\n"))
    review = build_review(str(tmp_path / "repo"), jobs=1)
    assert not any(path.startswith(ALT) for path, _ in review.ancillary)
    assert "det/modeling/alt/inference.py:AltPostProcessor.forward" in _priced(review)


def _inits(review: Review) -> set[tuple[str, int]]:
    return {(i.where.path, i.where.line) for i in review.recipe if i.category == "init"}


def test_a_registry_entry_the_config_does_not_pick_gives_no_init_row(review: Review) -> None:
    """``PREDICTORS[cfg.MODEL.HEAD.PREDICTOR]`` is the table's one look-up; the training
    config sets ``BigPredictor`` over the default ``SmallPredictor``."""
    # VALID: the picked entry's initialisation is the recipe's
    assert ("det/modeling/predictors.py", 22) in _inits(review)
    # INVALID: the entry the config does not pick builds nothing in the run
    assert ("det/modeling/predictors.py", 11) not in _inits(review)


def test_a_table_also_looked_up_by_an_unknown_name_keeps_every_entry(tmp_path: Path) -> None:
    """Another look-up by a name the review cannot value: either entry may be built."""
    shutil.copytree(PICKEDOFF, tmp_path / "repo")
    predictors = tmp_path / "repo/det/modeling/predictors.py"
    predictors.write_text(
        predictors.read_text()
        + "\n\ndef predictor_named(name, cfg):\n    return registry.PREDICTORS[name](cfg, 8)\n"
    )
    inits = _inits(build_review(str(tmp_path / "repo"), jobs=1))
    assert {("det/modeling/predictors.py", 11), ("det/modeling/predictors.py", 22)} <= inits
