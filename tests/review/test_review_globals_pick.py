"""A module function picked from ``globals()`` by a formatted name is reached, on
fixtures/globalspick: ``Net`` builds ``globals()["base{}".format(depth)](pretrained=True)``,
so ``base18`` runs and downloads its ImageNet weights; ``head18``, whose name the key cannot
spell and which nothing calls, downloads nothing."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.work import uncalled_functions


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/globalspick")


def test_the_picked_backbones_weights_are_a_pretrained_item(review) -> None:
    # VALID: base18's load_url (picked by the globals() key); INVALID: head18's (never picked)
    assert [
        (i.what, [str(w) for w in i.where]) for i in review.work if i.kind == "pretrained-backbone"
    ] == [
        (
            "pretrained weights downloaded by URL: "
            'torch.utils.model_zoo.load_url(model_urls["base18"])',
            ["nets/backbone.py:22"],
        )
    ]


def test_a_globals_pick_names_only_the_defs_its_key_may_spell() -> None:
    fixture = REPO_ROOT / "fixtures" / "globalspick"
    result, analyses = scan_with_facts(ScanOptions(str(fixture), cache_dir=None, jobs=1))
    dead = {name for (path, name) in uncalled_functions(analyses, result)}
    assert "head18" in dead
    assert "base18" not in dead
