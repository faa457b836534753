"""Code only a demo reaches (issue 20 point 5, XMem's interactive GUI), on fixtures/demoreach:
``train.py`` trains at the top level (no ``__main__`` guard) beside ``interactive_demo.py``,
whose GUI package builds a click-based network of its own (through a builder and a loader that
an unused scoring module imports too) and the trained network, from layers the network's own
file imports, and an overlay helper a top-level ``eval.py`` imports too."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.work import DEMOS_ONLY


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/demoreach")


def test_modules_only_a_demo_reaches_are_counted_apart_with_it(review) -> None:
    apart = dict(review.ancillary)
    assert apart["interactive_demo.py"] == "demo"
    # VALID: the GUI, its loader (also imported by a module nothing imports) and the click
    # network it builds
    for path in ("app/gui.py", "app/loader.py", "app/clicknet.py"):
        assert apart[path] == f"{DEMOS_ONLY} (interactive_demo.py)", path
    assert apart["app/score_clicks.py"] == "unused (nothing imports it)"
    # INVALID: what the training reaches stays ported, the layers the demo shares with the
    # network included
    # and what a top-level evaluation script (no ``__main__`` guard either) imports
    for path in (
        "train.py",
        "eval.py",
        "models/net.py",
        "models/shared.py",
        "app/common.py",
        "app/overlay.py",
    ):
        assert path not in apart, path


def test_a_network_only_a_demo_builds_is_no_top_model(review) -> None:
    assert [t.cls for t in review.top_models] == ["models.net.Net"]
    clicknet = next(m for m in review.modules if m.cls == "app.clicknet.ClickNet")
    assert clicknet.where.path == "app/clicknet.py"
