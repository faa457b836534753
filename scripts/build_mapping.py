"""Regenerate ``mapping_data/`` from the official PyTorch → MindSpore mapping Markdown.

    python scripts/build_mapping.py            # fetch the pinned pages, write mapping_data/
    python scripts/build_mapping.py --check    # exit 1 (with a diff summary) if it is stale
    python scripts/build_mapping.py --sources ../shared/mapping_sources --check   # offline
    python scripts/build_mapping.py --table 2.6=https://.../pytorch_api_mapping.md \\
        --diff-base 2.6=https://.../pytorch_diff/ --out /tmp/mapping_data

By default every version ``mapping_data/manifest.json`` pins is fetched from the MindSpore docs
repository at its pinned commit (raw Markdown, cached on disk; :mod:`apiscan.mapping.sources`).
``--sources DIR`` (or ``$APISCAN_MAPPING_SOURCES``) reads a local mirror instead: every
version its README lists. ``--table`` replaces one version's table with a local file or URL;
its diff pages come from ``--diff-base`` (a folder or URL prefix), or for a local file from
the ``pytorch_diff/`` folder beside it. The parsing lives in :mod:`apiscan.mapping.parse`;
this script only reads, fetches and writes, so the output is byte-for-byte deterministic
(sorted rows, ``\\n`` line endings, UTF-8, no timestamps) and ``--check`` can compare bytes.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

REPO_ROOT = Path(__file__).resolve().parents[1]
# Run as a plain script from a checkout, the package is not on sys.path yet.
sys.path.insert(0, str(REPO_ROOT))

from apiscan.mapping.freshness import compare_generated  # noqa: E402
from apiscan.mapping.parse import (  # noqa: E402
    TorchNames,
    diff_page_key,
    link_version,
    normalise_torch_names,
    parse_diff_page,
    parse_mapping_table,
    parse_sources_readme,
    settle_undescribed,
    version_of_folder,
)
from apiscan.mapping.schema import (  # noqa: E402
    API_MAP_FIELDS,
    API_MAP_FILE,
    GENERAL_PARAM_FIELDS,
    GENERAL_PARAMS_FILE,
    MANIFEST_FILE,
    MS_API_SEPARATOR,
    MS_TARGETS_FILE,
    PARAM_DIFF_FIELDS,
    PARAM_DIFFS_FILE,
    STATUSES,
    DiffPage,
    VersionData,
)
from apiscan.mapping.sources import (  # noqa: E402
    DIFF_FOLDER,
    TABLE_FILE,
    Fetcher,
    Pin,
    SourceError,
    default_cache_dir,
    diff_base_url,
    is_url,
    local_mirror,
    pins_from_manifest,
    table_url,
)

BUILD_REPORT_FILE = "build_report.md"
DEFAULT_TORCH_INDEX = REPO_ROOT / "mapping_data" / "torch_api" / "torch-2.13.0.json"
DEFAULT_OUT = REPO_ROOT / "mapping_data"
PUBLISHED_TABLE = (
    "https://www.mindspore.cn/docs/en/{branch}/note/api_mapping/pytorch_api_mapping.html"
)
VERSION_FOLDER = re.compile(r"^\d+\.\d+$")


@dataclass(frozen=True)
class VersionSource:
    """Where one version's table and diff pages come from, and what the manifest says."""

    version: str
    folder: str
    branch: str
    commit: str
    table: str
    diff_base: str
    table_label: str
    diff_label: str


def parse_assignments(values: Sequence[str], option: str) -> dict[str, str]:
    """``["2.6=URL", ...]`` → ``{"2.6": "URL"}``."""
    result: dict[str, str] = {}
    for value in values:
        version, sep, location = value.partition("=")
        if not sep or not version or not location:
            raise SourceError(f"{option} expects VERSION=LOCATION, got {value!r}")
        result[version] = location
    return result


def resolve_sources(
    sources: Path | Sequence[Pin], tables: dict[str, str], diff_bases: dict[str, str]
) -> list[VersionSource]:
    """The versions to build, with ``--table`` overrides added: a local mirror's README
    folders, or the pinned docs commits (raw URLs of the docs repository)."""
    if not isinstance(sources, Path):
        return _remote_sources(sources, tables, diff_bases)
    readme = sources / "README.md"
    infos = parse_sources_readme(readme.read_text(encoding="utf-8")) if readme.is_file() else ()
    by_version = {version_of_folder(info.folder): info for info in infos}
    if not by_version and not tables:
        raise SourceError(f"no sources: {readme} not found and no --table given")
    unknown = set(diff_bases) - set(by_version) - set(tables)
    if unknown:
        raise SourceError(f"--diff-base for a version with no table: {', '.join(sorted(unknown))}")
    result = []
    for version in sorted(set(by_version) | set(tables), key=_version_key, reverse=True):
        info = by_version.get(version)
        folder, branch, commit = (info.folder, info.branch, info.commit) if info else ("", "", "")
        if version in tables:
            table = table_label = tables[version]
            default_diff = "" if is_url(table) else str(Path(table).parent / DIFF_FOLDER)
            default_label = default_diff
        else:
            table = str(sources / folder / TABLE_FILE)
            table_label = f"{folder}/{TABLE_FILE}"
            default_diff = str(sources / folder / DIFF_FOLDER)
            default_label = f"{folder}/{DIFF_FOLDER}"
        if version in diff_bases:
            diff_base = diff_label = diff_bases[version]
            if not is_url(diff_base) and not Path(diff_base).is_dir():
                raise SourceError(f"diff page folder not found: {diff_base}")
        elif default_diff and Path(default_diff).is_dir():
            diff_base, diff_label = default_diff, default_label
        else:
            diff_base = diff_label = ""
        result.append(
            VersionSource(
                version, folder, branch, commit, table, diff_base, table_label, diff_label
            )
        )
    return result


def _remote_sources(
    pins: Sequence[Pin], tables: dict[str, str], diff_bases: dict[str, str]
) -> list[VersionSource]:
    """Every pinned version fetched from the docs repository; the manifest labels stay the
    mirror's (``r2.6.0/pytorch_api_mapping.md``), so either route writes the same bytes."""
    by_version = {version_of_folder(pin.folder): pin for pin in pins}
    unknown = (set(tables) | set(diff_bases)) - set(by_version)
    if unknown:
        raise SourceError(
            f"--table/--diff-base for a version the manifest does not pin: "
            f"{', '.join(sorted(unknown))} (give --sources DIR to add versions)"
        )
    result = []
    for version in sorted(by_version, key=_version_key, reverse=True):
        pin = by_version[version]
        table = tables.get(version, table_url(pin))
        label = tables.get(version, f"{pin.folder}/{TABLE_FILE}")
        diff_base = diff_bases.get(version, diff_base_url(pin) if pin.diff_pages else "")
        diff_label = diff_bases.get(version, f"{pin.folder}/{DIFF_FOLDER}" if diff_base else "")
        result.append(
            VersionSource(
                version, pin.folder, pin.branch, pin.commit, table, diff_base, label, diff_label
            )
        )
    return result


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def load_torch_names(index: Path) -> TorchNames:
    """Every public name (canonical and alias) of the torch API index."""
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SourceError(f"torch API index not found: {index}") from None
    return TorchNames([*data["names"], *data["aliases"]])


def read_version(
    source: VersionSource, reader: Fetcher, names: TorchNames | None = None
) -> tuple[VersionData, int]:
    """The linked data of one version and how many diff pages were found for it; with
    ``names``, rows are renamed to the PyTorch names they mean.

    Every diff page is tried before giving up, so one run names every page that failed.
    """
    base_url = PUBLISHED_TABLE.format(branch=source.branch) if source.branch else source.table
    table = parse_mapping_table(reader.read(source.table), base_url=base_url)
    pages: dict[str, DiffPage] = {}
    keys = sorted({diff_page_key(row.diff_url) for row in table.rows if row.diff_url})
    if source.diff_base and keys:
        failures: list[str] = []
        for key in keys:
            try:
                page = reader.read_optional(_page_location(source.diff_base, key))
            except SourceError as exc:
                failures.append(str(exc))
                continue
            if page is not None:
                pages[key] = parse_diff_page(page)
        if failures:
            raise SourceError("\n".join(failures))
        if not pages:
            location = _page_location(source.diff_base, keys[0])
            raise SourceError(f"no diff page found under {source.diff_base} (e.g. {location})")
    data = settle_undescribed(link_version(table, pages))
    if names is not None:
        data = normalise_torch_names(data, names)
    return data, len(pages)


def _page_location(base: str, key: str) -> str:
    if is_url(base):
        return f"{base.rstrip('/')}/{quote(key)}.md"
    return str(Path(base) / f"{key}.md")


def render_csv(fields: Sequence[str], records: Iterable[Sequence[object]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(fields)
    writer.writerows(records)
    return buffer.getvalue().encode("utf-8")


def render_version(data: VersionData) -> dict[str, bytes]:
    """The three CSV files of one version, keyed by file name."""
    ranks: defaultdict[str, int] = defaultdict(int)
    api_rows = []
    for row in data.rows:
        rank = ranks[row.torch_api]
        ranks[row.torch_api] += 1
        api_rows.append(
            (
                row.torch_api,
                rank,
                MS_API_SEPARATOR.join(row.ms_apis),
                row.status,
                row.namespace,
                row.note,
                row.diff_url,
                row.description,
                row.table_name if row.table_name != row.torch_api else "",
            )
        )
    api_rows.sort(key=lambda record: (record[0], record[1]))
    params = sorted(data.params, key=lambda link: (link.torch_api, link.diff_url))
    param_rows = [
        (
            link.torch_api,
            link.diff_url,
            link.ms_api,
            link.param.category,
            link.param.subcategory,
            link.param.torch_param,
            link.param.ms_param,
            link.param.note,
        )
        for link in params
    ]
    general_rows = [(p.name, p.function, p.description) for p in data.general_params]
    return {
        API_MAP_FILE: render_csv(API_MAP_FIELDS, api_rows),
        PARAM_DIFFS_FILE: render_csv(PARAM_DIFF_FIELDS, param_rows),
        GENERAL_PARAMS_FILE: render_csv(GENERAL_PARAM_FIELDS, general_rows),
    }


def build(
    sources: list[VersionSource], reader: Fetcher, names: TorchNames | None = None
) -> dict[str, bytes]:
    """Every generated file (relative POSIX path → bytes), the manifest and the build
    report included."""
    files: dict[str, bytes] = {}
    versions: dict[str, object] = {}
    report: list[tuple[str, VersionData]] = []
    for source in sources:
        data, pages_read = read_version(source, reader, names)
        report.append((f"{source.version} ({source.table_label})", data))
        rendered = render_version(data)
        for name, content in rendered.items():
            files[f"{source.version}/{name}"] = content
        statuses = Counter(row.status for row in data.rows)
        versions[source.version] = {
            "folder": source.version,
            "source_folder": source.folder,
            "branch": source.branch,
            "commit": source.commit,
            "table": source.table_label,
            "diff_pages": source.diff_label,
            "diff_pages_read": pages_read,
            "rows": {
                API_MAP_FILE: len(data.rows),
                PARAM_DIFFS_FILE: len(data.params),
                GENERAL_PARAMS_FILE: len(data.general_params),
            },
            "torch_apis": len({row.torch_api for row in data.rows}),
            "status_counts": {status: statuses[status] for status in STATUSES},
            "sha256": {
                name: hashlib.sha256(content).hexdigest() for name, content in rendered.items()
            },
            "remarks": list(data.remarks),
        }
    manifest = {
        "generated_by": "scripts/build_mapping.py",
        "default_version": sources[0].version,
        "versions": versions,
    }
    files[MANIFEST_FILE] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
    if names is not None:
        files[BUILD_REPORT_FILE] = render_build_report(report).encode("utf-8")
    return files


_RENAME_REMARK = re.compile(r"^line (\d+): (\S+) read as (\S+) \((\w+)\)$")
_UNMATCHED_REMARK = re.compile(r"^line (\d+): (\S+) matches no torch API$")


def render_build_report(versions: Sequence[tuple[str, VersionData]]) -> str:
    """Markdown listing, per table, the rows read under another name and the rows whose
    PyTorch name matches no torch API (torchvision & co. until the index covers them)."""
    lines = [
        "# Mapping build report",
        "",
        "Generated by scripts/build_mapping.py: table rows whose PyTorch name is not",
        'spelled as torch spells it. Rows under "matches nothing" are kept under the',
        "table's name; a scan matches them only if code uses that exact name.",
    ]
    for label, data in versions:
        renamed = [m.groups() for r in data.remarks if (m := _RENAME_REMARK.match(r))]
        unmatched = [m.groups() for r in data.remarks if (m := _UNMATCHED_REMARK.match(r))]
        lines += ["", f"## {label}", ""]
        lines.append(f"Read as another name ({len(renamed)}):")
        lines += [f"- line {n}: `{a}` → `{b}` ({how})" for n, a, b, how in renamed] or ["- none"]
        lines.append("")
        lines.append(f"Matches nothing ({len(unmatched)}):")
        lines += [f"- line {n}: `{a}`" for n, a in unmatched] or ["- none"]
    return "\n".join(lines) + "\n"


def write_files(files: dict[str, bytes], out: Path) -> None:
    for relative, content in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def owned_files(out: Path) -> set[str]:
    """Files under ``out`` this script is responsible for (not ``ms_targets.csv``)."""
    if not out.is_dir():
        return set()
    owned = {name for name in (MANIFEST_FILE, BUILD_REPORT_FILE) if (out / name).exists()}
    for folder in out.iterdir():
        # Other generators keep their own folders here (e.g. torch_api/); version folders
        # ("2.6", "1.10") are this script's.
        if folder.is_dir() and VERSION_FOLDER.match(folder.name):
            owned.update(f"{folder.name}/{path.name}" for path in folder.iterdir())
    return owned


def compare(files: dict[str, bytes], out: Path) -> list[str]:
    """Human-readable differences between the regenerated files and ``out``."""
    return [*compare_generated(files, out, owned_files(out)), *check_ms_targets(files, out)]


def check_ms_targets(files: dict[str, bytes], out: Path) -> list[str]:
    """``ms_targets.csv`` must list exactly the targets the tables name."""
    needed: set[str] = set()
    for relative, content in files.items():
        if relative.endswith(f"/{API_MAP_FILE}"):
            for record in csv.DictReader(io.StringIO(content.decode("utf-8"))):
                needed.update(filter(None, record["ms_apis"].split(MS_API_SEPARATOR)))
    path = out / MS_TARGETS_FILE
    if not path.is_file():
        return [f"missing: {MS_TARGETS_FILE} (run scripts/gen_ms_targets.py)"]
    with path.open(encoding="utf-8", newline="") as handle:
        listed = {record["target"] for record in csv.DictReader(handle)}
    problems = []
    if needed - listed:
        problems.append(
            f"stale: {MS_TARGETS_FILE} lacks {len(needed - listed)} target(s), e.g."
            f" {', '.join(sorted(needed - listed)[:5])} (run scripts/gen_ms_targets.py)"
        )
    if listed - needed:
        problems.append(
            f"stale: {MS_TARGETS_FILE} lists {len(listed - needed)} target(s) no table names,"
            f" e.g. {', '.join(sorted(listed - needed)[:5])} (run scripts/gen_ms_targets.py)"
        )
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sources",
        type=Path,
        metavar="DIR",
        help="a local mirror of the official pages (default: $APISCAN_MAPPING_SOURCES, else"
        " fetch them from the docs repository at the commits mapping_data/manifest.json pins)",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="where fetched pages are kept (default: $APISCAN_SOURCES_CACHE or"
        " ~/.cache/apiscan/sources)",
    )
    parser.add_argument("--retries", type=int, default=3, help="retries per page (default 3)")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if --out differs from a fresh build"
    )
    parser.add_argument(
        "--torch-index",
        type=Path,
        default=DEFAULT_TORCH_INDEX,
        help="torch API index the table names are normalised against",
    )
    parser.add_argument("--table", action="append", default=[], metavar="VERSION=URL_OR_FILE")
    parser.add_argument("--diff-base", action="append", default=[], metavar="VERSION=URL_OR_DIR")
    args = parser.parse_args(argv)
    mirror = local_mirror(args.sources)
    reader = Fetcher(cache_dir=args.cache_dir or default_cache_dir(), retries=args.retries)
    try:
        sources = resolve_sources(
            mirror if mirror is not None else pins_from_manifest(DEFAULT_OUT / MANIFEST_FILE),
            parse_assignments(args.table, "--table"),
            parse_assignments(args.diff_base, "--diff-base"),
        )
        files = build(sources, reader, load_torch_names(args.torch_index))
    except SourceError as exc:
        for line in str(exc).splitlines():
            print(f"error: {line}", file=sys.stderr)
        return 2
    if args.check:
        # Regenerate into a temporary folder first, so the check exercises the same
        # writing path as a real build.
        with tempfile.TemporaryDirectory() as tmp:
            write_files(files, Path(tmp))
            fresh = {relative: (Path(tmp) / relative).read_bytes() for relative in files}
        problems = compare(fresh, args.out)
        if problems:
            print(f"{args.out} is not what the sources produce:", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
            print("Regenerate with: python scripts/build_mapping.py", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date ({len(files)} files)")
        return 0
    write_files(files, args.out)
    for problem in check_ms_targets(files, args.out):
        print(f"warning: {problem}", file=sys.stderr)
    manifest = json.loads(files[MANIFEST_FILE])
    counts = ", ".join(
        f"{version}: {entry['rows'][API_MAP_FILE]} rows"
        for version, entry in manifest["versions"].items()
    )
    print(f"wrote {len(files)} files to {args.out} ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
