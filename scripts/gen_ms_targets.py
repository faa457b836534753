"""Record which MindSpore targets of the mapping tables exist in the installed MindSpore,
where they run and what parameters they take.

    python scripts/gen_ms_targets.py            # writes ms_targets.csv and signatures.csv
    python scripts/gen_ms_targets.py --check    # exit 1 if either is stale

The tables were written for MindSpore 1.10 … 2.6; APIs have been renamed and removed since.
Every distinct target any version's ``api_map.csv`` names is resolved in the installed
``mindspore`` (module import plus attribute chain, as :func:`pkgutil.resolve_name` does:
``mindspore.mint.nn.functional.relu``, ``mindspore.Tensor.view``, ``mindspore.nn.Cell.recompute``)
so the store can mark rows whose target is gone instead of suggesting it silently.
Run it after ``scripts/build_mapping.py`` whenever the tables or the MindSpore pin change;
``build_mapping.py --check`` fails while this file is stale.

Besides existence, each target gets the platforms its docstring's "Supported Platforms:"
section lists (``Ascend GPU CPU``; ``Deprecated`` when the section says so; empty when the
docstring has no such section) and ``signatures.csv`` records real parameter lists: of every
existing target, and of every PyTorch API a diff page compares (for the defaults the pages
only call "different"). The scan compares a call's parameters against these instead of
guessing from the general difference table.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import inspect
import io
import json
import pkgutil
import re
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
    PARAM_DIFFS_FILE,
    SIGNATURE_FIELDS,
    SIGNATURES_FILE,
)


def _versions(data_dir: Path) -> list[str]:
    manifest = json.loads((data_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
    return list(manifest["versions"])


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def table_targets(data_dir: Path) -> list[str]:
    """Every distinct target named by any version listed in the manifest, sorted."""
    targets: set[str] = set()
    for version in _versions(data_dir):
        for record in _read(data_dir / version / API_MAP_FILE):
            targets.update(filter(None, record["ms_apis"].split(MS_API_SEPARATOR)))
    return sorted(targets)


def diff_page_apis(data_dir: Path) -> list[str]:
    """The PyTorch APIs some diff page compares parameter by parameter, sorted."""
    apis: set[str] = set()
    for version in _versions(data_dir):
        path = data_dir / version / PARAM_DIFFS_FILE
        if path.is_file():
            apis.update(record["torch_api"] for record in _read(path))
    return sorted(apis)


def _resolve_object(target: str) -> tuple[bool, object]:
    try:
        return True, pkgutil.resolve_name(target)
    except (ImportError, AttributeError, ValueError):
        return False, None


def resolve(target: str) -> str:
    """The kind of object ``target`` names in the installed MindSpore, or "" if none.

    Import errors of optional MindSpore submodules count as "does not resolve"; any other
    exception is a real problem and propagates.
    """
    found, obj = _resolve_object(target)
    if not found:
        return ""
    return kind_of(obj)


def kind_of(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "callable"
    return "attribute"


_PLATFORMS = re.compile(r"Supported Platforms:\s*\n((?:[ \t]+\S.*\n?)+)")
_PLATFORM_NAMES = ("Ascend", "GPU", "CPU")


def platforms(obj: object) -> str:
    """The platforms the docstring's "Supported Platforms:" section lists, space-separated
    in Ascend/GPU/CPU order; "Deprecated" when the section says so; "" without a section."""
    doc = inspect.getdoc(obj) or ""
    match = _PLATFORMS.search(doc + "\n")
    if not match:
        return ""
    section = match.group(1)
    found = [name for name in _PLATFORM_NAMES if f"``{name}``" in section]
    if found:
        return " ".join(found)
    return "Deprecated" if "deprecated" in section.lower() else ""


_GENERIC = {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}


def signature_text(obj: object) -> str | None:
    """``name=default`` items joined by ";" (``*args``/``**kwargs`` kept as written, no
    default written as the bare name), or None when Python cannot tell. For classes whose
    constructor signature takes ``*args``/``**kwargs``, ``__init__`` and ``__new__`` are
    tried too and the one naming most parameters wins (``mindspore.Parameter`` declares
    ``requires_grad`` in ``__init__`` behind a ``__new__(default_input, *args, **kwargs)``)."""
    candidates: list[object] = [obj]
    if inspect.isclass(obj):
        candidates += [obj.__init__, obj.__new__]  # type: ignore[misc]
    best: list[inspect.Parameter] | None = None
    for candidate in candidates:
        try:
            params = list(inspect.signature(candidate).parameters.values())  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if candidate is not obj and params and params[0].name in {"self", "cls"}:
            params = params[1:]
        generic = best is not None and any(p.kind in _GENERIC for p in best)
        if best is None or (generic and _named(params) > _named(best)):
            best = params
    if best is None:
        return None
    items = []
    for param in best:
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            items.append(f"*{param.name}")
        elif param.kind is inspect.Parameter.VAR_KEYWORD:
            items.append(f"**{param.name}")
        elif param.default is inspect.Parameter.empty:
            items.append(param.name)
        else:
            items.append(f"{param.name}={_default_text(param.default)}")
    return ";".join(items)


def _named(params: list[inspect.Parameter]) -> int:
    return sum(1 for param in params if param.kind not in _GENERIC)


def _default_text(value: object) -> str:
    text = repr(value)
    # Object reprs carry memory addresses, which would make the file differ on every run.
    return re.sub(r" at 0x[0-9a-f]+", "", text).replace("\n", " ")


def render(data_dir: Path) -> dict[str, bytes]:
    """The two generated files (name → bytes) for the installed mindspore and torch."""
    mindspore = importlib.import_module("mindspore")
    version = mindspore.__version__
    targets = table_targets(data_dir)
    target_rows = []
    signatures: dict[str, str] = {}
    for target in targets:
        found, obj = _resolve_object(target)
        kind = kind_of(obj) if found else ""
        target_rows.append(
            (target, "true" if kind else "false", kind, version, platforms(obj) if found else "")
        )
        text = signature_text(obj) if found else None
        if text is not None:
            signatures[target] = text
    importlib.import_module("torch")
    for api in diff_page_apis(data_dir):
        found, obj = _resolve_object(api)
        text = signature_text(obj) if found else None
        if text is not None:
            signatures[api] = text
    return {
        MS_TARGETS_FILE: _csv(MS_TARGET_FIELDS, target_rows),
        SIGNATURES_FILE: _csv(SIGNATURE_FIELDS, sorted(signatures.items())),
    }


def _csv(fields: Sequence[str], rows: Sequence[Sequence[object]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(fields)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "mapping_data")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the files differ from a fresh build"
    )
    args = parser.parse_args(argv)
    files = render(args.data_dir)
    if args.check:
        stale = [
            name
            for name, content in files.items()
            if not (args.data_dir / name).is_file()
            or (args.data_dir / name).read_bytes() != content
        ]
        if stale:
            print(f"stale: {', '.join(stale)} (run scripts/gen_ms_targets.py)", file=sys.stderr)
            return 1
        print(f"{', '.join(files)} up to date")
        return 0
    for name, content in files.items():
        (args.data_dir / name).write_bytes(content)
    records = list(csv.DictReader(io.StringIO(files[MS_TARGETS_FILE].decode("utf-8"))))
    missing = sum(1 for record in records if record["exists"] != "true")
    print(
        f"wrote {MS_TARGETS_FILE}: {len(records)} targets, {len(records) - missing} resolve in"
        f" mindspore {records[0]['mindspore_version'] if records else '?'}, {missing} do not;"
        f" {SIGNATURES_FILE}: {len(files[SIGNATURES_FILE].splitlines()) - 1} signatures"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
