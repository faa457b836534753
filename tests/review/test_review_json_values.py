"""A recipe row's settings in the JSON review keep a setting the row holds twice (issue 20
item 1): two parameter groups' ``lr``, a weight set by ``normal_`` then ``fill_``. A JSON
object cannot hold a key twice, so the later ones are numbered instead of replacing the
first."""

from __future__ import annotations

from apiscan.review.json import _distinct_keys


def test_repeated_settings_stay_distinct() -> None:
    pairs = (("lr", "0.1"), ("momentum", "0.9"), ("lr", "0.01"), ("lr", "0.001"))
    # VALID: every value kept, in order, the first under its own name
    assert _distinct_keys(pairs) == {
        "lr": "0.1",
        "momentum": "0.9",
        "lr (2)": "0.01",
        "lr (3)": "0.001",
    }
    # INVALID to rename: settings named once keep their names
    assert _distinct_keys((("lr", "0.1"), ("betas", "(0.9, 0.999)"))) == {
        "lr": "0.1",
        "betas": "(0.9, 0.999)",
    }
