"""fixtures/persample: per-image targets kept as a list cross files (a collate returning
them unstacked, a training loop moving each to the device, a loss in another file reading
them by position) and stay samples; padded targets and lists of pyramid levels stay quiet —
exactly the marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.extract import FileTask, analyse
from apiscan.extract.facts import to_fact
from apiscan.model import ScanResult
from apiscan.program import values as pv

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "persample"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=2)


def test_samples_read_by_any_position_in_another_file(result: ScanResult) -> None:
    # ``targets[i]`` with ``i`` up to the batch size (not ``range(len(targets))``): the list
    # came from the collate unstacked, through ``iter``/``next`` and ``[t.to(d) for t in ...]``
    joined = "for i in range(num)])  # expect"
    words = message_on_line(result, FIXTURE, "ps/loss.py", "DS120", joined)
    assert "each sample of the batch has its own length" in words
    lines = sorted((f.span.line, f.rule) for f in result.shape_findings if f.path == "ps/loss.py")
    assert lines == [(16, "DS120"), (18, "DS120"), (26, "DS120")]


def test_one_sample_reaching_an_op_is_reported_once_per_function(result: ScanResult) -> None:
    # ``truths = targets[idx][:, :4]`` keeps the sample; ``truths @ priors.t()`` computes
    # with its length: one finding there, none for the ops computed from the product
    words = message_on_line(result, FIXTURE, "ps/loss.py", "DS120", "truths @ priors.t()")
    assert "a tensor op computes on one sample's tensor" in words
    assert "the number of objects in it" in words
    assert "reach the graph" in words


def test_one_sample_handed_to_a_helper_is_reported_where_the_helper_computes(
    result: ScanResult,
) -> None:
    # the reads of one sample (``.data`` keeps it) hand it to the matcher of another file,
    # which hands it to ``overlap``: one finding, at the first op on it there, with the chain;
    # nothing at the call (no op runs there), in the matcher (it gathers rows by prior), in
    # the collates or in the host evaluation
    words = message_on_line(result, FIXTURE, "ps/box.py", "DS120", "lo = torch.max(")
    assert "`boxes` is one sample's tensor of a batch kept as a list" in words
    assert "`MatchLoss.forward` → `match` → `overlap`" in words
    found = [(f.path, f.span.line, f.scope) for f in result.shape_findings if f.rule == "DS120"]
    assert ("ps/box.py", 7, "network") in found
    assert not [f for f in found if f[0] not in ("ps/loss.py", "ps/box.py") or f[1] == 56]
    quiet = ("ps/data.py", "train.py")  # the host evaluation computes on samples too
    assert not [f for f in result.shape_findings if f.path in quiet]
    box = [f.span.line for f in result.shape_findings if f.path == "ps/box.py"]
    assert box == [7]


def test_element_of_a_tensor_parameter_is_not_the_parameter() -> None:
    # ``targets[idx]`` of a ``forward`` argument handed to a helper is one element of what
    # callers hand ``forward`` (one image's boxes of a list of samples, a row of a tensor),
    # not the whole argument
    src = (
        "import torch\nfrom torch import nn\n\n\n"
        "def helper(t):\n    return t\n\n\n"
        "class L(nn.Module):\n"
        "    def forward(self, targets, i: int):\n"
        "        a = helper(targets[i])\n"
        "        b = helper(targets)\n"
        "        return a + b\n"
    )
    fa = analyse(FileTask("pkg/loss.py", ("pkg.loss",), False, src.encode()), frozenset({"pkg"}))
    args = {s.line: s.args[0] for s in fa.sites if s.callee.endswith("helper")}
    assert args == {11: pv.Param("targets", element=True), 12: pv.Param("targets")}


def test_collated_marks_unstacked_tensor_lists_only() -> None:
    got = pv.collated(pv.Tup((pv.TENSOR, pv.Seq(pv.TENSOR))))
    assert got == pv.Tup((pv.TENSOR, pv.Seq(pv.TENSOR, samples=True)))
    # padded targets are one tensor; a list of dicts crosses as nothing known
    assert pv.collated(pv.Tup((pv.TENSOR, pv.TENSOR))) == pv.Tup((pv.TENSOR, pv.TENSOR))
    assert pv.collated(pv.Seq(pv.UNKNOWN)) == pv.Seq(pv.UNKNOWN)


def test_samples_survive_join_and_chain() -> None:
    samples = pv.Seq(pv.TENSOR, samples=True)
    assert pv.is_dynamic(samples)
    assert not pv.is_dynamic(pv.Seq(pv.TENSOR))
    assert pv.join(samples, pv.Seq(pv.TENSOR)) == samples
    assert pv.passed_by(samples, "train") == samples
    assert pv.widen(pv.Seq(samples)) == pv.Seq(samples)
    assert "samples kept as a list" in pv.describe(samples)


def test_to_fact_needs_a_batch_sample_element() -> None:
    elem = ("tensor", True)
    seq = ("seq", elem)

    def no_param(_v: object) -> None:
        return None

    def no_site(_n: object) -> None:
        return None

    plain = to_fact(seq, no_param, no_site)
    marked = to_fact(seq, no_param, no_site, batch_sample=lambda v: v is elem)
    assert plain == pv.Seq(pv.Tensor())
    assert marked == pv.Seq(pv.Tensor(), samples=True)


def test_declared_list_of_tensors_keeps_its_elements() -> None:
    # ``tensors: list[Tensor]`` passed a list of samples whose elements a caller only guessed
    declared = pv.Seq(pv.Tensor())
    passed = pv.Seq(pv.Tensor(certain=False), samples=True)
    assert pv.refine(declared, passed) == pv.Seq(pv.Tensor(), samples=True)
    dynamic = pv.Seq(pv.Tensor(dynamic=True, certain=False))
    assert pv.refine(declared, dynamic) == pv.Seq(pv.Tensor(dynamic=True))


def test_an_element_parameter_resolves_to_an_element_of_the_callers_fact() -> None:
    from apiscan.program.solver import Solution, _resolve

    sol = Solution()
    sol.params[("pkg.loss.L.forward", "targets")] = pv.Seq(pv.TENSOR, samples=True)
    got = _resolve(pv.Param("targets", element=True), "pkg.loss.L.forward", sol)
    assert got == pv.Tensor(sample=True)  # one image's targets, of its own length
    assert pv.is_dynamic(got) and "one sample's tensor" in pv.describe(got)
    assert pv.element(pv.Seq(pv.TENSOR)) == pv.TENSOR  # a list of feature levels: no sample
    assert _resolve(pv.Param("targets"), "pkg.loss.L.forward", sol) == pv.Seq(
        pv.TENSOR, samples=True
    )


def test_returned_and_stored_facts_drop_the_sample_mark() -> None:
    # a helper returning its argument is joined over all its callers: one caller's image
    # targets handed back must not make every caller's value a sample; lists of samples stay
    sample = pv.Tensor(sample=True)
    assert pv.unsampled(sample) == pv.TENSOR
    assert pv.unsampled(pv.Tup((sample, pv.Seq(pv.TENSOR, samples=True)))) == pv.Tup(
        (pv.TENSOR, pv.Seq(pv.TENSOR, samples=True))
    )
    assert pv.unsampled(pv.Dict((("boxes", sample),))) == pv.Dict((("boxes", pv.TENSOR),))
    assert pv.unsampled(pv.Tensor(dynamic=True)) == pv.Tensor(dynamic=True)
