"""A dataset's augmentation written in its methods (issue 20), on fixtures/augmethods: the
methods its ``__getitem__`` (inherited here) reaches through ``self.name(...)`` calls each
give a row of the draws they make, with the probabilities and ranges kept in ``__init__``
that the draws and their ``if`` tests read."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def rows():
    review = review_fixture("fixtures/augmethods")
    return {
        i.name: (f"{i.where.path}:{i.where.line}", dict(i.values))
        for i in review.recipe
        if i.category == "augmentation"
    }


def test_each_reached_method_that_draws_is_a_row(rows) -> None:
    # VALID: photometric and spatial (the base's), helper (the subclass's); INVALID:
    # shuffled (drawn once, from __init__), normalize (no draw), the inherited __getitem__
    # (draws nothing itself)
    assert {name: where for name, (where, _) in rows.items()} == {
        "ClipBase.photometric": "vidaug/base.py:29",
        "ClipBase.spatial": "vidaug/base.py:36",
        "Clips.helper": "vidaug/clips.py:7",
    }


def test_the_probabilities_and_ranges_set_in_init_are_shown(rows) -> None:
    _, photometric = rows["ClipBase.photometric"]
    assert photometric["draw 1"] == "if np.random.rand() < self.color_prob"
    assert photometric["self.color_prob"].startswith("0.25 ")
    assert photometric["self.blur_prob"].startswith("0.4 ")
    _, spatial = rows["ClipBase.spatial"]
    assert spatial["self.scale_lim"].startswith("[0.5, 2.0] ")
    assert spatial["self.max_offset"].startswith("30 ")
    _, helper = rows["Clips.helper"]
    assert helper == {
        "draw 1": "frames = self.photometric(frames)",
        "draw 2": "frames = self.spatial(frames)",
    }
