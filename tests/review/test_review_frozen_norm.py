"""A frozen BatchNorm of the repository's own (statistics and affine registered as buffers)
built by the model, with the parameters its network classes freeze, is one frozen-BatchNorm
work item (``fixtures/frozenbn``); a norm that learns its affine, a freeze outside the network
(an EMA's copy) and a frozen BatchNorm the model never builds are not."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.review.build import build_review

FROZENBN = Path("fixtures/frozenbn")


def _frozen(root: Path) -> list:
    return [w for w in build_review(str(root), jobs=1).work if w.kind == "bn-frozen"]


def test_a_frozen_batch_norm_the_model_builds_is_an_item() -> None:
    """VALID: FrozenBatchNorm2d (buffers only) in the stem, the first stages frozen."""
    (item,) = _frozen(FROZENBN)
    assert item.what == (
        "frozen BatchNorm (fixed statistics and affine): FrozenBatchNorm2d; 1 parameter freeze"
    )
    assert [(w.path, w.line) for w in item.where] == [
        ("fbn/norms.py", 10),  # its buffers registered
        ("fbn/backbone.py", 19),  # the backbone's freeze, not the EMA's (line 29)
    ]
    assert "Parameters with requires_grad=False" in item.why
    assert item.uses == 1


def test_a_frozen_batch_norm_nothing_builds_is_no_item(tmp_path: Path) -> None:
    """INVALID: the stem built with the norm that learns its affine instead."""
    root = tmp_path / "repo"
    shutil.copytree(FROZENBN, root)
    backbone = root / "fbn/backbone.py"
    text = backbone.read_text()
    backbone.write_text(
        text.replace("FrozenBatchNorm2d(64)", "RunningNorm(64)").replace(
            "from fbn.norms import FrozenBatchNorm2d, RunningNorm",
            "from fbn.norms import RunningNorm",
        )
    )
    assert _frozen(root) == []
