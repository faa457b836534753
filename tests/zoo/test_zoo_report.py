"""The zoo report of the fixture zoo (fixtures/zoo/manifest.toml), byte for byte in every
format, and the ranking and unblock curve computed on a zoo small enough to check by hand.

A golden difference after a deliberate change: ``python scripts/update_golden.py``, then
review the diff of tests/golden/zoo/.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

pytest.importorskip("duckdb")

from apiscan.zoo.report import rank_blockers, unblock_curve

from .zoo_helpers import REPO

_spec = importlib.util.spec_from_file_location("update_golden", REPO / "scripts/update_golden.py")
assert _spec and _spec.loader
update_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(update_golden)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return update_golden.render_zoo(tmp_path_factory.mktemp("zoo"))


@pytest.mark.parametrize("suffix", [".md", ".json", ".html"])
def test_golden_zoo_report(rendered: dict[str, str], suffix: str) -> None:
    golden = (update_golden.GOLDEN_DIR / "zoo" / f"report{suffix}").read_text("utf-8")
    assert rendered[suffix] == golden, f"zoo report{suffix} differs from its golden file"


def test_fixture_zoo_facts(rendered: dict[str, str]) -> None:
    data = json.loads(rendered[".json"])
    names = [r["name"] for r in data["repositories"]]
    assert names == ["dynshape", "textcls", "tinydet", "tinyseg"]
    # tinyseg's network is fully covered: the curve starts at one, ends at all four.
    assert data["start_covered"] == 1 and data["curve"][-1]["covered"] == 4
    assert data["total_weight"] == 7.0
    html = rendered[".html"]
    assert "<svg" in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "<script" not in html


def test_ranking_and_curve_by_hand() -> None:
    """Four repositories: A needs {x}, B needs {x, y}, C needs {y, z, w} and weighs 3, D
    needs nothing."""
    sets = {"a": {"x"}, "b": {"x", "y"}, "c": {"y", "z", "w"}, "d": set()}
    names = {k: k.upper() for k in sets}
    weights = {"a": 1.0, "b": 1.0, "c": 3.0, "d": 1.0}
    blocking = {rid: {api: (("missing",), 1) for api in apis} for rid, apis in sets.items()}
    ranked = rank_blockers(blocking, names, weights)
    # y blocks B and C (weight 4), z and w block C (3), x blocks A and B (2).
    assert [(b.api, b.weight, b.repositories) for b in ranked] == [
        ("y", 4.0, 2), ("w", 3.0, 1), ("z", 3.0, 1), ("x", 2.0, 2)
    ]  # fmt: skip
    start, start_w, steps = unblock_curve(sets, names, weights)
    assert (start, start_w) == (1, 1.0)
    # A and C both cost one API per unit of weight (C: 3 APIs / 3); the heavier, C, goes
    # first, its APIs by the weight they block (y: B and C), then w before z by name. Then
    # A and B need only x: one step completes both.
    assert [(s.api, s.covered, s.completed) for s in steps] == [
        ("y", 1, ()), ("w", 1, ()), ("z", 2, ("C",)), ("x", 4, ("A", "B"))
    ]  # fmt: skip
