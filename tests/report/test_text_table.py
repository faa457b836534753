"""The text report's tables read exactly as tabulate's ``simple`` format, without importing it."""

from __future__ import annotations

import random
import string

import pytest
from tabulate import tabulate

from apiscan.report.text import _table

_CHARS = string.ascii_letters + string.digits + " ._-/:()%,"


def _reference(rows: list[list[object]], headers: list[str], align: list[str]) -> str:
    return str(
        tabulate(
            [[str(c) for c in r] for r in rows],
            headers=headers,
            tablefmt="simple",
            colalign=align,
            disable_numparse=True,
        )
    )


@pytest.mark.parametrize("seed", range(30))
def test_random_tables_match_tabulate(seed: int) -> None:
    rng = random.Random(seed)
    columns = rng.randint(1, 6)
    headers = [
        "".join(rng.choices(_CHARS, k=rng.randint(1, 12))).strip() or "h" for _ in range(columns)
    ]
    align = [rng.choice(["left", "right"]) for _ in range(columns)]
    rows: list[list[object]] = [
        [
            rng.randint(0, 10**6)
            if rng.random() < 0.3
            else "".join(rng.choices(_CHARS, k=rng.randint(0, 30)))
            for _ in range(columns)
        ]
        for _ in range(rng.randint(0, 8))
    ]
    assert _table(rows, headers, align) == _reference(rows, headers, align)


def test_edge_cases_match_tabulate() -> None:
    cases: list[tuple[list[list[object]], list[str], list[str]]] = [
        ([], ["name", "count"], ["left", "right"]),  # headers of an empty table go left
        ([[" padded ", ""], ["", ""]], ["a", "b"], ["left", "right"]),  # stripped, blank lines
        ([["日本語", "1"], ["x", "22"]], ["file", "n"], ["left", "right"]),  # wide: tabulate
        ([["tab\there", "1"]], ["a", "b"], ["left", "right"]),
    ]
    for rows, headers, align in cases:
        assert _table(rows, headers, align) == _reference(rows, headers, align)
