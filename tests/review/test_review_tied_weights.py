"""Parameters shared between layers by assigning one layer's to another
(fixtures/tiedlayers): an embedding tied to the output projection and a helper tying two
modules' layers through a nested walk are one work item, with the call of the helper in the
model's ``__init__``; Parameters moved into a layer the same function builds, values copied
and a tie nothing calls are none."""

from __future__ import annotations

from scan_helpers import review_fixture

from apiscan.review.effort import RATES
from apiscan.review.model import WORK_KINDS, Where


def test_tied_parameters_are_one_item() -> None:
    """VALID: ``self.lm_head.weight = self.embed.weight`` (model.py:12) and
    ``enc.weight = dec.weight`` in ``tie_weights``'s nested ``_tie`` (utils.py:9), called by
    ``Dual.__init__`` (model.py:23); INVALID: ``new.weight = module.weight`` into the
    ``GroupNorm`` built in ``to_group_norm``, ``a.weight.data = b.weight.data`` and
    ``a.bias = b.bias.clone()`` in ``copy_weights``, and ``unused_tie``, which nothing
    calls."""
    review = review_fixture("fixtures/tiedlayers")
    items = [i for i in review.work if i.kind == "tied-weights"]
    assert [(i.what, i.where, i.uses) for i in items] == [
        (
            "Parameters shared between layers (2 assignments)",
            (Where("model.py", 12), Where("model.py", 23), Where("utils.py", 9)),
            2,
        )
    ]
    assert "same Parameter object" in items[0].why
    assert "tied-weights" in WORK_KINDS and "tied-weights" in RATES
    assert "tied-weights" in review.effort.formula
