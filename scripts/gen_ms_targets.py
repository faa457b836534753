"""Record which MindSpore targets of the mapping tables exist in the installed MindSpore.

    python scripts/gen_ms_targets.py     # writes mapping_data/ms_targets.csv

The tables were written for MindSpore 1.10 … 2.6; APIs have been renamed and removed since.
Every distinct target any version's ``api_map.csv`` names is resolved in the installed
``mindspore`` (module import plus attribute chain, as :func:`pkgutil.resolve_name` does:
``mindspore.mint.nn.functional.relu``, ``mindspore.Tensor.view``, ``mindspore.nn.Cell.recompute``)
so the store can mark rows whose target is gone instead of suggesting it silently.
Run it after ``scripts/build_mapping.py`` whenever the tables or the MindSpore pin change;
``build_mapping.py --check`` fails while this file is stale.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import inspect
import json
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# Run as a plain script from a checkout, the package is not on sys.path yet.
sys.path.insert(0, str(REPO_ROOT))

from apiscan.mapping.schema import (  # noqa: E402
    API_MAP_FILE,
    MANIFEST_FILE,
    MS_API_SEPARATOR,
    MS_TARGET_FIELDS,
    MS_TARGETS_FILE,
)


def table_targets(data_dir: Path) -> list[str]:
    """Every distinct target named by any version listed in the manifest, sorted."""
    manifest = json.loads((data_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
    targets: set[str] = set()
    for version in manifest["versions"]:
        with (data_dir / version / API_MAP_FILE).open(encoding="utf-8", newline="") as handle:
            for record in csv.DictReader(handle):
                targets.update(filter(None, record["ms_apis"].split(MS_API_SEPARATOR)))
    return sorted(targets)


def resolve(target: str) -> str:
    """The kind of object ``target`` names in the installed MindSpore, or "" if none.

    Import errors of optional MindSpore submodules count as "does not resolve"; any other
    exception is a real problem and propagates.
    """
    try:
        obj = pkgutil.resolve_name(target)
    except (ImportError, AttributeError, ValueError):
        return ""
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "callable"
    return "attribute"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "mapping_data")
    args = parser.parse_args(argv)
    mindspore = importlib.import_module("mindspore")
    version = mindspore.__version__
    targets = table_targets(args.data_dir)
    kinds = {target: resolve(target) for target in targets}
    path = args.data_dir / MS_TARGETS_FILE
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(MS_TARGET_FIELDS)
        for target in targets:
            kind = kinds[target]
            writer.writerow((target, "true" if kind else "false", kind, version))
    missing = sum(1 for kind in kinds.values() if not kind)
    print(
        f"wrote {path}: {len(targets)} targets, {len(targets) - missing} resolve in"
        f" mindspore {version}, {missing} do not"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
