"""The warm-up thread's share of the serial tail (pipeline._prepare_tail): it fills caches only
and never raises; the stage that needs what failed meets it again."""

from __future__ import annotations

from apiscan import pipeline
from apiscan.mapping import store
from apiscan.verify.catalogue import documented


def test_prepare_tail_fills_the_caches_the_tail_reads() -> None:
    pipeline._prepare_tail(None)
    assert store._load_table.cache_info().currsize >= 1
    assert documented._rows.cache_info().currsize == 1


def test_prepare_tail_never_raises_on_an_unknown_version() -> None:
    pipeline._prepare_tail("0.0.1")  # load_table raises; the scan reported it before


def test_the_warm_up_runs_the_callers_hook_first() -> None:
    ran: list[str] = []
    pipeline._with_tail(lambda: ran.append("hook"), None)()
    assert ran == ["hook"]
    pipeline._with_tail(None, None)()  # no hook: the tail's share alone
