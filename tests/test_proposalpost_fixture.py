"""fixtures/proposalpost: a proposal post-processor runs inside the training forward (built by
a factory in another file and stored on the module through a local name), so its nonzero and
the box helper it calls are network code, whatever its name says; a post-processing function
only the evaluation loop calls stays host."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import scan_repo

from apiscan.model import ScanResult
from apiscan.program import values as pv
from apiscan.program.solver import shows_calls

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "proposalpost"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def _scopes(result: ScanResult) -> dict[tuple[str, str], set[str]]:
    out: dict[tuple[str, str], set[str]] = {}
    for f in result.shape_findings:
        out.setdefault((f.path, f.function), set()).add(f.scope)
    return out


def test_post_processing_a_forward_calls_is_network(result: ScanResult) -> None:
    """VALID: the proposal selector the RPN's forward calls, and the helper it calls."""
    got = _scopes(result)
    assert got["det/modeling/proposals.py", "ProposalPostProcessor.forward"] == {"network"}
    assert got["det/structures/ops.py", "remove_small_boxes"] == {"network"}


def test_post_processing_only_evaluation_calls_is_host(result: ScanResult) -> None:
    """INVALID: named like post-processing and called only by the evaluation loop."""
    got = _scopes(result)
    assert got["det/modeling/evaluation.py", "postprocess_detections"] == {"host"}
    rules = sorted(f.rule for f in result.shape_findings if f.path == "det/modeling/evaluation.py")
    assert rules == ["DS103", "DS111"]


def test_a_repository_instance_newly_known_asks_for_a_walk() -> None:
    selector = pv.Instance("det.modeling.proposals.ProposalPostProcessor")
    key = "a:det.modeling.rpn.RPN:selector_train"
    # VALID: the attribute is newly known to hold one of the repository's classes
    assert shows_calls((), ((key, selector),))
    assert shows_calls(((key, pv.UNKNOWN),), ((key, selector),))
    # INVALID: known before, a torch class (its calls are no edges), nothing new
    assert not shows_calls(((key, selector),), ((key, selector),))
    assert not shows_calls((), ((key, pv.Instance("torch.nn.Conv2d")),))
    assert not shows_calls((), ())
