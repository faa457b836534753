"""The generators' fetching layer: pinned raw URLs, retries, clear errors, the disk cache —
all through a fake HTTP adapter (no network), and the fetched route agrees byte for byte with
the local-mirror route on the committed miniature mirror."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
import requests
from requests.adapters import BaseAdapter
from sources_helpers import FIXTURE_SOURCES, load_script

from apiscan.mapping import sources
from apiscan.mapping.sources import Fetcher, Pin, SourceError

BASE = "https://raw.example.test/docs"
PINS = (
    Pin("r2.6.0", "r2.6.0", "8618b1ccb1991f63466f0d5b26963538c0988227", True),
    Pin("r2.0", "r2.0", "4365012b5b9e41ce07ed026837e73fa61854b4a7", False),
    Pin("r1.10", "r1.10", "293082e5dc777d3c0246f272bd5dea19dd0a736c", False),
)


class FakeDocs(BaseAdapter):
    """Answers raw-file URLs of the docs repository from the miniature mirror.

    ``failures`` maps a URL to the answers given before the real one (a status code, or an
    exception to raise); every request is logged.
    """

    def __init__(self, failures: dict[str, list[int | Exception]] | None = None) -> None:
        super().__init__()
        self.failures = failures or {}
        self.log: list[str] = []
        self.timeouts: list[object] = []

    def _file(self, url: str) -> Path | None:
        commit, _, path = url.removeprefix(f"{BASE}/").partition("/")
        folder = next((pin.folder for pin in PINS if pin.commit == commit), None)
        if folder is None:
            return None
        for prefix, sub in (
            (f"{sources.MAPPING_DIR}/", ""),
            (f"{sources.DYNAMIC_SHAPE_DIR}/", "dynamic_shape_support/"),
        ):
            if path.startswith(prefix):
                found = FIXTURE_SOURCES / folder / (sub + path.removeprefix(prefix))
                return found if found.is_file() else None
        return None

    def send(self, request: requests.PreparedRequest, **kwargs: object) -> requests.Response:
        url = str(request.url)
        self.log.append(url)
        self.timeouts.append(kwargs.get("timeout"))
        pending = self.failures.get(url)
        status = 200
        if pending:
            answer = pending.pop(0)
            if isinstance(answer, Exception):
                raise answer
            status = answer
        response = requests.Response()
        response.url = url
        response.request = request
        path = self._file(url) if status == 200 else None
        if status == 200 and path is None:
            status = 404
        response.status_code = status
        response.reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}.get(
            status, "Error"
        )
        response._content = path.read_bytes() if path is not None else b""
        return response

    def close(self) -> None:
        pass


def fetcher(adapter: FakeDocs, cache: Path | None = None, retries: int = 2) -> Fetcher:
    session = requests.Session()
    session.mount("https://", adapter)
    return Fetcher(session=session, cache_dir=cache, retries=retries, sleep=lambda s: None)


@pytest.fixture(autouse=True)
def fake_base(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sources.RAW_BASE_ENV, BASE)


@pytest.fixture(scope="module")
def build_mapping() -> ModuleType:
    return load_script("build_mapping")


@pytest.fixture(scope="module")
def build_dynamic_shape() -> ModuleType:
    return load_script("build_dynamic_shape")


def test_urls_are_the_pinned_raw_files() -> None:
    pin = PINS[0]
    assert sources.table_url(pin) == (
        f"{BASE}/{pin.commit}/docs/mindspore/source_en/note/api_mapping/pytorch_api_mapping.md"
    )
    assert sources.diff_base_url(pin).endswith("/note/api_mapping/pytorch_diff/")
    assert sources.dynamic_shape_base_url(pin).endswith("/source_en/api_python/")


def test_the_shipped_manifest_pins_every_version() -> None:
    pins = sources.pins_from_manifest(
        Path(sources.__file__).parents[2] / "mapping_data" / "manifest.json"
    )
    assert [pin.folder for pin in pins] == ["r2.6.0", "r2.4.0", "r2.3.1", "r2.0", "r1.10"]
    assert all(len(pin.commit) == 40 for pin in pins)
    assert [pin.diff_pages for pin in pins] == [True, True, False, False, False]


def test_fetched_pages_build_the_same_bytes_as_the_mirror(
    build_mapping: ModuleType, tmp_path: Path
) -> None:
    adapter = FakeDocs()
    remote = build_mapping.build(build_mapping.resolve_sources(PINS, {}, {}), fetcher(adapter))
    local = build_mapping.build(build_mapping.resolve_sources(FIXTURE_SOURCES, {}, {}), Fetcher())
    assert remote == local
    # Diff pages only where the manifest says they were read (r2.6.0), not for r2.0/r1.10.
    assert sum("/pytorch_diff/" in url for url in adapter.log) == 5  # 4 pages + 1 missing
    assert all(timeout == sources.TIMEOUT for timeout in adapter.timeouts)


def test_fetched_lists_build_the_same_bytes_as_the_mirror(build_dynamic_shape: ModuleType) -> None:
    remote = build_dynamic_shape.build(PINS[:1], fetcher(FakeDocs()))
    assert remote == build_dynamic_shape.build(FIXTURE_SOURCES)


def test_transient_failures_are_retried(tmp_path: Path) -> None:
    url = sources.table_url(PINS[0])
    adapter = FakeDocs({url: [503, requests.ConnectionError("reset"), requests.Timeout("slow")]})
    text = fetcher(adapter, retries=3).read(url)
    assert text.startswith("# PyTorch and MindSpore API Mapping Table")
    assert adapter.log == [url] * 4


def test_a_page_that_keeps_failing_is_a_clear_error() -> None:
    url = sources.table_url(PINS[0])
    adapter = FakeDocs({url: [503, 503, 503]})
    with pytest.raises(
        SourceError, match=r"cannot fetch .*: HTTP 503 Service Unavailable \(3 attempts\)"
    ):
        fetcher(adapter, retries=2).read(url)
    forbidden = FakeDocs({url: [403]})
    with pytest.raises(SourceError, match="HTTP 403"):
        fetcher(forbidden).read(url)
    assert forbidden.log == [url]  # a 403 is an answer, not a hiccup: no retry


def test_every_failed_diff_page_is_named(
    build_mapping: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    base = sources.diff_base_url(PINS[0])
    failures: dict[str, list[int | Exception]] = {
        f"{base}argmax.md": [500] * 3,
        f"{base}where.md": [requests.ConnectionError("refused")] * 3,
    }
    sources_ = build_mapping.resolve_sources(PINS[:1], {}, {})
    with pytest.raises(SourceError) as raised:
        build_mapping.build(sources_, fetcher(FakeDocs(failures)))
    lines = str(raised.value).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"cannot fetch {base}argmax.md: HTTP 500")
    assert lines[1].startswith(f"cannot fetch {base}where.md: refused")


def test_the_cache_answers_pinned_pages_and_misses_for_good(tmp_path: Path) -> None:
    url = sources.table_url(PINS[0])
    missing = f"{sources.diff_base_url(PINS[0])}Nowhere.md"
    first = FakeDocs()
    warm = fetcher(first, cache=tmp_path)
    assert warm.read(url) and warm.read_optional(missing) is None
    second = FakeDocs()
    cached = fetcher(second, cache=tmp_path)
    assert cached.read(url) == warm.read(url)
    assert cached.read_optional(missing) is None
    assert second.log == []  # both answered from disk
    with pytest.raises(SourceError, match="HTTP 404"):
        cached.read(missing)


def test_unpinned_urls_are_never_cached(tmp_path: Path) -> None:
    adapter = FakeDocs()
    session = requests.Session()
    session.mount("https://", adapter)
    reader = Fetcher(session=session, cache_dir=tmp_path, sleep=lambda s: None)
    assert reader.read_optional("https://elsewhere.test/table.md") is None
    assert list(tmp_path.iterdir()) == []


def test_sources_option_then_environment_then_fetch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(sources.SOURCES_ENV, raising=False)
    assert sources.local_mirror(None) is None
    monkeypatch.setenv(sources.SOURCES_ENV, str(tmp_path))
    assert sources.local_mirror(None) == tmp_path
    assert sources.local_mirror(Path("x")) == Path("x")


def test_a_bad_manifest_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"versions": {"2.6": {}}}))
    with pytest.raises(SourceError, match="cannot read the pinned commits"):
        sources.pins_from_manifest(tmp_path / "manifest.json")


def test_a_table_for_an_unpinned_version_needs_a_mirror(build_mapping: ModuleType) -> None:
    with pytest.raises(SourceError, match=r"does not pin: 9\.9"):
        build_mapping.resolve_sources(PINS, {"9.9": "x.md"}, {})
