"""Shape-polymorphic helpers are priced with their callers (fixtures/polyhelper): a pairwise
IoU whose every finding is one sample's shape handed in by a matcher is no rewrite of its own
once the matcher's caller pads; a helper with a data-dependent op of its own, or whose caller
is no rewrite, is still counted. The scan's findings stay as they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import REPO_ROOT, assert_exactly_marked, review_fixture, scan_repo

from apiscan.model import ScanResult, ShapeFinding, Span
from apiscan.review.effort import _priced_with_callers, inherited_shape
from apiscan.review.model import Review

FIXTURE = REPO_ROOT / "fixtures" / "polyhelper"


@pytest.fixture(scope="module")
def review() -> Review:
    return review_fixture("fixtures/polyhelper")


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(Path(FIXTURE))


def test_the_scan_keeps_the_helpers_findings(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=10)


def test_helpers_of_a_rewritten_caller_are_priced_with_it(review: Review) -> None:
    effort = review.effort
    # MatchLoss.forward (its own nonzero), kept_boxes (its own nonzero), pair_area (its
    # caller PairLoss.forward is no rewrite): three; intersect and jaccard go with the
    # matcher's caller, through ``match`` that only passes one image's boxes on
    assert effort.dynamic_shape_rewrites == 3
    text = " ".join(effort.explanation)
    assert "ph/box.py:kept_boxes, ph/box.py:pair_area, ph/loss.py:MatchLoss.forward;" in text
    assert (
        "2 shape-polymorphic helpers priced with the callers that hand them their varying "
        "shapes (once the caller pads, they need no rewrite): ph/box.py:intersect, "
        "ph/box.py:jaccard." in text
    )
    assert "3 dynamic-shape as" in effort.formula


def _finding(function: str, rule: str, message: str, inherited: bool = False) -> ShapeFinding:
    return ShapeFinding(
        "m.py", Span(1, 1, 1, 2), rule, "x", message, "high", "network", function,
        inherited=inherited,
    )  # fmt: skip


def test_only_inherited_findings_make_a_helper() -> None:
    own = _finding("helper", "DS103", "torch.nonzero: output length depends on data")
    sample = _finding("helper", "DS120", "... : its shape is that sample's own (in ...)", True)
    size = _finding("other", "DS113", "a size is the size of one sample of a batch", True)
    caller = _finding("caller", "DS104", "boolean mask indexing")
    assert inherited_shape(sample) and inherited_shape(size) and not inherited_shape(own)
    # the finding's field decides, not its words: a message quoting the words of a length
    # (a rule's own text, a variable's name) is no inherited shape
    quoted = _finding("helper", "DS103", "x: a length of a data-dependent shape, in words")
    assert not inherited_shape(quoted)
    callers = {("m.py", "helper"): frozenset({("m.py", "caller")})}
    callers[("m.py", "other")] = frozenset({("m.py", "helper")})
    assert _priced_with_callers([sample, size, caller], callers) == [
        ("m.py", "helper"),
        ("m.py", "other"),
    ]
    # an op of its own keeps ``helper`` a rewrite, and ``other`` goes with it
    assert _priced_with_callers([sample, own, size, caller], callers) == [("m.py", "other")]
    # no rewritten caller above: counted
    assert _priced_with_callers([sample, size], callers) == []


TRACKER = {
    "pkg/__init__.py": "",
    "pkg/model.py": """
        import torch
        from torch import nn


        class Base(nn.Module):
            def support(self, coords):
                b, n, _ = coords.shape
                return coords.reshape(b * n, 2)


        class Tracker(Base):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(2, 8)

            def forward(self, queries):
                b, n, _ = queries.shape
                feats = self.proj(self.support(queries))
                return feats.view(b, n, 8)
    """,
    "pkg/predictor.py": """
        import torch
        from torch import nn

        from pkg.model import Tracker


        class Predictor(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = Tracker()

            def forward(self, grid, mask):
                points = grid[:, mask]
                return self.model(points)
    """,
}


def test_functions_that_only_carry_a_length_go_with_the_source(tmp_path: Path) -> None:
    """A model whose only findings read the length of query points a predictor selected
    with a mask (a reshape and a view by that length, also in a method its base class
    defines) needs no rewrite of its own: the predictor's masked selection is the one
    rewrite (VALID); the predictor stays counted (INVALID for the rule)."""
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    write_repo(tmp_path, TRACKER)
    result = scan_repo(tmp_path)
    lengths = [f for f in result.shape_findings if f.path == "pkg/model.py"]
    assert lengths and all(inherited_shape(f) for f in lengths)
    effort = build_review(str(tmp_path), jobs=1).effort
    assert effort.dynamic_shape_rewrites == 1
    text = " ".join(effort.explanation)
    assert "pkg/predictor.py:Predictor.forward;" in text
    assert "pkg/model.py:Base.support" in text and "pkg/model.py:Tracker.forward" in text


def test_lengths_a_file_counted_apart_makes_vary_are_not_priced(tmp_path: Path) -> None:
    """The same model fed by a demo script's masked selection (a file counted apart): the
    varying length comes from code that is not ported, so the model's length-carrying
    functions are no rewrites either (VALID); without such a source nothing is dropped."""
    from scan_helpers import write_repo

    from apiscan.review.build import build_review

    files = {k: v for k, v in TRACKER.items() if k != "pkg/predictor.py"}
    files["demo.py"] = TRACKER["pkg/predictor.py"]
    files["train.py"] = """
        import torch

        from pkg.model import Tracker

        model = Tracker()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(3):
            loss = model(torch.randn(2, 5, 2)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """
    write_repo(tmp_path, files)
    effort = build_review(str(tmp_path), jobs=1).effort
    assert effort.dynamic_shape_rewrites == 0
    text = " ".join(effort.explanation)
    assert "pkg/model.py:Base.support" in text and "pkg/model.py:Tracker.forward" in text


def test_the_rule_that_reads_a_length_marks_its_finding(tmp_path: Path) -> None:
    """The scan records on the finding that it only reads a length of a data-dependent
    shape (VALID: the model's reshape by the number of selected points) and not on the
    finding that makes the shape (INVALID: the predictor's mask selection)."""
    from scan_helpers import write_repo

    write_repo(tmp_path, TRACKER)
    marks = {(f.path, f.rule): f.inherited for f in scan_repo(tmp_path).shape_findings}
    assert marks[("pkg/model.py", "DS113")] is True, marks
    assert marks[("pkg/predictor.py", "DS104")] is False, marks
