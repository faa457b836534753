"""Regenerate ``mapping_data/dynamic_shape/`` from the official dynamic-shape support lists.

    python scripts/build_dynamic_shape.py            # write mapping_data/dynamic_shape/*.csv
    python scripts/build_dynamic_shape.py --check    # exit 1 (with a diff) if they are stale
    python scripts/build_dynamic_shape.py --sources DIR --check   # from a local mirror

Without ``--sources`` (or ``$APISCAN_MAPPING_SOURCES``) the lists of every version shipped in
``mapping_data/dynamic_shape/`` (today 2.6) are fetched from mindspore-ai/docs at the commit
``mapping_data/manifest.json`` pins for it (:mod:`apiscan.mapping.sources`). In a local mirror,
every folder with a ``dynamic_shape_support/`` sub-folder yields one ``<version>.csv`` with the
columns ``ms_api, kind, ascend, gpu, cpu``. The three lists are
parsed strictly: a row whose link, marks or columns do not look as expected stops the build
with its file and line, rather than quietly dropping an API. Names are stored the way code
imports them (primitive ``mindspore.Unique`` → ``mindspore.ops.Unique``; a row standing for a
whole namespace → ``mindspore.mint.*``); :mod:`apiscan.mapping.dynamic_shape` documents the
rules its look-ups follow. Output is sorted, ``\\n``-terminated UTF-8, so ``--check`` compares
bytes.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parents[1]
# Run as a plain script from a checkout, the package is not on sys.path yet.
sys.path.insert(0, str(REPO_ROOT))

from apiscan.mapping.dynamic_shape import (  # noqa: E402
    BACKENDS,
    FALSE,
    FIELDS,
    FOLDER,
    KINDS,
    NAMESPACE_SUFFIX,
    TRUE,
)
from apiscan.mapping.freshness import compare_generated  # noqa: E402
from apiscan.mapping.parse import version_of_folder  # noqa: E402
from apiscan.mapping.sources import (  # noqa: E402
    Fetcher,
    Pin,
    SourceError,
    default_cache_dir,
    dynamic_shape_base_url,
    local_mirror,
    pins_from_manifest,
)

DEFAULT_OUT = REPO_ROOT / "mapping_data"
SUPPORT_FOLDER = "dynamic_shape_support"
#: The published list of each interface kind.
LIST_FILES: dict[str, str] = {
    "functional": "dynamic_shape_func.md",
    "nn": "dynamic_shape_nn.md",
    "primitive": "dynamic_shape_primitive.md",
}
#: First header cell of each list ("API name" for functional and nn, "Operator name" else).
NAME_HEADERS = ("API name", "Operator name")
SUPPORTED, UNSUPPORTED = "✔", "❌"

_LINK = re.compile(r"^\[(?P<text>[^\]]+)\]\((?P<url>[^)\s]+)\)$")
_NAME = re.compile(r"^mindspore(\.[A-Za-z_][A-Za-z0-9_]*)+$")


@dataclass(frozen=True, slots=True, order=True)
class SupportRow:
    """One list entry as stored: the API (or ``namespace.*``), its kind, one flag a backend."""

    ms_api: str
    kind: str
    flags: tuple[bool, ...]


def parse_list(text: str, kind: str, origin: str = "<list>") -> list[SupportRow]:
    """The rows of one published list, in list order.

    The table is found by its header (``| API name | Ascend | GPU | CPU |``); its backend
    columns must be exactly :data:`BACKENDS`, in order. A row's first cell is a link to the
    API's page. Primitive rows name ``mindspore.X`` but link ``mindspore.ops.X``: the page name
    is what gets stored, and it must end with the row's own last segment. A link to a section
    (``mindspore.mint.html#mindspore-mint-nn``) whose anchor spells the row's name stands for
    every API in that namespace.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown interface kind {kind!r}; expected one of {', '.join(KINDS)}")
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if _is_header(line)), None)
    if header is None:
        raise SourceError(f"{origin}: no table with columns API name | {' | '.join(BACKENDS)}")
    if header + 1 >= len(lines) or not set(lines[header + 1]) <= set("|:- "):
        raise SourceError(f"{origin}:{header + 2}: expected the table's separator row")
    rows: list[SupportRow] = []
    for number, line in enumerate(lines[header + 2 :], start=header + 3):
        if not line.strip():
            break
        where = f"{origin}:{number}"
        cells = _cells(line)
        width = 1 + len(BACKENDS)
        # GitHub drops cells beyond the header's count; two rows end in an empty one ("||").
        if cells is None or len(cells) < width or any(cells[width:]):
            raise SourceError(f"{where}: expected {width} cells: {line!r}")
        rows.append(
            SupportRow(_entry_name(cells[0], kind, where), kind, _flags(cells[1:width], where))
        )
    if not rows:
        raise SourceError(f"{origin}: the table has no rows")
    return rows


def _cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|")):
        return None
    return [cell.strip() for cell in stripped[1:-1].split("|")]


def _is_header(line: str) -> bool:
    cells = _cells(line)
    return cells is not None and cells[0] in NAME_HEADERS and tuple(cells[1:]) == BACKENDS


def _flags(cells: Sequence[str], where: str) -> tuple[bool, ...]:
    """✔️ → True, ❌ → False; the marks carry stray variation selectors, so test containment."""
    flags = []
    for backend, cell in zip(BACKENDS, cells, strict=True):
        yes, no = SUPPORTED in cell, UNSUPPORTED in cell
        if yes == no:
            raise SourceError(f"{where}: {backend} cell {cell!r} is neither ✔️ nor ❌")
        flags.append(yes)
    return tuple(flags)


def _entry_name(cell: str, kind: str, where: str) -> str:
    match = _LINK.match(cell)
    if match is None:
        raise SourceError(f"{where}: first cell is not a link to an API page: {cell!r}")
    text = match["text"].strip()
    if not _NAME.match(text):
        raise SourceError(f"{where}: {text!r} is not a MindSpore API name")
    url = urlsplit(match["url"])
    page = url.path.rsplit("/", 1)[-1].removesuffix(".html")
    if url.fragment:
        if url.fragment != text.lower().replace(".", "-") or not text.startswith(page):
            raise SourceError(f"{where}: section link {match['url']!r} does not name {text!r}")
        return text + NAMESPACE_SUFFIX
    if kind == "primitive":
        last = text.rsplit(".", 1)[-1]
        if page != f"mindspore.ops.{last}":
            raise SourceError(f"{where}: primitive {text!r} links {page!r}, not mindspore.ops")
        return page
    if page != text:
        raise SourceError(f"{where}: {text!r} links the page of {page!r}")
    return text


def read_version(folder: Path | str, reader: Fetcher | None = None) -> list[SupportRow]:
    """Every row of one release's three lists, sorted by name.

    The primitive list also names two functions (``mindspore.nonzero`` and ``mindspore.triu``,
    linking ``mindspore.ops.nonzero`` and ``mindspore.ops.triu``) that the functional list has
    too. A name listed twice keeps one row, with the kind of the list read first (functional,
    nn, primitive), and must have the same marks both times.
    """
    reader = reader or Fetcher()
    rows: dict[str, SupportRow] = {}
    for kind, name in LIST_FILES.items():
        path = f"{folder}{name}" if isinstance(folder, str) else str(folder / name)
        text = reader.read_optional(path)
        if text is None:
            raise SourceError(f"list not found: {path}")
        for row in parse_list(text, kind, origin=path):
            seen = rows.setdefault(row.ms_api, row)
            if seen.flags != row.flags:
                raise SourceError(
                    f"{path}: {row.ms_api} is marked differently in the {seen.kind} list"
                )
    return sorted(rows.values())


def render_csv(rows: Sequence[SupportRow]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(FIELDS)
    for row in rows:
        writer.writerow([row.ms_api, row.kind, *(TRUE if f else FALSE for f in row.flags)])
    return buffer.getvalue().encode("utf-8")


def build(sources: Path | Sequence[Pin], reader: Fetcher | None = None) -> dict[str, bytes]:
    """``<version>.csv`` → content, for every sources folder that has the lists, or for
    every pinned version (raw URLs of the docs repository)."""
    if not isinstance(sources, Path):
        return {
            f"{version_of_folder(pin.folder)}.csv": render_csv(
                read_version(dynamic_shape_base_url(pin), reader)
            )
            for pin in sources
        }
    folders = sorted(p.parent for p in sources.glob(f"*/{SUPPORT_FOLDER}") if p.is_dir())
    if not folders:
        raise SourceError(f"no */{SUPPORT_FOLDER}/ folder under {sources}")
    files: dict[str, bytes] = {}
    for folder in folders:
        version = version_of_folder(folder.name)
        files[f"{version}.csv"] = render_csv(read_version(folder / SUPPORT_FOLDER, reader))
    return files


def shipped_pins() -> list[Pin]:
    """The pinned docs commits of the versions whose lists ship in ``mapping_data``."""
    versions = {path.stem for path in (DEFAULT_OUT / FOLDER).glob("*.csv")}
    pins = pins_from_manifest(DEFAULT_OUT / "manifest.json")
    chosen = [pin for pin in pins if version_of_folder(pin.folder) in versions]
    if not chosen:
        raise SourceError(f"no pinned commit for the lists in {DEFAULT_OUT / FOLDER}")
    return chosen


def compare(files: dict[str, bytes], target: Path) -> list[str]:
    """Human-readable differences between the built files and the folder ``target``."""
    return compare_generated(files, target, (p.name for p in target.glob("*.csv")))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sources",
        type=Path,
        metavar="DIR",
        help="a local mirror of the official pages (default: $APISCAN_MAPPING_SOURCES, else"
        " fetch them at the commits mapping_data/manifest.json pins)",
    )
    parser.add_argument("--cache-dir", type=Path, default=None, help="cache of fetched pages")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the mapping_data folder")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the shipped files differ from a build"
    )
    args = parser.parse_args(argv)
    target = args.out / FOLDER
    mirror = local_mirror(args.sources)
    reader = Fetcher(cache_dir=args.cache_dir or default_cache_dir())
    try:
        files = build(mirror if mirror is not None else shipped_pins(), reader)
    except SourceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        problems = compare(files, target)
        if problems:
            print(f"{target} is not what the sources produce:", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
            print("Regenerate with: python scripts/build_dynamic_shape.py", file=sys.stderr)
            return 1
        print(f"{target} is up to date ({len(files)} files)")
        return 0
    target.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (target / name).write_bytes(content)
    counts = ", ".join(
        f"{name}: {len(content.splitlines()) - 1} rows" for name, content in files.items()
    )
    print(f"wrote {len(files)} files to {target} ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
