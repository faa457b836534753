"""``# apiscan: ignore[...]`` parsing, and its effect on a real scan."""

from __future__ import annotations

import textwrap
import tokenize
from pathlib import Path

import pytest

from apiscan.pipeline import ScanOptions, scan
from apiscan.rules import suppression
from apiscan.rules.suppression import parse_suppressions


def parse(src: str) -> dict[int, frozenset[str]]:
    return parse_suppressions(textwrap.dedent(src).lstrip("\n"))


def test_one_id_several_ids_and_bare_ignore() -> None:
    found = parse(
        """
        import torch
        a = torch.unique(x)  # apiscan: ignore[DS101]
        b = x.topk(int(k))  # apiscan: ignore[DS110, DS118]
        c = x[mask]  # apiscan: ignore
        d = x[:k]
        """
    )
    assert found == {
        2: frozenset({"DS101"}),
        3: frozenset({"DS110", "DS118"}),
        4: frozenset(),
    }


def test_spacing_case_and_other_comment_text() -> None:
    found = parse(
        """
        a = f(x)  #apiscan:ignore[ ds101 ,DS102 ]
        b = g(x)  # noqa: E501  # apiscan: ignore[DS103]
        c = h(x)  # the reason first. apiscan: ignore[DS104]
        """
    )
    # As with ruff's noqa comments, the directive must open a comment or a ``#`` segment of one.
    assert found == {
        1: frozenset({"DS101", "DS102"}),
        2: frozenset({"DS103"}),
    }


def test_directive_inside_strings_does_not_count() -> None:
    found = parse(
        '''
        message = "# apiscan: ignore[DS101]"
        doc = """
        x = torch.unique(t)  # apiscan: ignore
        """
        y = f"{x} # apiscan: ignore"
        z = torch.unique(t)  # apiscan: ignore[DS101]
        '''
    )
    assert found == {6: frozenset({"DS101"})}


@pytest.mark.parametrize(
    "comment",
    [
        "# apiscan: ignore[]",
        "# apiscan: ignore[unique]",
        "# apiscan: ignore[DS1]",
        "# apiscan: ignored",
        "# apiscan: noqa",
        "# apiscan ignore[DS101]",
    ],
)
def test_malformed_directive_suppresses_nothing(comment: str) -> None:
    """A typo must not silently become "ignore every rule on this line"."""
    assert parse_suppressions(f"y = torch.unique(x)  {comment}\n") == {}


def test_unparsable_tail_keeps_directives_before_it() -> None:
    src = 'a = f(x)  # apiscan: ignore[DS101]\nb = """never closed\n'
    assert parse_suppressions(src) == {1: frozenset({"DS101"})}


def test_file_without_directive_is_not_tokenized(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path: most files never mention apiscan, and pay only a substring test."""

    def refuse(*_: object) -> None:
        raise AssertionError("tokenize called on a file without a directive")

    monkeypatch.setattr(suppression.tokenize, "generate_tokens", refuse)
    text = "import torch\n" + "x = torch.unique(t)  # a comment\n" * 5000
    assert parse_suppressions(text) == {}
    # Mentions the word, but never as a comment directive: still no tokenizing.
    assert parse_suppressions("import apiscan\nprint('apiscan: ignore')\n" * 3) == {}


def test_file_mentioning_the_word_is_tokenized_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = tokenize.generate_tokens

    def counting(readline):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(readline)

    monkeypatch.setattr(suppression.tokenize, "generate_tokens", counting)
    assert parse_suppressions("x = 1  # apiscan: ignore\n" * 3) == {
        1: frozenset(),
        2: frozenset(),
        3: frozenset(),
    }
    assert calls == [1]


def test_scan_drops_suppressed_findings_only_for_the_named_rule(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(
        textwrap.dedent(
            """
            import torch
            from torch import nn


            class Head(nn.Module):
                def forward(self, labels):
                    a = torch.unique(labels)
                    b = torch.unique(labels)  # apiscan: ignore[DS101]
                    c = torch.unique(labels)  # apiscan: ignore[DS110]
                    d = torch.unique(labels)  # apiscan: ignore
                    return a, b, c, d
            """
        ).lstrip("\n")
    )
    result = scan(ScanOptions(str(tmp_path), cache_dir=None, jobs=1))
    found = {(f.rule, f.span.line) for f in result.shape_findings}
    assert found == {("DS101", 7), ("DS101", 9)}
