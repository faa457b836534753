"""Shared test set-up: this directory is importable (``scan_helpers``), and no test touches
the home directory of whoever runs the suite.

Every test runs with ``HOME``, ``XDG_CACHE_HOME``, ``XDG_CONFIG_HOME`` and
``APISCAN_CACHE_DIR`` pointed at its own temporary directories, so a scan's cache, a
verification result or a tool's config lands there; a test that wants another cache sets its
own (``monkeypatch.setenv`` after this fixture). ``tests/test_home.py`` proves it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("APISCAN_CACHE_DIR", str(home / ".cache" / "apiscan"))
    yield home
