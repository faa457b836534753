"""Safe Markdown (issue 13, item 6): paths and values from scanned code cannot inject HTML
or Markdown syntax, nor close their code span, in the scan report and in the review.

Checked by rendering with markdown-it (CommonMark + GFM tables, HTML allowed, as GitHub and
most wikis render): no element but the report's own may appear."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt  # a dependency of rich

from apiscan.pipeline import ScanOptions, scan
from apiscan.report import get_reporter
from apiscan.report.markdown import _code, _link, cell
from apiscan.review.build import build_review
from apiscan.review.markdown import render_markdown

PAYLOAD = "<img src=x onerror=alert(1)>"
RENDERER = MarkdownIt("commonmark", {"html": True}).enable("table")


def _html(markdown: str) -> str:
    return RENDERER.render(markdown)


def _tags(html: str) -> set[str]:
    return {m.lower() for m in re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", html)}


@pytest.mark.parametrize(
    "value",
    [
        "x` " + PAYLOAD,
        "``" + PAYLOAD + "``",
        "a ``` b ` c",
        "`",
        " leading and trailing ",
        "pipe | inside",
    ],
)
def test_code_span_cannot_be_closed_by_its_value(value: str) -> None:
    html = _html(f"| a |\n| --- |\n| {_code(value)} |")
    assert "<img" not in html
    [code] = re.findall(r"<code>(.*?)</code>", html, re.S)
    unescaped = code.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    assert unescaped.replace("&quot;", '"') == " ".join(value.split())


@pytest.mark.parametrize(
    "value",
    [PAYLOAD, "**bold** _em_ [link](http://x) `code` ~~s~~ \\", "&lt;b&gt; entity", "__init__"],
)
def test_cell_text_is_literal(value: str) -> None:
    html = _html(f"| a |\n| --- |\n| {cell(value)} |")
    assert _tags(html) == {"table", "thead", "tr", "th", "tbody", "td"}
    text = re.search(r"<td>(.*?)</td>", html, re.S)
    assert text is not None
    plain = text.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    assert plain.replace("&amp;", "&") == value


def test_link_label_and_target_are_safe() -> None:
    html = _html(_link(f"dir/{PAYLOAD}.py", 3))
    assert _tags(html) == {"p", "a"}
    assert 'href="dir/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E.py#L3"' in html


@pytest.fixture(scope="module")
def hostile_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / f"{PAYLOAD}.py").write_text(
        "import argparse\nimport torch\n\n"
        "parser = argparse.ArgumentParser()\n"
        f"parser.add_argument('--lr', type=float, default=0.1, help='``{PAYLOAD}``')\n"
        f"parser.add_argument('--opt', default='x` {PAYLOAD} `')\n"
        "y = torch.relu(torch.ones(2))\n"
        "optimizer = torch.optim.SGD([], lr=0.1)\n"
    )
    (root / "broken`**x**.py").write_text("def f(:\n")
    return root


def test_scan_markdown_report_shows_no_injected_html(hostile_repo: Path) -> None:
    result = scan(ScanOptions(str(hostile_repo), cache_dir=None, jobs=1))
    markdown = get_reporter("markdown").render(result)
    html = _html(markdown)
    assert "<img" not in html and "<strong>x</strong>" not in html
    assert PAYLOAD.replace("<", "&lt;").replace(">", "&gt;") in html  # shown, as text


def test_review_markdown_shows_no_injected_html(hostile_repo: Path) -> None:
    markdown = render_markdown(build_review(str(hostile_repo)))
    html = _html(markdown)
    assert "<img" not in html and "<strong>x</strong>" not in html
