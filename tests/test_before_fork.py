"""What a scan builds before forking its workers (pipeline._before_fork): the tables each
worker's first file built for itself before. They are memo tables: the answers are the same
whether they were built ahead or on first use."""

from __future__ import annotations

from apiscan import parsing, pipeline
from apiscan.extract import _OWNERS, prepare_walks
from apiscan.resolve.owners import Owners
from apiscan.resolve.torch_api import load_torch_api


def test_before_fork_builds_the_walks_tables() -> None:
    pipeline._before_fork()
    assert parsing._SHARED, "the whitespace-sharing factories are built"
    owners = _OWNERS[id(load_torch_api())]
    assert isinstance(owners, Owners)
    keywords = owners._tensor_keywords
    assert keywords is not None and {"dim", "keepdim", "as_tuple"} <= keywords
    assert "axis" not in keywords  # numpy's spelling stays out
    prepare_walks()  # again: the same table, not a new one
    assert _OWNERS[id(load_torch_api())] is owners and owners._tensor_keywords is keywords


def test_prepared_owners_answer_as_owners_filled_on_first_use() -> None:
    api = load_torch_api()
    ahead, lazy = Owners(api), Owners(api)
    ahead.prepare()
    assert lazy._tensor_keywords is None
    calls = [
        ("torch.Tensor.repeat", ("axis",)),  # numpy's keyword: not a tensor
        ("torch.Tensor.sum", ("dim", "keepdim")),  # the method's own
        ("torch.Tensor.view", ("dtype",)),
        ("torch.Tensor.resize", ("resample",)),  # PIL's
        ("torch.Tensor.nonzero", ("as_tuple",)),  # an overload's keyword
        ("torch.sum", ("axis",)),  # not a Tensor method: never rejected
    ]
    assert [ahead.rejects(*c) for c in calls] == [lazy.rejects(*c) for c in calls]
    assert [ahead.rejects(*c) for c in calls] == [True, False, False, True, False, False]
    assert lazy._tensor_keywords == ahead._tensor_keywords
