"""Fixtures handing the reporter tests the hand-made results of ``report_cases``."""

from __future__ import annotations

import pytest
from report_cases import CASES, empty, mixed

from apiscan.model import ScanResult


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> tuple[str, ScanResult]:
    """Each hand-made result with its name (the golden files are named after it)."""
    name: str = request.param
    return name, CASES[name]()


@pytest.fixture
def mixed_result() -> ScanResult:
    return mixed()


@pytest.fixture
def empty_result() -> ScanResult:
    return empty()
