"""fixtures/judgefacts: facts that judges found lost on repositories new to the team — dicts
merged with ``**``/``dict()``/``update`` keep their values' facts, a tensor joined with its
own previous value grows (DS122), ``loss = 0`` then ``loss += tensor`` is a tensor, and a
subscripted generic base is recorded as its origin."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line

from apiscan.extract.records import FileAnalysis
from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan_with_facts

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "judgefacts"


@pytest.fixture(scope="module")
def scanned() -> tuple[ScanResult, list[FileAnalysis]]:
    return scan_with_facts(ScanOptions(str(FIXTURE), cache_dir=None, jobs=1))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def result(scanned: tuple[ScanResult, list[FileAnalysis]]) -> ScanResult:
    return scanned[0]


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    # the merged readers are found, their static twin (keypoints of a fixed grid merged
    # over the detector's) and the dense block, the preallocated cache, a slot per step
    # and a name bound afresh in each iteration stay quiet
    assert_exactly_marked(result, FIXTURE, at_least=15)


def test_merged_dicts_name_the_keypoints(result: ScanResult) -> None:
    words = message_on_line(
        result, FIXTURE, "jf/matcher.py", "DS116", "if kpts0.shape[1] == 0 or kpts1"
    )
    assert "a length of a data-dependent shape" in words
    sizes = message_on_line(result, FIXTURE, "jf/matcher.py", "DS113", "expand(b, m, 1)")
    assert '`data["keypoints0"]` is a tensor whose shape depends on data' in sizes
    assert "Matching.forward" in sizes


def test_growing_concats(result: ScanResult) -> None:
    cache = message_on_line(result, FIXTURE, "jf/decoder.py", "DS122", "[k_top, k]")
    assert "`cache[cache_key]` keeps the previous calls' tensor" in cache
    bank = message_on_line(result, FIXTURE, "jf/decoder.py", "DS122", "[self.bank, x")
    assert "`self.bank`" in bank
    loop = message_on_line(result, FIXTURE, "jf/decoder.py", "DS122", "(tokens, sample")
    assert "`tokens` grows by a concatenation on every step of the loop" in loop
    scopes = {f.span.line: f.scope for f in result.shape_findings if f.rule == "DS122"}
    assert scopes == {17: "network", 18: "network", 27: "network", 41: "network", 91: "host"}


def test_loss_summed_from_zero_is_a_tensor(result: ScanResult) -> None:
    found = {(f.span.line, f.api) for f in result.findings if f.path == "train.py"}
    # ``loss = 0`` then ``loss += v["loss"]`` (a dict's tensors) or ``+= criterion(...)``
    # (an unknown callable): the loss is read and backpropagated as a tensor
    assert {(21, "torch.Tensor.item"), (22, "torch.Tensor.backward")} <= found
    assert {(31, "torch.Tensor.item"), (32, "torch.Tensor.backward")} <= found
    # a count summed from ``len`` stays a number
    assert not any(line == 40 for line, _ in found)


def test_subscripted_generic_base_is_its_origin(
    scanned: tuple[ScanResult, list[FileAnalysis]],
) -> None:
    bases = {c.qualname: c.bases for a in scanned[1] for c in a.classes}
    assert bases["StepBatchSampler"] == ("torch.utils.data.Sampler",)
    assert bases["PlainSampler"] == ("torch.utils.data.Sampler",)
    assert bases["Registry"] == ("typing.Generic",)
