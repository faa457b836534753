"""The screen that stands in for Python's compiler in a scan (``apiscan.parsing.COMPILER_TOKENS``):
every class of error the compiler reports after the parser accepted the code is still reported,
with the compiler's own message and place, and code without any of them is never compiled."""

from __future__ import annotations

import ast

import pytest

import apiscan.parsing
from apiscan.extract import _SCREENED, FileTask, analyse, parse_both, tree_facts
from apiscan.extract.positions import ast_nodes
from apiscan.model import FileError
from apiscan.parsing import SCREENED_BUDGET, parse_python

pytestmark = pytest.mark.skipif(
    not apiscan.extract.SCREEN_COMPILER, reason="the screen is written against Python 3.11"
)


def _nest(header: str, depth: int) -> str:
    lines = [" " * (4 * i) + header.format(i=i) for i in range(depth)]
    return "\n".join(lines) + "\n" + " " * (4 * depth) + "pass\n"


def _handlers(depth: int) -> str:
    out = ""
    for i in range(depth):
        pad = " " * (4 * i)
        out += f"{pad}try:\n{pad}    pass\n{pad}except E as e:\n"
    return out + " " * (4 * depth) + "pass\n"


#: (class of error, code the compiler refuses, code of the same shape it accepts): each class
#: the screen relies on, INVALID then VALID.
CASES = [
    ("return outside function", "return 1\n", "def f():\n    return 1\n"),
    (
        "return in a class body",
        "class A:\n    return 1\n",
        "class A:\n    def f(self):\n        return 1\n",
    ),
    (
        "return in a class in a def",
        "def f():\n    class A:\n        return 1\n",
        "def f():\n    class A:\n        pass\n    return A\n",
    ),
    ("break outside loop", "break\n", "while x:\n    break\n"),
    (
        "break in a loop's else",
        "for a in b:\n    pass\nelse:\n    break\n",
        "while c:\n    for a in b:\n        pass\n    else:\n        break\n",
    ),
    (
        "continue in a def in a loop",
        "for a in b:\n    def f():\n        continue\n",
        "for a in b:\n    def f():\n        for c in d:\n            continue\n",
    ),
    ("break in dead code", "if 0:\n    break\n", "while 1:\n    if 0:\n        break\n"),
    (
        "continue in a class in a loop",
        "for a in b:\n    class A:\n        continue\n",
        "for a in b:\n    try:\n        pass\n    finally:\n        continue\n",
    ),
    ("yield outside function", "x = yield 1\n", "def f():\n    x = yield 1\n"),
    (
        "yield in a comprehension",
        "def f():\n    return [(yield) for x in y]\n",
        "def f():\n    return [x for x in (yield)]\n",
    ),
    (
        "yield in a default",
        "def f(x=(yield)):\n    pass\n",
        "def g():\n    def f(x=(yield)):\n        pass\n",
    ),
    (
        "yield from in a coroutine",
        "async def f():\n    yield from x\n",
        "def f():\n    yield from x\n",
    ),
    ("await outside a coroutine", "def f():\n    await x\n", "async def f():\n    await x\n"),
    (
        "async for outside a coroutine",
        "def f():\n    async for a in b:\n        pass\n",
        "async def f():\n    async for a in b:\n        pass\n",
    ),
    (
        "async comprehension",
        "def f():\n    return [x async for x in y]\n",
        "async def f():\n    return [x async for x in y]\n",
    ),
    (
        "return value in an async generator",
        "async def f():\n    yield 1\n    return 2\n",
        "async def f():\n    yield 1\n    return\n",
    ),
    (
        "nonlocal at module level",
        "nonlocal x\n",
        "def f():\n    x = 1\n    def g():\n        nonlocal x\n",
    ),
    ("global parameter", "def f(x):\n    global x\n", "def f(y):\n    global x\n"),
    (
        "global after assignment",
        "def f():\n    x = 1\n    global x\n",
        "def f():\n    global x\n    x = 1\n",
    ),
    (
        "annotated global",
        "def f():\n    global x\n    x: int = 1\n",
        "def f():\n    global x\n    x = 1\n",
    ),
    ("duplicate parameter", "def f(a, *, a):\n    pass\n", "def f(a, *, b):\n    pass\n"),
    ("duplicate lambda parameter", "g = lambda a, /, a: 0\n", "g = lambda a, /, b: 0\n"),
    ("repeated keyword", "f(a=1, **k, a=2)\n", "f(a=1, **k, **j)\n"),
    ("repeated keyword in an f-string", "x = f'{g(a=1, a=2)}'\n", "x = f'{g(a=1, b=2)}'\n"),
    ("repeated class keyword", "class A(b=1, b=2):\n    pass\n", "class A(b=1, c=2):\n    pass\n"),
    ("starred value", "x = *a\n", "x = *a, b\n"),
    ("starred statement", "*a\n", "print(*a)\n"),
    ("starred return", "def f():\n    return *a\n", "def f():\n    return *a, b\n"),
    ("starred loop iterable", "for x in *a:\n    pass\n", "for x in *a, *b:\n    pass\n"),
    ("starred augmented value", "x += *a\n", "x += [*a]\n"),
    ("starred target alone", "*a = b\n", "*a, = b\n"),
    ("two starred targets", "a, [*b, *c] = d\n", "a, [*b, c] = d\n"),
    ("two starred loop targets", "[x for *a, *b in c]\n", "[x for a, *b in c]\n"),
    ("star-unpacking too long", "a, " * 300 + "*b = c\n", "*a, " + "b, " * 300 + "= c\n"),
    (
        "bare except not last",
        "try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass\n",
        "try:\n    pass\nexcept E:\n    pass\nexcept:\n    pass\n",
    ),
    (
        "return in except*",
        "def f():\n    try:\n        pass\n    except* E:\n        return\n",
        "def f():\n    try:\n        pass\n    except* E:\n        pass\n    return\n",
    ),
    ("import * in a def", "def f():\n    from m import *\n", "if x:\n    from m import *\n"),
    (
        "import * in a class",
        "class A:\n    from m import *\n",
        "try:\n    from m import *\nexcept ImportError:\n    pass\n",
    ),
    (
        "misplaced future import",
        "x = 1\nfrom __future__ import annotations\n",
        '"""doc"""\nfrom __future__ import annotations\n',
    ),
    (
        "unknown future feature",
        "from __future__ import nope\n",
        "from __future__ import division\n",
    ),
    (
        "yield in a postponed annotation",
        "from __future__ import annotations\ndef f(x: (yield)):\n    pass\n",
        "def g():\n    def f(x: (yield)):\n        pass\n",
    ),
    ("assignment to __debug__", "def f(__debug__):\n    pass\n", "x = __debug__\n"),
    ("walrus rebinding an iteration variable", "[i := 0 for i in x]\n", "[j := i for i in x]\n"),
    (
        "walrus in a class comprehension",
        "class A:\n    [(y := 1) for i in x]\n",
        "def f():\n    [(y := 1) for i in x]\n",
    ),
    (
        "match: unreachable pattern",
        "match x:\n    case a:\n        pass\n    case 1:\n        pass\n",
        "match x:\n    case 1:\n        pass\n    case a:\n        pass\n",
    ),
    (
        "match: name bound twice",
        "match x:\n    case (a, a):\n        pass\n",
        "match x:\n    case (a, b):\n        pass\n",
    ),
    ("too many nested loops", _nest("for x{i} in y:", 21), _nest("for x{i} in y:", 19)),
    ("too many nested withs", _nest("with a{i}, b{i}:", 11), _nest("with a{i}, b{i}:", 9)),
    ("too many nested handlers", _handlers(11), _handlers(9)),
]


def _message(source: str) -> str:
    try:
        compile(source, "m.py", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc.msg
    raise AssertionError("the compiler accepts it")


@pytest.mark.parametrize(("what", "invalid", "valid"), CASES, ids=[c[0] for c in CASES])
def test_the_compilers_errors_are_reported_as_without_the_screen(
    what: str, invalid: str, valid: str
) -> None:
    ast.parse(invalid)  # the parser accepts it: only the compiler refuses it
    error, module = parse_both(invalid, "m.py")
    assert module is None and isinstance(error, FileError)
    assert error.message == f"syntax error: {_message(invalid)}"
    assert error == parse_python(invalid, "m.py")  # the compiler's own place, too
    tree, module = parse_both(valid, "m.py")
    assert isinstance(tree, ast.Module) and not isinstance(module, FileError)
    compile(valid, "m.py", "exec", dont_inherit=True)
    _SCREENED.clear()


@pytest.mark.parametrize(
    "source",
    [
        "import torch\n\n\nclass Net(torch.nn.Module):\n"
        "    def forward(self, x, *args, **kwargs):\n"
        "        for i in range(3):\n"
        "            if i:\n                continue\n"
        "            try:\n                x = f(x, *args, dim=1, keepdim=True, **kwargs)\n"
        "            except ValueError:\n                break\n"
        "        a, b = x\n        return [y for y in a if y]\n",
        "from m import *\nx = lambda a, b=1, *c, d, **e: a\nprint(f'{x(1, d=2)!r:>{w}}')\n",
    ],
)
def test_plain_code_is_not_compiled(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def spy(*args: object, **kwargs: object) -> object:
        calls.append("compile")
        return compile(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(apiscan.parsing, "compile", spy, raising=False)
    tree, _module = parse_both(source, "m.py")
    assert isinstance(tree, ast.Module) and calls == []
    assert isinstance(parse_python(source, "m.py"), ast.Module) and calls == ["compile"]
    _SCREENED.clear()


@pytest.mark.parametrize("words", ["yield", "global", "__debug__"])
def test_code_that_may_be_refused_is_compiled(words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = {
        "yield": "def f():\n    yield 1\n",
        "global": "def f():\n    global g\n    g = 1\n",
        "__debug__": "x = __debug__\n",
    }[words]
    calls: list[str] = []

    def spy(*args: object, **kwargs: object) -> object:
        calls.append("compile")
        return compile(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(apiscan.parsing, "compile", spy, raising=False)
    tree, _module = parse_both(source, "m.py")
    assert isinstance(tree, ast.Module) and calls == ["compile"]


def test_the_screens_walks_are_the_facts_walks() -> None:
    source = "import torch\n\n\nclass A:\n    def f(self, x):\n        return torch.relu(x)\n"
    tree, _module = parse_both(source, "m.py")
    assert isinstance(tree, ast.Module) and _SCREENED and _SCREENED[0][0] is tree
    facts = tree_facts(tree, source, syntax=False, remember=False)
    assert not _SCREENED  # taken, the tree is not held
    assert facts.nodes == ast_nodes(tree)
    assert (facts.def_lines, facts.class_lines) == ([5], {"A": 4})


@pytest.mark.parametrize("depth", [3 * SCREENED_BUDGET - 3, 3 * SCREENED_BUDGET + 3, 996, 1003])
def test_the_depth_limit_is_the_compilers(depth: int) -> None:
    """Deeper than the compiler's limit, a file is refused as too deep with or without the
    screen; between the screened parse's limit and the compiler's, it is parsed again."""
    for source in ("x = " + "a + " * depth + "a\n", "x = " + "-" * depth + "a\n"):
        screened = parse_both(source, "m.py")[0]
        _SCREENED.clear()
        plain = parse_python(source, "m.py")
        assert isinstance(screened, ast.Module) == isinstance(plain, ast.Module)
        if isinstance(plain, FileError):
            assert screened == plain == apiscan.parsing.TOO_DEEP


def test_a_scan_reports_the_compilers_error() -> None:
    fa = analyse(
        FileTask("m.py", ("m",), False, b"import torch\n\nreturn torch.relu(x)\n"), frozenset()
    )
    assert [(e.code, e.message, e.span.line) for e in fa.errors] == [
        ("E003", "syntax error: 'return' outside function", 3)
    ]


@pytest.mark.parametrize("most", [1, 40, 100_001])
def test_the_node_count_is_ast_walks(most: int) -> None:
    """The count that decides whether a file is too big for LibCST: ast.walk's nodes (every
    context and operator node included) and constants, in its order, up to ``most``."""
    from apiscan.parsing import _count_nodes

    tree = ast.parse("import torch\nx = {'a': [1, 2.0, -3], **y}\nf(x, *z, k=x[1:2])\n" * 3)
    count = literals = 0
    for count, node in enumerate(ast.walk(tree), 1):
        literals += isinstance(node, ast.Constant)
        if count >= most:
            break
    assert _count_nodes(tree, most) == (count, literals)
