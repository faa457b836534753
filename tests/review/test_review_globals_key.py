"""A ``globals()`` look-up by a key held in a name picks only what that name may hold, on
fixtures/globalskey: ``Net(base_name)`` builds ``globals()[base_name](pretrained=True)`` and its
one caller passes ``"base{}".format(num_layers)``, so only ``base34`` is picked, never the
file's ``BottleneckX``, ``Identity`` or ``conv3x3`` (nothing else builds them: the
``BottleneckX`` another file builds is that file's own). ``make_head(kind)`` picks by a key
no code tells (a command-line word): it may build ``PlainHead()``, never ``PairHead``, whose two
required arguments the call does not pass."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.leftout import call_index, globals_picks
from apiscan.review.work import uncalled_functions


@pytest.fixture(scope="module")
def scanned():
    fixture = REPO_ROOT / "fixtures" / "globalskey"
    return scan_with_facts(ScanOptions(str(fixture), cache_dir=None, jobs=1))


def test_a_key_passed_by_the_callers_picks_what_they_spell(scanned) -> None:
    _, analyses = scanned
    values = {fa.path: fa.syntax.values for fa in analyses if fa.syntax is not None}
    index = call_index(values.values())
    picks = globals_picks(values["nets/backbone.py"], index)
    assert [(p.pattern.pattern, p.line, p.known) for p in picks] == [("(?:base.*)", 47, True)]
    # INVALID: a key no code tells matches any name (the arguments decide, below)
    [unknown] = globals_picks(values["nets/heads.py"], index)
    assert (unknown.pattern.pattern, unknown.known) == (".*", False)


def test_only_the_picked_defs_are_reached(scanned) -> None:
    result, analyses = scanned
    dead = set(uncalled_functions(analyses, result))
    # VALID: the picked builder, the block it builds, the head the call can build, and the
    # other file's own BottleneckX (built by Wide)
    for kept in ("base34", "BasicBlock", "Base", "Net"):
        assert ("nets/backbone.py", kept) not in dead
    assert ("nets/heads.py", "PlainHead") not in dead
    assert ("nets/variants.py", "BottleneckX") not in dead
    # INVALID: what no pick and no call reaches
    assert {name for path, name in dead if path == "nets/backbone.py"} == {
        "BottleneckX",
        "Identity",
        "conv3x3",
    }
    assert ("nets/heads.py", "PairHead") in dead
