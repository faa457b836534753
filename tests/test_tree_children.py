"""A node's children read from its fields are ``node.children``: the same nodes, in the same
order, for every node of the golden fixtures and of every kind of statement and expression
Python has; and a search over them meets the nodes a LibCST visitor meets."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from apiscan.extract.tree import children_of, descendants

REPO = Path(__file__).resolve().parents[1]

EVERY_KIND = '''
from __future__ import annotations
from . import a as b, c
from .. pkg.mod import (x, y as z,)
from m import *
import os.path as p, sys
@dec(1)
@d.e
async def f(a, /, b: int = 1, *args: "T", c, d=2, **kw) -> list[int]:
    global g
    nonlocal_ = lambda q, *r, s=3, **t: (q, *r)
    async with open(a) as fh, (yield):
        await fh
    async for i, (j, *k) in aiter():
        continue
    x = [i for i in range(3) if i for j in i]
    y = {k: v async for k, v in d.items()}
    z = {*a, *b}
    w = (i := 3) + -x ** ~y // 2 @ m
    del x[1:2:3, ..., ::], y.z
    assert x, "m"
    raise E from None
    return f"{a!r:>{w}} {b=} {{}}" "more", rb"\\x"
class C(B, metaclass=M, **opts):
    """doc"""
    a: int = 1
    b: list[int]
    def g(self): yield from x; return
try:
    pass
except* (E, F) as e:
    pass
else:
    pass
finally:
    pass
while x if y else z:
    break
else:
    x += 1; y -= 2
match p:
    case [1, 2, *rest] if rest:
        pass
    case {"k": v, **kw}:
        pass
    case P(a, b=2) | Q() as q:
        pass
    case _:
        pass
with (open(a) as b, open(c) as d):
    print(a, sep="", *b, **c)
x = not a and b or c in d is not e < f
type T[U: int, *V, **W] = list[U]
'''


def _all_nodes(module: cst.Module) -> list[cst.CSTNode]:
    out, stack = [], [module]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def _sources() -> list[tuple[str, str]]:
    found = [("every kind", EVERY_KIND)]
    # the fixtures whose reports are golden (tests/test_golden_reports.py)
    for folder in ("tinydet", "dynshape", "crossfn", "setloss", "setpred", "promptseg"):
        for path in sorted((REPO / "fixtures" / folder).rglob("*.py")):
            found.append((str(path.relative_to(REPO)), path.read_text("utf-8", "replace")))
    return found


def test_children_of_is_children_everywhere() -> None:
    checked = 0
    for name, text in _sources():
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            if name == "every kind":
                raise
            continue
        for node in _all_nodes(module):
            want, got = list(node.children), children_of(node)
            assert len(got) == len(want) and all(a is b for a, b in zip(got, want, strict=True)), (
                name,
                type(node).__name__,
            )
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("skip_functions", [False, True])
def test_descendants_meets_what_a_visitor_meets(skip_functions: bool) -> None:
    module = cst.parse_module(EVERY_KIND)
    met: list[cst.CSTNode] = []

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            met.append(node)
            return not (skip_functions and type(node) is cst.FunctionDef)

    module.visit(Visitor())
    enter = (lambda n: type(n) is not cst.FunctionDef) if skip_functions else None
    got = list(descendants(module, enter))
    assert len(got) == len(met) and all(a is b for a, b in zip(got, met, strict=True))


def test_simple_assigns_finds_what_a_full_descent_finds() -> None:
    """The plain assignments of a function, entering only what can hold statements, are
    those a descent into everything but expressions and nested functions finds, in order."""
    from apiscan.extract.interp.statements import _simple_assigns

    def everything(func: cst.FunctionDef) -> list[cst.Assign]:
        out: list[cst.Assign] = []

        def down(node: cst.CSTNode) -> None:
            for child in node.children:
                if type(child) is cst.Assign:
                    out.append(child)
                elif not isinstance(child, (cst.BaseExpression, cst.FunctionDef)):
                    down(child)

        down(func.body)
        return out

    functions = 0
    wrapped = ("every kind in a function", "def h():\n" + _indented(EVERY_KIND))
    for name, text in [*_sources(), wrapped]:
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        for node in _all_nodes(module):
            if type(node) is cst.FunctionDef:
                want, got = everything(node), _simple_assigns(node)
                assert len(got) == len(want) and all(
                    a is b for a, b in zip(got, want, strict=True)
                ), name
                functions += 1
    assert functions >= 100


def _indented(text: str) -> str:
    return "".join(f"    {line}\n" if line.strip() else "\n" for line in text.splitlines())
