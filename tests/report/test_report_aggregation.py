"""The roll-ups behind the text and Markdown reports: counts, orderings and tie-breaks."""

from __future__ import annotations

from report_cases import api, error, result, shape, shapes_only

from apiscan.model import FileSummary, ScanResult, ShapeFinding
from apiscan.report.aggregation import (
    FileRow,
    RuleAdvice,
    api_frame,
    file_table,
    rule_advice,
    shape_files,
    top_apis,
)


def test_top_apis_order_by_sites_then_files_then_name() -> None:
    res = result(
        [],
        [
            api("b.py", 1, 1, "torch.zeta", "missing"),
            api("a.py", 1, 1, "torch.zeta", "missing"),
            api("a.py", 1, 1, "torch.alpha", "missing"),
            api("a.py", 2, 1, "torch.alpha", "missing"),
            api("a.py", 3, 1, "torch.beta", "missing"),
            api("b.py", 3, 1, "torch.beta", "missing"),
            api("c.py", 1, 1, "torch.gamma", "missing"),
            api("c.py", 2, 1, "torch.other", "consistent"),
        ],
    )
    top = top_apis(api_frame(res), "missing", limit=3, locations=1)
    assert [(r.api, r.sites, r.files) for r in top.rows] == [
        ("torch.beta", 2, 2),
        ("torch.zeta", 2, 2),
        ("torch.alpha", 2, 1),
    ]
    assert top.total == 4
    assert top.rows[0].locations == (("a.py", 3, 0),)  # path, line, notebook cell
    assert top.rows[0].more_locations == 1


def test_note_target_and_params_are_folded_deterministically() -> None:
    res = result(
        [],
        [
            api("a.py", 1, 1, "torch.nn.Conv2d", "different", note="b", params=("device",)),
            api("a.py", 2, 1, "torch.nn.Conv2d", "different", note="a", params=("out", "device")),
            api("a.py", 3, 1, "torch.nn.Conv2d", "different", note="", target="mindspore.x"),
            api("a.py", 4, 1, "torch.nn.Conv2d", "different", note="c", confidence="probable"),
            api("a.py", 5, 1, "torch.nn.Conv2d", "different", note="c"),
        ],
    )
    (row,) = top_apis(api_frame(res), "different", limit=5).rows
    assert row.note == "c"  # the most frequent non-empty note
    assert row.mindspore_api == "mindspore.nn.Conv2d"
    assert row.unsupported_params == ("device", "out")
    assert (row.sites, row.probable) == (5, 1)


def test_no_sites_of_a_status_gives_an_empty_top_list() -> None:
    res = result([], [api("a.py", 1, 1, "torch.add", "consistent")])
    top = top_apis(api_frame(res), "missing", limit=5)
    assert (top.rows, top.total) == ((), 0)


def test_file_table_joins_summaries_and_findings(mixed_result: ScanResult) -> None:
    table = file_table(mixed_result, api_frame(mixed_result))
    assert table.quiet_files == 2  # tinydet/__init__.py, and train.py (dynamic shapes only)
    by_path = {row.path: row for row in table.rows}
    assert by_path["tinydet/head.py"] == FileRow("tinydet/head.py", 61, 7, (4, 0, 1, 0, 2, 0), 0)
    assert "tinydet/train.py" not in by_path  # dynamic shapes only: listed in their own section
    assert by_path["tinydet/legacy|old.py"].errors == 2
    assert [row.path for row in table.rows] == sorted(by_path)


def test_file_known_only_from_findings_gets_a_row_without_lines() -> None:
    res = result(
        [FileSummary("a.py", 10, 1, 0)],
        [api("a.py", 1, 1, "torch.add", "consistent"), error("gone.py", 1, "E001", "vanished")],
    )
    rows = file_table(res, api_frame(res)).rows
    assert rows == (
        FileRow("a.py", 10, 1, (0, 0, 0, 0, 1, 0), 0),
        FileRow("gone.py", None, 0, (0,) * 6, 1),
    )


def test_shape_findings_group_by_file_then_function_in_reading_order() -> None:
    def ds(path: str, line: int, function: str) -> ShapeFinding:
        return shape(
            path, line, 1, "DS104", "m", severity="high", scope="network", function=function
        )

    res = result(
        [],
        [
            ds("b.py", 9, "late"),
            ds("b.py", 2, "early"),
            ds("b.py", 5, ""),
            ds("b.py", 7, "early"),
            ds("a.py", 3, "f"),
            api("a.py", 1, 1, "torch.add", "consistent"),
        ],
    )
    grouped = [
        (g.path, g.findings, [(f.function, [x.span.line for x in f.findings]) for f in g.functions])
        for g in shape_files(res)
    ]
    assert grouped == [
        ("a.py", 1, [("f", [3])]),
        ("b.py", 4, [("early", [2, 7]), ("", [5]), ("late", [9])]),
    ]


def test_each_suggestion_is_given_once_per_rule(mixed_result: ScanResult) -> None:
    advice = rule_advice(mixed_result)
    assert [(a.rule, a.name, a.findings) for a in advice] == [
        ("DS101", "data-dependent-output", 3),
        ("DS104", "boolean-mask-index", 3),
        ("DS105", "variable-topk-k", 1),
        ("DS111", "data-dependent-branch", 2),
        ("DS131", "unpadded-batches", 1),
    ]
    # A rule that words its suggestion two ways keeps both, each once, in a stable order.
    assert rule_advice(shapes_only()) == (
        RuleAdvice(
            "DS101",
            "data-dependent-output",
            1,
            "Give the output a fixed size: pad to a known maximum and carry a validity mask, or "
            "move the computation out of the network into data processing.",
        ),
        RuleAdvice(
            "DS101",
            "data-dependent-output",
            1,
            "Multiply by the mask instead of selecting with it.",
        ),
    )


def test_top_apis_rank_scope_first_then_severity_then_sites() -> None:
    """A blocker inside the network outranks a frequent host call (timm: 41 network
    scaled_dot_product_attention sites must come before 325 host jit.ignore sites)."""
    from apiscan.model import ParamChange

    gone = (ParamChange("inplace", "unsupported"),)
    renamed = (ParamChange("negative_slope", "renamed", "alpha"),)
    res = result(
        [],
        [
            *(api("h.py", i, 1, "torch.jit.ignore", "different") for i in range(1, 6)),
            api("n.py", 1, 1, "torch.sdpa", "different", scope="network"),
            api("n.py", 2, 1, "torch.leaky", "different", scope="network", changes=renamed),
            api("n.py", 3, 1, "torch.relu6", "different", scope="network", changes=gone),
            api("d.py", 1, 1, "torch.data_op", "different", scope="data"),
            # One network site makes the API a network API however many host sites it has.
            api("h.py", 9, 1, "torch.mixed", "different"),
            api("n.py", 9, 1, "torch.mixed", "different", scope="network"),
        ],
    )
    top = top_apis(api_frame(res), "different", limit=10)
    assert [(r.api, r.scope) for r in top.rows] == [
        ("torch.relu6", "network"),  # cannot run as written
        ("torch.leaky", "network"),  # must be edited
        ("torch.mixed", "network"),  # 2 sites
        ("torch.sdpa", "network"),
        ("torch.data_op", "data"),
        ("torch.jit.ignore", "host"),
    ]
    leaky = top.rows[1]
    assert leaky.changes == (("negative_slope= → alpha=", ""),)


def test_backend_summary_counts_distinct_apis_per_scope() -> None:
    from apiscan.report.aggregation import backend_summary, describe_backends

    res = result(
        [],
        [
            api("n.py", 1, 1, "torch.a", "consistent", scope="network", backends=("Ascend",)),
            api("n.py", 2, 1, "torch.a", "consistent", scope="network", backends=("Ascend",)),
            api("n.py", 3, 1, "torch.b", "consistent", scope="network", backends=("GPU", "CPU")),
            api("n.py", 4, 1, "torch.c", "consistent", scope="network"),
            api(
                "n.py",
                5,
                1,
                "torch.d",
                "different",
                scope="network",
                backends=("Ascend", "GPU"),
                backend_gap=True,
            ),
            api("n.py", 6, 1, "torch.e", "missing", scope="network"),
        ],
    )
    (row,) = backend_summary(res)
    assert (row.scope, row.apis, row.no_cpu, row.no_gpu, row.ascend_only) == (
        "network",
        4,
        2,
        1,
        1,
    )
    assert (row.undocumented, row.gaps) == (1, 1)
    assert describe_backends((row,)) == (
        "2 of 4 network APIs have no CPU kernel; 1 have no GPU kernel; 1 run on Ascend only;"
        " 1 document no platform; 1 lack the --target platform (counted as gaps).",
    )
