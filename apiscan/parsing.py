"""Stage 2: decoded source → (Python ``ast`` tree, LibCST module), or a precise error.

Python's own parser runs first. It is ten times cheaper than LibCST's, its syntax errors are
the ones users know (LibCST reports 1:1 for inconsistent tabs), and it refuses pathologically
deep code with a RecursionError where LibCST's native parser can crash the whole process
(a 20,000-term ``a + a + ...`` chain segfaults it). Its tree is reused for positions
(:mod:`apiscan.extract.positions`). LibCST then parses what Python accepted; the rare construct
its grammar lacks is reported as a syntax error naming LibCST.
"""

from __future__ import annotations

import ast
import gc
import queue
import re
import sys
import threading
import warnings
from collections import deque
from collections.abc import Callable
from typing import TypeVar

import libcst as cst

from apiscan.model import FileError, Span
from apiscan.precompiled import code_of

_PY2_HINTS = (
    re.compile(r"^\s*print\s+[^\s(=]"),
    re.compile(r"^\s*exec\s+[\"']"),
    re.compile(r"except\s+\w+(\.\w+)*\s*,\s*\w+\s*:"),
    re.compile(r"^\s*raise\s+\w+\s*,"),
    re.compile(r"\b0[0-7]+[lL]?\b|\b\d+[lL]\b|\bur[\"']"),
)

TOO_DEEP = FileError("E008", "too deeply nested to analyse (Python's parser refuses it)")


#: How deep ``ast`` may nest before we refuse a file. CPython bounds its AST by the *current*
#: recursion limit (times 3), which libraries raise at will (seen: 20,000-term chains passing
#: in a process that had imported such a library, then LibCST spinning on them), so the
#: limit is pinned while parsing. LibCST handles 4,000-term chains; real code nests < 100.
AST_RECURSION_BUDGET = 1000


def parse_python(
    text: str,
    relpath: str,
    checked: bool = True,
    screen: Callable[[ast.Module, str], bool] | None = None,
) -> ast.Module | FileError:
    """Python's own parse: the guard before LibCST, and the source of positions. ``checked``:
    also run the compiler's checks (off for text the scan has already accepted). ``screen``:
    with ``checked``, a cheap stand-in for the compiler (see :data:`COMPILER_TOKENS`):
    ``screen(tree, text)`` says whether the tree may hold an error only the compiler reports,
    and the compiler runs only then (for its exact message)."""
    if TRUST_PARSER:
        # A worker's collection before its LibCST parse (see _parse_trusted), made before
        # Python's: the file's fresh ast tree is then not traversed by it (on a 400k-line
        # corpus the collections took half as long as the whole compile check).
        gc.collect()
    limit = sys.getrecursionlimit()
    depth = _depth()
    screened = checked and screen is not None
    sys.setrecursionlimit(depth + (SCREENED_BUDGET if screened else AST_RECURSION_BUDGET))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences etc. are not our report
            try:
                tree = ast.parse(text, relpath)
            except RecursionError:
                if not screened:
                    raise
                # Deeper than the compiler may take (see SCREENED_BUDGET): the full check
                # decides, as without a screen.
                sys.setrecursionlimit(depth + AST_RECURSION_BUDGET)
                tree = ast.parse(text, relpath)
                screen = None
            # The compiler's own checks, which the parser leaves to it: ``return`` outside a
            # function, a duplicate argument, ``nonlocal`` at module level, ``break`` outside
            # a loop... (about a tenth of LibCST's parse, on the tree already built).
            if checked and (screen is None or screen(tree, text)):
                compile(tree, relpath, "exec", dont_inherit=True)
            return tree
    except SyntaxError as exc:
        return syntax_error(text, exc.msg, exc.lineno or 1, (exc.offset or 1) - 1)
    except (RecursionError, MemoryError):
        return TOO_DEEP
    except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
        return FileError("E003", f"syntax error: {exc}")
    finally:
        sys.setrecursionlimit(limit)


#: The recursion budget of Python's parse when a screen stands in for the compiler. The
#: compiler converts the tree back with one level of the *unscaled* recursion limit per
#: node, so with :data:`AST_RECURSION_BUDGET` it refuses a tree about 1,000 nodes deep (a
#: RecursionError: :data:`TOO_DEEP`), while the parse takes three times as deep. A third of
#: the budget, less a margin for the frames the compiler's call adds, makes the parse refuse
#: first; such a tree is parsed again with the full budget and compiled (the same answer as
#: without a screen).
SCREENED_BUDGET = (AST_RECURSION_BUDGET - 30) // 3

#: What a screen (:func:`parse_python`) reads in place of the compiler. Python's parser
#: accepts some code that its compiler (symbol table, code generation) refuses. Those errors
#: are found by two walks a worker makes anyway (the statement walk of
#: :func:`apiscan.extract._statement_lines`, the node walk of
#: :func:`apiscan.extract.positions.screened_nodes`), or need a word that a text without it
#: cannot hold. A screen says "maybe" (and the compiler runs, for its exact message) for:
#:
#: - these words in the text: ``__debug__`` (assigned, deleted, a parameter or keyword),
#:   ``__future__`` (misplaced or unknown features);
#: - statements: ``return`` outside a function, ``break``/``continue`` outside a loop (a
#:   loop's ``else``, a nested def or class), ``global``/``nonlocal`` (every symbol-table
#:   error about them), ``match`` (pattern errors), ``try``/``except*``, ``async``
#:   statements, a bare ``except:`` before another handler, ``from m import *`` in a def or
#:   class, a starred expression as a whole value (``x = *a``, ``return *a``,
#:   ``for x in *a``, ``*a`` alone), more nested blocks than the compiler's 20 (counted
#:   generously: a ``try`` as 3, a ``with`` as its items, a loop as 1), a class's keyword
#:   given twice;
#: - nodes: ``yield`` and ``await`` (outside a function, in a comprehension or an
#:   annotation, ``yield from`` in a coroutine, ``return`` with a value in an async
#:   generator), assignment expressions (in comprehensions, class bodies), asynchronous
#:   comprehensions, a starred assignment target (``*a = b``, two stars in one target, more
#:   than 255 names before a star), a keyword argument or a parameter name given twice.
#:
#: On 1,836 files (timm, detectron2, fairseq) the compiler then runs for 135 (a tenth of the
#: bytes; most hold ``yield`` or ``global``).
COMPILER_TOKENS = ("__debug__", "__future__")


def compiler_words(text: str) -> bool:
    """Whether ``text`` holds a word of :data:`COMPILER_TOKENS` (then only the compiler can
    tell whether it is used in a place the compiler refuses)."""
    return any(word in text for word in COMPILER_TOKENS)


def repeated_keyword(keywords: list[ast.keyword]) -> bool:
    """Whether a call's (or class's) keyword arguments name one parameter twice."""
    names = [k.arg for k in keywords if k.arg is not None]  # None: ``**kwargs``
    return len(set(names)) != len(names)


def repeated_parameter(args: ast.arguments) -> bool:
    """Whether a def's or lambda's parameters hold one name twice."""
    names = [a.arg for a in args.posonlyargs]
    names += [a.arg for a in args.args]
    names += [a.arg for a in args.kwonlyargs]
    if args.vararg is not None:
        names.append(args.vararg.arg)
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    return len(names) > 1 and len(set(names)) != len(names)


def _depth() -> int:
    """The current Python stack depth (cheap: walks frames, builds no FrameInfo)."""
    frame = sys._getframe()
    n = 0
    while frame is not None:
        n += 1
        frame = frame.f_back  # type: ignore[assignment]
    return n


#: LibCST's native parser recurses on the C stack once per operand of an operator chain: a
#: 20,000-term ``a and a and ...`` overflows a main thread's 8 MB and kills the process
#: (segfault), which a worker survives but ``check`` and the language server do not. On a
#: thread with this much (virtual, lazily committed) stack it parses the longest chain the
#: default size limit lets through (150,000 terms in 900 KB).
PARSER_STACK = 512 << 20
_STACK_LOCK = threading.Lock()
_T = TypeVar("_T")


def _big_stack_thread(target: Callable[[], None]) -> threading.Thread:
    """A started daemon thread running ``target`` with :data:`PARSER_STACK` bytes of stack."""
    with _STACK_LOCK:  # the stack size is process-wide: set it for this thread alone
        previous = threading.stack_size(PARSER_STACK)
        try:
            thread = threading.Thread(target=target, name="apiscan-parse", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    return thread


def on_big_stack(fn: Callable[[str], _T], text: str) -> _T:
    """``fn(text)`` on a thread with :data:`PARSER_STACK` bytes of stack (its exception is
    raised here). For every LibCST parse: of files, of edited statements, of fixes."""
    global _PARSE_THREAD
    if REUSE_THREAD:
        if _PARSE_THREAD is None:
            _PARSE_THREAD = _ParseThread()
        return _PARSE_THREAD.call(fn, text)
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = fn(text)
        except BaseException as exc:
            box["error"] = exc

    _big_stack_thread(run).join()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


#: Set in the scan's worker processes, which parse one file at a time and never fork: one
#: big-stack thread serves every parse (:class:`_ParseThread`) instead of a thread per file,
#: whose fresh 512 MB stack the parser's recursion faults in again each time (~8% of a parse).
REUSE_THREAD = False
_PARSE_THREAD: _ParseThread | None = None


class _ParseThread:
    """A long-lived thread with :data:`PARSER_STACK` bytes of stack running the calls handed
    to it one at a time (the caller waits for each)."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[tuple[Callable[[str], object], str]] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()
        _big_stack_thread(self._serve)

    def _serve(self) -> None:
        while True:
            fn, text = self._calls.get()
            try:
                self._results.put((True, fn(text)))
            except BaseException as exc:
                self._results.put((False, exc))

    def call(self, fn: Callable[[str], _T], text: str) -> _T:
        self._calls.put((fn, text))
        ok, value = self._results.get()
        if not ok:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]


def for_workers() -> None:
    """A scan worker's parsing: see :data:`TRUST_PARSER`, :data:`REUSE_THREAD` and
    :func:`fast_node_inits`."""
    global TRUST_PARSER, REUSE_THREAD
    TRUST_PARSER = REUSE_THREAD = True
    fast_node_inits()


def fast_node_inits() -> int:
    """Give LibCST's node classes the ``__init__`` of :func:`apiscan.slotinit.slot_init`,
    which stores each field through its slot instead of ``object.__setattr__(self, name,
    value)``: a node's construction (a tenth of a parse, the native parser calls it for
    every node) takes about 30% less. The number of classes changed; a class whose fields
    are not all slots keeps its ``__init__``. Idempotent."""
    count = 0
    for cls, init in node_inits():
        if cls.__dict__.get("__init__") is not init:
            cls.__init__ = init  # type: ignore[misc]
            count += 1
    return count


#: What :func:`node_inits` made, once per process.
_NODE_INITS: list[tuple[type, Callable[..., None]]] = []


def node_inits() -> list[tuple[type, Callable[..., None]]]:
    """Each LibCST node class that can take a slot-storing ``__init__``, with that
    ``__init__`` (made once: compiling them is ~15 ms). Nothing is installed here: the scan
    makes them before forking its workers, which then only install them
    (:func:`fast_node_inits`), while its own process keeps LibCST's classes as they were."""
    from apiscan.slotinit import slot_init

    if not _NODE_INITS:
        seen: set[type] = set()
        todo: list[type] = [cst.CSTNode]
        while todo:
            cls = todo.pop()
            for sub in cls.__subclasses__():
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
                    if "__init__" in sub.__dict__ and "__dataclass_fields__" in sub.__dict__:
                        init = slot_init(sub, _VALIDATE)
                        if init is not None:
                            _NODE_INITS.append((sub, init))
    return _NODE_INITS


def libcst_parse(text: str) -> cst.Module:
    """``cst.parse_module(text)`` on a big stack (see :data:`PARSER_STACK`)."""
    return on_big_stack(_parse_trusted if TRUST_PARSER else cst.parse_module, text)


#: Set in the scan's worker processes: the modules their parser builds skip LibCST's per-node
#: validation (``CSTNode.__post_init__``), which checks invariants the parser's own output
#: meets by construction (LibCST's source says as much) and costs about a tenth of a parse.
#: Nodes built by hand (fixes, rewrites) run in other processes and are still validated.
TRUST_PARSER = False


#: Whether the ``__init__`` of :func:`fast_node_inits` calls ``__post_init__`` (LibCST's
#: node validation): off while a worker's parser builds a module.
_VALIDATE = [True]


def _parse_trusted(text: str) -> cst.Module:
    """``cst.parse_module`` without node validation (see :data:`TRUST_PARSER`). A worker
    parses one file at a time and builds no other node while it waits for the parse. The
    node classes given a fast ``__init__`` skip the call of ``__post_init__`` (see
    :data:`_VALIDATE`); the others call a no-op in its place."""
    node = cst.CSTNode
    validate = node.__dict__["__post_init__"]
    node.__post_init__ = _unvalidated  # type: ignore[method-assign]
    _VALIDATE[0] = False
    # The module's nodes outside the garbage collector's generations: a tree built by the
    # parser holds no reference cycle, yet each node would be traversed by the collections
    # that its allocations trigger (4% of a worker's CPU). What the collector tracked before
    # (the cycles the last walk left among it) was collected by parse_python, which runs
    # first and in a worker makes no cycle, so that no garbage is frozen: a full collection,
    # cheap as everything older is already frozen (by the previous parse, or by the
    # worker's start). The parse runs with it off.
    gc.disable()
    shared = _shared_nodes()
    shared.swap_in()
    try:
        return cst.parse_module(text)
    finally:
        shared.swap_out()
        gc.freeze()
        gc.enable()
        _VALIDATE[0] = True
        node.__post_init__ = validate  # type: ignore[method-assign]


def _unvalidated(self: cst.CSTNode) -> None:
    """``CSTNode.__post_init__`` while a worker parses: no validation."""


#: Whitespace and token node classes (besides every class of LibCST's ``op`` module: commas,
#: dots, colons, operators) whose equal instances a worker's parser shares.
_SHARED_CLASSES = (
    "SimpleWhitespace",
    "Newline",
    "TrailingWhitespace",
    "EmptyLine",
    "LeftParen",
    "RightParen",
    "LeftSquareBracket",
    "RightSquareBracket",
    "LeftCurlyBrace",
    "RightCurlyBrace",
)
#: Shared instances kept at most (a file's distinct whitespace is a few hundred); above it
#: the next parse starts afresh.
SHARED_LIMIT = 20_000


class _SharedNodes:
    """Factories the native parser calls in place of the whitespace and token classes while
    a worker parses (it looks each class up in the ``libcst`` module for every node it
    builds): an instance equal to one built before is that one. Half of a parse's nodes are
    whitespace (``SimpleWhitespace("")`` around every comma, dot, bracket and operator), and
    a node is immutable, holds no position and is never keyed by identity in the walk (only
    names, attributes, calls, subscripts and operations are, none of them shared), so one
    instance serves every place: about 6% less CPU per parse, and smaller kept modules.

    A node is shared only when every field is a string (its value) or an object this table
    holds (a shared node, None, a sentinel, a boolean, the empty tuple): the key is then
    the fields' identities, which stay unique while the table holds them."""

    def __init__(self) -> None:
        import dataclasses

        from libcst._nodes import op

        self.held: dict[int, object] = {}
        #: the default nodes the factories pass (held again after a reset)
        self.defaults: list[object] = [None, True, False, (), cst.MaybeSentinel.DEFAULT]
        self.caches: list[dict[object, object]] = []
        classes = [getattr(cst, name) for name in _SHARED_CLASSES]
        classes += [
            c
            for c in vars(op).values()
            if isinstance(c, type)
            and c.__module__ == op.__name__
            and getattr(cst, c.__name__, None) is c
            and dataclasses.is_dataclass(c)
            and not getattr(c, "__abstractmethods__", None)
        ]
        self.factories: dict[str, object] = {}
        self.originals: dict[str, type] = {}
        for cls in dict.fromkeys(classes):
            factory = self._factory(cls, dataclasses)
            if factory is not None:
                self.factories[cls.__name__] = factory
                self.originals[cls.__name__] = cls
        self._hold_constants()

    def _hold_constants(self) -> None:
        for value in self.defaults:
            self.held[id(value)] = value

    def _factory(self, cls: type, dataclasses: object) -> object | None:
        """``cls``'s sharing factory (same parameters and defaults; a default node is built
        once), None when ``cls`` has a field that is not in its ``__init__`` or a default
        that is not a node."""
        fields = dataclasses.fields(cls)  # type: ignore[attr-defined]
        cache: dict[object, object] = {}
        scope: dict[str, object] = {"_cache": cache, "_cls": cls, "_held": self.held}
        params = []
        for i, f in enumerate(fields):
            if not f.init or f.kw_only:
                return None
            if f.default is not dataclasses.MISSING:  # type: ignore[attr-defined]
                scope[f"_d{i}"] = f.default
                params.append(f"{f.name}=_d{i}")
            elif f.default_factory is not dataclasses.MISSING:  # type: ignore[attr-defined]
                default = f.default_factory()
                if not isinstance(default, cst.CSTNode):  # a mutable default: not shared
                    return None
                self.defaults.append(default)  # immutable: one for every call
                self.held[id(default)] = default
                scope[f"_d{i}"] = default
                params.append(f"{f.name}=_d{i}")
            else:
                params.append(f.name)
        names = [f.name for f in fields]
        args = ", ".join(names)
        if names == ["value"]:  # whitespace, newlines: the string (or None) is the key
            body = (
                "    n = _cache.get(value)\n"
                "    if n is None:\n"
                "        n = _cache[value] = _cls(value)\n"
                "        _held[id(n)] = n\n"
                "    return n\n"
            )
        else:
            key = "(" + "".join(f"id({n}), " for n in names) + ")"
            held = " and ".join(f"id({n}) in _held" for n in names) or "True"
            body = (
                f"    key = {key}\n"
                "    n = _cache.get(key)\n"
                "    if n is None:\n"
                f"        n = _cls({args})\n"
                f"        if {held}:\n"
                "            _cache[key] = _held[id(n)] = n\n"
                "    return n\n"
            )
        source = f"def make({', '.join(params)}):\n{body}"
        exec(code_of(source), scope)  # generated from the class's own field names
        self.caches.append(cache)
        return scope["make"]

    def swap_in(self) -> None:
        if len(self.held) > SHARED_LIMIT:
            for cache in self.caches:
                cache.clear()
            self.held.clear()
            self._hold_constants()
        for name, factory in self.factories.items():
            setattr(cst, name, factory)

    def swap_out(self) -> None:
        for name, cls in self.originals.items():
            setattr(cst, name, cls)


_SHARED: list[_SharedNodes] = []


def prepare_shared_nodes() -> None:
    """Build the sharing factories (:class:`_SharedNodes`, ~4 ms: 58 compiled factories)
    before forking the workers, which then share them instead of each building them for its
    first parse. Nothing is installed: only a worker's parse swaps them in."""
    _shared_nodes()


def _shared_nodes() -> _SharedNodes:
    if not _SHARED:
        _SHARED.append(_SharedNodes())
    return _SHARED[0]


#: Above this many ``ast`` nodes a file is too big for LibCST (it would take half a minute and
#: gigabytes: the largest model file of timm, detectron2, fairseq and YOLOX has 26,000), and
#: it is analysed from Python's tree alone. So is a file of more than :data:`DATA_NODES` nodes
#: that are mostly literals: data more than code (a 900 KB list literal).
MAX_LIBCST_NODES = 100_000
DATA_NODES = 30_000
#: Files smaller than this are never counted (they cannot hold that many nodes).
_COUNT_FROM_BYTES = 100_000


def too_big_for_libcst(text: str, tree: ast.Module) -> FileError | None:
    """A reason not to hand ``text`` to LibCST (see :data:`MAX_LIBCST_NODES`), else None."""
    if len(text) < _COUNT_FROM_BYTES:
        return None
    count, literals = _count_nodes(tree, MAX_LIBCST_NODES + 1)
    if count > MAX_LIBCST_NODES or (count > DATA_NODES and 2 * literals > count):
        return FileError("E008", f"{count} syntax nodes, {literals} of them literals")
    return None


def _count_nodes(tree: ast.AST, most: int) -> tuple[int, int]:
    """The nodes ``ast.walk(tree)`` yields and the constants among them, in its order and
    stopping after ``most`` nodes: the same counts at a third of the cost (each node type's
    fields looked up once, no generator per node)."""
    node_type, constant = ast.AST, ast.Constant
    fields = _ALL_FIELDS
    todo = deque([tree])
    pop, push, extend = todo.popleft, todo.append, todo.extend
    count = literals = 0
    while todo:
        node = pop()
        if not isinstance(node, node_type):  # a list's None or name, never yielded
            continue
        count += 1
        if type(node) is constant:
            literals += 1
        if count >= most:
            break
        kind = type(node)
        names = fields.get(kind)
        if names is None:
            names = fields[kind] = kind._fields
        for name in names:
            child = getattr(node, name, None)
            if type(child) is list:
                extend(child)
            elif isinstance(child, node_type):
                push(child)
    return count, literals


#: Node type -> its fields (see :func:`_count_nodes`).
_ALL_FIELDS: dict[type, tuple[str, ...]] = {}


def parse_module(text: str, relpath: str) -> cst.Module | FileError:
    """LibCST's parse of a file Python accepted. Where LibCST's grammar is stricter than
    Python's tokenizer (see :func:`normalise_for_libcst`), the normalised text is parsed
    instead: same lines, so positions stay exact (columns shift only on lines whose
    indentation held a form feed, and the positions come from Python's tree anyway)."""
    try:
        return libcst_parse(text)
    except cst.ParserSyntaxError as exc:
        normalised = normalise_for_libcst(text)
        if normalised != text:
            try:
                return libcst_parse(normalised)
            except (cst.ParserSyntaxError, RecursionError):
                pass
        return syntax_error(
            text,
            f"LibCST cannot parse this file although Python can: {exc.message}",
            exc.raw_line,
            exc.raw_column,
        )
    except RecursionError:
        return TOO_DEEP


#: Indentation up to and including its last form feed: Python's tokenizer resets the column
#: at a form feed, so what precedes it does not count; LibCST counts it and then finds "no
#: matching outer block for dedent".
_FORM_FEED_INDENT = re.compile(r"^[ \t\f]*\f", re.MULTILINE)
#: A line continuation right before the end of the file: CPython 3.11 accepts a backslash
#: followed by CRLF there, LibCST rejects it.
_TRAILING_CONTINUATION = re.compile(r"\\(\r\n|\r|\n)?\Z")


#: A logical line that starts with a backslash continuation right after its indentation
#: (``    \`` then the statement on the next line): Python takes the indentation from the
#: first physical line, LibCST expects the statement there ("expected INDENT").
_INDENT_CONTINUATION = re.compile(r"^([ \t]*)\\(\r\n|\r|\n)[ \t]*", re.MULTILINE)


def normalise_for_libcst(text: str) -> str:
    """``text`` with what Python ignores but LibCST rejects removed, line count unchanged:
    form feeds (and the whitespace before them) in indentation, a backslash continuation
    right after indentation (the first line becomes blank and the statement takes its
    indentation), and a trailing backslash continuation at the end of the file."""
    if "\f" in text:
        text = _FORM_FEED_INDENT.sub("", text)
    for _ in range(3):  # continuation lines may chain
        joined = _INDENT_CONTINUATION.sub(r"\1\2\1", text)
        if joined == text:
            break
        text = joined
    return _TRAILING_CONTINUATION.sub(lambda m: m.group(1) or "", text)


#: Syntax new in Python 3.12 (PEP 695 type parameters and aliases, PEP 701 f-strings), which
#: Python 3.11's parser reports as plain syntax errors.
_PY312_HINTS = (
    re.compile(r"^\s*type\s+\w+\s*(\[[^\]]*\]\s*)?="),
    re.compile(r"^\s*(async\s+)?def\s+\w+\s*\["),
    re.compile(r"^\s*class\s+\w+\s*\["),
)
_PY312_HINT = " (this looks like Python 3.12+ syntax; apiscan reads code as Python 3.11 does)"


def syntax_error(text: str, message: str, line: int, col: int) -> FileError:
    # Lines as Python counts them: \n, \r\n and \r only (str.splitlines also splits at form
    # feeds and other separators, which old code uses as page breaks).
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if any(p.search(source_line) for p in _PY2_HINTS):
        message += " (this looks like Python 2 code; port it to Python 3 first)"
    elif any(p.search(source_line) for p in _PY312_HINTS) or (
        message.startswith("f-string") and _nested_quotes(source_line)
    ):
        message += _PY312_HINT
    return FileError("E003", f"syntax error: {message}", Span(line, col + 1, line, col + 1))


def _nested_quotes(line: str) -> bool:
    """Whether an f-string on ``line`` reuses its own quote inside a replacement field
    (``f"{d["k"]}"``), which only Python 3.12 accepts."""
    for match in re.finditer(r"""[fF][rR]?(["'])""", line):
        quote = match.group(1)
        field = line[match.end() :].split("{", 1)
        if len(field) == 2 and quote in field[1].split("}", 1)[0]:
            return True
    return False
