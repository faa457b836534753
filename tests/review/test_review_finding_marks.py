"""The facts the review reads off a dynamic-shape finding are fields the rule sets, not words
of its message: which case of its rule a finding is (a DS119 input pipeline of multi-scale
resizing or of batches padded to their largest sample, a host array back as an index, a
list repeated by a number read from data) and whether its shape is inherited."""

from __future__ import annotations

from scan_helpers import REPO_ROOT

from apiscan.extract.shapes import BATCH_PADDING, HOST_INDEX, RANDOM_RESIZE, SIZED_LIST
from apiscan.pipeline import ScanOptions, scan_with_facts


def _findings(fixture: str) -> dict[tuple[str, int, str], str]:
    result, _ = scan_with_facts(ScanOptions(str(REPO_ROOT / fixture), cache_dir=None, jobs=1))
    return {(f.path, f.span.line, f.rule): f.case for f in result.shape_findings}


def test_the_rule_names_the_input_pipeline_of_its_finding() -> None:
    """A resize to a randomly drawn size and a batch padded to its largest sample are
    marked as such (VALID); the other findings, DS119's included, carry no mark
    (INVALID)."""
    marks = _findings("fixtures/setpred")
    assert marks[("datasets/transforms.py", 29, "DS119")] == RANDOM_RESIZE
    assert marks[("util/batching.py", 32, "DS119")] == BATCH_PADDING
    assert marks[("util/batching.py", 33, "DS119")] == BATCH_PADDING
    unmarked = [key for key, mark in marks.items() if not mark]
    assert unmarked and all(mark in ("", RANDOM_RESIZE, BATCH_PADDING) for mark in marks.values())
    assert not any(mark for (_, _, rule), mark in marks.items() if rule != "DS119")


def test_the_rule_names_a_host_index_and_a_list_sized_by_data() -> None:
    """A host array that comes back as a tensor's index is marked (VALID: scipy's rows
    gathering the features), as is a round trip whose host call is only a list repeated a
    number of times read from data (VALID: a size, no data, left the device); a tensor's
    own data-dependent index is not (INVALID)."""
    marks = _findings("fixtures/sparsetrain")
    assert marks[("pointnet/loss.py", 14, "DS111")] == HOST_INDEX
    assert marks[("pointnet/loss.py", 30, "DS111")] == HOST_INDEX
    assert marks[("pointnet/loss.py", 23, "DS104")] == ""
    assert _findings("fixtures/ownbackbone")[("ownnet/head.py", 27, "DS121")] == SIZED_LIST
