"""The PyTorch → MindSpore mapping: parsed from the official tables, loaded, matched.

``parse`` turns the official Markdown into records (used by ``scripts/build_mapping.py``);
``store`` loads the generated ``mapping_data/`` CSVs; ``match`` judges one API use.
Importing this package never imports pandas, torch or mindspore — nor, until one of the names
below is asked for, its own modules: ``apiscan --version`` and the command line's help text
import ``apiscan.mapping.store`` alone (PEP 562 ``__getattr__``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers: the same names, eagerly
    from apiscan.mapping.match import Match, match_api  # noqa: F401
    from apiscan.mapping.schema import MappingRow, ParamDiff  # noqa: F401
    from apiscan.mapping.store import (  # noqa: F401
        DEFAULT_VERSION,
        KNOWN_VERSIONS,
        MAPPING_DATA_DIR,
        MappingTable,
        UnknownVersionError,
        load_table,
        mapping_data_dir,
    )

#: Where each public name lives.
_HOMES = {
    "Match": "match",
    "match_api": "match",
    "MappingRow": "schema",
    "ParamDiff": "schema",
    "DEFAULT_VERSION": "store",
    "KNOWN_VERSIONS": "store",
    "MAPPING_DATA_DIR": "store",
    "MappingTable": "store",
    "UnknownVersionError": "store",
    "load_table": "store",
    "mapping_data_dir": "store",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'apiscan.mapping' has no attribute {name!r}")
    return getattr(importlib.import_module(f"apiscan.mapping.{home}"), name)
