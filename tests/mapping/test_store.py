"""Loading the shipped mapping data, and matching API uses against it."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from apiscan.mapping import match_api
from apiscan.mapping.schema import CONSISTENT, DIFFERENT, MISSING, MappingRow
from apiscan.mapping.store import (
    DEFAULT_VERSION,
    KNOWN_VERSIONS,
    MAPPING_DATA_DIR,
    MappingTable,
    UnknownVersionError,
    is_undescribed,
    load_table,
    mapping_data_dir,
)

REPO = Path(__file__).resolve().parents[2]


def test_versions_agree_with_the_manifest() -> None:
    manifest = json.loads((MAPPING_DATA_DIR / "manifest.json").read_text(encoding="utf-8"))
    assert KNOWN_VERSIONS == ("2.6", "2.4", "2.3", "2.0", "1.10")
    assert tuple(manifest["versions"]) == KNOWN_VERSIONS
    assert DEFAULT_VERSION == manifest["default_version"] == "2.6"
    assert mapping_data_dir() == MAPPING_DATA_DIR == REPO / "mapping_data"


def test_default_is_the_merged_newest_table() -> None:
    table = load_table()
    assert (table.version, table.merged) == ("2.6", True)
    assert table is load_table("2.6")  # cached
    assert [source["version"] for source in table.sources] == list(KNOWN_VERSIONS)
    assert table.sources[0] == {
        "version": "2.6",
        "branch": "r2.6.0",
        "commit": "8618b1ccb1991f63466f0d5b26963538c0988227",
    }
    assert table.general_params[:3] == ("out", "layout", "device")
    assert "inplace" not in table.general_params  # r2.6.0 dropped it from the table
    assert "inplace" in load_table("2.4").general_params


def test_unmerged_table_holds_one_version() -> None:
    table = load_table("2.6", merge=False)
    assert len(table) == 514
    assert {row.source_version for row in table} == {"2.6"}
    assert table.lookup("torch.nn.Transformer") is None
    assert [source["version"] for source in table.sources] == ["2.6"]


@pytest.mark.parametrize("version", ["2.4.0", "r2.4.0", " 2.4 "])
def test_release_spellings_choose_their_table(version: str) -> None:
    assert load_table(version, merge=False).version == "2.4"


@pytest.mark.parametrize("version", ["3.0", "2.5", "2.10", "2.4.x", ""])
def test_unknown_versions_are_errors_listing_the_known_ones(version: str) -> None:
    with pytest.raises(UnknownVersionError) as error:
        load_table(version)
    assert isinstance(error.value, ValueError)
    assert str(error.value) == (
        f"unknown MindSpore mapping version {version!r}; known versions: 2.6, 2.4, 2.3, 2.0, 1.10"
    )


def test_merged_view_fills_each_api_from_the_newest_table_describing_it() -> None:
    merged = load_table("2.6")
    alone = {version: load_table(version, merge=False) for version in KNOWN_VERSIONS}
    all_apis = {row.torch_api for table in alone.values() for row in table}
    assert {row.torch_api for row in merged} == all_apis
    for api in all_apis:
        listing = [version for version in KNOWN_VERSIONS if alone[version].lookup(api)]
        described = [
            version
            for version in listing
            if not all(map(is_undescribed, alone[version].rows_for(api)))
        ]
        newest = (described or listing)[0]
        assert merged.rows_for(api) == alone[newest].rows_for(api), api
        older = [
            row for version in listing if version != newest for row in alone[version].rows_for(api)
        ]
        assert merged.history_for(api) == tuple(older), api
    assert merged.rows_for("torch.abs")[0].ms_apis == ("mindspore.mint.abs",)
    assert alone["2.4"].rows_for("torch.abs")[0].ms_apis == ("mindspore.ops.abs",)
    assert merged.rows_for("torch.nn.Transformer")[0].source_version == "2.4"
    sources = {row.source_version for row in merged}
    assert sources == {"2.6", "2.4", "2.0", "1.10"}  # r2.4.0 lists everything r2.3.1 does


def test_merge_starts_at_the_requested_version() -> None:
    table = load_table("2.0")
    assert {row.source_version for row in table} == {"2.0", "1.10"}
    assert table.rows_for("torch.abs")[0].source_version == "2.0"


def test_rows_are_sorted_and_keep_table_order_per_api() -> None:
    table = load_table("2.4", merge=False)
    assert len(table) == 887
    names = [row.torch_api for row in table]
    assert names == sorted(names)
    adam = table.rows_for("torch.optim.Adam")
    assert [row.ms_apis for row in adam] == [
        ("mindspore.nn.Adam",),
        ("mindspore.experimental.optim.Adam",),
    ]
    assert table.lookup("torch.optim.Adam") is adam[0]
    assert table.rows_for("torch.not_an_api") == ()
    assert table.lookup("torch.not_an_api") is None


def test_rows_carry_their_diff_page_parameters() -> None:
    adam = load_table("2.4", merge=False).lookup("torch.optim.Adam")
    assert adam is not None
    assert adam.status == DIFFERENT
    assert adam.diff_url.endswith("/r2.4.0/note/api_mapping/pytorch_diff/Adam.html")
    assert adam.note.startswith("mindspore.nn.Adam can override the function of torch.optim.Adam")
    pairs = [(p.torch_param, p.ms_param) for p in adam.params]
    assert ("lr", "learning_rate") in pairs
    assert ("betas", "beta1, beta2") in pairs
    assert ("", "use_locking") in pairs
    consistent = load_table("2.6", merge=False).lookup("torch.nn.functional.relu")
    assert consistent is not None
    assert (consistent.status, consistent.params, consistent.diff_url) == (CONSISTENT, (), "")


def test_target_existence_is_marked_never_silently_dropped() -> None:
    table = load_table()
    relu = table.lookup("torch.nn.functional.relu")
    assert relu is not None
    assert (relu.ms_apis, relu.target_exists, relu.targets_exist) == (
        ("mindspore.mint.nn.functional.relu",),
        True,
        (True,),
    )
    # r1.10 mapped torch.nn.Transformer to mindspore.nn.transformer.*, a module since removed.
    old = load_table("1.10", merge=False).lookup("torch.nn.Transformer")
    assert old is not None
    assert (old.ms_apis, old.target_exists, old.targets_exist) == (
        ("mindspore.nn.transformer.Transformer",),
        False,
        (False,),
    )
    # The default view takes torch.nn.Transformer from r2.4.0, whose target exists.
    current = table.lookup("torch.nn.Transformer")
    assert current is not None
    assert (current.source_version, current.target_exists) == ("2.4", True)
    no_target = load_table("2.0", merge=False).lookup("torch.utils.data.DataLoader")
    assert no_target is not None
    assert (no_target.status, no_target.ms_apis, no_target.target_exists) == (MISSING, (), None)


def test_loading_imports_nothing_heavy() -> None:
    """Loading and matching stay free of pandas/numpy/torch/mindspore (the load time is
    measured by scripts/bench_lookups.py, not asserted here)."""
    code = (
        "import sys\n"
        "from apiscan.mapping import load_table, match_api\n"
        "table = load_table()\n"
        "match_api('torch.abs', table, passed_params=['out'])\n"
        "print([m for m in ('pandas', 'numpy', 'torch', 'mindspore') if m in sys.modules])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- matching uses against the loaded table -------------------------------------------------


def test_match_consistent_api() -> None:
    match = match_api("torch.nn.functional.relu", load_table())
    assert match.status == CONSISTENT
    assert match.mindspore_api == "mindspore.mint.nn.functional.relu"
    assert (match.source_version, match.target_exists, match.unsupported_params) == (
        "2.6",
        True,
        (),
    )


def test_general_parameter_does_not_break_consistency() -> None:
    """Exception Scenario 2 of the tables' consistency rules: passing ``out=`` keeps a
    consistent API consistent; the finding still says to drop it."""
    match = match_api("torch.abs", load_table(), passed_params=["input", "out"])
    assert match.status == CONSISTENT
    assert match.unsupported_params == ()
    assert [(c.param, c.kind) for c in match.param_changes] == [("out", "general")]


def test_diff_page_parameters_without_counterpart_are_unsupported() -> None:
    table = load_table("2.4", merge=False)
    match = match_api("torch.optim.Adam", table, passed_params=["lr", "betas", "amsgrad"])
    assert match.unsupported_params == ()  # all have MindSpore counterparts
    scheduler = match_api(
        "torch.optim.lr_scheduler.ExponentialLR",
        table,
        passed_params=["optimizer", "gamma", "verbose", "verbose"],
        keywords=[],  # all positional: no keyword makes the torch-style target fit better
    )
    assert scheduler.status == DIFFERENT
    assert scheduler.unsupported_params == ("optimizer", "verbose")
    assert scheduler.mindspore_api == "mindspore.nn.exponential_decay_lr"
    assert scheduler.note.endswith(
        "MindSpore takes no counterpart of the passed parameter(s): optimizer, verbose."
    )


def test_api_without_a_row_is_missing() -> None:
    match = match_api("torch.definitely_not_mapped", load_table())
    assert (match.status, match.mindspore_api, match.source_version) == (MISSING, None, None)
    assert match.target_exists is None


def test_match_names_a_gone_target_but_prefers_one_that_exists() -> None:
    match = match_api("torch.nn.Transformer", load_table("1.10", merge=False))
    assert (match.mindspore_api, match.target_exists) == (
        "mindspore.nn.transformer.Transformer",
        False,
    )
    row = MappingRow(
        torch_api="torch.x",
        ms_apis=("mindspore.gone", "mindspore.unknown", "mindspore.kept"),
        status=CONSISTENT,
        note="",
        diff_url="",
        namespace="torch",
        source_version="test",
        target_exists=True,
        targets_exist=(False, None, True),
    )
    table = MappingTable("test", merged=False, sources=(), general_params=(), rows=(row,))
    assert match_api("torch.x", table).mindspore_api == "mindspore.kept"
    without_kept = MappingTable(
        "test",
        merged=False,
        sources=(),
        general_params=(),
        rows=(replace(row, ms_apis=row.ms_apis[:2], targets_exist=(False, None)),),
    )
    match = match_api("torch.x", without_kept)
    assert (match.mindspore_api, match.target_exists) == ("mindspore.unknown", None)
