"""Which mixup and which loss run with the defaults (``fixtures/mixgates``): a local set to
None and then to an object under a test (ConvNeXt's ``mixup_fn = Mixup(...)`` under ``if
mixup_active:``) is not None where that test holds, so of ``if mixup_fn is not None: ...
elif args.smoothing > 0.: ... else: ...`` only the first loss is built; a setting no parser
declares that the script derives once from one that it does (T2T-ViT's and timm's
``args.prefetcher = not args.no_prefetcher``) is told, so of ``FastCollateMixup`` in the
body and ``Mixup`` in the ``else`` of ``if args.prefetcher:`` only the first is built; and
where such a test cannot be told each row says it is built only under it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.model import RecipeItem
from apiscan.review.recipe import extract_recipe

MIXGATES = Path(__file__).resolve().parents[2] / "fixtures" / "mixgates"


def _recipe(path: Path) -> dict[str, RecipeItem]:
    result, analyses = scan_with_facts(ScanOptions(str(path), cache_dir=None, jobs=1))
    items = extract_recipe(result, analyses, path)
    return {f"{i.name} @ {i.where}": i for i in items if i.category in ("loss", "augmentation")}


def _edited(tmp_path: Path, *edits: tuple[str, str]) -> dict[str, RecipeItem]:
    copy = tmp_path / "mixgates"
    shutil.copytree(MIXGATES, copy)
    train = copy / "train.py"
    text = train.read_text("utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    train.write_text(text, "utf-8")
    return _recipe(copy)


@pytest.fixture(scope="module")
def rows() -> dict[str, RecipeItem]:
    return _recipe(MIXGATES)


def test_the_loss_a_built_mixup_picks(rows) -> None:
    soft = rows["timm.loss.SoftTargetCrossEntropy @ train.py:37"]
    assert soft.note == (
        "third-party loss; the branch taken with the defaults: if mixup_fn is not None"
    )
    assert not [k for k in rows if "LabelSmoothingCrossEntropy" in k or "CrossEntropyLoss" in k]


def test_without_mixup_the_smoothing_branch_is_taken(tmp_path: Path) -> None:
    """INVALID for the default: ``--mixup 0 --cutmix 0`` leave ``mixup_fn`` at None."""
    rows = _edited(tmp_path, ("default=0.8)", "default=0.)"), ("default=1.0)", "default=0.)"))
    smoothing = rows["timm.loss.LabelSmoothingCrossEntropy @ train.py:39"]
    assert smoothing.note.endswith("the branch taken with the defaults: if args.smoothing > 0.")
    assert not [k for k in rows if "SoftTargetCrossEntropy" in k]
    assert not [k for k in rows if "Mixup" in k]  # every mixup is under --mixup > 0


def test_a_derived_flag_picks_the_collate_mixup(rows) -> None:
    collate = rows["timm.data.FastCollateMixup @ train.py:21"]
    assert "the branch taken with the defaults: if args.prefetcher" in collate.note
    assert "timm.data.Mixup @ train.py:23" not in rows
    assert "timm.data.Mixup @ train.py:35" in rows  # the loss's mixup, under mixup_active


def test_an_untold_flag_makes_both_rows_conditional(tmp_path: Path) -> None:
    """INVALID: with the flag no longer derived, ``args.prefetcher`` cannot be told: both
    alternatives stay, each saying under which side of the test it is built; the ``if
    args.mixup > 0`` around them holds with the defaults (0.8), so it is no hedge."""
    rows = _edited(tmp_path, ("    args.prefetcher = not args.no_prefetcher\n", ""))
    collate = rows["timm.data.FastCollateMixup @ train.py:21"]
    mixup = rows["timm.data.Mixup @ train.py:23"]
    assert collate.note.endswith(
        "one of 2 alternatives shown, built if args.prefetcher "
        "(the value that picks it is not known here)"
    )
    assert mixup.note.endswith(
        "one of 2 alternatives shown, built else of if args.prefetcher "
        "(the value that picks it is not known here)"
    )


def test_a_lone_row_under_an_untold_flag_is_conditional(tmp_path: Path) -> None:
    """INVALID: the same flag over the collate mixup alone (no ``else``)."""
    rows = _edited(
        tmp_path,
        ("    args.prefetcher = not args.no_prefetcher\n", ""),
        (
            "        else:\n            mixup_fn = Mixup(",
            "        if 0:\n            mixup_fn = Mixup(",
        ),
    )
    collate = rows["timm.data.FastCollateMixup @ train.py:21"]
    assert collate.note == (
        "third-party; built only if args.prefetcher (the value that decides it is not known here)"
    )
