"""Where the mapping scrapers' tests find their sources.

``fixtures/mapping_sources`` is a miniature mirror committed with the repository: every test
that exercises the scrapers runs on it, in a fresh clone, with no network. The byte-for-byte
regeneration of the shipped ``mapping_data/`` needs the full official pages: a local mirror at
``$APISCAN_MAPPING_SOURCES`` or ``../shared/mapping_sources`` beside the repository (CI has
one). Without it those tests are skipped and say why in pytest's summary (``-ra``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
FIXTURE_SOURCES = REPO / "fixtures" / "mapping_sources"
MIRROR_ENV = "APISCAN_MAPPING_SOURCES"


def full_mirror() -> Path | None:
    """The local mirror of the official mapping sources, or None when there is none."""
    configured = os.environ.get(MIRROR_ENV)
    candidate = Path(configured) if configured else REPO.parent / "shared" / "mapping_sources"
    return candidate if (candidate / "README.md").is_file() else None


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` imported as a module (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module
