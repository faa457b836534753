"""A precision cast repeated over the layers a helper converts (``.half()`` of each weight
and bias): one row with its places, as repeated compositions and losses are."""

from __future__ import annotations

from apiscan.review.build import _grouped_rows
from apiscan.review.model import RecipeItem, Where


def test_identical_cast_rows_are_one_row_with_their_places() -> None:
    note = "casts to float16 (not autocast)"
    casts = [
        RecipeItem("amp", "torch.Tensor.half", Where("pkg/model.py", line), note=note)
        for line in (380, 382, 388)
    ]
    # the same cast in another file (the training script's inputs) is its own row
    inputs = RecipeItem("amp", "torch.Tensor.half", Where("train.py", 40), note=note)
    rows = (*casts, RecipeItem("amp", "torch.autocast", Where("train.py", 9)), inputs)
    grouped = _grouped_rows(rows)
    assert [(r.name, r.where.path) for r in grouped] == [
        ("torch.Tensor.half", "pkg/model.py"),
        ("torch.autocast", "train.py"),
        ("torch.Tensor.half", "train.py"),
    ]
    half = grouped[0]
    assert str(half.where) == "pkg/model.py:380"
    assert half.note == f"3 places; {note}; also at pkg/model.py:382, pkg/model.py:388"
