"""One CSV row per finding, for a spreadsheet or a quick ``pandas.read_csv``.

Rows are the JSON reporter's finding records cut to the columns a spreadsheet user expects, so
the two formats cannot drift apart; a row leaves empty the fields its kind does not have (an
error has no ``api``, an API finding no ``severity``, a dynamic-shape finding no ``status``).
"""

from __future__ import annotations

import csv
import io

from apiscan.model import ScanResult
from apiscan.report.base import register
from apiscan.report.json import finding_record

COLUMNS: tuple[str, ...] = (
    "path",
    "cell",
    "line",
    "column",
    "end_line",
    "end_column",
    "kind",
    "rule",
    "name",
    "severity",
    "scope",
    "api",
    "canonical",
    "status",
    "mindspore_api",
    "mindspore_apis",
    "backends",
    "backend_gap",
    "confidence",
    "usage",
    "namespace",
    "function",
    "unsupported_params",
    "param_changes",
    "note",
    "diff_url",
    "mapping_version",
    "message",
    "suggestion",
    "chain",
)

#: Joins the items of a list field in one cell (commas would read as columns).
LIST_SEPARATOR = ";"
#: Record fields that are lists of strings: unsupported parameter names, targets, backends.
_LIST_FIELDS = ("unsupported_params", "mindspore_apis", "backends")


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
            for name in _LIST_FIELDS:
                items = record.get(name)
                if isinstance(items, list):
                    record[name] = LIST_SEPARATOR.join(items)
            chain = record.get("chain")
            if isinstance(chain, list):
                record["chain"] = LIST_SEPARATOR.join(
                    f"{c['path']}:{_cell(c)}{c['line']}:{c['column']} {c['message']}" for c in chain
                )
            changes = record.get("param_changes")
            if isinstance(changes, list):
                record["param_changes"] = LIST_SEPARATOR.join(str(c["text"]) for c in changes)
            writer.writerow(record)
        return out.getvalue()


register(CsvReporter())


def _cell(step: dict[str, object]) -> str:
    """``cell 3:`` before a chain step's line in a notebook (as the text report writes it)."""
    return f"cell {step['cell']}:" if step.get("cell") else ""
