"""The reporter registry: lookup by name, lazy loading, and who pays for pandas."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from apiscan.model import ScanResult
from apiscan.report import base, formats, get_reporter, register

#: The checkout's root: a fresh interpreter started there imports this tree's ``apiscan``.
ROOT = Path(__file__).resolve().parents[2]


def test_registry_lists_the_builtin_formats() -> None:
    assert formats() == ("concise", "csv", "json", "markdown", "sarif", "text")
    for name in formats():
        reporter = get_reporter(name)
        assert reporter.name == name
        assert reporter.suffix.startswith(".")


def test_unknown_format_is_rejected_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"'xml'.*csv, json, markdown, sarif, text"):
        get_reporter("xml")


class _Upper:
    name = "upper"
    suffix = ".up"

    def render(self, result: ScanResult) -> str:
        return result.root.upper() + "\n"


def test_register_adds_a_plugin_and_refuses_a_second_one_under_the_same_name(
    monkeypatch: pytest.MonkeyPatch, mixed_result: ScanResult
) -> None:
    monkeypatch.setattr(base, "_registry", dict(base._registry))
    plugin = _Upper()
    assert register(plugin) is plugin
    assert register(plugin) is plugin  # registering the same object again is harmless
    assert get_reporter("upper").render(mixed_result) == "/SRV/REPOS/TINYDET\n"
    assert "upper" in formats()
    with pytest.raises(ValueError, match="already registered"):
        register(_Upper())


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    return set(out.split())


def test_importing_the_package_loads_neither_pandas_nor_any_format() -> None:
    modules = _modules_after("import apiscan.report")
    assert "pandas" not in modules
    assert "apiscan.report.text" not in modules
    assert "apiscan.report.json" not in modules


def test_json_and_csv_render_without_pandas() -> None:
    code = (
        "from apiscan.model import MappingInfo, ScanResult\n"
        "from apiscan.report import get_reporter\n"
        "r = ScanResult('.', '0', MappingInfo('2.4.0', False, ()), (), ())\n"
        "get_reporter('json').render(r)\n"
        "get_reporter('csv').render(r)\n"
    )
    modules = _modules_after(code)
    assert "pandas" not in modules
    # only the formats asked for are imported: not the text report's tabulate
    assert {"apiscan.report.json", "apiscan.report.csv"} <= modules
    assert not {"apiscan.report.text", "apiscan.report.sarif", "tabulate"} & modules


def test_text_and_markdown_render_without_pandas_or_numpy() -> None:
    """The human-readable roll-ups are plain Python: pandas and numpy cost ~0.4 s of CPU."""
    code = (
        "from apiscan.model import MappingInfo, ScanResult\n"
        "from apiscan.report import get_reporter\n"
        "r = ScanResult('.', '0', MappingInfo('2.4.0', False, ()), (), ())\n"
        "assert get_reporter('text').render(r)\n"
        "assert get_reporter('markdown').render(r)\n"
    )
    modules = _modules_after(code)
    assert {"apiscan.report.text", "apiscan.report.markdown"} <= modules
    assert not {"pandas", "numpy"} & modules


def test_listing_the_formats_imports_none() -> None:
    modules = _modules_after("from apiscan.report import formats\nformats()")
    assert not {"apiscan.report.text", "apiscan.report.json", "tabulate"} & modules
