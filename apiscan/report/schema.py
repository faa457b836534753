"""The JSON report's schema, and a validator for documents claiming to follow it.

The schema ships inside the package (``schemas/scan.schema.json``) so consumers of the JSON
report can validate against exactly the version they were given. jsonschema is imported only
when validating: rendering a report must not depend on it.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

SCHEMA_FILE = "scan.schema.json"
#: Validation errors listed in one exception message before the rest are only counted.
_MAX_LISTED = 10


class ReportSchemaError(ValueError):
    """A document does not follow the scan report schema; ``problems`` lists every violation."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        listed = "\n".join(f"  - {p}" for p in problems[:_MAX_LISTED])
        more = len(problems) - _MAX_LISTED
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(
            f"document does not match {SCHEMA_FILE} ({len(problems)} problems):\n{listed}{tail}"
        )


def load_schema() -> dict[str, Any]:
    """The scan report schema (draft 2020-12), freshly parsed so callers may mutate it."""
    text = (resources.files("apiscan.report") / "schemas" / SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def validate_json(doc: dict[str, Any]) -> None:
    """Raise :class:`ReportSchemaError` naming each violation and where it is (a JSON path)."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(load_schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: (list(map(str, e.path)), e.message))
    if errors:
        raise ReportSchemaError([f"{e.json_path}: {e.message}" for e in errors])
