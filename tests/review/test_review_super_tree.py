"""The model tree of a model built in the branch the defaults take, whose parts its base
class's constructor builds (issue 20, the top model found through builders).

fixtures/supertree: ``TrackerOnline.__init__`` only calls ``super(...).__init__(**args)``;
``OldTracker`` is built only under ``if args.model_name == "old":``, off by default."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def review():
    return review_fixture(str(REPO / "fixtures" / "supertree"))


def test_the_top_model_is_the_default_branch_s_with_its_base_s_parts(review) -> None:
    tops = [(t.cls, t.where.path, t.where.line, t.parts) for t in review.top_models]
    selected = "the branch the defaults take; the others build OldTracker (train.py:12)"
    alternative = 'an alternative to TrackerOnline: OldTracker(), only if args.model_name == "old"'
    assert tops == [
        (
            "models.TrackerOnline",
            "train.py",
            14,
            (("selected by", selected), ("fnet", "Encoder"), ("updater", "Updater")),
        ),
        # the class built only under a model name the default does not pick comes after
        # it, as its alternative
        ("models.OldTracker", "train.py", 12, (("selected by", alternative), ("fnet", "Encoder"))),
    ]


def test_a_subclass_holds_what_its_base_constructor_builds(review) -> None:
    nodes = {m.cls: m for m in review.modules}
    assert set(nodes["models.TrackerOnline"].children) == {"models.Encoder", "models.Updater"}
    # the class built only under a model name the default does not pick is only an
    # alternative: its parts are its own
    assert set(nodes["models.OldTracker"].children) == {"models.Encoder"}
