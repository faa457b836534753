"""The dynamic-shape support lists: parsing the published Markdown, the shipped CSV, look-ups."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from sources_helpers import FIXTURE_SOURCES, REPO, load_script

from apiscan.mapping.dynamic_shape import (
    FIELDS,
    Listing,
    SupportTable,
    is_listed,
    listing,
    load_support,
    supported_backends,
)

SHIPPED = REPO / "mapping_data" / "dynamic_shape" / "2.6.csv"

HEADER = "| API name  | Ascend |  GPU  |   CPU  |\n| :--- |:-------- | :------- |:---------|\n"
DOCS = "https://www.mindspore.cn/docs/en/r2.6.0/api_python"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("build_dynamic_shape")


def _row(name: str, page: str, marks: str, folder: str = "ops") -> str:
    return f"|[{name}]({DOCS}/{folder}/{page}.html)|{marks}|\n"


# --- parsing ------------------------------------------------------------------------------


def test_parse_reads_names_marks_and_stops_at_the_table_end(script: ModuleType) -> None:
    text = (
        "# Title\n\n> prose | with a pipe\n\n"
        + HEADER
        + _row("mindspore.ops.abs", "mindspore.ops.abs", "✔️|✔️|✔️")
        # A stray variation selector before the cross, and a trailing empty cell: both occur.
        + _row("mindspore.ops.sort", "mindspore.ops.sort", "✔️|❌|\ufe0f❌|")
        + "\nAfter the table.\n"
    )
    rows = script.parse_list(text, "functional")
    assert [(r.ms_api, r.kind, r.flags) for r in rows] == [
        ("mindspore.ops.abs", "functional", (True, True, True)),
        ("mindspore.ops.sort", "functional", (True, False, False)),
    ]


def test_primitives_are_stored_under_the_name_code_imports(script: ModuleType) -> None:
    text = HEADER.replace("API name", "Operator name") + _row(
        "mindspore.Unique", "mindspore.ops.Unique", "✔️|✔️|❌"
    )
    (row,) = script.parse_list(text, "primitive")
    assert (row.ms_api, row.kind, row.flags) == (
        "mindspore.ops.Unique",
        "primitive",
        (True, True, False),
    )


def test_a_link_to_a_section_stands_for_a_namespace(script: ModuleType) -> None:
    text = (
        HEADER
        + f"|[mindspore.mint.nn]({DOCS}/mindspore.mint.html#mindspore-mint-nn)|✔️|❌|❌|\n"
        + f"|[mindspore.mint]({DOCS}/mindspore.mint.html#mindspore-mint)|✔️|❌|❌|\n"
    )
    assert [r.ms_api for r in script.parse_list(text, "nn")] == [
        "mindspore.mint.nn.*",
        "mindspore.mint.*",
    ]


@pytest.mark.parametrize(
    ("body", "kind", "complaint"),
    [
        (_row("mindspore.ops.abs", "mindspore.ops.abs", "✔️|yes|✔️"), "functional", "GPU cell"),
        (_row("mindspore.ops.abs", "mindspore.ops.abs", "✔️❌|✔️|✔️"), "functional", "neither"),
        (_row("mindspore.ops.abs", "mindspore.ops.abs", "✔️|✔️"), "functional", "expected 4"),
        (_row("mindspore.ops.abs", "mindspore.ops.abs", "✔️|✔️|✔️|x"), "functional", "cells"),
        (_row("mindspore.ops.abs", "mindspore.ops.acos", "✔️|✔️|✔️"), "functional", "links"),
        (_row("mindspore.Abs", "mindspore.nn.Abs", "✔️|✔️|✔️"), "primitive", "not mindspore.ops"),
        ("|mindspore.ops.abs|✔️|✔️|✔️|\n", "functional", "not a link"),
        (_row("torch.abs", "torch.abs", "✔️|✔️|✔️"), "functional", "not a MindSpore API"),
        (
            f"|[mindspore.mint]({DOCS}/mindspore.mint.html#mindspore-mint-nn)|✔️|❌|❌|\n",
            "nn",
            "section link",
        ),
    ],
)
def test_rows_that_do_not_read_as_expected_stop_the_build(
    script: ModuleType, body: str, kind: str, complaint: str
) -> None:
    with pytest.raises(script.SourceError, match=complaint) as raised:
        script.parse_list("intro\n\n" + HEADER + body, kind, origin="list.md")
    assert str(raised.value).startswith("list.md:5: ")  # file and line of the bad row


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("no table here\n", "no table"),
        (HEADER.replace("GPU  |   CPU", "CPU  |   GPU"), "no table"),  # columns out of order
        (HEADER.splitlines()[0] + "\n|[a](b)|✔️|✔️|✔️|\n", "separator"),
        (HEADER, "no rows"),
    ],
)
def test_lists_without_a_readable_table_are_rejected(
    script: ModuleType, text: str, complaint: str
) -> None:
    with pytest.raises(script.SourceError, match=complaint):
        script.parse_list(text, "functional")


def _write_lists(folder: Path, func: str, nn: str, prim: str) -> Path:
    support = folder / "r2.6.0" / "dynamic_shape_support"
    support.mkdir(parents=True)
    for name, body in (
        ("dynamic_shape_func.md", func),
        ("dynamic_shape_nn.md", nn),
        ("dynamic_shape_primitive.md", prim),
    ):
        (support / name).write_text(HEADER + body, encoding="utf-8")
    return folder


def test_a_name_in_two_lists_keeps_the_first_kind_and_must_agree(
    script: ModuleType, tmp_path: Path
) -> None:
    nn = _row("mindspore.nn.ReLU", "mindspore.nn.ReLU", "✔️|✔️|✔️", "nn")
    func = _row("mindspore.ops.triu", "mindspore.ops.triu", "✔️|✔️|❌")
    same = _row("mindspore.triu", "mindspore.ops.triu", "✔️|✔️|❌")
    sources = _write_lists(tmp_path / "ok", func, nn, same)
    built = script.build(sources)
    assert built == {
        "2.6.csv": (
            b"ms_api,kind,ascend,gpu,cpu\n"
            b"mindspore.nn.ReLU,nn,true,true,true\n"
            b"mindspore.ops.triu,functional,true,true,false\n"
        )
    }
    differs = _row("mindspore.triu", "mindspore.ops.triu", "✔️|✔️|✔️")
    with pytest.raises(script.SourceError, match="marked differently in the functional list"):
        script.build(_write_lists(tmp_path / "bad", func, nn, differs))


# --- the shipped file ---------------------------------------------------------------------


def test_shipped_csv_is_what_the_sources_produce(script: ModuleType, mirror: Path) -> None:
    assert script.main(["--sources", str(mirror), "--check"]) == 0
    assert script.build(mirror) == {"2.6.csv": SHIPPED.read_bytes()}  # deterministic bytes


def test_every_listed_row_is_kept(mirror: Path) -> None:
    """Nothing is dropped: the CSV has every table row of the three lists but the two names
    the primitive list repeats from the functional one."""
    published = sum(
        len(re.findall(r"^\|\[mindspore", path.read_text(encoding="utf-8"), re.M))
        for path in (mirror / "r2.6.0" / "dynamic_shape_support").glob("*.md")
    )
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    assert len(lines) - 1 == published - 2 == 504


def test_shipped_csv_has_the_fields_and_every_row_loads() -> None:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(FIELDS)
    assert len(lines) - 1 == len(load_support()) == 504


def test_the_miniature_mirror_builds_every_list_shape(script: ModuleType) -> None:
    """The committed fixture's lists: a stray U+FE0F before a cross, section links standing
    for namespaces, a primitive spelled ``mindspore.X``, a name in two lists that agree."""
    assert script.build(FIXTURE_SOURCES) == {
        "2.6.csv": (
            b"ms_api,kind,ascend,gpu,cpu\n"
            b"mindspore.mint.*,nn,true,false,false\n"
            b"mindspore.mint.nn.*,nn,true,false,false\n"
            b"mindspore.mint.nn.functional.*,functional,true,false,false\n"
            b"mindspore.nn.ReLU,nn,true,true,true\n"
            b"mindspore.ops.Unique,primitive,true,true,false\n"
            b"mindspore.ops.roll,functional,false,true,false\n"
            b"mindspore.ops.sort,functional,true,false,true\n"
            b"mindspore.ops.unique,functional,true,true,true\n"
        )
    }


def test_check_reports_stale_missing_and_extra_files(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mapping_data"
    sources = ["--sources", str(FIXTURE_SOURCES)]
    assert script.main([*sources, "--out", str(out), "--check"]) == 1
    assert "missing: 2.6.csv" in capsys.readouterr().err
    assert script.main([*sources, "--out", str(out)]) == 0
    assert script.main([*sources, "--out", str(out), "--check"]) == 0
    stale = out / "dynamic_shape" / "2.6.csv"
    stale.write_text(stale.read_text().replace("mindspore.ops.unique,functional,true", "x,y,z"))
    (out / "dynamic_shape" / "1.0.csv").write_text("ms_api\n")
    assert script.main([*sources, "--out", str(out), "--check"]) == 1
    err = capsys.readouterr().err
    assert "changed: 2.6.csv" in err and "+mindspore.ops.unique,functional,true" in err
    assert "extra: 1.0.csv" in err


def test_missing_sources_exit_with_status_2(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert script.main(["--sources", str(tmp_path), "--out", str(tmp_path)]) == 2
    assert "no */dynamic_shape_support/ folder" in capsys.readouterr().err


# --- look-ups -----------------------------------------------------------------------------

ALL = ("Ascend", "GPU", "CPU")


@pytest.mark.parametrize(
    ("ms_api", "backends", "entry"),
    [
        ("mindspore.ops.unique", ALL, "mindspore.ops.unique"),  # functional
        ("mindspore.ops.Unique", ALL, "mindspore.ops.Unique"),  # primitive, case tells apart
        ("mindspore.ops.roll", ("GPU",), "mindspore.ops.roll"),
        ("mindspore.ops.randperm", ("CPU",), "mindspore.ops.randperm"),
        ("mindspore.ops.sort", ("Ascend", "CPU"), "mindspore.ops.sort"),
        ("mindspore.nn.GRU", ("CPU",), "mindspore.nn.GRU"),
        ("mindspore.mint.unique", ("Ascend",), "mindspore.mint.*"),
        ("mindspore.mint.nn.Conv2d", ("Ascend",), "mindspore.mint.nn.*"),
        ("mindspore.mint.nn.functional.relu", ("Ascend",), "mindspore.mint.nn.functional.*"),
        ("mindspore.Tensor.nonzero", ALL, "mindspore.ops.nonzero"),  # the functional twin
        ("mindspore.Tensor.unique", ALL, "mindspore.ops.unique"),
    ],
)
def test_lookups_follow_the_documented_spelling_rules(
    ms_api: str, backends: tuple[str, ...], entry: str
) -> None:
    assert supported_backends(ms_api) == backends
    assert is_listed(ms_api)
    found = listing(ms_api)
    assert found is not None and found.entry == entry


@pytest.mark.parametrize(
    "ms_api",
    [
        "mindspore.ops.unique_consecutive",  # simply not on the lists
        "mindspore.mint.linalg.norm",  # a mint namespace with no row of its own
        "mindspore.mint",  # the namespace itself is no API
        "mindspore.Unique",  # the list's spelling, which code cannot import
        "mindspore.Tensor.Unique",  # a Tensor method answers only as a functional
        "mindspore.Tensor.view",
        "",
    ],
)
def test_names_the_lists_do_not_cover_are_not_listed(ms_api: str) -> None:
    assert not is_listed(ms_api)
    assert listing(ms_api) is None
    assert supported_backends(ms_api) == ()


def test_unsupported_everywhere_differs_from_not_listed() -> None:
    """No r2.6 row is unsupported on every backend, so this builds a table that has one."""
    table = SupportTable("test", {"mindspore.ops.f": Listing("mindspore.ops.f", "functional", ())})
    assert table.listing("mindspore.ops.f") == Listing("mindspore.ops.f", "functional", ())
    assert table.listing("mindspore.ops.g") is None


def test_unknown_version_names_the_shipped_ones() -> None:
    with pytest.raises(ValueError, match=r"MindSpore '9\.9'; available: 2\.6"):
        load_support("9.9")


def test_table_is_loaded_once() -> None:
    """Loaded once per version (look-up speed is measured by scripts/bench_lookups.py)."""
    assert load_support() is load_support("2.6")
    names = ["mindspore.ops.unique", "mindspore.mint.nn.Conv2d", "mindspore.Tensor.view"]
    assert [supported_backends(name) for name in names] == [ALL, ("Ascend",), ()]
