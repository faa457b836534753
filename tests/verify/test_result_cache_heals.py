"""The verification result cache heals: a damaged entry is a miss that the next run replaces,
never a crash and never a result read from a broken file; an unwritable cache costs the cache,
not the results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from verify_results import case_result

import apiscan.cache
from apiscan.verify.catalogue import cases_for
from apiscan.verify.results import ResultCache

[CASE] = [c for c in cases_for("torch.Tensor.mul_") if c.case_id == "torch.Tensor.mul_"]
GOOD = case_result(CASE.case_id, "pass", api=CASE.api, max_abs=1e-7)


@pytest.fixture(autouse=True)
def _fresh_warnings() -> None:
    apiscan.errors._warned.clear()


def _entry(cache: ResultCache) -> Path:
    return cache.directory / f"{cache.key(CASE, 'CPU', 'float32')}.json"


def test_a_sound_entry_round_trips(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cache.put(CASE, GOOD)
    assert cache.get(CASE, "CPU", "float32") == GOOD
    assert [p.suffix for p in tmp_path.iterdir()] == [".json"]  # no temporary file left


def test_no_results_directory_is_a_miss_without_a_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing verified yet (most scans): a lookup computes no key (hashes and the frameworks'
    versions, per case), and a result written later is found by the same cache."""
    cache = ResultCache(tmp_path / "results")
    real_key = ResultCache.key

    def no_key(*args: object) -> str:
        raise AssertionError("a key was computed for a cache with no directory")

    monkeypatch.setattr(ResultCache, "key", no_key)
    assert cache.get(CASE, "CPU", "float32") is None
    monkeypatch.setattr(ResultCache, "key", real_key)
    cache.put(CASE, GOOD)
    assert cache.get(CASE, "CPU", "float32") == GOOD


@pytest.mark.parametrize(
    "content",
    [
        b"",  # torn write
        b'{"case_id": ',  # truncated JSON
        b"\xff\xfe not utf-8",
        b"5",  # JSON, but not an object
        b"[]",
        b'"pass"',
        json.dumps({**GOOD.to_dict(), "status": "great"}).encode(),  # unknown status
        json.dumps({**GOOD.to_dict(), "max_abs": "0.1"}).encode(),  # wrong type
        json.dumps({**GOOD.to_dict(), "grad_checked": 1}).encode(),
        json.dumps({**GOOD.to_dict(), "seconds": True}).encode(),
        json.dumps({**GOOD.to_dict(), "case_id": "torch.other"}).encode(),  # not this case
        json.dumps({k: v for k, v in GOOD.to_dict().items() if k != "worst"}).encode(),
    ],
)
def test_a_damaged_entry_is_a_miss_and_is_replaced(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ResultCache(tmp_path)
    tmp_path.mkdir(exist_ok=True)
    _entry(cache).write_bytes(content)
    assert cache.get(CASE, "CPU", "float32") is None
    assert not _entry(cache).exists()  # removed, so it cannot shadow the case again
    assert "removed a damaged verification result" in capsys.readouterr().err
    cache.put(CASE, GOOD)  # the next run writes a sound entry in its place
    assert cache.get(CASE, "CPU", "float32") == GOOD


def test_a_directory_under_the_entry_name_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ResultCache(tmp_path)
    _entry(cache).mkdir(parents=True)
    assert cache.get(CASE, "CPU", "float32") is None
    assert "cannot be read" in capsys.readouterr().err
    cache.put(CASE, GOOD)  # cannot replace a directory: warns, does not raise
    assert "shown but not cached" in capsys.readouterr().err


def test_an_unwritable_cache_never_raises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a file where the cache directory should be: no user, not even root, can write there
    (tmp_path / "blocked").write_text("")
    cache = ResultCache(tmp_path / "blocked" / "verify")
    assert cache.get(CASE, "CPU", "float32") is None
    cache.put(CASE, GOOD)
    assert "shown but not cached" in capsys.readouterr().err
    assert cache.get(CASE, "CPU", "float32") is None


def test_empty_until_a_result_is_kept(tmp_path: Path) -> None:
    """A scan skips its per-finding form checks only when no result could be found: no
    directory, or a directory without result files (a leftover temporary file is none)."""
    cache = ResultCache(tmp_path / "results")
    assert cache.empty()
    cache.directory.mkdir()
    (cache.directory / "x.123.tmp").write_text("{}")
    assert cache.empty()
    cache.put(CASE, GOOD)
    assert not cache.empty()


def test_a_cache_path_that_is_a_file_is_not_called_empty(tmp_path: Path) -> None:
    """An unlistable results path is left to ``get``, which says what is wrong."""
    (tmp_path / "results").write_text("not a directory")
    assert not ResultCache(tmp_path / "results").empty()
