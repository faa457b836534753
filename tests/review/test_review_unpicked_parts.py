"""The parts of the run's model that the config does not pick (a segmentation model built
with its default ResNet backbone, its Xception and MobileNet branches untaken) are listed
with the alternatives, not among the model's parts in the tree (issue 20: the model tree
showed every backbone under the model though the effort counted three of them apart)."""

from __future__ import annotations

from apiscan.review.markdown import _structure
from apiscan.review.model import ModuleNode, Where
from apiscan.review.structure import tree_children, tree_roots

MODEL = ModuleNode(
    "seg.model.Seg",
    Where("seg/model.py", 5),
    "model",
    ("seg.resnet.ResNet", "seg.xception.Xception", "seg.mobile.Mobile", "seg.head.Head"),
)
MODULES = (
    MODEL,
    ModuleNode("seg.resnet.ResNet", Where("seg/resnet.py", 3), "backbone", ("seg.resnet.Block",)),
    ModuleNode("seg.resnet.Block", Where("seg/resnet.py", 1), "block"),
    ModuleNode(
        "seg.xception.Xception", Where("seg/xception.py", 9), "block", ("seg.xception.Sep",)
    ),
    ModuleNode("seg.xception.Sep", Where("seg/xception.py", 1), "block"),
    ModuleNode("seg.mobile.Mobile", Where("seg/mobile.py", 4), "block"),
    ModuleNode("seg.head.Head", Where("seg/head.py", 2), "head"),
)
UNPICKED = ("seg.mobile.Mobile", "seg.xception.Sep", "seg.xception.Xception")


def test_an_unpicked_part_heads_its_own_tree_with_the_alternatives() -> None:
    roots, _ = tree_roots(MODULES, (), (), UNPICKED)
    # the alternative's own parts stay under it (Sep under Xception)
    assert [m.cls for m in roots] == ["seg.model.Seg", "seg.xception.Xception", "seg.mobile.Mobile"]
    assert tree_children(MODEL, UNPICKED) == ("seg.resnet.ResNet", "seg.head.Head")
    xception = MODULES[3]
    assert tree_children(xception, UNPICKED) == ("seg.xception.Sep",)


def test_the_markdown_tree_lists_them_under_the_alternatives_heading() -> None:
    text = _structure(MODULES, (), (), UNPICKED)
    tree = text[: text.index("| class |")]
    own, _, others = tree.partition("Alternatives the run's config does not pick")
    assert "**ResNet**" in own and "**Head**" in own
    assert "Xception" not in own and "Mobile" not in own
    assert "- **Xception** (block)" in others and "  - **Sep** (block)" in others
    assert "- **Mobile** (block)" in others


def test_without_alternatives_every_part_stays_under_the_model() -> None:
    roots, _ = tree_roots(MODULES, (), ())
    assert [m.cls for m in roots] == ["seg.model.Seg"]
    assert tree_children(MODEL, ()) == MODEL.children
