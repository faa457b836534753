"""fixtures/ownattrs: an attribute the repository stores on its objects is its own.

``m.i, m.type, m.np = ...`` in one file tags layers that another file reads back as
``m.type``: that read is the repository's string, not ``torch.nn.Module.type``. The same
name called (``m.type(torch.half)``) is the torch method, and a method the repository never
stores, read without a call (``m.register_forward_hook``), stays the torch method.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scan_helpers import scan_repo

from apiscan.model import ScanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ownattrs"


@pytest.fixture(scope="module")
def result() -> ScanResult:
    return scan_repo(FIXTURE)


def _module_members(result: ScanResult) -> list[tuple[int, str, str]]:
    return sorted(
        (f.span.line, f.api, f.usage)
        for f in result.api_findings
        if f.path == "pkg/model.py" and f.api.startswith("torch.nn.Module.")
    )


def test_stored_attribute_read_is_not_the_method(result: ScanResult) -> None:
    assert (14, "torch.nn.Module.type", "reference") not in _module_members(result)


def test_calls_and_unstored_methods_stay_torch(result: ScanResult) -> None:
    assert _module_members(result) == [
        (20, "torch.nn.Module.type", "call"),
        (21, "torch.nn.Module.register_forward_hook", "reference"),
    ]


def test_the_file_records_what_it_stores() -> None:
    from apiscan.extract import FileTask, analyse

    src = (FIXTURE / "pkg" / "build.py").read_bytes()
    fa = analyse(FileTask("pkg/build.py", ("pkg.build",), False, src), frozenset({"pkg"}))
    assert fa.stored_attrs == ("i", "np", "type")
