"""A builder dispatching on the sections of a Darknet-style config file
(``fixtures/sectionpick``: ``create_modules`` over ``[convolutional]``, ``[shortcut]``,
``[dwt]``, ``[yolo]``): the parts of the model are those the sections of the file the
documented training command names select (``--cfg cfg/net.cfg``), an entry's value read
from the file too (``activation=leaky``, never ``mish``). Without a named file every
branch's class is a part."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review import structure
from apiscan.review.readings import Readings

SECTIONPICK = Path(__file__).resolve().parents[2] / "fixtures" / "sectionpick"


def builders(root: Path) -> structure._Builders:
    result, analyses = scan_with_facts(ScanOptions(str(root), cache_dir=None, jobs=1))
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    nodes = structure.module_nodes(result, analyses, hierarchy, api)
    readings = Readings(root, analyses)
    return structure._Builders(analyses, nodes, lambda path: "", hierarchy, root, readings)


def also_builds(b: structure._Builders) -> str:
    return dict(b.parts_of("model.Darknet"))[structure.ALSO_BUILDS]


def test_the_named_files_sections_select_the_parts() -> None:
    b = builders(SECTIONPICK)
    # VALID: [dwt] is no section of cfg/net.cfg, nor is activation=mish
    assert also_builds(b) == "Shortcut, YoloLayer"
    assert b._evaluate("mdef['type'] == 'dwt'") == (
        False,
        "no [dwt] section in cfg/net.cfg (the training command at README.md:6)",
    )
    assert b._evaluate("mdef['activation'] == 'mish'")[0] is False
    # a section the file has runs for some sections only: unknown, still a config test
    assert b._evaluate("mdef['type'] == 'shortcut'")[0] is None


def test_without_a_named_file_every_branch_builds(tmp_path: Path) -> None:
    # INVALID: no command names a config file: no section is known, all four are parts
    root = tmp_path / "sectionpick"
    shutil.copytree(SECTIONPICK, root)
    (root / "README.md").unlink()
    b = builders(root)
    assert b._sections() is None
    assert also_builds(b) == "Mish, Shortcut, Wavelet, YoloLayer"
    assert b._evaluate("mdef['type'] == 'dwt'") == (None, "")


def test_classes_no_section_builds_are_left_out_of_the_picks() -> None:
    # their initialisers and what only they reach are no part of the configured run
    result, analyses = scan_with_facts(ScanOptions(str(SECTIONPICK), cache_dir=None, jobs=1))
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    nodes = structure.module_nodes(result, analyses, hierarchy, api)
    not_picked: set[str] = set()
    structure.top_models(
        analyses,
        nodes,
        lambda path: "",
        hierarchy,
        SECTIONPICK,
        Readings(SECTIONPICK, analyses),
        not_picked=not_picked,
    )
    assert {"model.Mish", "model.Wavelet"} <= not_picked
    assert not {"model.Shortcut", "model.YoloLayer", "model.Darknet"} & not_picked
