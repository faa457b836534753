"""Code the training never reaches inside a ported file (issue 20 point 4, yolov7's
``APLoss`` beside the ``ComputeLossOTA`` its training builds), and one backbone item for an
architecture built twice, once with its weights (Person_reID's swinv2), on
fixtures/unbuiltcode."""

from __future__ import annotations

import pytest
from scan_helpers import REPO_ROOT, review_fixture

from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.review.build import build_review
from apiscan.review.config_files import config_names, config_words
from apiscan.review.model import BACKBONE_ARCHITECTURE, work_label
from apiscan.review.work import uncalled_functions

FIXTURE = "fixtures/unbuiltcode"


@pytest.fixture(scope="module")
def review():
    return review_fixture(FIXTURE)


def test_a_class_and_a_function_nothing_reaches_are_not_priced(review) -> None:
    effort = review.effort
    # VALID: the ranking loss's nonzero is no rewrite; only the loss the training builds is
    assert effort.dynamic_shape_rewrites == 1
    assert any("losses.py:ComputeLoss.__call__." in s for s in effort.explanation)
    assert not any("RankingLoss.forward" in s for s in effort.explanation)
    apart = [s for s in effort.explanation if s.startswith("Not reached:")]
    assert apart == [
        "Not reached: 2 classes or functions of ported files that nothing builds, calls or "
        "names (no config string, registry or base class either) or that only such code "
        "uses, counted apart and not priced, 8 API call sites: losses.py:RankingLoss, "
        "losses.py:unused_iou."
    ]
    # network sites: ComputeLoss's BCE and indexing, Net's Module base and Sequential, the
    # YAML-picked layer's sigmoid, and _ClampGrad's autograd.Function base (network code:
    # the loss applies it); none of RankingLoss's nonzero/argsort/mean
    assert effort.call_sites_to_change == 4
    assert effort.mindtorch_total == 8  # _ClampGrad's base and its clamp among them


def test_a_class_only_a_config_names_stays_priced() -> None:
    result, analyses = scan_with_facts(ScanOptions(path=str(REPO_ROOT / FIXTURE), cache_dir=None))
    uncalled = uncalled_functions(analyses, result)
    # the Python code names PickedByName nowhere: only the YAML keeps it; _ClampGrad, an
    # autograd Function the kept loss runs through ``_ClampGrad.apply``, is no dead code
    assert set(uncalled) == {
        ("losses.py", "RankingLoss"),
        ("losses.py", "unused_iou"),
        ("losses.py", "PickedByName"),
    }
    names = [name for _, name in uncalled]
    assert config_names(config_words(REPO_ROOT / FIXTURE), names) == frozenset({"PickedByName"})
    # INVALID: no config file, nothing kept; a name written only in Python is no config's
    assert config_names(config_words(None), names) == frozenset()
    assert config_names(config_words(REPO_ROOT / FIXTURE / "models"), names) == frozenset()


def test_a_review_reads_the_config_files_once(monkeypatch) -> None:
    """The names nothing calls, the classes a model YAML builds and the extensions'
    wrappers are all asked of one reading of the config files' words per review."""
    from apiscan.review import readings

    calls = []
    real = readings.config_words
    monkeypatch.setattr(readings, "config_words", lambda root: calls.append(root) or real(root))
    review = build_review(str(REPO_ROOT / FIXTURE), jobs=1)
    assert len(calls) == 1
    assert review.effort is not None


def test_one_item_per_backbone_built_with_and_without_weights(review) -> None:
    backbones = [i for i in review.work if i.kind == "pretrained-backbone"]
    by_label = {work_label(i): i for i in backbones}
    assert len(backbones) == 2
    # VALID: swin built sized without weights, then with them: one pretrained item, both places
    swin = by_label["Pretrained backbone"]
    assert swin.what == 'timm.create_model("swin_tiny_patch4_window7_224", pretrained=True)'
    assert [(w.path, w.line) for w in swin.where] == [("models/net.py", 17), ("models/net.py", 18)]
    assert swin.uses == 2
    # INVALID: resnet18, built without weights and loaded with none anywhere, stays the
    # architecture alone
    arch = by_label[BACKBONE_ARCHITECTURE]
    assert arch.what == 'timm.create_model("resnet18")'
    assert [(w.path, w.line) for w in arch.where] == [("models/net.py", 22)]
