"""Code the ported path takes from a git submodule that is not checked out (issue 20), on
fixtures/submodcode: a data pipeline's mel features and a network's block from two
submodules whose folders are absent. Beside them what is no such item: a submodule whose
class is a known compiled op (a compiled-op item names it), and a submodule that is checked
out (its code is scanned like the rest)."""

from __future__ import annotations

import pytest
from scan_helpers import review_fixture


@pytest.fixture(scope="module")
def review():
    return review_fixture("fixtures/submodcode")


def _items(review) -> list[tuple[str, str, list[str]]]:
    return [
        (i.kind, i.what, [f"{w.path}:{w.line}" for w in i.where])
        for i in review.work
        if "submodule" in i.what or "DCN" in i.what
    ]


def test_a_submodule_not_checked_out_is_ported_with_the_repository(review) -> None:
    # VALID: melkit's MelSTFT built by a Dataset (the data pipeline), blockkit's GatedBlock
    # built by the network; INVALID: DCNv2's DCN (a compiled op: its own item) and
    # vendored_ok (checked out: scanned, no item)
    items = _items(review)
    assert [i for i in items if i[0] != "compiled-op"] == [
        (
            "third-party-layer",
            "git submodule third/blockkit (third.blockkit.blocks.GatedBlock)",
            ["model.py:13"],
        ),
        ("third-party-data", "git submodule melkit (melkit.layers.MelSTFT)", ["data.py:9"]),
    ]
    assert [i[1] for i in items if i[0] == "compiled-op"] == ["DCNv2.dcn_v2.DCN"]
    assert not any("vendored_ok" in i.what for i in review.work)
    (data,) = [i for i in review.work if i.what.startswith("git submodule melkit")]
    assert "https://example.invalid/melkit" in data.why
    assert "not checked out" in data.why
