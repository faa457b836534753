"""Parsing of the official mapping Markdown: the API table, the diff pages, the sources README.

Everything here is a pure function of the text passed in: the build script does the reading
(local files or URLs) and the writing, so the same parser serves both and can be unit-tested
on inline snippets. The sources are hand-written Markdown with many small irregularities
(typos, broken links, merged header rows, link texts that disagree with the linked page);
each workaround below names the irregularity it exists for, and anything the parser had to
skip or correct is reported as a remark instead of being dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from urllib.parse import urljoin

from apiscan.mapping.schema import (
    CONSISTENT,
    DIFFERENT,
    MISSING,
    NO_DESCRIPTION,
    DiffPage,
    DiffTable,
    GeneralParam,
    LinkedParam,
    ParamDiff,
    ParsedTable,
    SourceInfo,
    TableRow,
    VersionData,
)

# The note of a row whose description is only a "diff" link and whose page gave no summary.
SEE_DIFF_PAGE = "see diff page"
# NO_DESCRIPTION (schema): the note of a row that names a target but says nothing about it
# (most r1.10 rows): the table does not claim consistency, so the row is not reported as
# consistent unless :func:`settle_undescribed` settles it.

_LINK = re.compile(r"\[([^\]]*)\]\(\s*([^)\s]*)\s*\)")
# r2.6.0 has "Consistent](https://...)": a link that lost its opening bracket.
_DANGLING_LINK_TAIL = re.compile(r"\]\([^)]*\)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")
_HTML_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*$")
_FENCE = re.compile(r"^(```|~~~)")
_SEPARATOR_ROW = re.compile(r"^\|?[\s:|]*-[\s:|-]*$")
_API_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
_NAMESPACE = re.compile(r"^torch\w*(?:\.\w+)*$")
_TARGET_SPLIT = re.compile(r"\s*(?:,|/|;|\bor\b|\band\b)\s*")
_DIFF_PAGE = re.compile(r"pytorch_diff/([^/?#]+?)(?:\.html|\.md)?(?:[?#].*)?$")
# "Consistent", "Consistent.", "The functions are consistent" and the r2.0 typo "Cosistent".
# Anything longer ("The functions are consistent, but ...") states a difference.
_CONSISTENT_TEXT = re.compile(
    r"^(?:the functions? (?:are|is) )?(?:consistent|cosistent)\.?$", re.IGNORECASE
)
# "PyTorch: ...", "MindSpore (mindspore.nn.Adam): ...", also with a full-width colon.
_SIDE_LABEL = re.compile(
    r"^(pytorch|torch|mindspore)\s*(?:\(\s*([^)]*?)\s*\))?\s*[:：]", re.IGNORECASE
)
# The differences section is "## Differences" on most pages, but also "## Difference",
# "## Differnnces" (kl_div) and "## Usage" (interpolate, take, bucketize).
_DIFF_SECTION = re.compile(r"^(?:differ\w*|usage)$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
_LIST_OR_QUOTE = re.compile(r"^(?:>|[-*+]\s|\d+\.\s)")
# Categories and subcategories are spelled many ways ("Parameter", "Parameters", "Param",
# "input", "Returns"; "Parameter1", "Parameters 1", "Param 1", "input 1").
_NUMBERED_KIND = re.compile(r"^(parameter|param|input|output|return)s?\s*(\d+)$", re.IGNORECASE)
_LEADING_KIND = re.compile(r"^(?:single\s+)?(parameter|param|input|output|return)", re.IGNORECASE)
_CATEGORY_NAMES = {
    "parameter": "Parameters",
    "param": "Parameters",
    "input": "Inputs",
    "output": "Outputs",
    "return": "Outputs",
}
_SUBCATEGORY_NAMES = {
    "parameter": "Parameter",
    "param": "Parameter",
    "input": "Input",
    "output": "Output",
    "return": "Return",
}
_NO_PARAM = frozenset({"", "-", "–", "—"})
_VERSION_OF_FOLDER = re.compile(r"^r?(\d+)\.(\d+)")
_MAX_SUMMARY_CHARS = 300


def plain_text(markdown: str) -> str:
    """Markdown cell or paragraph → plain text: link texts, no emphasis, single spaces."""
    text = _LINK.sub(lambda m: m.group(1), markdown)
    text = _DANGLING_LINK_TAIL.sub("", text)
    text = _HTML_BREAK.sub(" ", text)
    text = text.replace("**", "").replace("`", "")
    text = _ESCAPE.sub(r"\1", text)
    return " ".join(text.split())


def clean_api_name(text: str) -> str:
    """A dotted API name from a cell or link text, or "" if the text is not one.

    Handles the forms hand-written tables contain: escaped underscores
    (``\\_\\_getitem\\_\\_``), stray spaces (``torch.Tensor. view``), anchors, call
    parentheses and a trailing period.
    """
    name = plain_text(text).split("#", 1)[0]
    name = re.sub(r"\s*\.\s*", ".", name).strip().removesuffix("()").rstrip(".")
    return name if _API_NAME.match(name) else ""


def split_row(line: str) -> list[str]:
    """The stripped cells of a Markdown table row; ``\\|`` stays inside its cell."""
    body = line.strip()
    body = body.removeprefix("|")
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(body)]


def diff_page_key(url: str) -> str:
    """The page name of a ``pytorch_diff/<Name>.html`` link ("" for other links)."""
    match = _DIFF_PAGE.search(url)
    return match.group(1) if match else ""


def version_of_folder(folder: str) -> str:
    """Sources folder → version name: ``r2.3.1`` → ``2.3``, ``r1.10`` → ``1.10``."""
    match = _VERSION_OF_FOLDER.match(folder)
    if not match:
        raise ValueError(f"cannot read a version from folder name {folder!r}")
    return f"{match.group(1)}.{match.group(2)}"


def classify_description(
    cell: str, *, has_target: bool, base_url: str = ""
) -> tuple[str, str, str]:
    """The (status, note, diff_url) a description cell states.

    A ``Consistent`` link or the plain word → consistent; a link into ``pytorch_diff/``
    → different (its note stays "" when the link text is just "diff", for the diff page's
    summary to fill in); other free text → different, with the text as note. A row naming
    no target is missing whatever its description says.
    """
    diff_urls = [url for _, url in _LINK.findall(cell) if diff_page_key(url)]
    diff_url = urljoin(base_url, diff_urls[0]) if diff_urls else ""
    text = plain_text(cell)
    consistent = bool(_CONSISTENT_TEXT.match(text))
    note = "" if consistent or (diff_url and text.lower() == "diff") else text
    if not has_target:
        return MISSING, note, diff_url
    if consistent:
        return CONSISTENT, "", diff_url
    if not text:
        return DIFFERENT, NO_DESCRIPTION, diff_url
    return DIFFERENT, note, diff_url


def parse_targets(cell: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The MindSpore targets a cell names, and remarks on names it corrected.

    A link whose text differs only in letter case from the API page it links to
    (``[mindspore.nn.Hsigmoid](.../mindspore.nn.HSigmoid.html)``) is read as the page's
    name: the page name is the documented qualified name, the link text a typo.
    Plain-text cells ("None", "-") name no target unless they hold dotted names.
    """
    links = _LINK.findall(cell)
    remarks: list[str] = []
    if not links:
        names = (clean_api_name(token) for token in _TARGET_SPLIT.split(plain_text(cell)))
        return tuple(name for name in names if "." in name), ()
    targets: list[str] = []
    for text, url in links:
        name = clean_api_name(text)
        page = _api_page_name(url)
        if name and page and page != name and page.lower() == name.lower():
            remarks.append(f"target {name} read as {page}, the name of the page it links")
            name = page
        if name and name not in targets:
            targets.append(name)
    return tuple(targets), tuple(remarks)


def _api_page_name(url: str) -> str:
    path = url.split("#", 1)[0].split("?", 1)[0]
    if "/api_python/" not in path or not path.endswith(".html"):
        return ""
    return path.rsplit("/", 1)[-1].removesuffix(".html")


def _fit(cells: list[str], width: int) -> tuple[list[str], bool]:
    """Cells padded or trimmed to ``width``; True if non-empty cells had to be dropped.

    Some rows end with an extra empty cell (``... | [diff](...) |   |``).
    """
    while len(cells) > width and not cells[-1]:
        cells = cells[:-1]
    dropped = len(cells) > width
    return (cells + [""] * width)[:width], dropped


def _code_free_lines(markdown: str) -> Iterable[tuple[int, str]]:
    """(1-based line number, stripped line) outside fenced code, where ``#`` is a comment."""
    in_code = False
    for number, raw in enumerate(markdown.splitlines(), start=1):
        line = raw.strip()
        if _FENCE.match(line):
            in_code = not in_code
            yield number, ""
            continue
        if not in_code:
            yield number, line


def parse_mapping_table(markdown: str, *, base_url: str = "") -> ParsedTable:
    """Parse ``pytorch_api_mapping.md``: its mapping rows and its general parameter table.

    Tables are recognised by their header (``... APIs`` → mapping rows, ``Parameter
    Names`` → general parameters), so the layout differences between versions (r2.0 nests
    the namespaces under ``## PyTorch 1.8.1``; r1.10 has no general table) need no special
    cases. The namespace of a row is the last heading naming a ``torch*`` module. Rows keep
    table order: when an API has several rows (r2.4.0 lists ``torch.optim`` twice), the first
    is the primary one. Relative diff links are resolved against ``base_url``.
    """
    rows: list[TableRow] = []
    general: list[GeneralParam] = []
    remarks: list[str] = []
    namespace = ""
    table_kind: str | None = None
    for number, line in _code_free_lines(markdown):
        if not line.startswith("|"):
            table_kind = None
            heading = _HEADING.match(line)
            if heading:
                title = plain_text(heading.group(2))
                namespace = title if _NAMESPACE.match(title) else ""
            continue
        cells = split_row(line)
        if table_kind is None:
            table_kind = _table_kind(cells[0])
        elif not _SEPARATOR_ROW.match(line):
            if table_kind == "map":
                rows.extend(_mapping_rows(cells, namespace, number, base_url, remarks))
            elif table_kind == "general":
                param = _general_param(cells)
                if param.name:
                    general.append(param)
    return ParsedTable(tuple(rows), tuple(general), tuple(remarks))


def _table_kind(first_header_cell: str) -> str:
    header = first_header_cell.lower()
    if "api" in header:
        return "map"
    if "parameter" in header:
        return "general"
    return "other"


def _general_param(cells: list[str]) -> GeneralParam:
    # r2.0's table has no Descriptions column; the missing cell becomes "".
    (name, function, description), _ = _fit(cells, 3)
    return GeneralParam(plain_text(name), plain_text(function), plain_text(description))


def _mapping_rows(
    cells: list[str], namespace: str, number: int, base_url: str, remarks: list[str]
) -> list[TableRow]:
    (torch_cell, ms_cell, description), dropped = _fit(cells, 3)
    if dropped:
        remarks.append(f"line {number}: cells after the third ignored")
    torch_apis = _torch_names(torch_cell)
    if not torch_apis:
        remarks.append(
            f"line {number}: row without a PyTorch API skipped"
            f" (description: {plain_text(description)!r})"
        )
        return []
    targets, corrections = parse_targets(ms_cell)
    remarks.extend(f"line {number}: {correction}" for correction in corrections)
    status, note, diff_url = classify_description(
        description, has_target=bool(targets), base_url=base_url
    )
    return [
        TableRow(api, targets, status, note, diff_url, namespace, description, number)
        for api in torch_apis
    ]


def _torch_names(cell: str) -> tuple[str, ...]:
    links = _LINK.findall(cell)
    texts = [text for text, _ in links] if links else _TARGET_SPLIT.split(plain_text(cell))
    names = [clean_api_name(text) for text in texts]
    return tuple(dict.fromkeys(name for name in names if "." in name))


def parse_diff_page(markdown: str) -> DiffPage:
    """Parse a ``pytorch_diff/<Name>.md`` page: its summary sentence and parameter tables.

    The summary is the first sentence of the differences section that compares the two
    frameworks (names both MindSpore and PyTorch) and reads as a sentence: not a
    ``PyTorch: ...`` / ``MindSpore: ...`` description of one side, no formula, not a lead-in
    ending in a colon. Pages without such a sentence get "" (the caller says "see diff page").
    Category cells left empty mean "same as above"; a subcategory such as ``Input 1`` under
    an empty category cell names its own category.
    """
    state = _DiffPageState()
    for _, line in _code_free_lines(markdown):
        state.feed(line)
    state.flush()
    return DiffPage(state.summary(), tuple(state.tables))


class _DiffPageState:
    """Line-by-line reader behind :func:`parse_diff_page` (paragraphs, section, tables)."""

    def __init__(self) -> None:
        self.tables: list[DiffTable] = []
        self.candidates: list[str] = []
        self.paragraph: list[str] = []
        self.in_section = False
        # The summary comes first in the section: once a table or a one-side description
        # ("PyTorch: ...") has been seen, later paragraphs are details, not the summary.
        self.summary_closed = False
        self.torch_api = ""
        self.ms_api = ""
        self.params: list[ParamDiff] | None = None
        self.in_other_table = False
        self.category = ""

    def feed(self, line: str) -> None:
        if line.startswith("|"):
            self._flush_paragraph()
            self._table_line(line)
            return
        self._close_table()
        heading = _HEADING.match(line)
        if heading:
            self._flush_paragraph()
            title = plain_text(heading.group(2))
            if len(heading.group(1)) == 2:
                self.in_section = bool(_DIFF_SECTION.match(title))
            if "code example" in title.lower():
                self.in_section = False
        elif not line or _LIST_OR_QUOTE.match(line):
            self._flush_paragraph()
        else:
            self.paragraph.append(line)

    def flush(self) -> None:
        self._flush_paragraph()
        self._close_table()

    def _table_line(self, line: str) -> None:
        cells = split_row(line)
        if self.params is None and not self.in_other_table:
            self.category = ""
            if _is_param_header(cells):
                self.params = []
                return
            if len(cells) >= 5 and _kind_of(plain_text(cells[0])):
                # distributed.scatter (r2.4.0) has the table without its header row.
                self.params = []
            else:
                self.in_other_table = True
                return
        if self.params is None or _SEPARATOR_ROW.match(line):
            return
        (category, subcategory, torch_param, ms_param, note), _ = _fit(cells, 5)
        subcategory = _normal_subcategory(plain_text(subcategory))
        if category:
            self.category = _normal_category(plain_text(category))
        else:
            self.category = _kind_of(subcategory) or self.category
        self.params.append(
            ParamDiff(
                self.category,
                subcategory,
                _param_name(torch_param),
                _param_name(ms_param),
                "" if plain_text(note) in _NO_PARAM else plain_text(note),
            )
        )

    def _close_table(self) -> None:
        if self.params is not None:
            self.tables.append(DiffTable(self.torch_api, self.ms_api, tuple(self.params)))
            if self.in_section:
                self.summary_closed = True
        self.params = None
        self.in_other_table = False

    def _flush_paragraph(self) -> None:
        if not self.paragraph:
            return
        raw = " ".join(self.paragraph)
        self.paragraph = []
        label = _SIDE_LABEL.match(plain_text(raw))
        if label:
            api = clean_api_name(label.group(2) or "")
            if label.group(1).lower() == "mindspore":
                self.ms_api = api
            else:
                self.torch_api = api
            if self.in_section:
                self.summary_closed = True
        elif self.in_section and not self.summary_closed:
            self.candidates.append(raw)

    def summary(self) -> str:
        for paragraph in self.candidates:
            if "$" in paragraph:
                continue
            for sentence in _SENTENCE_END.split(plain_text(paragraph)):
                lowered = sentence.lower()
                if (
                    "mindspore" in lowered
                    and "torch" in lowered
                    and not sentence.endswith((":", "："))
                    and len(sentence) <= _MAX_SUMMARY_CHARS
                ):
                    return sentence
        return ""


def _is_param_header(cells: list[str]) -> bool:
    """``Categories | Subcategories | PyTorch | MindSpore | Difference`` and its variants
    (``Class | Sub-class ...``, ``Classification | Subclass ...``, ``Category ...``)."""
    return len(cells) >= 5 and "pytorch" in cells[2].lower() and "mindspore" in cells[3].lower()


def _param_name(cell: str) -> str:
    name = plain_text(cell)
    return "" if name in _NO_PARAM else name


def _normal_category(text: str) -> str:
    """``Parameter``/``Param``/``input``/``Returns``... → ``Parameters``/``Inputs``/``Outputs``."""
    return _CATEGORY_NAMES.get(text.lower().removesuffix("s"), text)


def _normal_subcategory(text: str) -> str:
    """``Parameter1``/``Parameters 1``/``Param 1``/``input 1`` → ``Parameter 1``/``Input 1``."""
    match = _NUMBERED_KIND.match(text)
    if not match:
        return text
    return f"{_SUBCATEGORY_NAMES[match.group(1).lower()]} {match.group(2)}"


def _kind_of(subcategory: str) -> str:
    match = _LEADING_KIND.match(subcategory)
    return _normal_category(match.group(1)) if match else ""


def link_version(table: ParsedTable, pages: Mapping[str, DiffPage]) -> VersionData:
    """Attach diff pages (keyed by :func:`diff_page_key`) to the rows that link them.

    A row whose note is empty because its description is a bare "diff" link gets the
    page's summary, or :data:`SEE_DIFF_PAGE`. Each (PyTorch API, page) pair gets the
    page's parameter tables once; on pages comparing several API pairs only the tables
    about this row's PyTorch API and MindSpore targets. Rows linking a page the sources
    lack are remarked on when ``pages`` holds any page at all (versions published
    without diff pages would otherwise drown the remarks).
    """
    rows: list[TableRow] = []
    params: list[LinkedParam] = []
    remarks = list(table.remarks)
    linked: set[tuple[str, str]] = set()
    for row in table.rows:
        page = pages.get(diff_page_key(row.diff_url)) if row.diff_url else None
        if row.diff_url and page is None and pages:
            remarks.append(f"line {row.line}: diff page {row.diff_url} is not in the sources")
        if row.diff_url and not row.note and row.status != CONSISTENT:
            summary = page.summary if page is not None else ""
            row = replace(row, note=summary or SEE_DIFF_PAGE)
        rows.append(row)
        if page is None or (row.torch_api, row.diff_url) in linked:
            continue
        linked.add((row.torch_api, row.diff_url))
        tables = [t for t in page.tables if _compares(t, row)]
        if page.tables and not tables:
            remarks.append(
                f"line {row.line}: no table of {row.diff_url} compares {row.torch_api}"
                f" with {', '.join(row.ms_apis) or 'no target'}"
            )
        params.extend(
            LinkedParam(row.torch_api, row.diff_url, t.ms_api, param)
            for t in tables
            for param in t.params
        )
    return VersionData(tuple(rows), tuple(params), table.general_params, tuple(remarks))


# Table names that are neither a torch name nor one in another letter case: the tables'
# own typos, each checked against the torch documentation the row links.
KNOWN_MISSPELLINGS: dict[str, str] = {
    # r2.3.1/r2.4.0 link .../tensors.html#torch.Tensor.log_normal_ under this text.
    "torch.Tensor.log_normal": "torch.Tensor.log_normal_",
}


class TorchNames:
    """Table spellings → real PyTorch names, from the names the torch API index knows.

    The tables are hand-written: ``torch.nn.LogSoftMax``, ``torch.nn.CeLU``,
    ``torch.nn.SeLU``, ``torch.optim.RMSProp`` exist in no torch release, so a row under
    such a name matched nothing and the API fell back to an older row or to "missing".
    A name is kept when torch knows it, corrected through :data:`KNOWN_MISSPELLINGS`, or
    replaced by the one torch name that equals it ignoring letter case.
    """

    def __init__(self, known: Iterable[str]) -> None:
        self._known = frozenset(known)
        folded: dict[str, set[str]] = {}
        for name in self._known:
            folded.setdefault(name.lower(), set()).add(name)
        self._folded = {key: next(iter(v)) for key, v in folded.items() if len(v) == 1}

    def resolve(self, name: str) -> tuple[str, str]:
        """(real name, how it was found): "exact", "misspelling", "case", or ("", "")."""
        if name in self._known:
            return name, "exact"
        fixed = KNOWN_MISSPELLINGS.get(name)
        if fixed in self._known:
            return fixed, "misspelling"
        folded = self._folded.get(name.lower())
        if folded is not None:
            return folded, "case"
        return "", ""


# The note of an r1.10-style row settled as consistent (see :func:`settle_undescribed`).
SAME_NAME_UNDESCRIBED = (
    "The table maps it to the MindSpore API of the same name and describes no difference"
    " (this table marks differences only with diff pages)."
)


def settle_undescribed(data: VersionData) -> VersionData:
    """Rows without a description, in a table that never says "Consistent", read as
    consistent when the target is the same-named member (``torch.Tensor.dtype`` →
    ``mindspore.Tensor.dtype``).

    The r1.10 table has no "Consistent" wording at all: it marks a difference by linking a
    diff page (82 rows) and leaves the description empty otherwise (291 rows). Reporting all
    of those as "different" made every ``Tensor.dtype`` a migration task. Only a target of
    the same name is settled: a function mapped to a primitive (``torch.abs`` →
    ``mindspore.ops.Abs``) is still called differently, and stays "different".
    """
    if any(row.status == CONSISTENT for row in data.rows):
        return data
    rows = tuple(
        replace(row, status=CONSISTENT, note=SAME_NAME_UNDESCRIBED)
        if row.note == NO_DESCRIPTION and len(row.ms_apis) == 1 and _same_member(row)
        else row
        for row in data.rows
    )
    return replace(data, rows=rows)


def _same_member(row: TableRow) -> bool:
    """Same leaf name, both or neither a class member (``Tensor.dtype`` → ``Tensor.dtype``,
    not ``torch.std`` → ``Tensor.std``), and not a ``mindspore.ops`` primitive class
    (``nn.KLDivLoss`` → ``ops.KLDivLoss`` is instantiated and called differently)."""
    torch_parts = row.torch_api.split(".")
    ms_parts = row.ms_apis[0].split(".")
    if torch_parts[-1] != ms_parts[-1]:
        return False
    if ms_parts[:2] == ["mindspore", "ops"] and ms_parts[-1][:1].isupper():
        return False
    torch_member = len(torch_parts) > 2 and torch_parts[-2][:1].isupper()
    ms_member = len(ms_parts) > 2 and ms_parts[-2][:1].isupper()
    if torch_member != ms_member:
        return False
    return not torch_member or torch_parts[-2] == ms_parts[-2]


def normalise_torch_names(data: VersionData, names: TorchNames) -> VersionData:
    """Rows (and their diff-page parameters) renamed to the PyTorch name they mean.

    The table's own spelling stays in ``TableRow.table_name``; every rename and every row
    whose name torch does not know is a remark, which the build report lists.
    """
    renamed: dict[str, str] = {}
    rows: list[TableRow] = []
    remarks = list(data.remarks)
    for row in data.rows:
        real, how = names.resolve(row.torch_api)
        if not real:
            remarks.append(f"line {row.line}: {row.torch_api} matches no torch API")
            rows.append(replace(row, table_name=row.torch_api))
            continue
        if real != row.torch_api:
            remarks.append(f"line {row.line}: {row.torch_api} read as {real} ({how})")
            renamed[row.torch_api] = real
        rows.append(replace(row, torch_api=real, table_name=row.torch_api))
    params = tuple(
        replace(link, torch_api=renamed.get(link.torch_api, link.torch_api)) for link in data.params
    )
    return VersionData(tuple(rows), params, data.general_params, tuple(remarks))


def _compares(table: DiffTable, row: TableRow) -> bool:
    return (not table.torch_api or table.torch_api == row.torch_api) and (
        not table.ms_api or table.ms_api in row.ms_apis
    )


def parse_sources_readme(markdown: str) -> tuple[SourceInfo, ...]:
    """The (folder, docs branch, docs commit) rows of the sources README's table."""
    infos: list[SourceInfo] = []
    columns: dict[str, int] | None = None
    for _, line in _code_free_lines(markdown):
        if not line.startswith("|"):
            columns = None
            continue
        cells = [plain_text(cell) for cell in split_row(line)]
        if columns is None:
            columns = {name.lower(): index for index, name in enumerate(cells)}
        elif not _SEPARATOR_ROW.match(line) and {"folder", "docs commit"} <= columns.keys():
            folder = cells[columns["folder"]]
            branch = cells[columns["docs branch"]] if "docs branch" in columns else folder
            infos.append(SourceInfo(folder, branch, cells[columns["docs commit"]]))
    return tuple(infos)
