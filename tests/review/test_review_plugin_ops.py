"""Ops of an extension built through the repository's own build helper (fixtures/pluginops):
``_plugin = custom_ops.get_plugin(...)`` (a function returning ``cpp_extension.load``'s
module, one helper deep) bound at import or in an ``_init()``; its attribute calls are ops."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import review_fixture, write_repo

from apiscan.review.build import build_review
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


def test_an_op_priced_as_its_twin_covers_its_build_and_wrapper(tmp_path: Path) -> None:
    # the helper's ``cpp_extension.load`` and the op's ``autograd.Function`` are the op's
    # job, priced once by its item, not two more gaps
    fixture = Path(__file__).parents[2] / "fixtures/pluginops/plug"
    files = {f"plug/{n}": (fixture / n).read_text() for n in ("custom_ops.py", "__init__.py")}
    files["plug/ops/__init__.py"] = ""
    files["plug/ops/scale_act.py"] = (fixture / "ops/scale_act.py").read_text() + (
        "\n\nclass ScaleAct(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x, b):\n"
        "        return _plugin.scale_act(x, b)\n"
    )
    review = build_review(str(write_repo(tmp_path / "plug", files)), jobs=1)
    assert [i.kind for i in review.work if i.kind.startswith("compiled")] == ["compiled-op"]
    assert " gap" not in review.effort.formula
