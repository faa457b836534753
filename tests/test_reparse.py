"""Re-parsing around an edit (:mod:`apiscan.reparse`) gives LibCST's whole parse, node for node."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import libcst as cst
import pytest

from apiscan.reparse import Parsed, _lines, reparse, whole

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*.py") if p.stat().st_size > 1500)

#: Lines an edit puts in: statements, comments at odd indentation (they are attributed by
#: their neighbours), block openers, an unclosed bracket or string (the stretch must not
#: parse alone then), tabs (another indentation than the file's).
SNIPPETS = [
    "x = 1\n",
    "    # inside\n",
    "# between\n",
    "\n",
    "  # odd\n",
    "    y = f(x)\n",
    "def g():\n",
    "    pass\n",
    "if x:\n",
    "(\n",
    '"""\n',
    "class K:\n",
    "        z = 2\n",
    "\tq = 1\n",
    "@decorator\n",
    "a = 1; b = 2\n",
]


#: How many edits each way of re-parsing took (see Parsed.how).
HOW: dict[str, int] = {}


def _parse(text: str) -> cst.Module | None:
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None


def _check(prev: Parsed, text: str) -> tuple[Parsed, bool]:
    """(the parse to continue from, whether the edit was re-parsed in place)."""
    full = _parse(text)
    got = reparse(prev, text)
    if got is None:
        again = whole(text, full) if full is not None else None
        return again or prev, False
    assert full is not None, "a text LibCST refuses was re-parsed"
    assert got.module.code == text
    assert got.module.deep_equals(full), "the spliced tree differs from a whole parse"
    expected = whole(text, full)
    assert expected is not None and got.starts == expected.starts
    assert got.indent_from == expected.indent_from
    assert [ast.dump(n) for n in got.nodes] == [ast.dump(n) for n in expected.nodes]
    HOW[got.how] = HOW.get(got.how, 0) + 1
    return got, True


def test_random_edits_equal_a_whole_parse() -> None:
    in_place = edits = 0
    for path in FILES:
        rng = random.Random(path.name)
        text = path.read_text("utf-8")
        prev = whole(text, cst.parse_module(text))
        assert prev is not None
        for _ in range(25):
            lines = _lines(prev.text)
            i = rng.randrange(len(lines))
            op = rng.random()
            if op < 0.4:
                lines[i] = lines[i].rstrip("\n") + "  # typed\n"
            elif op < 0.55:
                del lines[i]
            elif op < 0.85:
                lines.insert(i, rng.choice(SNIPPETS))
            else:
                lines[i] = rng.choice(SNIPPETS)
            prev, done = _check(prev, "".join(lines))
            in_place += done
            edits += 1
    # Not a vacuous pass: many edits were re-parsed in place (the others broke the syntax,
    # touched a file's first or last lines, or most of a small file).
    assert in_place >= edits // 10, (in_place, edits)
    assert HOW.get("top", 0) >= 5 and HOW.get("inner", 0) >= 5, HOW


#: Filler definitions: the stretch re-parsed around an edit must be a small part of the file.
FILLER = "".join(f"\n\ndef filler{i}(x):\n    return x * {i}\n" for i in range(8))
MODULE = (
    '''"""Doc."""
import torch


def first(x):
    return x
'''
    + FILLER
    + """

def second(x):
    # a comment
    y = x + 1
    return y


@decorated
def third(x):
    return x  # trailing
"""
    + FILLER
    + """

z = 3
"""
)


def _edited(old: str, new: str) -> str:
    assert old in MODULE
    return MODULE.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "in_place"),
    [
        ("y = x + 1\n", "y = x + 2\n", True),  # inside a function
        ("    # a comment\n", "# a comment at column 0\n", True),
        ("    return y\n", "    return y\n    # now the block's footer\n", True),
        ("    return y\n", "    return (y\n", False),  # unclosed: whole parse (and fails)
        ("z = 3\n", "z = 4\n", False),  # the last line: whole parse
        ('"""Doc."""\n', '"""Doc!"""\n', False),  # the first lines: whole parse
        ("def first(x):\n    return x\n", "def first(x):\n\treturn x\n", False),
    ],
)
def test_edits_next_to_comments_blocks_and_file_ends(old: str, new: str, in_place: bool) -> None:
    prev = whole(MODULE, cst.parse_module(MODULE))
    assert prev is not None
    _, done = _check(prev, _edited(old, new))
    assert done is in_place
