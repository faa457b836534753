"""fixtures/heldout_like: branches and loops on data, sizes read from tensor values, batch-max
padding through a helper, masks from any construction, matcher output collected by append and
injected through a constructor — exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "heldout_like"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=90)


def _message(result: ScanResult, path: str, text: str, rule: str) -> str:
    return message_on_line(result, FIXTURE, path, rule, text)


def test_loops_say_why(result: ScanResult) -> None:
    # a loop over the survivors of NMS runs once per element of a data-dependent shape (the
    # one inside the method: the module-level loop below it is indented less)
    words = _message(result, "hl/automask.py", "        for i in keep:", "DS116")
    assert "once per element of a data-dependent shape" in words
    # a range of a count read from data: the sync is reported as a loop's trip count
    words = _message(result, "hl/layers.py", "range(int(count))", "DS116")
    assert "trip count" in words
    words = _message(result, "hl/layers.py", "range(int(count))", "DS118")
    assert "loop's trip count" in words


def test_batch_padding_names_the_maximum(result: ScanResult) -> None:
    for text in ("dtype=images[0].dtype", "mask = torch.ones((len(images)"):
        assert "largest sample" in _message(result, "hl/batching.py", text, "DS119")


def test_index_tensor_through_a_container(result: ScanResult) -> None:
    # `v[torch.as_tensor(keep)]` inside the container's filter: callers pass NMS indices
    words = _message(result, "hl/automask.py", "v[torch.as_tensor(keep", "DS111")
    assert "keep" in words
