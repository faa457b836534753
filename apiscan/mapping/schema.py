"""Records of the PyTorch → MindSpore mapping data, and the layout of its CSV files.

The scraper (``scripts/build_mapping.py``) turns the official Markdown into these records
and writes them as CSV; the store reads the CSV back into them. Keeping both the records
and the column lists here is what lets the writer and the reader never disagree.
All records are frozen: the mapping is reference data shared by every file of a scan.
"""

from __future__ import annotations

from dataclasses import dataclass

CONSISTENT = "consistent"
DIFFERENT = "different"
MISSING = "missing"
STATUSES: tuple[str, ...] = (CONSISTENT, DIFFERENT, MISSING)

# A table cell can name several MindSpore targets; no API name contains ";".
MS_API_SEPARATOR = ";"

# The note of a row that names a target but says nothing about it (most r1.10 rows).
NO_DESCRIPTION = "The table gives no description of this mapping."

API_MAP_FILE = "api_map.csv"
PARAM_DIFFS_FILE = "param_diffs.csv"
GENERAL_PARAMS_FILE = "general_params.csv"
MS_TARGETS_FILE = "ms_targets.csv"
SIGNATURES_FILE = "signatures.csv"
MANIFEST_FILE = "manifest.json"

# ``rank`` orders several rows of one PyTorch API as the table does (0 = primary row);
# the files themselves are sorted by API so that regenerating them gives small diffs.
API_MAP_FIELDS: tuple[str, ...] = (
    "torch_api",
    "rank",
    "ms_apis",
    "status",
    "namespace",
    "note",
    "diff_url",
    "description",
    "table_name",
)
# ``ms_api`` is the MindSpore API a diff-page table compares against when the page says so
# (pages such as ExponentialDecayLR hold one table per MindSpore API); empty otherwise.
PARAM_DIFF_FIELDS: tuple[str, ...] = (
    "torch_api",
    "diff_url",
    "ms_api",
    "category",
    "subcategory",
    "torch_param",
    "ms_param",
    "note",
)
GENERAL_PARAM_FIELDS: tuple[str, ...] = ("name", "function", "description")
# ``platforms``: what the target's docstring lists under "Supported Platforms:"
# ("Ascend GPU CPU", "Ascend", "Deprecated"; "" when it documents none).
MS_TARGET_FIELDS: tuple[str, ...] = ("target", "exists", "kind", "mindspore_version", "platforms")
# Real parameter lists (``name=default`` joined by ";") of MindSpore targets and of the
# PyTorch APIs diff pages compare, as ``inspect.signature`` gives them.
SIGNATURE_FIELDS: tuple[str, ...] = ("api", "params")


@dataclass(frozen=True)
class ParamDiff:
    """One row of a diff page's ``Categories | Subcategories | ...`` table.

    An empty ``torch_param`` means PyTorch has no such parameter; an empty ``ms_param``
    means MindSpore has none, which is what makes a passed parameter unsupported.
    """

    category: str
    subcategory: str
    torch_param: str
    ms_param: str
    note: str


@dataclass(frozen=True)
class MappingRow:
    """One PyTorch API's mapping as one version of the official table states it.

    ``target_exists`` is None when the row names no target (or the installed-target list
    does not know it); otherwise whether any target resolves in the MindSpore that
    ``ms_targets.csv`` was generated from. ``targets_exist`` gives that per target, in
    ``ms_apis`` order, so a caller can pick the first target that still exists.
    """

    torch_api: str
    ms_apis: tuple[str, ...]
    status: str
    note: str
    diff_url: str
    namespace: str
    source_version: str
    target_exists: bool | None
    params: tuple[ParamDiff, ...] = ()
    targets_exist: tuple[bool | None, ...] = ()
    description: str = ""
    table_name: str = ""
    # Supported platforms per target (``ms_apis`` order), from ms_targets.csv.
    targets_platforms: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableRow:
    """A row of the Markdown mapping table after parsing, before it is written as CSV.

    ``line`` is the 1-based line in the Markdown source, kept for the parse remarks.
    """

    torch_api: str
    ms_apis: tuple[str, ...]
    status: str
    note: str
    diff_url: str
    namespace: str
    description: str
    line: int
    # The PyTorch name as the table spells it, when the build read it as another name
    # (``torch.nn.LogSoftMax`` → ``torch.nn.LogSoftmax``); "" before normalisation.
    table_name: str = ""


@dataclass(frozen=True)
class GeneralParam:
    """A row of the "General Difference Parameter Table": a parameter MindSpore never takes."""

    name: str
    function: str
    description: str


@dataclass(frozen=True)
class ParsedTable:
    """The content of one version's ``pytorch_api_mapping.md``.

    ``remarks`` are human-readable notes about source oddities the parser worked around
    (skipped rows, corrected names); the build records them in the manifest.
    """

    rows: tuple[TableRow, ...]
    general_params: tuple[GeneralParam, ...]
    remarks: tuple[str, ...]


@dataclass(frozen=True)
class DiffTable:
    """One parameter table of a diff page with the APIs it compares, where the page says.

    Pages comparing several API pairs introduce each table with ``PyTorch (torch.x):`` /
    ``MindSpore (mindspore.y):`` paragraphs; ``torch_api`` / ``ms_api`` are "" otherwise.
    """

    torch_api: str
    ms_api: str
    params: tuple[ParamDiff, ...]


@dataclass(frozen=True)
class DiffPage:
    """The facts taken from one ``pytorch_diff/<Name>.md`` page."""

    summary: str
    tables: tuple[DiffTable, ...]


@dataclass(frozen=True)
class LinkedParam:
    """A parameter difference attached to the PyTorch API whose table row links the page."""

    torch_api: str
    diff_url: str
    ms_api: str
    param: ParamDiff


@dataclass(frozen=True)
class VersionData:
    """Everything one version contributes to ``mapping_data/<version>/``."""

    rows: tuple[TableRow, ...]
    params: tuple[LinkedParam, ...]
    general_params: tuple[GeneralParam, ...]
    remarks: tuple[str, ...]


@dataclass(frozen=True)
class SourceInfo:
    """A row of the sources README: which docs branch and commit a folder was taken from."""

    folder: str
    branch: str
    commit: str
