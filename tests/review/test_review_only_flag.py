"""A config flag switches code off for the run only when every shipped config of the model
switches it off: one config setting ``RPN_ONLY: True`` (an RPN-only recipe) does not drop
the heads the training config builds by leaving the flag at its default, and a part the
model tree found built under the chosen config's tests is never counted apart by a flag
its name resembles (``fixtures/onlyflag``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.work import _on_in_every, _settled

ONLYFLAG = Path("fixtures/onlyflag")
HEADS = "det/modeling/roi_heads.py"
DEFAULTS = {"RPN_ONLY": "False", "MASK_ON": "False", "BASE_LR": "0.001"}
MASK = "MODEL:\n  MASK_ON: True\nSOLVER:\n  BASE_LR: 0.02\n"
RPN = "MODEL:\n  RPN_ONLY: True\nSOLVER:\n  BASE_LR: 0.02\n"


@pytest.fixture(scope="module")
def onlyflag():
    return build_review(str(ONLYFLAG), jobs=1)


def test_heads_the_training_config_builds_stay_ported(onlyflag) -> None:
    """VALID: ``configs/rpn_R_50.yaml`` sets ``RPN_ONLY: True``, the training config
    ``configs/mask_R_50.yaml`` leaves it at ``False``: the box and mask heads are built,
    their file is ported and the tree lists them."""
    apart = dict(onlyflag.ancillary)
    assert HEADS not in apart
    assert "det/modeling/rpn.py" not in apart
    (top,) = onlyflag.top_models
    assert dict(top.parts)["roi_heads"] == "build_roi_heads(...) → CombinedHeads, BoxHead, MaskHead"


def test_heads_every_config_switches_off_are_counted_apart(tmp_path: Path) -> None:
    """INVALID: once the training config sets ``RPN_ONLY: True`` too, no shipped config
    builds the box head: its file is counted apart, told by the evaluated test."""
    shutil.copytree(ONLYFLAG, tmp_path / "repo")
    (tmp_path / "repo/configs/mask_R_50.yaml").write_text(
        MASK.replace("MODEL:\n", "MODEL:\n  RPN_ONLY: True\n")
    )
    apart = dict(build_review(str(tmp_path / "repo"), jobs=1).ancillary)
    assert apart[HEADS] == (
        "not reached by the shipped configs (BoxHead: built only if not cfg.MODEL.RPN_ONLY, "
        "but MODEL.RPN_ONLY = True at configs/mask_R_50.yaml:2 (the training command at "
        "README.md:8))"
    )


def test_a_flag_is_on_for_every_run_only_when_each_config_sets_it() -> None:
    # VALID: both configs set it on; a file setting no declared key is no config of the model
    assert _on_in_every([RPN, RPN.replace("0.02", "0.01"), "root: /data\n"], DEFAULTS) == {
        "RPN_ONLY"
    }
    # INVALID: the Mask R-CNN config leaves it at its default False
    assert _on_in_every([MASK, RPN], DEFAULTS) == set()
    assert _on_in_every(["root: /data\n"], DEFAULTS) == set()
    # settled: no config writes the flag both ways (the chosen config's evaluation holds)
    assert _settled("RPN_ONLY", {"RPN_ONLY"}, set(), DEFAULTS)
    assert _settled("MASK_ON", set(), set(), DEFAULTS)
    assert not _settled("RPN_ONLY", {"RPN_ONLY"}, {"RPN_ONLY"}, DEFAULTS)
