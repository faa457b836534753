"""Unit tests of the mapping Markdown parser on small snippets taken from the real sources."""

from __future__ import annotations

import pytest

from apiscan.mapping.parse import (
    NO_DESCRIPTION,
    SEE_DIFF_PAGE,
    classify_description,
    clean_api_name,
    diff_page_key,
    link_version,
    parse_diff_page,
    parse_mapping_table,
    parse_sources_readme,
    parse_targets,
    plain_text,
    split_row,
    version_of_folder,
)
from apiscan.mapping.schema import CONSISTENT, DIFFERENT, MISSING, ParamDiff

DOCS = "https://www.mindspore.cn/docs/en/r2.6.0"
CRITERIA = f"{DOCS}/note/api_mapping/pytorch_api_mapping.html#api-mapping-consistency-criteria"
DIFF = f"{DOCS}/note/api_mapping/pytorch_diff"


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("[torch.abs](https://pytorch.org/docs/torch.abs.html)", "torch.abs"),
        # r2.6.0 has a Consistent link that lost its opening bracket.
        (f"Consistent]({CRITERIA})", "Consistent"),
        (
            "No `verbose` input param, other   functions are consistent",
            "No verbose input param, other functions are consistent",
        ),
        ("**bold**<br>next", "bold next"),
        (r"\_\_getitem\_\_", "__getitem__"),
    ],
)
def test_plain_text(markdown: str, expected: str) -> None:
    assert plain_text(markdown) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("torch.nn.functional.relu", "torch.nn.functional.relu"),
        (r"torch.Tensor.\_\_getitem\_\_", "torch.Tensor.__getitem__"),
        ("torch.Tensor. view ", "torch.Tensor.view"),
        ("torch.abs#torch.abs", "torch.abs"),
        ("torch.Tensor.size()", "torch.Tensor.size"),
        ("Unique to MindSpore", ""),
        ("", ""),
    ],
)
def test_clean_api_name(text: str, expected: str) -> None:
    assert clean_api_name(text) == expected


def test_split_row_keeps_escaped_pipes_and_empty_trailing_cells() -> None:
    assert split_row(r"| a | b \| c |  |") == ["a", "b | c", ""]


def test_diff_page_key_and_version_of_folder() -> None:
    assert diff_page_key(f"{DIFF}/distributed.barrier.html") == "distributed.barrier"
    assert diff_page_key(f"{DIFF}/Adam.html#anchor") == "Adam"
    assert diff_page_key(CRITERIA) == ""
    assert version_of_folder("r2.3.1") == "2.3"
    assert version_of_folder("r1.10") == "1.10"
    with pytest.raises(ValueError, match="master"):
        version_of_folder("master")


@pytest.mark.parametrize(
    ("cell", "status", "note"),
    [
        (f"[Consistent]({CRITERIA})", CONSISTENT, ""),
        ("Consistent", CONSISTENT, ""),
        ("Consistent.", CONSISTENT, ""),
        ("Cosistent", CONSISTENT, ""),  # r2.0 typo (torch.nn.Hardsigmoid)
        ("The functions are consistent", CONSISTENT, ""),
        (f"Consistent]({CRITERIA})", CONSISTENT, ""),
        (
            "The functions are consistent, but the parameter names are inconsistent.",
            DIFFERENT,
            "The functions are consistent, but the parameter names are inconsistent.",
        ),
        (
            "Consistent MindSpore only supports float16 and float32 inputs temporarily.",
            DIFFERENT,
            "Consistent MindSpore only supports float16 and float32 inputs temporarily.",
        ),
        (
            "Difference comparison is under development",
            DIFFERENT,
            "Difference comparison is under development",
        ),
        ("", DIFFERENT, NO_DESCRIPTION),  # r1.10 rows say nothing about the mapping
    ],
)
def test_classify_free_text_and_consistent_links(cell: str, status: str, note: str) -> None:
    assert classify_description(cell, has_target=True) == (status, note, "")


def test_classify_diff_links() -> None:
    bare = classify_description(f"[diff]({DIFF}/Adam.html)", has_target=True)
    assert bare == (DIFFERENT, "", f"{DIFF}/Adam.html")
    titled = classify_description(
        "[The functions are consistent, but the parameter data types are inconsistent]"
        "(pytorch_diff/Tensor.html)",
        has_target=True,
        base_url=f"{DOCS}/note/api_mapping/pytorch_api_mapping.html",
    )
    assert titled == (
        DIFFERENT,
        "The functions are consistent, but the parameter data types are inconsistent",
        f"{DIFF}/Tensor.html",
    )


def test_classify_without_target_is_missing_whatever_the_text() -> None:
    # r1.10: | [torch.utils.data.DataLoader](...) | None | [diff](.../DataLoader.html) |
    assert classify_description(f"[diff]({DIFF}/DataLoader.html)", has_target=False) == (
        MISSING,
        "",
        f"{DIFF}/DataLoader.html",
    )
    assert classify_description("Consistent", has_target=False)[0] == MISSING


def test_parse_targets() -> None:
    assert parse_targets("None") == ((), ())
    assert parse_targets("") == ((), ())
    assert parse_targets("mindspore.ops.abs / mindspore.Tensor.abs") == (
        ("mindspore.ops.abs", "mindspore.Tensor.abs"),
        (),
    )
    two = parse_targets(
        f"[mindspore.ops.Abs]({DOCS}/api_python/ops/mindspore.ops.Abs.html), "
        f"[mindspore.Tensor.abs]({DOCS}/api_python/mindspore/Tensor/mindspore.Tensor.abs.html)"
    )
    assert two == (("mindspore.ops.Abs", "mindspore.Tensor.abs"), ())


def test_parse_targets_prefers_the_linked_page_name_over_a_miscased_link_text() -> None:
    # r2.4.0: [mindspore.nn.Hsigmoid](.../mindspore.nn.HSigmoid.html)
    targets, remarks = parse_targets(
        f"[mindspore.nn.Hsigmoid]({DOCS}/api_python/nn/mindspore.nn.HSigmoid.html)"
    )
    assert targets == ("mindspore.nn.HSigmoid",)
    assert remarks == (
        "target mindspore.nn.Hsigmoid read as mindspore.nn.HSigmoid, the name of the page it links",
    )
    # A method documented on its class page is not a typo: the name stays.
    method = parse_targets(
        f"[mindspore.nn.Cell.recompute]({DOCS}/api_python/nn/mindspore.nn.Cell.html"
        "#mindspore.nn.Cell.recompute)"
    )
    assert method == (("mindspore.nn.Cell.recompute",), ())


MS_API = f"{DOCS}/api_python"
TABLE = f"""\
# PyTorch and MindSpore API Mapping Table

## General Difference Parameter Table

| Parameter Names |                 Functions                  |Descriptions|
| :-------------: | :----------------------------------------: |:--:|
|       out       |        Indicates the output Tensor         |Assign the result to out.|
|     layout      | Indicates the memory distribution strategy |Not supported.|

## PyTorch 1.8.1

### torch

| PyTorch 2.1 APIs | MindSpore APIs | Descriptions |
| ---------------- | -------------- | ------------ |
| [torch.abs](u)   | [mindspore.mint.abs]({MS_API}/mint/mindspore.mint.abs.html)  \
| [Consistent]({CRITERIA}) |
| [torch.amax](u)| [mindspore.mint.amax](u)|The functions are consistent, but the default \
value of dim is different.|

```python
| not | a | row |
```

## torch.distributed

| PyTorch 2.1 APIs | MindSpore APIs | Descriptions |
| ---------------- | -------------- | ------------ |
| []() | [mindspore.mint.distributed.destroy_process_group](u)  | Unique to MindSpore|

## torch.optim

| PyTorch 1.8.1 APIs | MindSpore APIs | Descriptions |
|--------------------|----------------|--------------|
| [torch.optim.Adam](u) | [mindspore.nn.Adam](u) | [diff]({DIFF}/Adam.html) |

## torch.optim

| PyTorch 1.8.1 APIs | MindSpore APIs | Descriptions |
| ------------------ | -------------- | ------------ |
| [torch.optim.Adam](u) | [mindspore.experimental.optim.Adam](u) | Consistent |

## torch.utils

| PyTorch 1.8.1 APIs | MindSpore APIs | Descriptions |
| ------------------ | -------------- | ------------ |
| [torch.utils.data.WeightedRandomSampler](u) | [mindspore.dataset.WeightedRandomSampler](u) \
| [diff]({DIFF}/WeightedRandomSampler.html)   |                                        |
| [torch.utils.data.DataLoader](u) | None | [diff]({DIFF}/DataLoader.html) |
"""


def test_parse_mapping_table_rows_namespaces_and_order() -> None:
    table = parse_mapping_table(TABLE)
    assert [(row.torch_api, row.namespace, row.status) for row in table.rows] == [
        ("torch.abs", "torch", CONSISTENT),
        ("torch.amax", "torch", DIFFERENT),
        ("torch.optim.Adam", "torch.optim", DIFFERENT),
        ("torch.optim.Adam", "torch.optim", CONSISTENT),
        ("torch.utils.data.WeightedRandomSampler", "torch.utils", DIFFERENT),
        ("torch.utils.data.DataLoader", "torch.utils", MISSING),
    ]
    adam, adam_experimental = table.rows[2], table.rows[3]
    assert adam.ms_apis == ("mindspore.nn.Adam",)
    assert adam.diff_url == f"{DIFF}/Adam.html"
    assert adam_experimental.ms_apis == ("mindspore.experimental.optim.Adam",)
    assert table.rows[1].note == (
        "The functions are consistent, but the default value of dim is different."
    )
    assert table.rows[0].description == f"[Consistent]({CRITERIA})"
    assert table.rows[5].ms_apis == ()
    assert table.rows[0].line == 16


def test_parse_mapping_table_general_params_and_remarks() -> None:
    table = parse_mapping_table(TABLE)
    assert [(p.name, p.function, p.description) for p in table.general_params] == [
        ("out", "Indicates the output Tensor", "Assign the result to out."),
        ("layout", "Indicates the memory distribution strategy", "Not supported."),
    ]
    assert table.remarks == (
        "line 27: row without a PyTorch API skipped (description: 'Unique to MindSpore')",
    )


def test_general_table_without_descriptions_column() -> None:
    # r2.0 has only two columns.
    table = parse_mapping_table(
        "| Parameter Names | Functions |\n| --- | --- |\n| out | Indicates the output Tensor |\n"
    )
    assert [(p.name, p.function, p.description) for p in table.general_params] == [
        ("out", "Indicates the output Tensor", "")
    ]


ADAM_PAGE = """\
# Differences with torch.optim.Adam

## torch.optim.Adam

```python
class torch.optim.Adam(params, lr=0.001)
```

## mindspore.nn.Adam

## Differences

`mindspore.nn.Adam` can override the function of `torch.optim.Adam`, and the function is \
the same with default parameters. The extra inputs are used to control other functions.

| Categories | Subcategories |PyTorch | MindSpore | Difference |
| --- | ---   | ---   | ---        |---  |
| Parameters | Parameter 1 | params  | params          | Consistent |
|      | Parameter 2 | lr        | learning_rate   | Same function, different names |
|      | Parameter 6 | betas     | beta1, beta2    | Same function |
|      | Parameter 7 | -         | use_locking     | PyTorch does not have this parameter |
| Input | Single input | input | x | Same function, different parameter names |

### Code Example

```python
# Differences
| Categories | Subcategories | PyTorch | MindSpore | Difference |
```
"""


def test_parse_diff_page_summary_and_table() -> None:
    page = parse_diff_page(ADAM_PAGE)
    assert page.summary == (
        "mindspore.nn.Adam can override the function of torch.optim.Adam, and the function is"
        " the same with default parameters."
    )
    assert len(page.tables) == 1
    assert page.tables[0].torch_api == page.tables[0].ms_api == ""
    assert page.tables[0].params == (
        ParamDiff("Parameters", "Parameter 1", "params", "params", "Consistent"),
        ParamDiff(
            "Parameters", "Parameter 2", "lr", "learning_rate", "Same function, different names"
        ),
        ParamDiff("Parameters", "Parameter 6", "betas", "beta1, beta2", "Same function"),
        ParamDiff(
            "Parameters", "Parameter 7", "", "use_locking", "PyTorch does not have this parameter"
        ),
        ParamDiff(
            "Inputs", "Single input", "input", "x", "Same function, different parameter names"
        ),
    )


def test_diff_page_without_a_comparing_sentence_has_no_summary() -> None:
    page = parse_diff_page(
        "## Differences\n\nPyTorch: Find the maximum element of `input`.\n\n"
        "MindSpore: Find the maximum element of `x`. MindSpore is the same as PyTorch.\n\n"
        "If the number of elements is odd, MindSpore fills the right side (unlike PyTorch).\n"
    )
    assert page.summary == ""  # only one-side descriptions and details after them


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        # take.md: "## Usage", summary before the one-side descriptions.
        (
            "## Usage\n\nMindSpore API function is basically the same as pytorch.\n\n"
            "PyTorch: Obtain the elements.\n",
            "MindSpore API function is basically the same as pytorch.",
        ),
        # kl_div.md misspells the heading.
        (
            "## Differnnces\n\nAPI function of MindSpore is consistent with that of PyTorch.\n",
            "API function of MindSpore is consistent with that of PyTorch.",
        ),
        # drop_out.md: a lead-in ending with a colon is not a summary.
        (
            "## Differences\n\nMindSpore implements the same functions as PyTorch, but the input "
            "differences are as follows:\n",
            "",
        ),
        # A sentence with a formula is not plain text.
        ("## Differences\n\nMindSpore computes $lr * gamma$ like PyTorch.\n", ""),
        # Text outside the differences section does not count.
        ("## Code Example\n\nMindSpore and PyTorch give the same result.\n", ""),
    ],
)
def test_diff_page_summary_variants(section: str, expected: str) -> None:
    assert parse_diff_page(section).summary == expected


def test_diff_page_table_variants() -> None:
    # roi_align.md: the header and the separator are on one line; create_group.md says
    # "Param"; all_reduce.md says "Returns"; categories left empty mean "same as above"
    # unless the subcategory names its own kind.
    merged = parse_diff_page(
        "| Categories | Subcategories |PyTorch | MindSpore | Difference |"
        "| --- | --- | --- | --- |--- |\n"
        "|Parameter | Parameter1 | input   | -  | Defined in the input list of MindSpore  |\n"
        "|     | Parameter3 | output_size | [pooled_height, pooled_width]  | Two parameters |\n"
        "|     | Input1 | -   | features    | The input features |\n"
        "| Param | Param 2 | ranks | rank_ids | Same |\n"
        "| Returns | Single return | async_work_handle | tuple(tensor, CommHandle) | Handle |\n"
    )
    assert merged.tables[0].params == (
        ParamDiff(
            "Parameters", "Parameter 1", "input", "", "Defined in the input list of MindSpore"
        ),
        ParamDiff(
            "Parameters",
            "Parameter 3",
            "output_size",
            "[pooled_height, pooled_width]",
            "Two parameters",
        ),
        ParamDiff("Inputs", "Input 1", "", "features", "The input features"),
        ParamDiff("Parameters", "Parameter 2", "ranks", "rank_ids", "Same"),
        ParamDiff(
            "Outputs", "Single return", "async_work_handle", "tuple(tensor, CommHandle)", "Handle"
        ),
    )


def test_diff_page_header_variants_and_headerless_table() -> None:
    # softmax.md: "Classification | Subclass"; get_rank.md: "Class | Sub-class";
    # distributed.scatter.md: no header row at all. Other tables are not parameter tables.
    page = parse_diff_page(
        "| Classification | Subclass  | PyTorch | MindSpore | difference |\n"
        "| ---- | ----- | ------- | --------- | -------------------- |\n"
        "| parameter | parameter1 | input   | x   | Same functions |\n\n"
        "|Parameters | Parameters 1 | tensor | tensor |PyTorch：result. MindSpore：the input |\n"
        "| | Parameters 2 | scatter_list | - | MindSpore does not have this parameter|\n\n"
        "|use_batch_statistics|Status|\n|:----|:----|\n|True|Training|\n"
    )
    assert [
        [(p.category, p.subcategory, p.torch_param, p.ms_param) for p in t.params]
        for t in page.tables
    ] == [
        [("Parameters", "Parameter 1", "input", "x")],
        [
            ("Parameters", "Parameter 1", "tensor", "tensor"),
            ("Parameters", "Parameter 2", "scatter_list", ""),
        ],
    ]


MULTI_TABLE_PAGE = """\
## Differences

PyTorch (torch.optim.lr_scheduler.ExponentialLR): The calculating method is $lr * gamma$.

MindSpore (mindspore.nn.exponential_decay_lr): Pre-generates the learning rate list.

| Categories | Subcategories  | PyTorch | MindSpore | Differences |
| ---- | ----- | ------- | --------- | -------------------- |
| Parameter  | Parameter 1 | optimizer   |        | MindSpore does not have this Parameter  |

MindSpore (mindspore.nn.ExponentialDecayLR): Used in the computational graph.

| Categories | Subcategories  | PyTorch | MindSpore | Differences |
| ---- | ----- | ------- | --------- | -------------------- |
| Parameter  | Parameter 1 | optimizer   |   -    | MindSpore does not have this Parameter  |
|      | Parameter 2 | gamma |   decay_rate   | Same function |
"""


def test_diff_page_tables_know_which_apis_they_compare() -> None:
    page = parse_diff_page(MULTI_TABLE_PAGE)
    assert [(t.torch_api, t.ms_api, len(t.params)) for t in page.tables] == [
        ("torch.optim.lr_scheduler.ExponentialLR", "mindspore.nn.exponential_decay_lr", 1),
        ("torch.optim.lr_scheduler.ExponentialLR", "mindspore.nn.ExponentialDecayLR", 2),
    ]
    assert page.summary == ""


def _table_linking(*rows: tuple[str, str, str]) -> str:
    lines = ["| PyTorch APIs | MindSpore APIs | Descriptions |", "| --- | --- | --- |"]
    lines += [
        f"| [{api}](u) | [{target}](u) | {description} |" for api, target, description in rows
    ]
    return "\n".join(lines) + "\n"


def test_link_version_fills_notes_and_attaches_matching_tables() -> None:
    table = parse_mapping_table(
        _table_linking(
            (
                "torch.optim.lr_scheduler.ExponentialLR",
                "mindspore.nn.exponential_decay_lr",
                f"[diff]({DIFF}/ExponentialDecayLR.html)",
            ),
            ("torch.optim.Adam", "mindspore.nn.Adam", f"[diff]({DIFF}/Adam.html)"),
            ("torch.optim.Adam", "mindspore.nn.Adam", f"[diff]({DIFF}/Adam.html)"),
            ("torch.optim.SGD", "mindspore.nn.SGD", f"[diff]({DIFF}/SGD.html)"),
        )
    )
    pages = {
        "ExponentialDecayLR": parse_diff_page(MULTI_TABLE_PAGE),
        "Adam": parse_diff_page(ADAM_PAGE),
    }
    data = link_version(table, pages)
    notes = [row.note for row in data.rows]
    assert notes[0] == SEE_DIFF_PAGE
    assert notes[1].startswith("mindspore.nn.Adam can override")
    assert notes[3] == SEE_DIFF_PAGE
    exponential = [p for p in data.params if p.torch_api.endswith("ExponentialLR")]
    assert [(p.ms_api, p.param.torch_param) for p in exponential] == [
        ("mindspore.nn.exponential_decay_lr", "optimizer")
    ]
    adam = [p for p in data.params if p.torch_api == "torch.optim.Adam"]
    assert len(adam) == 5  # once, although two rows link the page
    assert data.remarks == (f"line 6: diff page {DIFF}/SGD.html is not in the sources",)


def test_link_version_without_any_page_does_not_remark_each_link() -> None:
    table = parse_mapping_table(
        _table_linking(("torch.cat", "mindspore.ops.Concat", f"[diff]({DIFF}/Concat.html)"))
    )
    data = link_version(table, {})
    assert data.rows[0].note == SEE_DIFF_PAGE
    assert data.params == ()
    assert data.remarks == ()


def test_link_version_remarks_when_no_table_compares_the_row() -> None:
    table = parse_mapping_table(
        _table_linking(
            (
                "torch.optim.lr_scheduler.StepLR",
                "mindspore.nn.piecewise_constant_lr",
                f"[diff]({DIFF}/ExponentialDecayLR.html)",
            )
        )
    )
    data = link_version(table, {"ExponentialDecayLR": parse_diff_page(MULTI_TABLE_PAGE)})
    assert data.params == ()
    assert data.remarks == (
        f"line 3: no table of {DIFF}/ExponentialDecayLR.html compares"
        " torch.optim.lr_scheduler.StepLR with mindspore.nn.piecewise_constant_lr",
    )


def test_parse_sources_readme() -> None:
    readme = (
        "| folder | docs branch | docs commit | table rows |\n|---|---|---|---|\n"
        "| r1.10  | r1.10  | 293082e5 | 374 |\n| r2.3.1 | r2.3.1 | b1ad6ad1 | 875 |\n"
    )
    assert [(i.folder, i.branch, i.commit) for i in parse_sources_readme(readme)] == [
        ("r1.10", "r1.10", "293082e5"),
        ("r2.3.1", "r2.3.1", "b1ad6ad1"),
    ]
