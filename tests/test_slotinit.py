"""The slotted records' fast copies and pickles behave as the dataclass machinery does."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from apiscan.model import ApiFinding, CallArgs, ErrorFinding, ScanResult, ShapeFinding, Span
from apiscan.slotinit import replace

FINDING = ApiFinding(
    "a.py",
    Span(1, 2, 1, 9),
    "torch.nonzero",
    "different",
    "mindspore.ops.nonzero",
    "certain",
    "note",
    "call",
    "torch",
    args=CallArgs(receiver="", positional=("x",)),
)


@pytest.mark.parametrize(
    "changes",
    [{}, {"scope": "network"}, {"disposition": "rewrite", "rewrite": "y", "mindtorch": True}],
)
def test_replace_is_dataclasses_replace(changes: dict[str, object]) -> None:
    fast = replace(FINDING, **changes)
    slow = dataclasses.replace(FINDING, **changes)
    assert fast == slow and type(fast) is ApiFinding
    assert fast is not FINDING
    assert FINDING.scope == "host"  # the original is untouched


def test_replace_refuses_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="no field"):
        replace(FINDING, not_a_field=1)


def test_replace_of_a_class_without_slots_is_the_generic_one() -> None:
    result = ScanResult("r", "1", None, (), (FINDING,))  # type: ignore[arg-type]
    assert replace(result, root="s") == dataclasses.replace(result, root="s")


@pytest.mark.parametrize(
    "obj",
    [
        FINDING,
        ErrorFinding("b.py", Span(3, 1, 3, 2), "E001", "cannot read file"),
        ShapeFinding("c.py", Span(4, 1, 4, 5), "DS101", "nonzero", "m", "high", "network"),
    ],
)
def test_findings_round_trip_through_pickle(obj: object) -> None:
    again = pickle.loads(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL))
    assert again == obj and type(again) is type(obj)
