"""Hub loads that never run are no work: a branch a parameter's default decides (no call
passes it) and a class that nothing outside its own body names: fixtures/hubflags."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/hubflags")


def _backbones(review: Review) -> list[tuple[str, str, int]]:
    return [
        (i.what, i.where[0].path, i.where[0].line)
        for i in review.work
        if i.kind == "pretrained-backbone"
    ]


def test_only_the_hub_loads_that_run_are_work(review) -> None:
    # VALID: ``if extra:`` with a caller passing ``extra=True``
    assert _backbones(review) == [
        ('torch.hub.load("acme/extra", "extra_small")', "depthnet/model.py", 17),
    ]
    assert "1 pretrained-backbone × 1.5–3" in review.effort.formula


def test_the_branch_a_flags_default_leaves_out_is_only_noted(review) -> None:
    # INVALID: the remote load in the ``else`` of ``if localhub:``, localhub=True by default
    # and passed by no call; the local vendored copy is ported with the network
    (item,) = [i for i in review.work if i.kind == "pretrained-backbone"]
    assert item.why.endswith(
        "; alternatives beside it (not counted, optional (a branch the defaults do not take): "
        "torch.hub.load (only if not localhub, off by default))"
    )
    assert not any("acme/vit" in i.what for i in review.work)


def test_a_class_named_only_in_its_own_body_is_dead(review) -> None:
    # INVALID: HubCore's static factory builds it and loads MiDaS; the training imports it
    # beside LocalCore but builds only LocalCore
    assert not any("MiDaS" in i.what for i in review.work)
    assert not any("intel-isl" in why for why in (i.why for i in review.work))
