"""fixtures/sampleloop: Python ``max``/``min`` comparing tensors on the host (and their twins
on host numbers and shapes), collate functions bound with ``functools.partial`` — exactly the
marked lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import assert_exactly_marked, message_on_line, scan_repo

from apiscan.extract import FileTask, analyse
from apiscan.extract.facts import to_fact, to_val
from apiscan.model import ScanResult
from apiscan.program import values as pv

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sampleloop"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def test_exactly_the_marked_lines(result: ScanResult) -> None:
    assert_exactly_marked(result, FIXTURE, at_least=5)


def test_builtin_comparison_says_why(result: ScanResult) -> None:
    for text in ("n = max(num_pos.sum().float(), 1)", "m = min(1.0, pos.float().mean())"):
        words = message_on_line(result, FIXTURE, "sl/loss.py", "DS116", text)
        assert "compares a tensor with its other arguments on the host" in words


def test_builtin_comparison_is_network_scope(result: ScanResult) -> None:
    found = [f for f in result.shape_findings if f.path == "sl/loss.py" and f.rule == "DS116"]
    assert [(f.span.line, f.scope) for f in found] == [(30, "network"), (31, "network")]


def test_partial_collate_is_data_code_and_feeds_the_step(result: ScanResult) -> None:
    scopes = {(f.span.line, f.scope) for f in result.shape_findings if f.path == "sl/collate.py"}
    # bound with functools.partial and passed as collate_fn: the loader runs it
    assert scopes == {(10, "data"), (17, "data")}
    words = message_on_line(result, FIXTURE, "sl/arch.py", "DS111", "index=mask_indices).sum()")
    assert "data-dependent" in words


def test_samples_read_by_position_are_joined(result: ScanResult) -> None:
    # ``targets[i]`` in ``for i in range(len(targets))`` is the sample ``for t in targets``
    # gives; another list read at those positions is not
    words = message_on_line(result, FIXTURE, "sl/match.py", "DS120", 'targets[i]["labels"]')
    assert "each sample of the batch has its own length" in words
    lines = {f.span.line for f in result.shape_findings if f.path == "sl/match.py"}
    assert lines == {6}


def test_dict_batches_keep_their_dynamic_fields(result: ScanResult) -> None:
    # the collate returns a dict; ``batch["mask_indices"]`` read in another file keeps the
    # fact of the field (nonzero), whether the loader is built here, by a wrapper handed the
    # collate by keyword, or iterated through a generator that passes batches through
    found = sorted(
        (f.span.line, f.rule, f.scope) for f in result.shape_findings if f.path == "sl/arch.py"
    )
    assert found == [
        (15, "DS111", "network"),
        (17, "DS109", "network"),
        (25, "DS111", "network"),
        (34, "DS111", "host"),
    ]
    words = message_on_line(result, FIXTURE, "sl/arch.py", "DS111", "index=mask_indices)  #")
    assert '`batch["mask_indices"]` is a tensor whose shape depends on data' in words
    assert "passed by `train_direct` → `MaskedModel.forward_backward`" in words
    keyword = message_on_line(
        result, FIXTURE, "sl/arch.py", "DS111", 'index=batch["mask_indices"]).sum()  #'
    )
    assert "`train_keyword` → `MaskedModel.forward_keyword`" in keyword


def test_dict_fact_keeps_dynamic_fields_only() -> None:
    dyn = pv.Tensor(dynamic=True)
    batch = pv.dict_of([("mask_indices", dyn), ("images", pv.TENSOR)])
    assert batch == pv.Dict((("images", pv.TENSOR), ("mask_indices", dyn)))
    assert pv.is_dynamic(batch) and batch.get("mask_indices") == dyn  # type: ignore[union-attr]
    assert batch.get("other") == pv.UNKNOWN  # type: ignore[union-attr]
    # a dict of losses or of options crosses as nothing known, as before
    assert pv.dict_of([("loss", pv.TENSOR), ("lr", pv.STATIC)]) == pv.UNKNOWN
    # joined with another caller's dict: every key, a missing one uncertain
    other = pv.Dict((("images", pv.TENSOR), ("masks", pv.Tensor(boolean=True))))
    joined = pv.join(batch, other)
    assert isinstance(joined, pv.Dict)
    assert [k for k, _ in joined.fields] == ["images", "mask_indices", "masks"]
    assert joined.get("mask_indices") == pv.Tensor(dynamic=True, certain=False)
    assert pv.is_dynamic(joined.get("masks"))
    # a guessed tensor gives way to the dict; an unknown loader to a known one's batches
    assert pv.join(pv.Tensor(certain=False), batch) == batch
    batches = pv.Seq(batch)
    assert pv.join(pv.Instance(pv.LOADER), batches) == batches
    assert pv.join(pv.Instance("repo.Thing"), batches) == pv.UNKNOWN
    assert "a tensor whose shape depends on data" in pv.describe(batch)
    assert pv.collated(pv.Dict((("boxes", pv.Seq(pv.TENSOR)), ("ids", dyn)))) == pv.Dict(
        (("boxes", pv.Seq(pv.TENSOR, samples=True)), ("ids", dyn))
    )


def test_dict_fact_round_trips_through_walker_values() -> None:
    v = to_val(pv.Dict((("ids", pv.Tensor(dynamic=True)), ("x", pv.TENSOR))))
    assert v == ("dict", (("ids", ("tensor", "dyn")), ("x", ("tensor", True))))
    back = to_fact(v, lambda _v: None, lambda _n: None)
    assert back == pv.Dict((("ids", pv.Tensor(dynamic=True)), ("x", pv.TENSOR)))


def test_pass_through_generator_returns_its_iterables_elements() -> None:
    src = (
        "def every(iterable, n):\n"
        "    for obj in iterable:\n"
        "        yield obj\n\n\n"
        "def numbered(iterable):\n"
        "    for i, obj in enumerate(iterable):\n"
        "        yield i, obj\n\n\n"
        "def plain(iterable):\n"
        "    return iterable\n"
    )
    fa = analyse(FileTask("pkg/log.py", ("pkg.log",), False, src.encode()), frozenset({"pkg"}))
    returns = {s.qualname: s.returns for s in fa.summaries}
    assert returns["every"] == pv.Seq(pv.Param("iterable", element=True))
    assert returns["numbered"] == pv.Static()  # computes what it yields: not followed
    assert returns["plain"] == pv.Param("iterable")
