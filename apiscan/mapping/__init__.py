"""The PyTorch → MindSpore mapping: parsed from the official tables, loaded, matched.

``parse`` turns the official Markdown into records (used by ``scripts/build_mapping.py``);
``store`` loads the generated ``mapping_data/`` CSVs; ``match`` judges one API use.
Importing this package never imports pandas, torch or mindspore.
"""

from apiscan.mapping.match import Match, match_api
from apiscan.mapping.schema import MappingRow, ParamDiff
from apiscan.mapping.store import (
    DEFAULT_VERSION,
    KNOWN_VERSIONS,
    MAPPING_DATA_DIR,
    MappingTable,
    UnknownVersionError,
    load_table,
    mapping_data_dir,
)

__all__ = [
    "DEFAULT_VERSION",
    "KNOWN_VERSIONS",
    "MAPPING_DATA_DIR",
    "MappingRow",
    "MappingTable",
    "Match",
    "ParamDiff",
    "UnknownVersionError",
    "load_table",
    "mapping_data_dir",
    "match_api",
]
