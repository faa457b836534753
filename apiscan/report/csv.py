"""One CSV row per finding, for a spreadsheet or a quick ``pandas.read_csv``.

Rows are the JSON reporter's finding records cut to the columns a spreadsheet user expects, so
the two formats cannot drift apart; fields an error finding does not have are left empty.
"""

from __future__ import annotations

import csv
import io

from apiscan.model import ScanResult
from apiscan.report.base import register
from apiscan.report.json import finding_record

COLUMNS: tuple[str, ...] = (
    "path",
    "line",
    "column",
    "end_line",
    "end_column",
    "kind",
    "rule",
    "api",
    "status",
    "mindspore_api",
    "confidence",
    "usage",
    "namespace",
    "function",
    "unsupported_params",
    "note",
    "diff_url",
    "message",
)

#: Joins several unsupported parameter names in one cell (commas would read as columns).
PARAM_SEPARATOR = ";"


class CsvReporter:
    """A header row then one row per finding, ``\\n``-terminated, in the result's order."""

    name = "csv"
    suffix = ".csv"

    def render(self, result: ScanResult) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(
            out, fieldnames=COLUMNS, restval="", extrasaction="ignore", lineterminator="\n"
        )
        writer.writeheader()
        for finding in result.findings:
            record = finding_record(finding)
            params = record.get("unsupported_params")
            if isinstance(params, list):
                record["unsupported_params"] = PARAM_SEPARATOR.join(params)
            writer.writerow(record)
        return out.getvalue()


register(CsvReporter())
