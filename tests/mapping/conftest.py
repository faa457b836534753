"""The ``mirror`` fixture: the full official mapping sources, or a skip that says why."""

from __future__ import annotations

from pathlib import Path

import pytest
from sources_helpers import full_mirror


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The full official sources; skips the test (with the reason) when no mirror exists."""
    found = full_mirror()
    if found is None:
        pytest.skip(
            "no local mirror of the official mapping sources (set $APISCAN_MAPPING_SOURCES or"
            " put one at ../shared/mapping_sources): byte-for-byte regeneration not checked"
        )
    return found
