"""The argument texts a call's record carries (:func:`apiscan.extract.call_texts`)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from apiscan.extract import _simple_code, call_texts

REPO = Path(__file__).resolve().parents[2]


def test_names_and_literals_read_from_their_fields_match_the_generated_code() -> None:
    """The renderer of names, numbers, strings, calls, subscripts and operations gives
    LibCST's own code for every node it answers, and leaves what holds a comment or a line
    break (and the kinds it does not know) to the code generator."""
    answered = 0
    for path in sorted((REPO / "fixtures").rglob("*.py")):
        try:
            module = cst.parse_module(path.read_bytes())
        except (cst.ParserSyntaxError, UnicodeDecodeError):  # fixtures of bad input
            continue
        for node in _nodes(module):
            code = _simple_code(node)
            if code is not None:
                answered += 1
                assert code == module.code_for_node(node).strip(), path
    assert answered > 1000
    for source in (
        *("(a).b", "a . b", "a.\\\n b", "(x)", "(1)", "a.b"),
        *("f(a, *b, **c)", "f( a ,b= 1, )", "f(b = 1)", "(f)(x)(y)[0]", "x [1, 2] ", "x[a:b]"),
        *("x[*a]", "- 1", "-(1.5)", "not x", "~ x", "a .b( c )", "a+b * ( c-d )", "f(a # c\n)"),
        *("f(\n a)", "x[\n 0]", "a if b else c", "[a, b]", "f(a)(b)", "1j * 2", "'s' 't'"),
        *("a < b <= c", "a not in b", "a is not b", "a and b or c", "[1, 2,]", "(1,)", "( 1 , )"),
        *("()", "[]", "(a, b)", "[*a]", "x, y", "[ a ,b ]", "(a,b)", "[[1], (2, 3)]"),
    ):
        expr = cst.parse_expression(source)
        code = _simple_code(expr)
        assert code is None or code == cst.Module([]).code_for_node(expr), source
    # the common forms are rendered from their fields, without the code generation
    for source in ("f(a, b=-1)[0]", "x.view(-1, n * 2)", "torch.ones( (3), dim = 0 )"):
        assert _simple_code(cst.parse_expression(source)) == source


def test_call_texts_of_a_call_spread_over_lines() -> None:
    module = cst.parse_module('y = self.norm.forward(x, """a\n  b""", k=(1), m=torch.nn)\n')
    call = module.body[0].body[0].value  # type: ignore[attr-defined]
    args = call_texts(module, call)
    assert args.receiver == "self.norm"
    assert args.positional == ("x", '"""a b"""')
    assert args.keywords == (("k", "(1)"), ("m", "torch.nn"))


def _nodes(module: cst.Module) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out
