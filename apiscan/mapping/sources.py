"""Where the mapping generators' pages come from: a local mirror, or the official docs.

The generators (``scripts/build_mapping.py``, ``scripts/build_dynamic_shape.py``) read the
official MindSpore documentation pages in their Markdown form. With ``--sources DIR`` (or
``$APISCAN_MAPPING_SOURCES``) they read a local mirror laid out like the docs' own folders
(``README.md`` with the pinned commits, ``r2.6.0/pytorch_api_mapping.md``,
``r2.6.0/pytorch_diff/<Name>.md``, ``r2.6.0/dynamic_shape_support/*.md``). Without one they
fetch the raw pages from the docs repository at the commits ``mapping_data/manifest.json``
pins, so a fresh clone can regenerate and ``--check`` the shipped data. Pinned pages never
change, so every answer (a 404 included) is cached on disk for good.

This module only fetches; how the pages are parsed is :mod:`apiscan.mapping.parse`'s business.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

#: A local mirror of the official sources, when no ``--sources`` is given.
SOURCES_ENV = "APISCAN_MAPPING_SOURCES"
#: Where fetched pages are cached (default ``~/.cache/apiscan/mapping_sources``).
CACHE_ENV = "APISCAN_SOURCES_CACHE"
#: Raw files of the docs repository: ``{base}/{commit}/{path}``.
RAW_BASE_ENV = "APISCAN_DOCS_RAW_BASE"
DEFAULT_RAW_BASE = "https://raw.githubusercontent.com/mindspore-ai/docs"
#: Paths inside the docs repository.
MAPPING_DIR = "docs/mindspore/source_en/note/api_mapping"
DYNAMIC_SHAPE_DIR = "docs/mindspore/source_en/api_python"
TABLE_FILE = "pytorch_api_mapping.md"
DIFF_FOLDER = "pytorch_diff"

TIMEOUT = (10.0, 30.0)  # connect, read (seconds)
RETRIES = 3
_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
_MISSING = b"\0apiscan: HTTP 404\0"  # cached marker of a page the pinned commit lacks


class SourceError(Exception):
    """A source that cannot be read or fetched; reported as one line each, exit status 2."""


@dataclass(frozen=True)
class Pin:
    """One docs version the shipped data was generated from."""

    folder: str  # the mirror's folder name, e.g. "r2.6.0"
    branch: str
    commit: str
    diff_pages: bool  # whether the diff pages were read for this version


def pins_from_manifest(path: Path) -> tuple[Pin, ...]:
    """The pinned docs commits ``mapping_data/manifest.json`` records, newest first."""
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        return tuple(
            Pin(
                entry["source_folder"],
                entry["branch"],
                entry["commit"],
                bool(entry.get("diff_pages")),
            )
            for entry in manifest["versions"].values()
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SourceError(f"cannot read the pinned commits from {path}: {exc}") from exc


def raw_base() -> str:
    return os.environ.get(RAW_BASE_ENV, DEFAULT_RAW_BASE).rstrip("/")


def table_url(pin: Pin) -> str:
    return f"{raw_base()}/{pin.commit}/{MAPPING_DIR}/{TABLE_FILE}"


def diff_base_url(pin: Pin) -> str:
    return f"{raw_base()}/{pin.commit}/{MAPPING_DIR}/{DIFF_FOLDER}/"


def dynamic_shape_base_url(pin: Pin) -> str:
    return f"{raw_base()}/{pin.commit}/{DYNAMIC_SHAPE_DIR}/"


def local_mirror(option: Path | None) -> Path | None:
    """``--sources DIR``, else ``$APISCAN_MAPPING_SOURCES``, else None (fetch the pages)."""
    if option is not None:
        return option
    configured = os.environ.get(SOURCES_ENV)
    return Path(configured) if configured else None


def default_cache_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "apiscan" / "sources"


def is_url(location: str) -> bool:
    return location.startswith(("http://", "https://"))


class Fetcher:
    """Reads local files and URLs alike: one HTTP session, retries, timeouts, a disk cache.

    A connection error, a timeout or a 429/5xx answer is retried ``retries`` times with a
    growing pause; any other answer but 200 (and 404 where the caller allows a missing page)
    is a :class:`SourceError` naming the URL. ``session`` and ``sleep`` are injectable so the
    tests run without a network.
    """

    def __init__(
        self,
        *,
        session: requests.Session | None = None,
        cache_dir: Path | None = None,
        retries: int = RETRIES,
        timeout: tuple[float, float] = TIMEOUT,
        backoff: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._session = session
        self.cache_dir = cache_dir
        self.retries = retries
        self.timeout = timeout
        self.backoff = backoff
        self.sleep = sleep
        self.fetched = 0  # network requests answered (cache hits not counted)

    def read(self, location: str) -> str:
        text = self.read_optional(location, missing="error")
        assert text is not None
        return text

    def read_optional(self, location: str, *, missing: str = "none") -> str | None:
        """The text at ``location``, or None if it does not exist (a file, or HTTP 404)."""
        if not is_url(location):
            path = Path(location)
            if path.is_file():
                return path.read_text(encoding="utf-8")
            if missing == "error":
                raise SourceError(f"source file not found: {location}")
            return None
        cacheable = location.startswith(f"{raw_base()}/")  # pinned pages only
        content = self._cached(location) if cacheable else None
        if content is None:
            content = self._fetch(location)
            if cacheable:
                self._store(location, content)
        if content == _MISSING:
            if missing == "error":
                raise SourceError(f"cannot fetch {location}: HTTP 404 Not Found")
            return None
        return content.decode("utf-8")

    def _fetch(self, url: str) -> bytes:
        if self._session is None:
            self._session = requests.Session()
        problem = ""
        for attempt in range(self.retries + 1):
            if attempt:
                self.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                response = self._session.get(url, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as exc:
                problem = str(exc)
                continue
            except requests.RequestException as exc:
                raise SourceError(f"cannot fetch {url}: {exc}") from exc
            if response.status_code in _RETRY_STATUS:
                problem = f"HTTP {response.status_code} {response.reason}"
                continue
            self.fetched += 1
            if response.status_code == 404:
                return _MISSING
            if response.status_code != 200:
                raise SourceError(
                    f"cannot fetch {url}: HTTP {response.status_code} {response.reason}"
                )
            return response.content
        tries = self.retries + 1
        raise SourceError(f"cannot fetch {url}: {problem} ({tries} attempts)")

    def _cache_path(self, url: str) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / hashlib.sha256(url.encode()).hexdigest()

    def _cached(self, url: str) -> bytes | None:
        path = self._cache_path(url)
        if path is None or not path.is_file():
            return None
        return path.read_bytes()

    def _store(self, url: str, content: bytes) -> None:
        path = self._cache_path(url)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_bytes(content)
            partial.replace(path)  # a reader never sees half a page
        except OSError:
            pass  # a cache that cannot be written only costs a refetch next time
