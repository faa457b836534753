"""The facts the review reads off a dynamic-shape finding are fields the rule sets, not words
of its message: which input pipeline a DS119 finding is (multi-scale resizing, batches
padded to their largest sample) and whether its shape is inherited from one sample."""

from __future__ import annotations

from scan_helpers import REPO_ROOT

from apiscan.extract.shapes import BATCH_PADDING, RANDOM_RESIZE
from apiscan.pipeline import ScanOptions, scan_with_facts


def _findings(fixture: str) -> dict[tuple[str, int, str], str]:
    result, _ = scan_with_facts(ScanOptions(str(REPO_ROOT / fixture), cache_dir=None, jobs=1))
    return {(f.path, f.span.line, f.rule): f.pipeline for f in result.shape_findings}


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
