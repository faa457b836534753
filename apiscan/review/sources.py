"""The repository's files as the review reads them.

Most sections read the facts the scan's workers recorded from each file's syntax
(:func:`with_facts`: imports, packages used, ``self.x`` assignments and calls, model-zoo
constructors, host round trips, the spans and kinds of defs, threaded pipelines, registries,
lazy-config augmentations, cuDNN switches, flips written as indexing, weight-initialisation
routines; :mod:`apiscan.extract.syntax`), and the recipe reads the value records the workers
wrote (:mod:`apiscan.extract.values`). The top-model builder still parses the files again with
``ast`` (:class:`Sources`), for the constructions it follows through builder functions and
registries. Only the files the scan analysed without error are read, once. Notebooks are read
as the scan reads them: their code cells joined, positions mapped back to cells.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from apiscan.extract.records import FileAnalysis
from apiscan.extract.syntax import (
    TEXT_LIMIT,
    SyntaxFacts,
    callee_name,
    def_names,
    dotted_name,
    import_table,
    node_text,
)
from apiscan.model import ApiFinding, FileError, Span
from apiscan.notebook import is_notebook, notebook_source
from apiscan.parsing import parse_python
from apiscan.review.model import Where
from apiscan.scope.classify import is_test_path
from apiscan.source import DecodedSource, decode_source, read_source_file

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


class Source:
    """One parsed file and the indexes every question about it needs."""

    def __init__(
        self,
        path: str,
        modules: tuple[str, ...],
        text: str,
        tree: ast.Module,
        cells: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.path = path
        self.modules = modules
        #: a notebook's (cell, line in cell) per line of its joined code; () for a module
        self.cells = cells
        self._joined = {place: n for n, place in enumerate(cells, 1)}
        self.lines = text.split("\n")
        self.tree = tree
        #: the node kinds the detectors look at, gathered in the one walk over the tree
        self.calls: list[ast.Call] = []
        self.loops: list[ast.For | ast.AsyncFor] = []
        self.assigns: list[ast.Assign] = []
        self.subscripts: list[ast.Subscript] = []
        #: import statements, breadth first (``ast.walk``'s order)
        self.imports_made: list[ast.Import | ast.ImportFrom] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                self.calls.append(node)
            elif isinstance(node, ast.For | ast.AsyncFor):
                self.loops.append(node)
            elif isinstance(node, ast.Assign):
                self.assigns.append(node)
            elif isinstance(node, ast.Subscript):
                self.subscripts.append(node)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                self.imports_made.append(node)
        self.calls_at: dict[tuple[int, int], ast.Call] = {}
        self.calls_on: dict[int, list[ast.Call]] = {}
        for call in self.calls:
            if call.end_lineno is not None and call.end_col_offset is not None:
                end = self.char_col(call.end_lineno, call.end_col_offset) + 1
                self.calls_at[call.end_lineno, end] = call
            self.calls_on.setdefault(call.lineno, []).append(call)
        #: module-relative qualname of every def and class, and the reverse
        self.qualname, self.defs = def_names(tree)
        self.imports = import_table(self.imports_made)

    @functools.cached_property
    def parent(self) -> dict[ast.AST, ast.AST]:
        """Each node's parent, built on first use: most files are never asked."""
        parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                parent[child] = node
        return parent

    @property
    def module(self) -> str:
        return self.modules[0] if self.modules else ""

    def from_module(self, node: ast.ImportFrom) -> str:
        """The absolute module ``from X import ...`` names in this file, ``X`` relative
        (``from ..ops import``, ``from . import``) or not."""
        if not node.level:
            return node.module or ""
        base = self.module.split(".")
        package = base if self.path.endswith("__init__.py") else base[:-1]
        parts = package[: len(package) - (node.level - 1)]
        return ".".join([*parts, node.module] if node.module else parts)

    def char_col(self, lineno: int, byte_col: int) -> int:
        """``ast`` counts UTF-8 bytes; the scan (and readers) count characters."""
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def text(self, node: ast.AST, limit: int | None = TEXT_LIMIT) -> str:
        """The node's source on one line (whitespace runs collapsed), cut at ``limit``."""
        return node_text(self.lines, node, limit)

    def call_for(self, finding: ApiFinding) -> ast.Call | None:
        """The call a finding points at: its span ends where the call ends (a method call's
        span starts at the method name, a plain call's at the callee)."""
        span: Span = finding.span
        end_line = self.joined_line(span.end_line, finding.cell)
        found = self.calls_at.get((end_line, span.end_column))
        if found is not None:
            return found
        last = finding.api.rpartition(".")[2]
        for call in self.calls_on.get(self.joined_line(span.line, finding.cell), ()):
            if callee_name(call) == last:
                return call
        return None

    def enclosing(self, node: ast.AST, kinds: type | tuple[type, ...]) -> ast.AST | None:
        current = self.parent.get(node)
        while current is not None and not isinstance(current, kinds):
            current = self.parent.get(current)
        return current

    def function_of(self, node: ast.AST) -> FuncDef | None:
        fn = self.enclosing(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        return fn if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else None

    def class_of(self, fn: ast.AST | None) -> ast.ClassDef | None:
        """The class ``fn`` is a method of (directly in its body)."""
        owner = self.parent.get(fn) if fn is not None else None
        return owner if isinstance(owner, ast.ClassDef) else None

    def dotted(self, expr: ast.AST) -> str | None:
        """``T.RandomCrop`` → ``torchvision.transforms.RandomCrop`` through the file's imports."""
        return dotted_name(self.imports, expr)

    def where(self, node: ast.AST) -> Where:
        """The node's place as a reader finds it (a notebook's cell and line in the cell)."""
        line = getattr(node, "lineno", 1)
        if self.cells and 0 < line <= len(self.cells):
            cell, in_cell = self.cells[line - 1]
            return Where(self.path, in_cell, cell)
        return Where(self.path, line)

    def loc(self, node: ast.AST) -> str:
        return str(self.where(node))

    def joined_line(self, line: int, cell: int = 0) -> int:
        """A finding's line (in its cell, for a notebook) as a line of the parsed text."""
        return self._joined.get((cell, line), line) if cell else line


class Sources:
    """The files the scan analysed without error, each read and parsed on first use, once."""

    def __init__(self, root: Path, analyses: Sequence[FileAnalysis]) -> None:
        self.root = root
        self.modules = {fa.path: fa.modules for fa in analyses if not fa.errors}
        self._cache: dict[str, Source | None] = {}

    def get(self, path: str) -> Source | None:
        if path not in self._cache:
            self._cache[path] = self._load(path) if path in self.modules else None
        return self._cache[path]

    def all(self, tests: bool = False) -> Iterator[Source]:
        """Every readable file in path order; test files only when ``tests``."""
        for path in sorted(self.modules):
            if tests or not is_test_path(path):
                src = self.get(path)
                if src is not None:
                    yield src

    def _load(self, path: str) -> Source | None:
        try:
            data = read_source_file(str(self.root / path))
        except OSError:
            return None
        cells: tuple[tuple[int, int], ...] = ()
        if is_notebook(path):
            notebook = notebook_source(data)
            if isinstance(notebook, FileError):
                return None
            text, cells = notebook.text, notebook.lines
        else:
            decoded = decode_source(data)
            if not isinstance(decoded, DecodedSource):
                return None  # the scan already reports why this file could not be read
            text = decoded.text
        # The scan's own guarded parse (recursion limit pinned, MemoryError caught), without
        # the compiler's checks: the scan accepted this text already.
        tree = parse_python(text, path, checked=False)
        if not isinstance(tree, ast.Module):
            return None
        return Source(path, self.modules[path], text, tree, cells)


def place(fa: FileAnalysis, line: int) -> Where:
    """A line of the text the scan parsed (a notebook's joined code) as a reader finds it:
    ``nb.ipynb:cell 3:12`` in a notebook, the line itself in a module."""
    if fa.cells and 0 < line <= len(fa.cells):
        cell, in_cell = fa.cells[line - 1]
        return Where(fa.path, in_cell, cell)
    return Where(fa.path, line)


def with_facts(
    analyses: Iterable[FileAnalysis], tests: bool = False
) -> Iterator[tuple[FileAnalysis, SyntaxFacts]]:
    """The files the scan analysed without error, in path order, with the facts its worker
    read from their syntax (test files only when ``tests``): what the review reads instead of
    parsing a file again."""
    for fa in sorted(analyses, key=lambda a: a.path):
        if fa.errors or fa.syntax is None or (not tests and is_test_path(fa.path)):
            continue
        yield fa, fa.syntax
