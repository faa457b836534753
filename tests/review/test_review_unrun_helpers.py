"""What the configured run never reaches is told once, by definition, and every priced
section obeys it (fixtures/unrunhelpers): the helpers only an unbuilt loss uses are not
reached either (no dynamic-shape rewrite for them), and a work item's places in code that
is not reached, or that only a file counted apart uses, are no work."""

from __future__ import annotations

from scan_helpers import REPO_ROOT

from apiscan.pipeline import ScanOptions
from apiscan.review.build import review
from apiscan.review.model import Where, WorkItem
from apiscan.review.work import reached_work

FIXTURE = REPO_ROOT / "fixtures" / "unrunhelpers"


def _review():  # type: ignore[no-untyped-def]
    return review(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))


def test_helpers_only_unreached_code_uses_are_not_reached_nor_priced() -> None:
    rv = _review()
    [unreached] = [s for s in rv.effort.explanation if s.startswith("Not reached")]
    # VALID: the unbuilt loss, the loss only it builds, the helper only that one calls
    assert "3 classes or functions" in unreached
    for name in ("seg/losses.py:AltLoss", "seg/losses.py:PartLoss", "seg/helpers.py:flat_valid"):
        assert name in unreached
    # INVALID: the helper the loss the training builds calls is reached
    assert "class_weight" not in unreached and "MainLoss" not in unreached
    # the unreached helper's data-dependent count is not priced; the reached one's is
    assert rv.effort.dynamic_shape_rewrites == 1
    [shapes] = [s for s in rv.effort.explanation if "dynamic-shape rewrite" in s[:40]]
    assert "seg/helpers.py:class_weight" in shapes and "flat_valid" not in shapes
    # the findings themselves are still listed (what the scan saw), only not priced
    assert any(w == Where("seg/helpers.py", 9) for w, *_ in rv.dynamic_shape)


def test_work_items_obey_the_same_reach() -> None:
    rv = _review()
    by_kind: dict[str, list[WorkItem]] = {}
    for item in rv.work:
        by_kind.setdefault(item.kind, []).append(item)
    # VALID: the unsupported parameter of the unbuilt loss is dropped, the built loss's kept
    [param] = by_kind["unsupported-param"]
    assert [(w.path, w.line) for w in param.where] == [("seg/losses.py", 11)]
    assert param.uses == 1
    # VALID: the backbone only the evaluation tool's network builds is no work;
    # INVALID: the training network's backbone is
    assert [i.what for i in by_kind["pretrained-backbone"]] == [
        "torchvision.models.resnet50(pretrained=True)"
    ]
    assert "1 pretrained-backbone" in rv.effort.formula
    assert "2 pretrained-backbone" not in rv.effort.formula


def test_reached_work_drops_places_and_empty_items() -> None:
    items = (
        WorkItem("checkpoint", "torch.load", (Where("a.py", 3), Where("b.py", 9)), "why", 2),
        WorkItem("op-library", "lib (ops: x, y, z)", (Where("a.py", 5), Where("b.py", 2)), "w", 3),
        WorkItem("unsupported-param", "p", (Where("b.py", 4),), "why"),
    )

    def runs(path: str, line: int) -> bool:
        return not (path == "b.py" and line < 10)

    kept = reached_work(items, runs)
    # VALID: places in code not reached go; an item with none left goes
    assert [i.kind for i in kept] == ["checkpoint", "op-library"]
    assert kept[0].where == (Where("a.py", 3),) and kept[0].uses == 1
    # INVALID: an item counting something else (a library's op kinds, each at its first
    # use) is left whole while one of its places runs
    assert kept[1] == items[1]
    assert reached_work(items[1:2], lambda p, line: False) == ()
    # everything reached: the items unchanged
    assert reached_work(items, lambda p, line: True) == items


def test_a_class_a_config_builds_keeps_what_it_uses_reached() -> None:
    rv = _review()
    [apart] = [s for s in rv.effort.explanation if s.startswith("Used only by files")]
    [unreached] = [s for s in rv.effort.explanation if s.startswith("Not reached")]
    # VALID: the feature network only the evaluation tool builds goes with the tool
    assert "seg/nets.py:FeatureNet (tools/eval_features.py)" in apart
    assert "1 class or function" in apart
    # INVALID: the head a config file names (and the tool builds too) may be built by the
    # training: neither it nor the block only it builds is counted apart or unreached
    for name in ("ConfigHead", "HeadBlock"):
        assert name not in apart and name not in unreached
