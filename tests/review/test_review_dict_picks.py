"""Classes a constructor builds through a function that returns one of a dict of classes
by name (``fixtures/dictpick``: ``stem_fun = get_stem(stem_type)`` then ``stem_fun(3, 8)``;
``block_fun = get_block(block_type)`` handed to ``Stage``): each entry is a part of the
class that builds it, never a free-standing root; a function returning names is no pick."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review import structure
from apiscan.review.model import ModuleNode

DICTPICK = Path(__file__).resolve().parents[2] / "fixtures" / "dictpick"


@pytest.fixture(scope="module")
def nodes() -> dict[str, ModuleNode]:
    result, analyses = scan_with_facts(ScanOptions(str(DICTPICK), cache_dir=None, jobs=1))
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    built = structure.module_nodes(result, analyses, hierarchy, api)
    return {n.cls.rpartition(".")[2]: n for n in built}


def short(node: ModuleNode) -> list[str]:
    return sorted(c.rpartition(".")[2] for c in node.children)


def test_a_module_level_dict_picked_by_name_gives_the_caller_its_entries(nodes) -> None:
    assert short(nodes["Net"]) == ["PlainStem", "Stage", "WideStem"]


def test_a_pick_handed_to_a_class_is_that_class_part(nodes) -> None:
    # ``block_fun`` goes to ``Stage(8, 16, block_fun)``: Stage builds the block, Net does not
    assert short(nodes["Stage"]) == ["FatBlock", "ThinBlock"]
    assert "ThinBlock" not in short(nodes["Net"])


def test_picked_classes_are_blocks_not_roots(nodes) -> None:
    roles = {name: nodes[name].role for name in ("PlainStem", "WideStem", "ThinBlock", "FatBlock")}
    assert set(roles.values()) == {"block"}


def test_a_class_no_picker_returns_stays_apart(nodes) -> None:
    # INVALID: ``describe`` returns strings from its dict; LoneHelper is returned by nothing
    assert nodes["LoneHelper"].role == "other"
    assert all("LoneHelper" not in short(n) for n in nodes.values())


# --- a library network a constructor cuts its blocks from (fixtures/zoobody) ---------------

ZOOBODY = DICTPICK.parent / "zoobody"


@pytest.fixture(scope="module")
def builders() -> structure._Builders:
    result, analyses = scan_with_facts(ScanOptions(str(ZOOBODY), cache_dir=None, jobs=1))
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    built = structure.module_nodes(result, analyses, hierarchy, api)
    return structure._Builders(analyses, built, lambda path: "", hierarchy, ZOOBODY)


def test_the_library_body_a_builder_makes_is_a_part(builders) -> None:
    parts = dict(builders.parts_of("features.Features"))
    # named once, by the first construction (the other branch builds the same network)
    assert parts[structure.BUILT_FROM] == "patched_resnet() → torchvision.models.resnet18"
    assert parts[structure.ALSO_BUILDS] == "PatchedBlock"


def test_a_class_of_its_own_layers_has_no_library_body(builders) -> None:
    assert builders.parts_of("features.OwnFeatures") == [("block", "PatchedBlock")]
