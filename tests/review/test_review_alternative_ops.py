"""A compiled op is priced at the places the configured run builds, on fixtures/altops: the
training picks ``plain`` from a dict of factories by ``--arch``; ``dcn_v2.DCN`` is built by
the plain network and by two alternatives (the ``deform`` network, and a layer class the
``yolo`` network's parser builds by name through a star import), and ``roi_align.RoIAlign``
only by the ``deform`` network. The alternatives' places are listed beside the item, not
counted; an op only alternatives use is counted apart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.model import Review

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "altops"


def _ops(review: Review) -> dict[str, tuple[str, list[str]]]:
    return {
        i.what: (i.kind, [str(w) for w in i.where])
        for i in review.work
        if i.kind in ("compiled-op", "compiled-custom-op", "alternative-op")
    }


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(FIXTURE), jobs=1)


def test_only_the_configured_places_are_priced(review) -> None:
    assert _ops(review) == {
        # VALID: the plain network's node; INVALID: the alternatives' places (listed)
        "dcn_v2.DCN": ("compiled-op", ["nets/plain.py:9"]),
        "roi_align.RoIAlign": ("alternative-op", ["nets/deform.py:11"]),
    }
    (dcn,) = [i for i in review.work if i.what == "dcn_v2.DCN"]
    assert dcn.uses == 1
    assert "nets/common.py:17 (DeConvDCN, reached only from the entries" in dcn.why
    assert "nets/deform.py:10 (DeformNet, reached only from the entries" in dcn.why
    assert "1 compiled-op × 1–2" in review.effort.formula
    assert "not counted: roi_align.RoIAlign (alternatives only)" in " ".join(
        review.effort.explanation
    )


def test_the_picked_alternative_prices_its_own_ops(tmp_path: Path) -> None:
    root = tmp_path / "altops"
    shutil.copytree(FIXTURE, root)
    train = root / "train.py"
    train.write_text(train.read_text().replace('default="plain"', 'default="deform"'))
    assert _ops(build_review(str(root), jobs=1)) == {
        "dcn_v2.DCN": ("compiled-op", ["nets/deform.py:10"]),
        "roi_align.RoIAlign": ("compiled-op", ["nets/deform.py:11"]),
    }
