"""The model tree's roots are what the training reaches: classes of files the review counts
apart (a module nothing imports, a package module only its own ``__main__`` block runs) are
listed apart, not as roots beside the model (``fixtures/reachtree``, YOLOP's class)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from apiscan.review.build import build_review
from apiscan.review.html import render_html
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review, Where
from apiscan.review.structure import tree_roots
from apiscan.review.work import UNIMPORTED

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "reachtree"
HEADING = "In files counted apart (not ported with the model):"


@pytest.fixture(scope="module")
def review() -> Review:
    return build_review(str(FIXTURE), jobs=1)


def test_the_unimported_module_and_the_self_testing_package_module_are_apart(
    review: Review,
) -> None:
    apart = dict(review.ancillary)
    assert apart["lib/blocks2.py"] == UNIMPORTED
    assert apart["lib/light.py"] == UNIMPORTED
    # INVALID: the training script (a script, no package module) and what it imports stay
    assert "train.py" not in apart and "lib/net.py" not in apart


def test_their_classes_are_no_roots_of_the_tree(review: Review) -> None:
    assert review.top_models[0].cls == "lib.net.Net"
    roots, apart = tree_roots(review.modules, review.top_models, review.ancillary)
    assert [m.cls for m in apart] == ["lib.blocks2.Block2", "lib.light.LightNet"]
    # the class nothing builds in the file the training imports is no row (issue 20)
    assert [m.cls for m in roots] == ["lib.net.Net"]
    text = render_markdown(review)
    tree = text[text.index("## Network structure") : text.index("| class |")]
    head, _, apart = tree.partition(HEADING)
    # the model stays a root
    assert "- **Net** (model) [lib/net.py:" in head
    assert "Spare" not in head
    assert "Block2" not in head and "LightNet" not in head
    assert apart.strip().splitlines() == [
        "- **Block2** (other) [lib/blocks2.py:4](lib/blocks2.py#L4) (unused (nothing imports"
        " it)) — builds Conv2d ×1",
        "- **LightNet** (other) [lib/light.py:7](lib/light.py#L7) (unused (nothing imports it))",
        "  - **Block** (backbone) [lib/net.py:4](lib/net.py#L4) — see above",
    ]
    page = render_html(review)
    trees = page[page.index('<ul class="tree">') :]
    assert trees.index("Net") < trees.index(HEADING) < trees.index("Block2")
    assert trees.index(HEADING) < trees.index("LightNet")


def test_a_top_model_in_a_file_counted_apart_stays_a_root(review: Review) -> None:
    """MODNet's class: the model only demos build is still the top model's root."""
    light = next(m for m in review.modules if m.cls == "lib.light.LightNet")
    tops = (*review.top_models, type(review.top_models[0])(light.cls, light.where, "", ()))
    roots, apart = tree_roots(review.modules, tops, review.ancillary)
    assert [m.cls for m in apart] == ["lib.blocks2.Block2"]
    assert "lib.light.LightNet" in [m.cls for m in roots]
    # INVALID: with nothing counted apart, nothing is listed apart
    roots, apart = tree_roots(review.modules, review.top_models, ())
    assert apart == [] and len(roots) == 3


def test_what_only_a_class_counted_apart_builds_is_a_root_of_the_tree(review: Review) -> None:
    """setpred's class: a detectron2 adapter (counted apart) wraps the detector the training
    builds: the detector is a root of the model's tree, the adapter is listed apart."""
    net = next(m for m in review.modules if m.cls == "lib.net.Net")
    wrapper = replace(
        net, cls="lib.light.Wrapper", where=Where("lib/light.py", 30), children=(net.cls,)
    )
    roots, apart = tree_roots((*review.modules, wrapper), review.top_models, review.ancillary)
    assert "lib.net.Net" in [m.cls for m in roots]
    assert [m.cls for m in apart] == [
        "lib.blocks2.Block2",
        "lib.light.LightNet",
        "lib.light.Wrapper",
    ]
