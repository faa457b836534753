"""Ops of an extension built through the repository's own build helper (fixtures/pluginops):
``_plugin = custom_ops.get_plugin(...)`` (a function returning ``cpp_extension.load``'s
module, one helper deep) bound at import or in an ``_init()``; its attribute calls are ops."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture

from apiscan.review.model import Review


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/pluginops")


def _compiled(review: Review) -> dict[str, tuple[str, list[str], str]]:
    return {
        i.what: (i.kind, [str(w) for w in i.where], i.why)
        for i in review.work
        if i.kind.startswith("compiled")
    }


def test_an_op_with_a_torch_reference_twin_is_priced_as_that_composition(review: Review) -> None:
    # ``_plugin.scale_act_clamp_``, a stage of the op's kernel path the twin computes whole,
    # is folded into the op
    key = "plug.ops.scale_act.scale_act (_plugin.scale_act, _plugin.scale_act_clamp_)"
    kind, where, why = _compiled(review)[key]
    assert kind == "compiled-op"
    assert where == ["plug/ops/scale_act.py:16", "plug/ops/scale_act.py:17"]
    assert "_scale_act_ref (plug/ops/scale_act.py:22)" in why


def test_an_op_bound_at_import_with_no_twin_is_a_custom_op(review: Review) -> None:
    kind, where, _ = _compiled(review)["plug.ops.warp.warp_grid (_plugin.warp_grid)"]
    assert kind == "compiled-custom-op"
    assert where == ["plug/ops/warp.py:7"]
    # with no twin, a binding named after another op stays an op of its own
    kind, where, _ = _compiled(review)["plug.ops.warp.warp_grid_inv (_plugin.warp_grid_inv)"]
    assert (kind, where) == ("compiled-custom-op", ["plug/ops/warp.py:11"])


def test_a_helper_that_loads_nothing_binds_no_extension(review: Review) -> None:
    # ``_table = custom_ops.get_table(...)`` then ``_table.get(x)``: a dict, no op
    assert sorted(_compiled(review)) == [
        "plug.ops.scale_act.scale_act (_plugin.scale_act, _plugin.scale_act_clamp_)",
        "plug.ops.warp.warp_grid (_plugin.warp_grid)",
        "plug.ops.warp.warp_grid_inv (_plugin.warp_grid_inv)",
    ]
