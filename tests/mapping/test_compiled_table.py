"""The default table shipped compiled is the table its CSVs give, and a stale one is ignored."""

from __future__ import annotations

import shutil
from pathlib import Path

from apiscan.mapping import store


def test_the_shipped_compiled_table_is_fresh_and_equal_to_the_csvs() -> None:
    data_dir = store.mapping_data_dir()
    compiled = store._compiled_table(data_dir)
    assert compiled is not None, (
        "mapping_data is newer than its compiled table: run scripts/compile_mapping.py"
    )
    built = store.build_table(data_dir, store.DEFAULT_VERSION, True)
    assert compiled == built
    assert compiled._by_api == built._by_api and compiled._history == built._history


def _copy_data(tmp_path: Path) -> Path:
    copy = tmp_path / "mapping_data"
    shutil.copytree(store.mapping_data_dir(), copy, ignore=shutil.ignore_patterns("torch_api"))
    return copy


def test_a_stale_or_broken_compiled_table_falls_back_to_the_csvs(tmp_path: Path) -> None:
    data_dir = _copy_data(tmp_path)
    assert store._compiled_table(data_dir) is not None
    api_map = data_dir / store.DEFAULT_VERSION / store.API_MAP_FILE
    api_map.write_bytes(api_map.read_bytes() + b"\n")  # any change of a source
    assert store._compiled_table(data_dir) is None
    (data_dir / store.COMPILED_FILE).write_bytes(b"not a compiled table")
    assert store._compiled_table(data_dir) is None
    (data_dir / store.COMPILED_FILE).unlink()
    assert store._compiled_table(data_dir) is None
    table = store._load_table(data_dir, store.DEFAULT_VERSION, True)
    assert table == store.build_table(data_dir, store.DEFAULT_VERSION, True)
